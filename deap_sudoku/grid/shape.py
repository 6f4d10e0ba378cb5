"""Grid geometry: box shapes, unit tables and peers, computed once per shape.

A grid of side ``n`` is tiled by boxes of ``box_rows x box_cols`` cells with
``box_rows * box_cols == n``.  Cells are indexed flat and row-major, so cell
``i`` sits in row ``i // n`` and column ``i % n``.  The tables are numpy arrays
shared by every puzzle of the same shape.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

__all__ = ["Shape", "MIN_SIDE", "MAX_SIDE", "box_shapes_for_side"]

MIN_SIDE = 4
MAX_SIDE = 100
"""Largest supported side (10x10 boxes); values then still fit in ``uint8``."""


def box_shapes_for_side(n: int) -> list[tuple[int, int]]:
    """All ``(box_rows, box_cols)`` with both at least 2 that tile a side of ``n``.

    Ordered squarest first, and with fewer rows than columns first when the box
    is not square (6 -> 2x3, 12 -> 3x4, as printed puzzles use).
    """
    shapes = [(r, n // r) for r in range(2, n // 2 + 1) if n % r == 0]
    return sorted(shapes, key=lambda rc: (abs(rc[0] - rc[1]), rc[0] > rc[1]))


@dataclass(frozen=True)
class Shape:
    """The geometry of a grid: box rows and columns, and the tables derived from them."""

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        for name in ("box_rows", "box_cols"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"{name} must be a whole number, not {value!r}")
            object.__setattr__(self, name, int(value))
        if self.box_rows < 1 or self.box_cols < 1 or self.box_rows * self.box_cols < MIN_SIDE:
            raise ValueError(
                f"box shape {self.box_rows}x{self.box_cols} is too small: the grid side must be at least {MIN_SIDE}"
            )
        if min(self.box_rows, self.box_cols) < 2:
            raise ValueError(f"box shape {self.box_rows}x{self.box_cols} degenerates to rows or columns")
        if self.box_rows * self.box_cols > MAX_SIDE:
            raise ValueError(
                f"box shape {self.box_rows}x{self.box_cols} gives side "
                f"{self.box_rows * self.box_cols}, larger than the supported {MAX_SIDE}"
            )

    @classmethod
    def for_side(cls, n: int) -> Shape:
        """The conventional box shape for side ``n``; ``ValueError`` if no box shape tiles it."""
        if n < MIN_SIDE or n > MAX_SIDE:
            raise ValueError(f"side {n} is outside the supported {MIN_SIDE}..{MAX_SIDE}")
        shapes = box_shapes_for_side(n)
        if not shapes:
            raise ValueError(f"no box shape tiles a {n}x{n} grid (side {n} is prime)")
        return cls(*shapes[0])

    @classmethod
    def for_cells(cls, cells: int) -> Shape:
        """The shape of a grid with ``cells`` cells in all; ``ValueError`` if that is not a tiled square."""
        n = math.isqrt(cells)
        if n * n != cells:
            raise ValueError(f"{cells} cells do not make a square grid")
        return cls.for_side(n)

    @property
    def n(self) -> int:
        """Side of the grid: the number of values, and of cells in every unit."""
        return self.box_rows * self.box_cols

    @property
    def cells(self) -> int:
        return self.n * self.n

    @property
    def name(self) -> str:
        """``9x9 (3x3 boxes)``-style description for messages."""
        return f"{self.n}x{self.n} ({self.box_rows}x{self.box_cols} boxes)"

    def __str__(self) -> str:
        return f"{self.box_rows}x{self.box_cols}"

    def check_grid(self, values: object, name: str = "grid", *, many: bool = False) -> np.ndarray:
        """``values`` as an array, checked to be a flat grid of this shape (``many``: a 2-D stack of
        them) of whole numbers 0..n, so that no kernel reads past a table or a bitmask.

        :raises TypeError: when ``values`` is not an array of whole numbers, naming ``name``.
        :raises ValueError: for a wrong shape or a value out of range, naming ``name``.
        """
        try:
            array = np.asarray(values)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be an array of whole numbers: {exc}") from None
        kind = array.dtype.kind  # (this runs at every operator call: kept to cheap tests)
        if kind == "b" or (kind not in "ui" and array.size):
            raise TypeError(f"{name} must hold whole numbers, not {array.dtype}")
        cells = self.box_rows * self.box_cols
        cells *= cells
        if array.ndim != (2 if many else 1) or array.shape[-1] != cells:
            layout = f"(k, {cells})" if many else f"({cells},)"
            raise ValueError(
                f"{name} has shape {array.shape}; a {self.name} grid{'s' * many} needs {layout}, flat and row-major"
            )
        if array.size and (array.max() > self.n or (kind == "i" and array.min() < 0)):
            bad = array[(array < 0) | (array > self.n)].flat[0]
            raise ValueError(f"{name} holds {int(bad)}, out of range 0..{self.n} for a {self.name} grid")
        return array

    # The tables below are cached per (box_rows, box_cols) and read-only.

    @property
    def rows(self) -> np.ndarray:
        """``(n, n)`` cell indices of each row."""
        return _tables(self.box_rows, self.box_cols).rows

    @property
    def cols(self) -> np.ndarray:
        """``(n, n)`` cell indices of each column."""
        return _tables(self.box_rows, self.box_cols).cols

    @property
    def boxes(self) -> np.ndarray:
        """``(n, n)`` cell indices of each box, boxes numbered row-major, cells row-major inside."""
        return _tables(self.box_rows, self.box_cols).boxes

    @property
    def units(self) -> np.ndarray:
        """``(3n, n)``: all rows, then all columns, then all boxes."""
        return _tables(self.box_rows, self.box_cols).units

    @property
    def cell_units(self) -> np.ndarray:
        """``(n*n, 3)``: the row, column and box unit numbers (indices into ``units``) of each cell."""
        return _tables(self.box_rows, self.box_cols).cell_units

    @property
    def peers(self) -> np.ndarray:
        """``(n*n, 3n - box_rows - box_cols - 1)``: every other cell sharing a unit, sorted."""
        return _tables(self.box_rows, self.box_cols).peers

    def unit_name(self, unit: int) -> str:
        """``row 3``, ``column 5`` or ``box 7`` (1-based) for a unit number."""
        kind, index = divmod(unit, self.n)
        return f"{('row', 'column', 'box')[kind]} {index + 1}"

    def cell_name(self, cell: int) -> str:
        """``r3c5`` (1-based) for a flat cell index."""
        return f"r{cell // self.n + 1}c{cell % self.n + 1}"


@dataclass(frozen=True)
class _Tables:
    rows: np.ndarray
    cols: np.ndarray
    boxes: np.ndarray
    units: np.ndarray
    cell_units: np.ndarray
    peers: np.ndarray


@functools.lru_cache(maxsize=None)
def _tables(box_rows: int, box_cols: int) -> _Tables:
    n = box_rows * box_cols
    dtype = np.int16 if n * n < 2**15 else np.int32
    grid = np.arange(n * n, dtype=dtype).reshape(n, n)
    rows = grid
    cols = grid.T
    # (band, box row, stack, box col) -> group by (band, stack)
    boxes = grid.reshape(box_cols, box_rows, box_rows, box_cols).transpose(0, 2, 1, 3).reshape(n, n)
    units = np.concatenate([rows, cols, boxes])
    cell_units = np.empty((n * n, 3), dtype=dtype)
    for u, unit in enumerate(units):
        cell_units[unit, u // n] = u
    # A cell's peers: its row, column and box, sorted, without repeats and without the cell itself
    # (vectorised: one np.unique per cell was most of a 9x9 command's start-up).
    mine = np.sort(units[cell_units].reshape(n * n, 3 * n), axis=1)
    keep = mine != np.arange(n * n, dtype=dtype)[:, None]
    keep[:, 1:] &= mine[:, 1:] != mine[:, :-1]
    peers = mine[keep].reshape(n * n, 3 * n - box_rows - box_cols - 1)
    tables = _Tables(np.ascontiguousarray(rows), np.ascontiguousarray(cols), boxes, units, cell_units, peers)
    for array in (tables.rows, tables.cols, tables.boxes, tables.units, tables.cell_units, tables.peers):
        array.flags.writeable = False
    return tables
