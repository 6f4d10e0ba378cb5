"""The grid format: one grid row per line, values separated by white space, ``0`` (or ``.``,
``-``) for empty, ``#`` lines ignored, a blank line between puzzles.  The box borders of
``str(puzzle)`` (``|`` and ``---+---`` lines) are read as the puzzle's box shape, so the ASCII
picture reads back too, and a ``*`` reads as a space: the analyzer project's README marks a square
as ``0*0*5``, which reads as ``0 0 5``."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..shape import Shape
from .reading import Reader, grid_rows
from .record import Format, register_format
from .rows import read_rows


def _read_grid(text: str, reader: Reader, alphabet: str) -> Iterator:
    """The grid format (its values are numbers: ``alphabet`` does not apply)."""
    return read_rows(text, reader, "digits", spaced=True)


def _write_grid(shape: Shape, cells: np.ndarray, alphabet: str) -> str:
    width = len(str(shape.n))
    return "".join(" ".join(str(v).rjust(width) for v in row) + "\n" for row in grid_rows(shape, cells))


def _looks_grid(lines: list[str], sides: frozenset[int]) -> bool:
    """Values separated by blanks."""
    return len(lines[0].split(None, 1)) > 1


GRID = register_format(
    Format(
        "grid",
        "one row per line, values separated by blanks, a blank line between puzzles",
        _read_grid,
        _write_grid,
        _looks_grid,
        1,
        separator="\n",
        alphabets=False,
    )
)
