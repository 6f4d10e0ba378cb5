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
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import IO

import click

from ..exact import (
    SearchBudgetExceeded,
    count_solutions,
)
from ..grid import PuzzleError
from ..io import formats
from ..io.samples import load_samples, sample_names
from ..runs import registry
from ..runs.interrupt import exit_code
from .bench import bench_command
from .generate import generate
from .help import MAX_WIDTH, Listing
from .errors import InputError, StandardOutputError, plural
from .inputs import BUNDLED, PUZZLE_FILE, PUZZLE_FILE_HELP, PuzzleInput, input_options, parse_box, reading
from ..propagation.choice import NumbaUnavailable
from .options import Number, count, flag, memory_limits
from .outputs import StandardOutput, check_format, check_outputs, write_puzzles
from .progress import searched
from .solve import solve


class _Guarded(Listing):
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
        unraisable, sys.unraisablehook = sys.unraisablehook, redelivering(sys.unraisablehook)
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
            sys.unraisablehook = unraisable
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


REDELIVERY_SECONDS = 0.01
"""How long after Python dropped a stop signal's exception it is delivered again."""


def redelivering(hook: Callable) -> Callable:
    """A ``sys.unraisablehook`` that delivers again the SIGINT or SIGTERM whose ``KeyboardInterrupt``
    Python could only print and drop: one raised while a C library called back into Python
    (llvmlite's object cache, as numba compiles or loads kernels; 2 in 50 Ctrl-Cs of ``bench``).  It
    comes again :data:`REDELIVERY_SECONDS` later, from another thread, once the callback has
    returned, and stops the command as any Ctrl-C does.  Anything else goes to ``hook``."""

    def redeliver(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            hook(unraisable)
            return
        signum = getattr(unraisable.exc_value, "signum", signal.SIGINT)
        timer = threading.Timer(REDELIVERY_SECONDS, os.kill, (os.getpid(), signum))
        timer.daemon = True
        timer.start()

    return redeliver


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that Python's own flush at exit finds nothing to fail on."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@click.group(cls=_Guarded, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": MAX_WIDTH})
@click.version_option(package_name="deap_sudoku")
def main() -> None:
    """Sudoku with DEAP: solve, check, generate, convert and benchmark puzzles."""


main.add_command(solve)
main.add_command(bench_command)
main.add_command(generate)


@main.command(name="algorithms")
def algorithms_command() -> None:
    """List the algorithms -a takes, bundled and plug-ins, with their kinds and budgets.

    Each line: its name, kind, the budgets it honours, and where it comes from.  Your own need no
    listing: -a module:attribute."""
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
    """List the puzzle files bundled with the package, which every command reads as data/NAME.

    One per line: its name as every command reads it from any folder, how many puzzles it holds and
    their sizes."""
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
