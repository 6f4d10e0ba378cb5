"""The line format: one puzzle per line, ``n*n`` symbols row-major, ``0`` or ``.`` for empty (the
format of the 9x9 sets in ``../shared/data``), in any of the :data:`~.reading.ALPHABETS`.  Lines of
plain symbols are read a batch at a time with array operations; any other line says what is wrong
with it."""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from ..conflicts import have_conflicts
from ..shape import MAX_SIDE, Shape
from .reading import ALPHABETS, MAX_CELLS, TILED_SIDES, Draft, Reader, symbol_table, symbols_for
from .record import Format, register_format

_BLOCK_BYTES = 1 << 16
"""The line reader's batch: about this many bytes of lines are parsed and checked at once (64 KiB: its
temporaries, about 20 bytes per byte of 4x4 lines, stay near a megabyte)."""


def _read_line(text: str, reader: Reader, alphabet: str) -> Iterator:
    """The line format, a batch of lines at a time: lines of plain symbols are decoded and checked
    for conflicts with array operations; any other line (blank, comment, indented, too long,
    unknown symbol, conflict) goes through :func:`_line_puzzle`, which says what is wrong."""
    table, symbols = symbol_table(alphabet)
    codes = np.full(256, -1, dtype=np.int16)  # byte -> value; -1: not a plain symbol
    for ch, value in table.items():
        if ch.isascii():
            codes[ord(ch)] = value
    sides = [reader.box.n] if reader.box is not None else sorted(TILED_SIDES)
    shapes = {n * n: reader.box or Shape.for_side(n) for n in sides if n <= len(symbols)}
    data = text.encode("utf-8")
    start, first = 0, 1
    while start < len(data):
        cut = start + _BLOCK_BYTES
        end = len(data) if cut >= len(data) else data.find(b"\n", cut - 1)
        end = len(data) if end < 0 else end
        block = np.frombuffer(data, np.uint8, count=end - start, offset=start)
        breaks = np.flatnonzero(block == 10)
        starts = np.concatenate(([0], breaks + 1))
        lengths = np.concatenate((breaks, [len(block)])) - starts
        filled = np.flatnonzero(lengths)
        lengths[filled] -= block[starts[filled] + lengths[filled] - 1] == 13  # CRLF
        good = np.zeros(len(starts), dtype=bool)
        grids: dict[int, tuple[Shape, np.ndarray, np.ndarray]] = {}
        for size, shape in shapes.items():
            rows = np.flatnonzero(lengths == size)
            if not len(rows):
                continue
            values = codes[block[starts[rows, None].astype(np.int32) + np.arange(size, dtype=np.int32)]]
            plain = ((values >= 0) & (values <= shape.n)).all(axis=1)
            plain[plain] = ~have_conflicts(shape, values[plain])
            good[rows[plain]] = True
            where = np.full(len(starts), -1)
            where[rows] = np.arange(len(rows))
            grids[size] = shape, values, where
        for i in range(len(starts)):
            if good[i] and (reader.stated is None or reader.stated[0] == grids[int(lengths[i])][0]):
                shape, values, where = grids[int(lengths[i])]
                yield first + i, shape, values[where[i]]
            else:  # (a grid under a stated shape other than the one assumed above is read here too)
                line = data[start + starts[i] : start + starts[i] + lengths[i]].decode("utf-8").rstrip()
                _line_puzzle(line, first + i, reader, table, symbols, alphabet)
                yield from reader.drain()
        start, first = end + 1, first + len(starts)


def _line_puzzle(line: str, number: int, reader: Reader, table: dict[str, int], symbols: str, alphabet: str) -> None:
    """Read one line of the line format into ``reader``: a puzzle, an error, or nothing (blank, comment)."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        reader.statement(stripped, number)
        return
    empties = " or ".join(repr(e) for e in ALPHABETS[alphabet][1])
    indent = len(line) - len(line.lstrip())
    unknown = next(((c, ch) for c, ch in enumerate(stripped, start=indent + 1) if ch not in table), None)
    if unknown:
        reader.error(
            f"unknown character {unknown[1]!r} for the {alphabet} alphabet (empty is {empties})", number, unknown[0]
        )
        return
    if len(stripped) > MAX_CELLS:
        reader.error(
            f"wrong number of cells: {len(stripped)} is more than the {MAX_CELLS} of the largest "
            f"grid ({MAX_SIDE}x{MAX_SIDE})",
            number,
        )
        return
    draft = Draft(start=number)
    for column, ch in enumerate(stripped, start=indent + 1):
        draft.add(table[ch], number, column)
    n = math.isqrt(len(draft.values))
    too_big = next((i for i, v in enumerate(draft.values) if v > n), None)
    if n * n == len(draft.values) and n in TILED_SIDES and too_big is not None:
        reader.error(
            f"character {stripped[too_big]!r} is not a value of a {n}x{n} grid "
            f"(values {symbols[0]}-{symbols[n - 1]}, empty is {empties})",
            number,
            indent + too_big + 1,
        )
        return
    reader.finish(draft)


def _write_line(shape: Shape, cells: np.ndarray, alphabet: str) -> str:
    symbols, empty = symbols_for(alphabet, shape.n)
    return "".join(symbols[v - 1] if v else empty for v in np.asarray(cells).ravel().tolist()) + "\n"


def _looks_line(lines: list[str], sides: frozenset[int]) -> bool:
    """Whatever no other format claims: the line format's own errors then say what is wrong."""
    return True


LINE = register_format(
    Format("line", "one puzzle per line, n*n symbols row-major", _read_line, _write_line, _looks_line, 3)
)
