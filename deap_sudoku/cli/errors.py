"""The command line's errors and message helpers: bad input (one line, exit 2), a closed standard
output, messages wrapped to the terminal's width."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap

import click

from .help import MAX_WIDTH

KEEP = "\u00a0"
"""A non-breaking space: joins words that :func:`wrap` keeps on one line (``deap-sudoku samples``);
it prints as a plain space."""

MIN_WIDTH = 40
"""The narrowest width :func:`width` gives, whatever the terminal says."""


def width() -> int:
    """The width messages are wrapped to: the terminal's (``COLUMNS`` first, else the terminal of
    standard output, else 80: :func:`shutil.get_terminal_size`), at most :data:`MAX_WIDTH` as the
    help pages."""
    return max(MIN_WIDTH, min(MAX_WIDTH, shutil.get_terminal_size().columns))


def terminal(stream) -> bool:
    """Whether ``stream`` is a terminal (False for None, a closed stream, or none at all)."""
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def wrap(text: str, indent: str = "  ", columns: int | None = None) -> str:
    """``text`` wrapped at spaces to ``columns`` (:func:`width`), each line of it a paragraph whose
    further lines start with ``indent``.  Words (names, paths, options) are never cut, at hyphens
    or anywhere: a word wider than the width has a line of its own; :data:`KEEP` joins words.

    Without ``columns``, a message: wrapped where a person reads it, on a terminal (standard error
    is one, or ``COLUMNS`` says how wide it is), and one line a paragraph where a program or a log
    takes it, so that ``grep`` finds a phrase however long the paths before it."""
    if columns is None and not (os.environ.get("COLUMNS") or terminal(sys.stderr)):
        return text.replace(KEEP, " ")
    columns = columns or width()
    lines = []
    for line in text.split("\n"):
        lines += textwrap.wrap(
            line, columns, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
        ) or [line]
    return "\n".join(lines).replace(KEEP, " ")


class InputError(click.ClickException):
    """Bad input: a one-line message and exit code 2, never a traceback."""

    exit_code = 2


class StandardOutputError(OSError):
    """Standard output failed (a closed pipe, a full device, a gone terminal): the command's guard
    says so in one line, and a failure of any other file is never blamed on it."""


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 puzzle``, ``2 puzzles``; ``many`` for irregular plurals."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"
