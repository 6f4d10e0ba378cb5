"""The listing commands, ``algorithms`` and ``samples``: each imports what it lists when it runs."""

from __future__ import annotations

import click

from .errors import KEEP, plural, width, wrap


@click.command(name="algorithms")
def algorithms_command() -> None:
    """List the algorithms -a takes, bundled and plug-ins, with their kinds and budgets.

    Each starts a line with its name and kind, then says what it is, where it comes from and the
    budgets it honours, wrapped to the terminal's width.  Your own need no listing: -a module:attribute."""
    from ..runs import registry
    from .options import flag

    records = [*registry.ALGORITHMS.values(), *registry.plugins().values()]
    column = max(len(r.name) for r in records) + 2 + KIND_WIDTH + 2
    columns = width()
    indent = " " * (column if columns - column >= MIN_TEXT else 4)  # a narrow terminal keeps room for the text
    for record in records:
        budgets = ", ".join(flag(b) for b in registry.budgets(record)) or "none, runs to the end"
        head = f"{record.name:<{column - KIND_WIDTH - 2}}{record.kind:<{KIND_WIDTH}}  ".replace(" ", KEEP)
        click.echo(wrap(f"{head}{record.description} ({record.source}; budgets: {budgets})", indent, columns))
    for name, why in registry.plugin_errors().items():
        click.echo(wrap(f"plug-in {name} not loaded: {why}"), err=True)


KIND_WIDTH = 12
"""The kind's column in ``algorithms`` (``local search``)."""

MIN_TEXT = 36
"""The least room ``algorithms`` leaves beside the name and kind for the text; on a narrower
terminal the text's further lines are indented by 4 only."""


@click.command()
def samples() -> None:
    """List the puzzle files bundled with the package, which every command reads as data/NAME.

    One per line: its name as every command reads it from any folder, how many puzzles it holds and
    their sizes."""
    from ..io.samples import load_samples, sample_names
    from .inputs import BUNDLED

    names = sample_names()
    width = max(len(BUNDLED + name) for name in names)
    for name in names:
        puzzles = load_samples(name)
        sizes = ", ".join(dict.fromkeys(puzzle.shape.name for puzzle in puzzles))
        click.echo(f"{BUNDLED + name:<{width}}  {plural(len(puzzles), 'puzzle'):>10}  {sizes}")
