"""The command line's errors and message helpers: bad input (one line, exit 2), a closed standard output."""

from __future__ import annotations

import click


class InputError(click.ClickException):
    """Bad input: a one-line message and exit code 2, never a traceback."""

    exit_code = 2


class StandardOutputError(OSError):
    """Standard output failed (a closed pipe, a full device, a gone terminal): the command's guard
    says so in one line, and a failure of any other file is never blamed on it."""


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 puzzle``, ``2 puzzles``; ``many`` for irregular plurals."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"
