"""What the example scripts share, the way the ``deap-sudoku`` commands do: the click options (puzzle
file, seed, population, checkpoints), printing progress and the result, and clean stops on Ctrl-C.

Each script in ``examples/`` keeps its own composition (the ``toolbox.register``
lines, statistics and the loop call) in its ``main``; only this front end is shared.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click
import numpy as np

from ..exact import verify
from ..grid import Puzzle, PuzzleError, format_grid
from ..io import load_sample, load_samples, read
from ..algorithms.run import ResumeError
from ..runs.checkpoint import run_identity
from ..runs.interrupt import INTERRUPTED, exit_code, graceful, requested
from .errors import InputError
from .inputs import bundled_or
from .numbers import SEED, count
from .outputs import check_outputs, open_checkpoint

__all__ = [
    "example_help",
    "example_options",
    "checkpoint_options",
    "load_puzzle",
    "load_puzzles",
    "print_generation",
    "print_result",
    "run_example",
]


def example_help(doc: str) -> str:
    """An example's ``--help`` text: its docstring (what it reproduces, as documented, and its switches)
    without the indented usage lines, which click would run together, and without reST's double backticks."""
    lines = (line for line in doc.strip().splitlines() if not line.startswith("    python "))
    return "\n".join(lines).replace("``", "")


def example_options(*, population: int | None = 200) -> Callable:
    """The options every example has: ``[PUZZLE_FILE]``, ``--seed`` and (for a GA) ``--population``."""

    def decorate(command: Callable) -> Callable:
        if population is not None:
            command = click.option(
                "--population",
                type=count(2),
                default=population,
                show_default=True,
                help="Population size.",
            )(command)
        command = click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the run.")(command)
        return click.argument("puzzle_file", required=False, metavar="[PUZZLE_FILE]")(command)

    return decorate


def checkpoint_options(command: Callable) -> Callable:
    """``--checkpoint FILE`` and ``--checkpoint-every G`` for the GA examples."""
    command = click.option(
        "--checkpoint-every",
        type=count(1),
        default=10,
        show_default=True,
        help="Generations between checkpoints.",
    )(command)
    return click.option(
        "--checkpoint",
        type=click.Path(dir_okay=False),
        default=None,
        help="Save the run to this file, and resume from it if it exists (checksummed "
        "data, checked field by field before it is used).",
    )(command)


def load_puzzle(path: str | None, default: str = "9x9-easy.txt") -> Puzzle:
    """The first puzzle of ``path``, or of the bundled sample ``default`` when no path is given."""
    try:
        return read(bundled_or(path))[0] if path else load_sample(default)
    except (PuzzleError, OSError, IndexError) as exc:
        raise click.ClickException(f"{path}: {exc}") from None


def load_puzzles(path: str | None, default: str) -> list[Puzzle]:
    """Every puzzle of ``path``, or of the bundled sample ``default`` when no path is given."""
    try:
        return read(path) if path else load_samples(default)
    except (PuzzleError, OSError) as exc:
        raise click.ClickException(f"{path}: {exc}") from None


def print_generation(generation: int, population: list, logbook) -> None:
    """A loop callback that prints the logbook's newest line, as DEAP's ``verbose=True`` does."""
    click.echo(logbook.stream)


def print_result(puzzle: Puzzle, best: np.ndarray) -> bool:
    """Print the best grid and its fitness; return whether it solves the puzzle."""
    solved = verify(best, puzzle)
    click.echo(format_grid(puzzle.shape, np.asarray(best)))
    held = getattr(best, "fitness", None)  # an individual's; a plain array has none
    fitness = held.values[0] if held is not None and held.valid else None
    click.echo(
        ("solved" if solved else "no solution found; best grid above")
        + (f", fitness {fitness:g}" if fitness is not None else "")
    )
    return solved


def run_example(
    main: Callable,
    puzzle: Puzzle,
    *,
    algorithm: str | None = None,
    checkpoint: str | None = None,
    checkpoint_every: int = 10,
    **options,
) -> None:
    """Run an example's ``main(puzzle, **options)`` and print how it stopped and its best grid.

    With ``checkpoint`` (GA examples: ``algorithm`` names the run in the
    checkpoint's identity) the run saves itself and resumes from the file.
    Ctrl-C or SIGTERM stops at the next generation, prints the best grid,
    writes the final checkpoint and exits with 130 or 143.
    """
    if checkpoint:
        check_outputs({"--checkpoint": checkpoint}, False, resumable=("--checkpoint",))
        options["checkpoint"] = open_checkpoint(
            checkpoint,
            checkpoint_every,
            run_identity(puzzle, algorithm or main.__module__, options.get("seed", 0), options),
            puzzle,
        )
    with graceful():
        try:
            _, logbook, hof = main(puzzle, requested=requested, **options)
        except ResumeError as exc:
            raise InputError(f"{checkpoint}: {exc}") from None
        signum = requested()
    restarts = logbook[-1].get("restarts", 0) if len(logbook) else 0
    click.echo(f"stopped: {logbook.stop_reason}" + (f" after {restarts} restarts" if restarts else ""))
    print_result(puzzle, hof[0])
    if logbook.stop_reason == INTERRUPTED:
        sys.exit(exit_code(signum))
