"""The dash format: one grid row per line as single symbols, ``-`` for empty (a solver's
``aufgabe.txt`` input and ``loesung.txt`` output)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..shape import Shape
from .reading import Reader, grid_rows, symbols_for
from .record import Format, register_format
from .rows import read_rows


def _read_dash(text: str, reader: Reader, alphabet: str) -> Iterator:
    return read_rows(text, reader, alphabet, spaced=False)


def _write_dash(shape: Shape, cells: np.ndarray, alphabet: str) -> str:
    symbols, _ = symbols_for(alphabet, shape.n)
    return "".join("".join(symbols[v - 1] if v else "-" for v in row) + "\n" for row in grid_rows(shape, cells))


def _looks_dash(lines: list[str], sides: frozenset[int]) -> bool:
    """A ``-`` for an empty cell, or (a line too short for a whole grid) as many rows of a side's length."""
    first = lines[0]
    if "-" in first:
        return True
    length = len(first)
    if any(length == n * n for n in sides) or length not in sides:
        return False
    return next((i for i, ln in enumerate(lines) if len(ln) != length), len(lines)) >= length


DASH = register_format(
    Format(
        "dash",
        "one row per line as single symbols, - for empty",
        _read_dash,
        _write_dash,
        _looks_dash,
        2,
        separator="\n",
    )
)
