"""What the grid and dash formats share: one grid row per line, a puzzle ending at a blank line
or after ``n`` rows; in the grid format, box borders (``|`` in a row, ``---+---`` lines) draw
the puzzle's box shape."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..shape import MAX_SIDE, Shape
from .reading import Draft, Reader, content_lines, symbol_table

__all__ = ["read_rows"]

_TOKEN = re.compile(r"[^\s|*]+")  # "|" box borders and "*" highlight marks separate values
_BORDER = re.compile(r"^[-+=|\s]*-[-+=|\s]*$")


def read_rows(text: str, reader: Reader, alphabet: str, *, spaced: bool) -> Iterator:
    """The grid and dash formats: one grid row per line; a puzzle ends at a blank line or after n rows.
    In the grid format, box borders (``|`` in a row, ``---+---`` lines) are remembered to give the
    puzzle's box shape."""
    table, _ = symbol_table(alphabet)
    table["-"] = 0
    block: list[_Row] = []
    borders: list[tuple[int, int]] = []  # (rows above it, line) of each border line inside the block
    skipping = False  # after a row too long for any grid, until the next blank line
    for number, line in itertools.chain(content_lines(text), [(0, "")]):
        yield from reader.drain()
        stripped = line.strip()
        if stripped.startswith("#"):
            reader.statement(stripped, number)
            continue
        if spaced and _BORDER.match(stripped):
            if block:
                borders.append((len(block), number))
            continue
        if stripped:
            if skipping:
                continue
            tokens = _tokens(line, spaced)
            if len(tokens) > MAX_SIDE:
                reader.error(
                    f"row has more than {MAX_SIDE} values, more than the largest grid ({MAX_SIDE}x{MAX_SIDE}) has",
                    number,
                )
                block, borders, skipping = [], [], True
                continue
            bars = (
                tuple(sum(column <= bar for column, _ in tokens) for bar, ch in enumerate(line) if ch == "|")
                if spaced
                else ()
            )
            block.append(_Row(number, tokens, bars))
            if len(block) == len(block[0].tokens):  # a whole puzzle: finish it now, keep memory flat
                _finish_rows(block, len(block), reader, table, spaced, borders)
                block, borders = [], []
            continue
        if block:
            _finish_rows(block, len(block[0].tokens), reader, table, spaced, borders)
        block, borders, skipping = [], [], False


def _tokens(line: str, spaced: bool) -> list[tuple[int, str]]:
    """A row's ``(column, token)`` values (separated by blanks or borders when ``spaced``, else one
    character each), at most one more than the largest grid has: enough to tell a row too long."""
    if spaced:
        found = ((m.start() + 1, m.group()) for m in _TOKEN.finditer(line))
    else:
        found = ((i + 1, ch) for i, ch in enumerate(line) if not ch.isspace())
    return list(itertools.islice(found, MAX_SIDE + 1))


@dataclass
class _Row:
    """A row of the grid or dash format: its line, its ``(column, token)`` values, and for each
    ``|`` border in it the number of values to its left."""

    line: int
    tokens: list[tuple[int, str]]
    bars: tuple[int, ...]


def _finish_rows(
    rows: list[_Row], side: int, reader: Reader, table: dict[str, int], spaced: bool, borders: list[tuple[int, int]]
) -> None:
    first_line = rows[0].line
    try:
        Shape.for_side(side)
    except ValueError as exc:
        reader.error(f"rows of {side} values: {exc}", first_line)
        return
    if len(rows) < side:
        reader.error(f"puzzle has {len(rows)} rows, expected {side} rows of {side} values", first_line)
        return
    draft = Draft(start=first_line)
    for row in rows:
        if len(row.tokens) != side:
            reader.error(
                f"row has {len(row.tokens)} values, expected {side} like the first row "
                f"of this puzzle (line {first_line})",
                row.line,
            )
            return
        for column, token in row.tokens:
            value = _token_value(token, table, spaced)
            if value is None:
                kind = "value" if spaced else "character"
                empty = "0, . or -" if spaced else "-"
                reader.error(f"unknown {kind} {token!r} (empty is {empty})", row.line, column)
                return
            draft.add(value, row.line, column)
    barred = all(row.bars for row in rows)  # a | in some rows only separates values, as a space does
    if not borders and not barred:
        reader.finish(draft)
        return
    drawn = _drawn_shape(rows, barred, side, borders, reader)
    if drawn is not None:
        reader.finish(draft, (drawn, first_line))


def _drawn_shape(
    rows: list[_Row], barred: bool, side: int, borders: list[tuple[int, int]], reader: Reader
) -> Shape | None:
    """The box shape that a grid's borders draw: ``|`` after every ``box_cols`` values of each row
    (when ``barred``, every row has them), a border line after every ``box_rows`` rows; None after
    recording where the borders are irregular."""
    bars = rows[0].bars if barred else ()
    for row in rows if barred else ():
        if row.bars != bars:
            reader.error(f"the | box borders of this row differ from those of line {rows[0].line}", row.line)
            return None
    # Either kind of border alone gives the shape: the other side of the box is what is left.
    cols = bars[0] if bars else side // max(borders[0][0], 1)
    rows_per_band = borders[0][0] if borders else side // max(cols, 1)
    if bars and (not cols or side % cols or bars != tuple(range(cols, side, cols))):
        reader.error("the | box borders do not cut the rows into boxes of equal width", rows[0].line)
        return None
    if borders and (
        side % rows_per_band or [above for above, _ in borders] != list(range(rows_per_band, side, rows_per_band))
    ):
        reader.error("the border lines do not cut the grid into boxes of equal height", borders[0][1])
        return None
    try:
        shape = Shape(rows_per_band, cols)
    except ValueError as exc:
        reader.error(f"the box borders draw no Sudoku box: {exc}", rows[0].line)
        return None
    if shape.n != side:
        reader.error(f"the box borders draw {shape} boxes, which do not tile rows of {side} values", rows[0].line)
        return None
    return shape


def _token_value(token: str, table: dict[str, int], spaced: bool) -> int | None:
    if spaced:
        if token in (".", "-"):
            return 0
        return int(token) if token.isdecimal() and len(token) <= 4 else None
    return table.get(token)
