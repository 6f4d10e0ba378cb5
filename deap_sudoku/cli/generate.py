"""``deap-sudoku generate``: random puzzles, by givens or by difficulty, each within a time budget,
written as they are made (a Ctrl-C keeps those made, each file whole)."""

import itertools
import os
import random
import sys
import time
from collections.abc import Callable

import click

from ..runs import seeding
from ..exact import (
    DIFFICULTIES,
    GenerationBudgetExceeded,
    dig_puzzle,
    generate_graded,
    random_solution,
    reachable,
)
from ..grid import Puzzle, Shape
from ..io import formats
from ..runs.interrupt import graceful
from .errors import InputError, plural
from .inputs import parse_box
from .numbers import SEED, Number, count
from .outputs import check_format, check_outputs, writing
from .progress import Progress, searched

__all__ = ["generate"]

GRADED_ATTEMPTS = 10_000
"""Attempts per puzzle of ``generate --difficulty``; attempt ``a`` of puzzle ``i`` is seeded with
``(seed + i) * GRADED_ATTEMPTS + a``, so any puzzle can be remade alone."""
DEFAULT_GIVENS = "45%"
"""``generate``'s givens when neither --givens nor --difficulty is given: a 9x9 keeps 36 cells, an
easy newspaper puzzle; made unique, a 25x25 takes about 20 s (fewer givens take longer)."""


@click.command()
@click.option("--box", default="3x3", show_default=True, metavar="ROWSxCOLS", help="Box shape.")
@click.option(
    "--givens",
    "givens_text",
    default=None,
    metavar="N|P%[,...]",
    help="Givens per puzzle: a number of cells or a share such as 45%; several, comma-separated, "
    "make one instance set per value from the same grids (a unique puzzle may keep more).  "
    f"Without --givens and --difficulty: {DEFAULT_GIVENS}.",
)
@click.option(
    "--difficulty",
    type=click.Choice(DIFFICULTIES),
    default=None,
    help="Keep making puzzles until one grades as this (see deap_sudoku.exact.grade).",
)
@click.option(
    "--count",
    type=count(1),
    default=1,
    show_default=True,
    help="How many puzzles to make (per --givens value).",
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Puzzle i is made with seed SEED+i, so any one can be remade alone.",
)
@click.option(
    "--unique/--any",
    default=True,
    show_default=True,
    help="Keep the solution unique, or just empty cells at random (--givens only; Lloyd & Amos's "
    "instances are made this way).",
)
@click.option(
    "--max-seconds",
    type=Number(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="Time allowed per puzzle (drawing its solved grid, emptying its cells, and for --difficulty "
    "its attempts); past it the command stops with exit code 1, keeping the puzzles made before.",
)
@click.option(
    "--format", "fmt", type=click.Choice(formats.FORMATS), default="line", show_default=True, help="Output format."
)
@click.option(
    "--alphabet",
    type=click.Choice(tuple(formats.ALPHABETS)),
    default=None,
    help="Symbols of the line and dash formats.",
)
@click.option(
    "--out",
    default="-",
    show_default=True,
    metavar="PATH",
    help="Where to write the puzzles ('-': standard output).  {share} in PATH (the --givens value "
    "without %) makes one file per --givens value, {index} (0, 1, ...) one file per puzzle, e.g. "
    "'sets/inst36x36_{share}_{index}.txt'.",
)
@click.option("--force", is_flag=True, help="Overwrite --out if it exists.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def generate(
    box: str,
    givens_text: str | None,
    difficulty: str | None,
    count: int,
    seed: int,
    unique: bool,
    max_seconds: float,
    fmt: str,
    alphabet: str | None,
    out: str,
    force: bool,
    quiet: bool,
) -> None:
    """Make reproducible puzzles by emptying cells of random solved grids.

    Each solved grid is drawn by randomised exact search of the empty grid (seeded), so every
    grid of the shape can come out.  With several --givens values, puzzle i of every value
    comes from the same grid and the same random order of cells, so the sets are nested: the
    phase-transition sets of Lloyd & Amos for any box shape, e.g.

    \b
    deap-sudoku generate --box 6x6 --any --givens 40%,45%,50%,55% --count 25 \\
        --out 'sets/inst36x36_{share}.txt'
    """
    shape, targets = _checked_targets(box, givens_text, difficulty, unique)
    path_of = _output_paths(out, targets, count, force)
    check_format("--format", fmt, alphabet, Puzzle([0] * shape.cells, box=shape))
    searched(shape)  # the exact search draws the grids: its kernels compiled in the background, or its twin said
    if difficulty is not None and not quiet:
        click.echo(
            f"making {plural(count, f'{difficulty} {shape.name} puzzle')}, up to {max_seconds:g} s each", err=True
        )

    def made(i: int) -> list[Puzzle]:
        """Puzzle ``i`` of every --givens value (one graded puzzle with --difficulty)."""
        if difficulty is None:
            return _dig(shape, targets, seeding.generator(seed + i), unique, max_seconds)
        attempts = (seeding.generator((seed + i) * GRADED_ATTEMPTS + attempt) for attempt in range(GRADED_ATTEMPTS))
        return [generate_graded(shape, difficulty, attempts, max_seconds=max_seconds)]

    advice = "a larger --max-seconds" + (" or another difficulty" if difficulty else "")
    _write_as_made(made, count, [label for label, _ in targets], path_of, fmt, alphabet, force, quiet, advice)


def _checked_targets(box: str, givens_text: str | None, difficulty: str | None, unique: bool) -> tuple[Shape, list]:
    """The box shape and the ``(label, givens)`` targets asked for (one, of 0 givens, with
    --difficulty), or a usage error before any work."""
    if givens_text is not None and difficulty is not None:
        raise click.UsageError("give one of --givens and --difficulty, not both")
    try:
        shape = Shape(*(parse_box(box) or (3, 3)))  # --box has a default
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if difficulty is None:
        return shape, _givens_targets(givens_text or DEFAULT_GIVENS, shape)
    if not unique:
        raise click.UsageError("--any does not apply to --difficulty: a graded puzzle has one solution")
    if not reachable(shape, difficulty):
        raise click.UsageError(
            f"--difficulty {difficulty}: no {shape.name} puzzle is {difficulty}; every one "
            "with a unique solution falls to naked singles, so all are easy"
        )
    return shape, [("", 0)]


def _write_as_made(
    made: Callable[[int], list[Puzzle]],
    count: int,
    labels: list[str],
    path_of: Callable[[str, int], str],
    fmt: str,
    alphabet: str | None,
    force: bool,
    quiet: bool,
    advice: str,
) -> None:
    """Make puzzles ``0 .. count - 1`` (one per label each) and write each as it is made: a Ctrl-C
    keeps those made, each file whole, no old file replaced; a puzzle out of time ends the command
    with exit code 1 after writing those made before it."""
    total = count * len(labels)
    writers: dict[str, formats.PuzzleWriter] = {}  # open files, written as the puzzles are made
    try:
        with Progress(total, f"making {plural(total, 'puzzle')}", "puzzles", quiet=quiet) as bar:
            for i in range(count):
                try:
                    puzzles = made(i)
                except GenerationBudgetExceeded as exc:
                    bar.echo(f"puzzle {i + 1}: {exc}; try {advice}", err=True)
                    if i:
                        _close(writers)
                        bar.echo(f"wrote the {plural(i, 'puzzle')} made before it", err=True)
                    sys.exit(1)
                for label, puzzle in zip(labels, puzzles):
                    path = path_of(label, i)
                    if path not in writers:
                        writers[path] = _writer(path, fmt, alphabet, force)
                    with writing(path):  # a full disk is blamed on the file, not on standard output
                        writers[path].write(puzzle)
                    if path_of(label, i + 1) != path:  # one file per puzzle ({index}): done with it
                        _close({path: writers.pop(path)})
                    bar.advance()
    except KeyboardInterrupt:
        _close(writers, interrupted=True)  # the puzzles made so far, each file whole, no old file replaced
        raise
    except BaseException:
        for writer in writers.values():
            writer.discard()
        raise
    _close(writers)


def _dig(shape: Shape, targets: list, rng: random.Random, unique: bool, max_seconds: float) -> list[Puzzle]:
    """A puzzle per --givens target, all of one random solved grid with the same cells in the same
    order emptied (nested sets), within ``max_seconds`` in all.

    :raises GenerationBudgetExceeded: saying how far it got, when the time runs out."""
    deadline = time.perf_counter() + max_seconds
    try:
        solution = random_solution(shape, rng, deadline=deadline)
        order = rng.getstate()
        puzzles = []
        for _, givens in targets:
            rng.setstate(order)  # the same cells in the same order for every share: nested sets
            puzzles.append(dig_puzzle(solution, givens, rng, unique=unique, deadline=deadline))
    except GenerationBudgetExceeded as exc:
        raise GenerationBudgetExceeded(f"{exc} (within {max_seconds:g} s)") from None
    return puzzles


def _writer(path: str, fmt: str, alphabet: str | None, force: bool) -> formats.PuzzleWriter:
    with writing(path):
        return formats.PuzzleWriter(path, format=fmt, alphabet=alphabet, overwrite=force)


def _close(writers: dict[str, formats.PuzzleWriter], *, interrupted: bool = False) -> None:
    """Close every writer, signals held: a Ctrl-C now cannot cut a file short.  ``interrupted``: a
    file that would replace an existing one (``--force``) is written beside it instead, as
    ``PATH.partial``, and the message says so: an interrupted run never replaces a file with a part."""
    with graceful(hold=True):
        try:
            for path, writer in list(writers.items()):
                with writing(path):  # another writer got there first, or the disk filled: one line naming it
                    if interrupted and path != "-" and os.path.exists(path):
                        beside = _unused(path + ".partial")
                        writer.close(to=beside)
                        click.echo(
                            f"{path} is left as it was; the {plural(writer.count, 'puzzle')} made before "
                            f"the interrupt are in {beside}",
                            err=True,
                        )
                    else:
                        writer.close()
                del writers[path]
        except BaseException:
            for writer in writers.values():  # the others leave no temporary file behind
                writer.discard()
            writers.clear()
            raise


def _unused(path: str) -> str:
    """``path``, or ``path.1``, ``path.2``, ... : the first name no file has."""
    candidate, number = path, 0
    while os.path.lexists(candidate):
        number += 1
        candidate = f"{path}.{number}"
    return candidate


def _givens_targets(text: str, shape: Shape) -> list[tuple[str, int]]:
    """``--givens`` as (label, number of givens) pairs: ``583`` or ``45%`` (of the cells), comma-separated."""
    targets = []
    for part in text.split(","):
        part = part.strip()
        try:
            if part.endswith("%"):
                share = float(part[:-1])
                if not 0 <= share <= 100:
                    raise ValueError
                targets.append((f"{share:g}", round(share / 100 * shape.cells)))
            else:
                targets.append((part, int(part)))
        except ValueError:
            raise click.BadParameter(
                f"{part!r} is neither a number of cells nor a share from 0% to 100%", param_hint="--givens"
            ) from None
        if not 0 <= targets[-1][1] <= shape.cells:
            raise click.BadParameter(f"{part}: a {shape.name} grid has {shape.cells} cells", param_hint="--givens")
    if len({label for label, _ in targets}) < len(targets):
        raise click.BadParameter(f"{text!r} names a value twice", param_hint="--givens")
    return targets


def _output_paths(out: str, targets: list[tuple[str, int]], count: int, force: bool) -> Callable[[str, int], str]:
    """The file of every (givens label, puzzle index): ``--out`` with ``{share}`` and ``{index}`` filled
    in; each is checked here, before any work, a batch at a time (never a list of ``--count`` names)."""
    if out == "-" and len(targets) > 1:
        raise click.UsageError("several --givens values make several sets; name their files with {share} in --out")
    if out != "-" and len(targets) > 1 and "{share}" not in out:
        raise click.UsageError(f"--out {out}: several --givens values make several sets; put {{share}} in it")

    def path_of(label: str, index: int) -> str:
        return out if out == "-" else out.format(share=label, index=index)

    try:
        path_of(targets[0][0], 0)
    except (KeyError, IndexError, ValueError) as exc:
        raise click.UsageError(f"--out {out}: only {{share}} and {{index}} can be filled in ({exc})") from None
    indices = range(count) if "{index}" in out else range(1)
    names = ((label, i) for i in indices for label, _ in targets)
    while batch := list(itertools.islice(names, 10_000)):
        paths = {path_of(label, i) for label, i in batch}
        check_outputs([("--out", path) for path in sorted(paths)], force)
    return path_of
