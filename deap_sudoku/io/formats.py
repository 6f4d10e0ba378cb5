"""Puzzle files: read and write several puzzles per file in the line, grid, dash and lloyd formats.

The formats themselves are described in :mod:`deap_sudoku.grid.text`; this
module turns their text into :class:`~deap_sudoku.grid.puzzle.Puzzle` values
and back, and reads and writes files with bounded size and atomic writes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

from ..grid import text as codec
from ..grid.errors import PuzzleError, PuzzleFileError
from ..grid.puzzle import Puzzle
from ..grid.text import ALPHABETS, FORMATS, MAX_ERRORS, detect_format
from .fileio import read_limited, write_atomic

__all__ = ["FORMATS", "ALPHABETS", "MAX_ERRORS", "MAX_FILE_BYTES", "loads", "dumps", "read", "write",
           "detect_format", "scan", "read_text"]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Files larger than this are refused before they are read."""


def scan(text: str, *, format: str | None = None, box: tuple[int, int] | None = None,
         alphabet: str | None = None, source: str = "<string>") -> tuple[list[tuple[int, Puzzle]], list[PuzzleError]]:
    """Every good puzzle with the line it starts on, and every error, without raising for bad puzzles.

    For tools that report on a whole file (``deap-sudoku check``); :func:`loads` raises instead.

    :raises PuzzleError: for a ``box`` that is no Sudoku box shape.
    """
    found, errors = codec.scan(text, format=format, box=box, alphabet=alphabet, source=source)
    return [(line, Puzzle._checked(shape, values)) for line, shape, values in found], errors


def loads(text: str, *, format: str | None = None, box: tuple[int, int] | None = None,
          alphabet: str | None = None, source: str = "<string>") -> list[Puzzle]:
    """All puzzles in ``text``; the format is detected unless named.

    :raises PuzzleFileError: listing every bad puzzle, each with source, line and column.
    """
    found, errors = scan(text, format=format, box=box, alphabet=alphabet, source=source)
    if errors:
        raise PuzzleFileError(errors, source=source)
    return [puzzle for _, puzzle in found]


def dumps(puzzles: Iterable[Puzzle], *, format: str = "line", alphabet: str | None = None) -> str:
    """The text of ``puzzles`` in ``format``; what :func:`loads` reads back to the same puzzles.

    :raises ValueError: for an unknown format or alphabet, or a puzzle the format cannot hold.
    """
    return codec.dumps(((p.shape, p.cells) for p in puzzles), format=format, alphabet=alphabet)


def read_text(path: str | os.PathLike) -> tuple[str, str]:
    """The text of the file at ``path`` (``-``: standard input) and its name for messages.

    :raises PuzzleError: for a file that is too large, not UTF-8 text, or has NUL bytes.
    :raises OSError: when the file cannot be opened.
    """
    source = "<stdin>" if str(path) == "-" else str(path)
    if source == "<stdin>":
        if sys.stdin is None:
            raise PuzzleError("standard input is closed", source=source)
        data = read_limited(sys.stdin.buffer, MAX_FILE_BYTES)
    else:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size  # 0 for devices and pipes: the count is what holds
            if size > MAX_FILE_BYTES:
                raise PuzzleError(f"file of {size} bytes is larger than the {MAX_FILE_BYTES} bytes "
                                  "allowed", source=source)
            data = read_limited(handle, MAX_FILE_BYTES)
    if len(data) > MAX_FILE_BYTES:
        raise PuzzleError(f"input is larger than the {MAX_FILE_BYTES} bytes allowed", source=source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise PuzzleError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})", source=source,
                          line=line, column=column) from None
    if "\x00" in text:
        offset = text.index("\x00")
        raise PuzzleError("NUL byte: this is not a text file", source=source,
                          line=text.count("\n", 0, offset) + 1)
    return text, source


def read(path: str | os.PathLike, *, format: str | None = None, box: tuple[int, int] | None = None,
         alphabet: str | None = None) -> list[Puzzle]:
    """All puzzles in the file at ``path`` (``-`` reads standard input).

    :raises PuzzleError: for a file that is too large, not UTF-8 text, or holds bad puzzles.
    :raises OSError: when the file cannot be opened.
    """
    text, source = read_text(path)
    return loads(text, format=format, box=box, alphabet=alphabet, source=source)


def write(path: str | os.PathLike, puzzles: Iterable[Puzzle], *, format: str = "line",
          alphabet: str | None = None, overwrite: bool = False) -> None:
    """Write ``puzzles`` to ``path`` atomically (``-`` writes standard output).

    :raises FileExistsError: if ``path`` exists and ``overwrite`` is false.
    """
    text = dumps(puzzles, format=format, alphabet=alphabet)
    if str(path) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomic(path, text, overwrite=overwrite)
