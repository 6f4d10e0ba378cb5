"""The lloyd format, the instances of Lloyd & Amos's ACO benchmark: the box order ``k``, the line
``1``, then ``k*k`` rows of tab-separated values with a trailing tab, ``-1`` for empty, CRLF line
endings.  It holds square boxes only: its writer refuses others."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import numpy as np

from ..shape import MAX_SIDE, Shape
from .reading import Draft, Reader, content_lines, grid_rows
from .record import Format, register_format


def _read_lloyd(text: str, reader: Reader, alphabet: str) -> Iterator:
    """The lloyd format (its values are numbers: ``alphabet`` does not apply); the first error ends
    the reading."""
    lines = ((n, ln) for n, ln in content_lines(text) if ln.strip())
    for number, header in lines:
        yield from reader.drain()
        order = _box_order(header, number, lines, reader)
        if order is None:
            return
        draft = _read_rows(lines, number, order, reader)
        if draft is None:
            return
        reader.finish(draft)


def _box_order(header: str, number: int, lines: Iterator[tuple[int, str]], reader: Reader) -> int | None:
    """The box order a puzzle's ``header`` line gives, once the constant line ``1`` is read after
    it; None after recording what is wrong."""
    header = header.strip()
    if not (header.isdecimal() and len(header) <= 3) or int(header) < 2 or int(header) ** 2 > MAX_SIDE:
        reader.error(
            f"expected the box order (2..{int(MAX_SIDE**0.5)}) on a line of its own, found {header[:20]!r}",
            number,
            1,
        )
        return None
    constant = next(lines, None)
    if constant is None or constant[1].strip() != "1":
        reader.error("expected the constant line '1' after the box order", number + 1, 1)
        return None
    return int(header)


def _read_rows(lines: Iterator[tuple[int, str]], number: int, order: int, reader: Reader) -> Draft | None:
    """The ``order**2`` rows of the puzzle whose header is on line ``number``; None after recording
    what is wrong."""
    side = order * order
    draft = Draft(start=number)
    rows = 0
    for row_number, row in itertools.islice(lines, side):
        rows += 1
        values = _row_values(row, row_number, order, reader)
        if values is None:
            return None
        for value, col in values:
            draft.add(value, row_number, col)
    if rows < side:
        reader.error(f"puzzle has {rows} rows, expected {side} for box order {order}", number)
        return None
    return draft


def _row_values(row: str, row_number: int, order: int, reader: Reader) -> list[tuple[int, int]] | None:
    """A row's ``(value, column)`` pairs, ``-1`` read as 0 (empty), a trailing tab allowed; None after
    recording what is wrong."""
    side = order * order
    if row.count("\t") > side + 1:
        reader.error(f"row has more than {side} values, expected {side} for box order {order}", row_number)
        return None
    fields = row.split("\t")
    if fields and fields[-1].strip() == "":
        fields = fields[:-1]
    column = 1
    values = []
    for raw in fields:
        token = raw.strip()
        if not re.fullmatch(r"-1|\d{1,4}", token):
            reader.error(f"unknown value {token!r} (values are 1..{side}, -1 for empty)", row_number, column)
            return None
        values.append((0 if token == "-1" else int(token), column))
        column += len(raw) + 1
    if len(values) != side:
        reader.error(f"row has {len(values)} values, expected {side} for box order {order}", row_number)
        return None
    return values


def _write_lloyd(shape: Shape, cells: np.ndarray, alphabet: str) -> str:
    if shape.box_rows != shape.box_cols:
        raise ValueError(f"the lloyd format holds square boxes only, not {shape}")
    lines = [str(shape.box_rows), "1"]
    lines += ["".join(f"{v if v else -1}\t" for v in row) for row in grid_rows(shape, cells)]
    return "\r\n".join(lines) + "\r\n"


# -- recognising -----------------------------------------------------------------------


def _looks_lloyd(lines: list[str], sides: frozenset[int]) -> bool:
    """A box order, then rows of tab-separated values or -1 empties: even if damaged."""
    first = lines[0]
    return (
        first.isdecimal()
        and len(first) <= 3
        and len(lines) > 2
        and (
            (lines[1] == "1" and len(lines[2].split(None, int(first) ** 2)) == int(first) ** 2)
            or "\t" in lines[2]
            or "-1" in lines[2].split()
        )
    )


LLOYD = register_format(
    Format(
        "lloyd",
        "Lloyd & Amos's instances: box order, 1, tab-separated rows, -1 for empty",
        _read_lloyd,
        _write_lloyd,
        _looks_lloyd,
        0,
        alphabets=False,
    )
)
