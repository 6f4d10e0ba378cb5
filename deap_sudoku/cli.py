"""The ``deap-sudoku`` command line.

Exit codes: 0 every puzzle solved, 1 some puzzle not solved, 2 bad input or usage.
"""

from __future__ import annotations

import sys
import time

import click

from . import formats
from .errors import PuzzleError
from .generate import DIFFICULTIES, generate_graded, generate_puzzle
from .puzzle import Puzzle
from .shape import Shape
from .solvers import SearchBudgetExceeded, propagate, solve as solve_exact

ALGORITHMS = ("backtracking", "propagation")


def _box(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        rows, cols = (int(part) for part in value.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not ROWSxCOLS, e.g. 2x3") from None
    return rows, cols


class _InputError(click.ClickException):
    """Bad input: a one-line message and exit code 2, never a traceback."""

    exit_code = 2


def _load(path: str, fmt: str | None, box: str | None, alphabet: str | None) -> list[Puzzle]:
    try:
        puzzles = formats.read(path, format=fmt, box=_box(box), alphabet=alphabet)
    except PuzzleError as exc:
        raise _InputError(str(exc)) from None
    except OSError as exc:
        raise _InputError(f"{path}: {exc.strerror or exc}") from None
    if not puzzles:
        raise _InputError(f"{path}: no puzzle found")
    return puzzles


def _write(out: str, puzzles: list[Puzzle], fmt: str, alphabet: str | None, force: bool) -> None:
    try:
        formats.write(out, puzzles, format=fmt, alphabet=alphabet, overwrite=force)
    except FileExistsError as exc:
        raise _InputError(f"{exc}; use --force to replace it") from None
    except (ValueError, OSError) as exc:
        raise _InputError(f"{out}: {exc}") from None


@click.group()
@click.version_option(package_name="deap_sudoku")
def main() -> None:
    """Sudoku with DEAP: solve, check, generate and benchmark puzzles."""


@main.command()
@click.argument("puzzle_file", metavar="FILE|-")
@click.option("--algorithm", "-a", type=click.Choice(ALGORITHMS), default="backtracking",
              show_default=True, help="How to solve.")
@click.option("--format", "fmt", type=click.Choice(formats.FORMATS), default=None,
              help="Input format (detected when not given).")
@click.option("--box", default=None, metavar="ROWSxCOLS", help="Box shape, e.g. 2x3 (default: squarest).")
@click.option("--alphabet", type=click.Choice(tuple(formats.ALPHABETS)), default=None,
              help="Symbols of the line and dash formats.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the randomised restarts.")
@click.option("--max-nodes", type=click.IntRange(min=1), default=None,
              help="Search budget per puzzle (backtracking).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="Also write the solutions to this file.")
@click.option("--out-format", type=click.Choice(formats.FORMATS), default="line", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite --out if it exists.")
def solve(puzzle_file: str, algorithm: str, fmt: str | None, box: str | None, alphabet: str | None,
          seed: int, max_nodes: int | None, out: str | None, out_format: str, force: bool) -> None:
    """Solve every puzzle in FILE (or standard input) and print the grids."""
    puzzles = _load(puzzle_file, fmt, box, alphabet)
    results: list[Puzzle] = []
    unsolved = 0
    for number, puzzle in enumerate(puzzles, start=1):
        start = time.perf_counter()
        grid, status = _solve_one(puzzle, algorithm, seed, max_nodes)
        seconds = time.perf_counter() - start
        if len(puzzles) > 1:
            click.echo(f"puzzle {number} ({puzzle.shape.name}, {puzzle.num_givens} givens):")
        click.echo(str(grid))
        click.echo(f"{status} in {seconds:.3f} s")
        if status != "solved":
            unsolved += 1
        results.append(grid)
    if out is not None:
        _write(out, results, out_format, alphabet, force)
    sys.exit(1 if unsolved else 0)


@main.command()
@click.option("--box", default="3x3", show_default=True, metavar="ROWSxCOLS", help="Box shape.")
@click.option("--givens", type=click.IntRange(min=0), default=None,
              help="Target number of givens (a unique puzzle may keep more).")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), default=None,
              help="Keep making puzzles until one grades as this (see deap_sudoku.generate.grade).")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True,
              help="Puzzle i is made with seed SEED+i, so any one can be remade alone.")
@click.option("--unique/--any", default=True, show_default=True,
              help="Keep the solution unique, or just empty cells.")
@click.option("--format", "fmt", type=click.Choice(formats.FORMATS), default="line", show_default=True)
@click.option("--alphabet", type=click.Choice(tuple(formats.ALPHABETS)), default=None)
@click.option("--out", type=click.Path(dir_okay=False), default="-", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite --out if it exists.")
def generate(box: str, givens: int | None, difficulty: str | None, count: int, seed: int, unique: bool, fmt: str,
             alphabet: str | None, out: str, force: bool) -> None:
    """Make reproducible puzzles by emptying cells of random solved grids."""
    if (givens is None) == (difficulty is None):
        raise _InputError("give exactly one of --givens and --difficulty")
    try:
        shape = Shape(*_box(box))
    except ValueError as exc:
        raise _InputError(str(exc)) from None
    if difficulty is not None:
        puzzles = [generate_graded(shape, difficulty, seed=seed + i) for i in range(count)]
    else:
        puzzles = [generate_puzzle(shape, givens, seed=seed + i, unique=unique) for i in range(count)]
    _write(out, puzzles, fmt, alphabet, force)


def _solve_one(puzzle: Puzzle, algorithm: str, seed: int, max_nodes: int | None) -> tuple[Puzzle, str]:
    if algorithm == "propagation":
        result = propagate(puzzle)
        if result.contradiction:
            return puzzle, "no solution: propagation found a contradiction"
        grid = puzzle.filled(result.values)
        return grid, "solved" if result.solved else f"not solved: propagation filled {result.filled} cells"
    try:
        solution = solve_exact(puzzle, max_nodes=max_nodes, seed=seed)
    except SearchBudgetExceeded as exc:
        return puzzle, f"not solved: {exc}"
    if solution is None:
        return puzzle, "no solution: the search exhausted every possibility"
    return solution, "solved"


if __name__ == "__main__":  # pragma: no cover
    main()
