"""The commands that read a puzzle file and write no run: ``check`` and ``convert``."""

from __future__ import annotations

import sys

import click

from ..grid import PuzzleError
from ..io import formats
from .errors import InputError, plural
from .inputs import PUZZLE_FILE, as_given, PUZZLE_FILE_HELP, PuzzleInput, input_options, parse_box, reading
from .numbers import Number, count


@click.command(epilog=PUZZLE_FILE_HELP)
@click.argument("puzzle_file", metavar="FILE|-", type=PUZZLE_FILE)
@input_options
@click.option(
    "--max-nodes",
    type=count(1),
    default=200_000,
    show_default=True,
    help="Search budget per puzzle for counting solutions.",
)
@click.option(
    "--max-seconds",
    type=Number(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="Time allowed per puzzle for counting solutions; past it the puzzle is undecided.",
)
def check(
    puzzle_file: str, fmt: str | None, box: str | None, alphabet: str | None, max_nodes: int, max_seconds: float
) -> None:
    """Validate every puzzle in FILE: givens, conflicts, solvability and uniqueness.

    Exit code 0 when every puzzle is valid with exactly one solution, 1 when one
    has none, several or is undecided, 2 when one cannot be read or has
    conflicting givens.
    """
    from ..exact import SearchBudgetExceeded, count_solutions  # here: convert needs no search
    from .progress import searched

    with reading(puzzle_file):
        text, source = formats.read_text(puzzle_file)
        source = as_given(source)  # data/NAME as given, not the bundled copy's path on disk
        items = formats.iter_scan(text, format=fmt, box=parse_box(box), alphabet=alphabet, source=source)
        worst, valid, errors = 0, 0, 0
        for item in items:  # in file order, one at a time: a file of millions of puzzles is never a list
            if isinstance(item, PuzzleError):
                click.echo(f"bad: {item}")
                worst, errors = 2, errors + 1
                continue
            line, puzzle = item
            valid += 1
            searched(puzzle.shape)  # the search's kernels: compiled in the background, or their twins said
            try:
                count = count_solutions(puzzle, limit=2, max_nodes=max_nodes, max_seconds=max_seconds)
                verdict = {0: "no solution", 1: "unique solution"}.get(count, "2 or more solutions")
            except SearchBudgetExceeded as exc:  # what it found: the budget that ran out, and how far it got
                count, verdict = -1, f"undecided: {exc}"
            click.echo(
                f"{source}:{line}: puzzle {valid}, {puzzle.shape.name}, {plural(puzzle.num_givens, 'given')} "
                f"({100 * puzzle.num_givens / puzzle.shape.cells:.0f} %), {verdict}"
            )
            if count != 1:
                worst = max(worst, 1)
    if not valid and not errors:
        raise InputError(f"{source}: no puzzle found (the input is empty)")
    click.echo(f"{plural(valid, 'valid puzzle')}, {plural(errors, 'error')}")
    sys.exit(worst)


@click.command(epilog=PUZZLE_FILE_HELP)
@click.argument("source_file", metavar="FILE|-", type=PUZZLE_FILE)
@click.argument("out", metavar="OUT|-")
@click.option("--to", "to_format", type=click.Choice(formats.FORMATS), required=True, help="Output format.")
@input_options
@click.option(
    "--to-alphabet",
    type=click.Choice(tuple(formats.ALPHABETS)),
    default=None,
    help="Symbols of the line and dash output formats.",
)
@click.option("--force", is_flag=True, help="Overwrite OUT if it exists.")
def convert(
    source_file: str,
    out: str,
    to_format: str,
    fmt: str | None,
    box: str | None,
    alphabet: str | None,
    to_alphabet: str | None,
    force: bool,
) -> None:
    """Convert every puzzle of FILE to another format."""
    from .outputs import check_format, check_outputs, write_puzzles  # here: check writes no file

    check_outputs({"OUT": out}, force, inputs=(source_file,))
    puzzles = PuzzleInput(source_file, fmt, box, alphabet)
    for example in puzzles.examples.values():
        check_format("--to", to_format, to_alphabet, example)
    write_puzzles(out, puzzles, to_format, to_alphabet, force)
