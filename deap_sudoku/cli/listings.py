"""The listing commands, ``algorithms`` and ``samples``: each imports what it lists when it runs."""

from __future__ import annotations

import click

from .errors import plural


@click.command(name="algorithms")
def algorithms_command() -> None:
    """List the algorithms -a takes, bundled and plug-ins, with their kinds and budgets.

    Each line: its name, kind, the budgets it honours, and where it comes from.  Your own need no
    listing: -a module:attribute."""
    from ..runs import registry
    from .options import flag

    records = [*registry.ALGORITHMS.values(), *registry.plugins().values()]
    width = max(len(r.name) for r in records)
    for record in records:
        budgets = ", ".join(flag(b) for b in registry.budgets(record)) or "none (runs to the end)"
        click.echo(
            f"{record.name:<{width}}  {record.kind:<12}  budgets: {budgets};  {record.source}: {record.description}"
        )
    for name, why in registry.plugin_errors().items():
        click.echo(f"plug-in {name} not loaded: {why}", err=True)


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
