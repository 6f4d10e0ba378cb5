"""Reading and writing texts of several grids in any registered format, and recognising a
text's format."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np

from ..errors import PuzzleError
from ..shape import MAX_SIDE, Shape
from .reading import TILED_SIDES, Reader, TooManyErrors, content_lines, known_alphabet, shape_statement
from .record import FORMAT_RECORDS, Format, format_record

__all__ = ["detect_format", "iter_grids", "TextWriter"]


def lf_lines(text: str) -> str:
    """``text`` with old Mac line endings (a CR alone) made LF, so such a file reads like any other
    instead of as one long line; LF and CRLF files are returned as they are."""
    if "\r" in text and "\r" in text.replace("\r\n", ""):
        return text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def detect_format(text: str, *, box: tuple[int, int] | None = None) -> str:
    """Guess the format of ``text`` from its first lines that are not blank or comments."""
    content = (ln.strip() for _, ln in content_lines(lf_lines(text)))
    lines = list(itertools.islice((ln for ln in content if ln and not ln.startswith("#")), MAX_SIDE + 2))
    if not lines:
        return "line"
    sides = frozenset({box[0] * box[1]}) if box else TILED_SIDES
    return next(
        record.name
        for record in sorted(FORMAT_RECORDS.values(), key=lambda r: r.detection)
        if record.looks_like(lines, sides)
    )


def iter_grids(
    text: str,
    *,
    format: str | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    source: str = "<string>",
) -> Iterator[tuple[int, Shape, np.ndarray] | PuzzleError]:
    """Every valid grid as ``(line it starts on, shape, values)`` and every error, one at a time in
    file order, so that a file of millions of puzzles never becomes a list of them.  The values are
    checked (:func:`~deap_sudoku.grid.conflicts.problems`); reading stops after :data:`MAX_ERRORS` errors.

    :raises PuzzleError: for a ``box`` that is no Sudoku box shape.
    :raises ValueError: for an unknown format or alphabet.
    """
    if box is not None:
        try:
            Shape(*box)
        except ValueError as exc:
            raise PuzzleError(f"box {box[0]}x{box[1]}: {exc}", source=source) from None
    record = format_record(format or detect_format(text, box=box))
    alphabet = known_alphabet(alphabet)  # refused now, not when the reading starts
    return _items(lf_lines(text), record, Reader(source, box), alphabet)


def _items(text: str, record: Format, reader: Reader, alphabet: str) -> Iterator:
    try:
        yield from record.read(text, reader, alphabet)
    except TooManyErrors:
        pass
    yield from reader.drain()


class TextWriter:
    """The text of grids written one after another in one format: the separator between grids, and
    a ``# box RxC`` line (:func:`shape_statement`) before each grid whose box shape a reader of the
    text so far would not assume, so that :func:`iter_grids` reads every grid back with its shape.

    :raises ValueError: for an unknown format or alphabet.
    """

    def __init__(self, format: str, alphabet: str | None = None) -> None:
        self.record, self.alphabet = format_record(format), known_alphabet(alphabet)
        self.count = 0
        self.stated: Shape | None = None  # the last shape stated, which a reader applies from there on

    def text(self, shape: Shape, cells: np.ndarray) -> str:
        """The text of one more grid.

        :raises ValueError: for a grid the format cannot hold.
        """
        body = self.record.write(shape, cells, self.alphabet)
        assumed = self.stated or Shape.for_side(shape.n)
        head = self.record.separator if self.count else ""
        if shape != assumed:  # (never in lloyd, whose square boxes are always the shape assumed)
            head += shape_statement(shape)
            self.stated = shape
        self.count += 1
        return head + body
