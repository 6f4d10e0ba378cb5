"""The ``deap-sudoku`` command line.

Commands: ``solve``, ``check``, ``generate``, ``convert`` and ``bench``.  Data goes to standard
output, messages to standard error.  Exit codes: 0 success, 1 a puzzle not solved (or not
uniquely solvable, for ``check``), 2 bad input or usage (always before any work), 130
interrupted by Ctrl-C, 143 by SIGTERM.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, MutableMapping
from typing import IO

import click

from .errors import StandardOutputError, wrap
from .help import MAX_WIDTH, Listing
from .stdout import StandardOutput


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
        except click.ClickException as exc:  # a usage error or bad input: said wrapped to the width
            _wrapped(exc)
            raise
        except KeyboardInterrupt as exc:
            signum = getattr(exc, "signum", signal.SIGINT)
            click.echo(f"interrupted by {signal.Signals(signum).name}", err=True)
            ctx.exit(128 + signum)  # the shell's code, as runs.interrupt.exit_code gives it
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
        except Exception as exc:  # under ulimit -v, say: what it is, what to do
            if not _out_of_memory(exc):
                raise
            what = "out of memory" if isinstance(exc, MemoryError) else str(exc)
            click.echo(
                f"error: {what} ({_memory_limits()}); give the process more memory (loading numba's "
                "kernels takes about 400 MiB of address space) or the run less (a smaller population)",
                err=True,
            )
            ctx.exit(1)
        finally:
            sys.unraisablehook = unraisable
            for signum, handler in previous.items():
                signal.signal(signum, handler)


class _Commands(MutableMapping[str, click.Command]):
    """A group's commands by name, as click keeps them, each imported when it is first looked up
    (``get``, ``[name]``, ``items()``): its name is known without its module."""

    def __init__(self, loaders: dict[str, Callable[[], click.Command]]) -> None:
        self._loaders = dict(loaders)
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            self._loaded[name] = self._loaders[name]()
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command
        self._loaders.setdefault(name, lambda: command)

    def __delitem__(self, name: str) -> None:
        del self._loaders[name]
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaders)

    def __len__(self) -> int:
        return len(self._loaders)


def _out_of_memory(exc: Exception) -> bool:
    """Whether ``exc`` says the process ran out of memory: a :class:`MemoryError`, or numba's kernels
    unable to load (:class:`~deap_sudoku.propagation.choice.NumbaUnavailable`, which only a command
    that imported that module can raise: it is not imported here for every command)."""
    choice = sys.modules.get("deap_sudoku.propagation.choice")
    return isinstance(exc, MemoryError) or (choice is not None and isinstance(exc, choice.NumbaUnavailable))


def _memory_limits() -> str:
    from .options import memory_limits

    return memory_limits()


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


def _wrapped(exc: click.ClickException) -> None:
    """Have ``exc``'s message (click's or the package's) wrapped to the terminal's width where click
    shows it after ``Error: ``, as the other messages are (issue 63: a refusal listing the
    algorithms an option applies to took 146 columns).  A word wider than the line is never cut,
    and a located message (``FILE:LINE:COL: ...``, as compilers write them for editors) stays whole."""
    message = exc.format_message
    prefix = "Error: "  # what click's show() writes before it

    def wrapped() -> str:
        text = message()
        if LOCATED.match(text):
            return text
        lines = wrap(prefix + text).split("\n")
        if lines[0] == prefix.rstrip() and len(lines) > 1:  # its first word is wider than the line
            lines[:2] = [prefix + lines[1].lstrip()]
        return "\n".join(lines).removeprefix(prefix)

    exc.format_message = wrapped  # type: ignore[method-assign]


LOCATED = re.compile(r"(--[\w-]+ )?\S+:\d+(:\d+)?: ")
"""A message that names a place in a file, ``FILE:LINE:`` or ``FILE:LINE:COL:`` (after the option that
named the file)."""


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


# Each command's module is imported when that command runs (or ``--help`` lists the commands), not
# for every command: ``--version`` or ``samples`` need neither DEAP nor the runs that ``solve`` and
# ``bench`` import.


_COMMANDS = {  # name: (module of this package, attribute), in the order they were added before
    "solve": ("solve", "solve"),
    "bench": ("bench", "bench_command"),
    "generate": ("generate", "generate"),
    "algorithms": ("listings", "algorithms_command"),
    "samples": ("listings", "samples"),
    "check": ("puzzle_files", "check"),
    "convert": ("puzzle_files", "convert"),
}


def _loader(module: str, attribute: str) -> Callable[[], click.Command]:
    return lambda: getattr(importlib.import_module(f".{module}", __package__), attribute)


main.commands = _Commands({name: _loader(*where) for name, where in _COMMANDS.items()})
