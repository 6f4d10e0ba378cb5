"""Puzzle files: read and write several puzzles per file in the line, grid, dash and lloyd formats.

The formats themselves are described in :mod:`deap_sudoku.grid.formats`; this
module turns their text into :class:`~deap_sudoku.grid.puzzle.Puzzle` values
and back, and reads and writes files with bounded size and atomic writes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator

from ..grid import formats as codec
from ..grid.errors import PuzzleError, PuzzleFileError
from ..grid.puzzle import Puzzle
from ..grid.formats import ALPHABETS, FORMAT_RECORDS, FORMATS, MAX_ERRORS, Format, detect_format
from .fileio import AtomicFile, read_limited

__all__ = [
    "FORMATS",
    "FORMAT_RECORDS",
    "Format",
    "ALPHABETS",
    "MAX_ERRORS",
    "MAX_FILE_BYTES",
    "loads",
    "dumps",
    "read",
    "write",
    "detect_format",
    "scan",
    "read_text",
    "iter_scan",
    "iter_dumps",
    "iter_read",
    "PuzzleWriter",
]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Files larger than this are refused before they are read."""


def iter_scan(
    text: str,
    *,
    format: str | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    source: str = "<string>",
) -> Iterator[tuple[int, Puzzle] | PuzzleError]:
    """Every good puzzle with the line it starts on, and every error, one at a time in file order:
    a text of millions of puzzles is read in memory a small multiple of the text (the line format
    in batches of about 64 KiB of lines).  Reading stops after :data:`MAX_ERRORS` errors.

    :raises PuzzleError: for a ``box`` that is no Sudoku box shape.
    """
    for item in codec.iter_grids(text, format=format, box=box, alphabet=alphabet, source=source):
        yield item if isinstance(item, PuzzleError) else (item[0], Puzzle._checked(item[1], item[2]))


def scan(
    text: str,
    *,
    format: str | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    source: str = "<string>",
) -> tuple[list[tuple[int, Puzzle]], list[PuzzleError]]:
    """Every good puzzle with the line it starts on, and every error, without raising for bad puzzles.

    For tools that report on a whole file; :func:`loads` raises instead, :func:`iter_scan` streams.

    :raises PuzzleError: for a ``box`` that is no Sudoku box shape.
    """
    found: list[tuple[int, Puzzle]] = []
    errors: list[PuzzleError] = []
    for item in iter_scan(text, format=format, box=box, alphabet=alphabet, source=source):
        if isinstance(item, PuzzleError):
            errors.append(item)
        else:
            found.append(item)
    return found, errors


def loads(
    text: str,
    *,
    format: str | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    source: str = "<string>",
) -> list[Puzzle]:
    """All puzzles in ``text``; the format is detected unless named.

    :raises PuzzleFileError: listing every bad puzzle, each with source, line and column.
    """
    found, errors = scan(text, format=format, box=box, alphabet=alphabet, source=source)
    if errors:
        raise PuzzleFileError(errors, source=source)
    return [puzzle for _, puzzle in found]


def iter_dumps(puzzles: Iterable[Puzzle], *, format: str = "line", alphabet: str | None = None) -> Iterator[str]:
    """:func:`dumps` a puzzle at a time, for writing many puzzles without one large string (with the
    blank line between puzzles where the format has one, and a ``# box`` line where a puzzle's shape
    needs one).

    :raises ValueError: for an unknown format or alphabet (at once), or a puzzle the format cannot
        hold (when that puzzle's turn comes).
    """
    writer = codec.TextWriter(format, alphabet)
    return (writer.text(puzzle.shape, puzzle.cells) for puzzle in puzzles)


def dumps(puzzles: Iterable[Puzzle], *, format: str = "line", alphabet: str | None = None) -> str:
    """The text of ``puzzles`` in ``format``; what :func:`loads` reads back to the same puzzles.

    :raises ValueError: for an unknown format or alphabet, or a puzzle the format cannot hold.
    """
    return "".join(iter_dumps(puzzles, format=format, alphabet=alphabet))


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
                raise PuzzleError(
                    f"file of {size} bytes is larger than the {MAX_FILE_BYTES} bytes allowed", source=source
                )
            data = read_limited(handle, MAX_FILE_BYTES)
    if len(data) > MAX_FILE_BYTES:
        raise PuzzleError(f"input is larger than the {MAX_FILE_BYTES} bytes allowed", source=source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise PuzzleError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x})", source=source, line=line, column=column
        ) from None
    if "\x00" in text:
        offset = text.index("\x00")
        raise PuzzleError("NUL byte: this is not a text file", source=source, line=text.count("\n", 0, offset) + 1)
    return text, source


def read(
    path: str | os.PathLike,
    *,
    format: str | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> list[Puzzle]:
    """All puzzles in the file at ``path`` (``-`` reads standard input).

    :raises PuzzleError: for a file that is too large, not UTF-8 text, or holds bad puzzles.
    :raises OSError: when the file cannot be opened.
    """
    text, source = read_text(path)
    return loads(text, format=format, box=box, alphabet=alphabet, source=source)


def iter_read(
    path: str | os.PathLike,
    *,
    format: str | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
) -> Iterator[Puzzle]:
    """The puzzles of the file at ``path`` (``-`` reads standard input) one at a time, in memory a
    small multiple of the file's text however many puzzles it holds (:func:`read` keeps them all).

    :raises PuzzleFileError: at the first bad puzzle, naming it; the puzzles before it have been given.
    :raises PuzzleError: for a file that is too large or not UTF-8 text.
    :raises OSError: when the file cannot be opened.
    """
    text, source = read_text(path)
    for item in iter_scan(text, format=format, box=box, alphabet=alphabet, source=source):
        if isinstance(item, PuzzleError):
            raise PuzzleFileError([item], source=source)
        yield item[1]


def write(
    path: str | os.PathLike,
    puzzles: Iterable[Puzzle],
    *,
    format: str = "line",
    alphabet: str | None = None,
    overwrite: bool = False,
) -> None:
    """Write ``puzzles`` (any iterable: they are written as they come) to ``path`` atomically
    (``-`` writes standard output).

    :raises FileExistsError: if ``path`` exists and ``overwrite`` is false.
    :raises ValueError: for an unknown format or alphabet, or a puzzle the format cannot hold (a file
        is then left as it was).
    """
    with PuzzleWriter(path, format=format, alphabet=alphabet, overwrite=overwrite) as writer:
        for puzzle in puzzles:
            writer.write(puzzle)


class PuzzleWriter:
    """Puzzles written one at a time to a file that appears whole when the writer is closed
    (:class:`~deap_sudoku.io.fileio.AtomicFile`), or to standard output for ``-``.  As a context
    manager it closes on a normal end and drops the file on an exception.

    :raises FileExistsError: if ``path`` exists and ``overwrite`` is false.
    :raises ValueError: for an unknown format or alphabet.
    """

    def __init__(
        self, path: str | os.PathLike, *, format: str = "line", alphabet: str | None = None, overwrite: bool = False
    ) -> None:
        self.encoder = codec.TextWriter(format, alphabet)  # an unknown format or alphabet is refused now
        self.file = None if str(path) == "-" else AtomicFile(path, overwrite=overwrite)
        self.written = 0

    @property
    def count(self) -> int:
        """How many puzzles have been written (a Ctrl-C between encoding a puzzle and writing it
        leaves it out)."""
        return self.written

    def write(self, puzzle: Puzzle) -> None:
        """Add ``puzzle``.

        :raises ValueError: if the format cannot hold its size or box shape.
        """
        text = self.encoder.text(puzzle.shape, puzzle.cells)
        if self.file is None:
            sys.stdout.write(text)
        else:
            self.file.write(text)
        self.written += 1

    def close(self, *, to: str | os.PathLike | None = None) -> None:
        """Finish: the file appears whole, at its path or at ``to`` (standard output is flushed)."""
        if self.file is None:
            sys.stdout.flush()
        else:
            self.file.commit(to=to)

    def discard(self) -> None:
        if self.file is not None:
            self.file.discard()

    def __enter__(self) -> PuzzleWriter:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            self.close()
        else:
            self.discard()
