"""The ``deap-sudoku`` command line.

Commands: ``solve``, ``check``, ``generate``, ``convert`` and ``bench``.  Data goes to standard
output, messages to standard error.  Exit codes: 0 success, 1 a puzzle not solved (or not
uniquely solvable, for ``check``), 2 bad input or usage (always before any work), 130
interrupted by Ctrl-C, 143 by SIGTERM.
"""

from __future__ import annotations

import contextlib
import errno
import io
import itertools
import os
import random
import signal
import sys
import time
from collections.abc import Callable
from typing import IO

import click

from ..exact import (
    DIFFICULTIES,
    GenerationBudgetExceeded,
    SearchBudgetExceeded,
    count_solutions,
    dig_puzzle,
    generate_graded,
    random_solution,
    reachable,
)
from ..grid import Puzzle, PuzzleError, Shape
from ..io import formats
from ..io.samples import load_samples, sample_names
from ..runs import registry
from ..runs.interrupt import exit_code, graceful
from .bench import bench_command
from .errors import InputError, StandardOutputError, plural
from .inputs import BUNDLED, PUZZLE_FILE, PUZZLE_FILE_HELP, PuzzleInput, input_options, parse_box, reading
from ..propagation.choice import NumbaUnavailable
from .options import SEED, Number, count, flag, memory_limits
from .outputs import StandardOutput, check_format, check_outputs, write_puzzles, writing
from .progress import Progress
from .solve import solve

GRADED_ATTEMPTS = 10_000
"""Attempts per puzzle of ``generate --difficulty``; attempt ``a`` of puzzle ``i`` is seeded with
``(seed + i) * GRADED_ATTEMPTS + a``, so any puzzle can be remade alone."""


class _Guarded(click.Group):
    """The command line's outer guard, for every command.

    SIGINT and SIGTERM end a command with exit 130 or 143 and one line: not click's "Aborted!"
    and exit 1, nor death by SIGTERM.  (solve and bench first stop their runs cleanly and write
    their outputs, then exit the same way.)  A closed standard output, or one that fails (a
    closed pipe, a full device), ends it with exit 2 and one line, never a traceback.
    """

    def invoke(self, ctx: click.Context):
        sys.stderr = _Messages(sys.stderr)
        if sys.stdout is None:
            click.echo("error: standard output is closed; give the command somewhere to write", err=True)
            ctx.exit(2)
        sys.stdout = StandardOutput.around(sys.stdout)
        previous = {
            signal.SIGINT: signal.signal(signal.SIGINT, signal.default_int_handler),
            signal.SIGTERM: signal.signal(signal.SIGTERM, _terminated),
        }  # the launcher's until now
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()
            return result
        except KeyboardInterrupt as exc:
            signum = getattr(exc, "signum", signal.SIGINT)
            click.echo(f"interrupted by {signal.Signals(signum).name}", err=True)
            ctx.exit(exit_code(signum))
        except StandardOutputError as exc:
            _silence_stdout()
            click.echo(f"error: cannot write to standard output: {exc.strerror}", err=True)
            ctx.exit(2)
        except OSError as exc:  # a file the command did not name itself: one line, never a traceback
            if exc.errno not in _ENVIRONMENT_ERRORS:
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"error: {where}{exc.strerror}", err=True)
            ctx.exit(2)
        except (MemoryError, NumbaUnavailable) as exc:  # under ulimit -v, say: what it is, what to do
            what = "out of memory" if isinstance(exc, MemoryError) else str(exc)
            click.echo(
                f"error: {what} ({memory_limits()}); give the process more memory (loading numba's "
                "kernels takes about 400 MiB of address space) or the run less (a smaller population)",
                err=True,
            )
            ctx.exit(1)
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)


class _Messages(io.TextIOBase):
    """Standard error for messages only: when it is closed or fails (``2>&-``, a full disk, a gone
    terminal), the messages are dropped and the work and its files go on; only the terminal's copy
    of the messages is lost."""

    def __init__(self, stream) -> None:
        self.stream: IO | None = stream.stream if isinstance(stream, _Messages) else stream

    def write(self, text: str) -> int:
        if self.stream is not None:
            try:
                self.stream.write(text)
            except (OSError, ValueError):
                self.stream = None
        return len(text)

    def flush(self) -> None:
        if self.stream is not None:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.stream = None

    def isatty(self) -> bool:
        try:
            return self.stream is not None and self.stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self.stream is None:
            raise OSError(errno.EBADF, "standard error is closed")
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]  # TextIOBase declares it a plain attribute
        return getattr(self.stream, "encoding", None) or "utf-8"


_ENVIRONMENT_ERRORS = {
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EFBIG,
    errno.EIO,
    errno.EROFS,
    errno.EACCES,
    errno.EPERM,
    errno.ENAMETOOLONG,
    errno.ENOENT,
    errno.EEXIST,
    errno.EPIPE,
    errno.EBADF,
}
"""What a failing machine raises (a full disk, a file-size limit, a read-only or vanished folder)."""


class _Terminated(KeyboardInterrupt):
    signum = signal.SIGTERM


def _terminated(signum: int, frame) -> None:
    raise _Terminated


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that Python's own flush at exit finds nothing to fail on."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@click.group(cls=_Guarded, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="deap_sudoku")
def main() -> None:
    """Sudoku with DEAP: solve, check, generate, convert and benchmark puzzles."""


main.add_command(solve)
main.add_command(bench_command)


@main.command(name="algorithms")
def algorithms_command() -> None:
    """List the algorithms -a takes: the bundled ones and installed plug-ins, each with its kind, the
    budgets it honours and where it comes from.  Your own need no listing: -a module:attribute."""
    records = [*registry.ALGORITHMS.values(), *registry.plugins().values()]
    width = max(len(r.name) for r in records)
    for record in records:
        budgets = ", ".join(flag(b) for b in registry.budgets(record)) or "none (runs to the end)"
        click.echo(
            f"{record.name:<{width}}  {record.kind:<12}  budgets: {budgets};  {record.source}: {record.description}"
        )
    for name, why in registry.plugin_errors().items():
        click.echo(f"plug-in {name} not loaded: {why}", err=True)


@main.command()
def samples() -> None:
    """List the puzzle files bundled with the package, one per line: its name as every command reads
    it from any folder (data/NAME), how many puzzles it holds and their sizes."""
    names = sample_names()
    width = max(len(BUNDLED + name) for name in names)
    for name in names:
        puzzles = load_samples(name)
        sizes = ", ".join(dict.fromkeys(puzzle.shape.name for puzzle in puzzles))
        click.echo(f"{BUNDLED + name:<{width}}  {plural(len(puzzles), 'puzzle'):>10}  {sizes}")


@main.command(epilog=PUZZLE_FILE_HELP)
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
    with reading(puzzle_file):
        text, source = formats.read_text(puzzle_file)
        items = formats.iter_scan(text, format=fmt, box=parse_box(box), alphabet=alphabet, source=source)
        worst, valid, errors = 0, 0, 0
        for item in items:  # in file order, one at a time: a file of millions of puzzles is never a list
            if isinstance(item, PuzzleError):
                click.echo(f"bad: {item}")
                worst, errors = 2, errors + 1
                continue
            line, puzzle = item
            valid += 1
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


@main.command(epilog=PUZZLE_FILE_HELP)
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
    check_outputs({"OUT": out}, force, inputs=(source_file,))
    puzzles = PuzzleInput(source_file, fmt, box, alphabet)
    for example in puzzles.examples.values():
        check_format("--to", to_format, to_alphabet, example)
    write_puzzles(out, puzzles, to_format, to_alphabet, force)


DEFAULT_GIVENS = "45%"
"""``generate``'s givens when neither --givens nor --difficulty is given: a 9x9 keeps 36 cells, an
easy newspaper puzzle; made unique, a 25x25 takes about 20 s (fewer givens take longer)."""


@main.command()
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

    deap-sudoku generate --box 6x6 --any --givens 40%,45%,50%,55% --count 25 --out 'sets/inst36x36_{share}.txt'
    """
    if givens_text is not None and difficulty is not None:
        raise click.UsageError("give one of --givens and --difficulty, not both")
    if givens_text is None and difficulty is None:
        givens_text = DEFAULT_GIVENS
    try:
        shape = Shape(*(parse_box(box) or (3, 3)))  # --box has a default
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if difficulty is not None:
        if not unique:
            raise click.UsageError("--any does not apply to --difficulty: a graded puzzle has one solution")
        if not reachable(shape, difficulty):
            raise click.UsageError(
                f"--difficulty {difficulty}: no {shape.name} puzzle is {difficulty}; every one "
                "with a unique solution falls to naked singles, so all are easy"
            )
        targets = [("", 0)]
    else:
        targets = _givens_targets(givens_text or DEFAULT_GIVENS, shape)
    path_of = _output_paths(out, targets, count, force)
    check_format("--format", fmt, alphabet, Puzzle([0] * shape.cells, box=shape))
    if difficulty is not None and not quiet:
        click.echo(
            f"making {plural(count, f'{difficulty} {shape.name} puzzle')}, up to {max_seconds:g} s each", err=True
        )
    total = count * len(targets)
    one_per_file = "{index}" in out
    writers: dict[str, formats.PuzzleWriter] = {}  # open files, written as the puzzles are made
    try:
        with Progress(total, f"making {plural(total, 'puzzle')}", "puzzles", quiet=quiet) as bar:
            for i in range(count):
                try:
                    if difficulty is not None:
                        attempts = (
                            random.Random((seed + i) * GRADED_ATTEMPTS + attempt) for attempt in range(GRADED_ATTEMPTS)
                        )
                        puzzles = [generate_graded(shape, difficulty, attempts, max_seconds=max_seconds)]
                    else:
                        puzzles = _dig(shape, targets, random.Random(seed + i), unique, max_seconds)
                except GenerationBudgetExceeded as exc:
                    advice = "a larger --max-seconds" + (" or another difficulty" if difficulty else "")
                    click.echo(f"puzzle {i + 1}: {exc}; try {advice}", err=True)
                    if i:
                        _close(writers)
                        click.echo(f"wrote the {plural(i, 'puzzle')} made before it", err=True)
                    sys.exit(1)
                for (label, _), puzzle in zip(targets, puzzles):
                    path = path_of(label, i)
                    if path not in writers:
                        writers[path] = _writer(path, fmt, alphabet, force)
                    with writing(path):  # a full disk is blamed on the file, not on standard output
                        writers[path].write(puzzle)
                    if one_per_file:
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
