"""Verification: is a grid a complete, valid solution that keeps a puzzle's givens?"""

from __future__ import annotations

import numpy as np

from ..grid.conflicts import find_conflicts
from ..grid.puzzle import Puzzle
from ..grid.shape import Shape

__all__ = ["verify", "unsolved_because"]


def verify(grid: Puzzle | np.ndarray | list[int], puzzle: Puzzle | None = None) -> bool:
    """Is ``grid`` a complete, valid solution (and does it keep every given of ``puzzle``)?

    ``grid`` may be a :class:`Puzzle`, a flat or square array or a list; its
    shape comes from ``puzzle`` when one is given, else from its size.
    """
    if isinstance(grid, Puzzle):
        shape, cells = grid.shape, grid.cells
    else:
        cells = np.asarray(grid).ravel()
        if puzzle is not None:
            shape = puzzle.shape
        else:
            try:
                shape = Shape.for_cells(cells.size)
            except ValueError:
                return False
    if cells.size != shape.cells or not np.issubdtype(cells.dtype, np.integer):
        return False
    if puzzle is not None:
        if puzzle.shape != shape:
            return False
        givens = puzzle.givens
        if not np.array_equal(cells[givens], puzzle.cells[givens]):
            return False
    in_units = np.sort(cells[shape.units], axis=1)
    return bool(np.array_equal(in_units, np.broadcast_to(np.arange(1, shape.n + 1), in_units.shape)))


def unsolved_because(grid: np.ndarray | list[int], puzzle: Puzzle) -> str:
    """Why ``grid`` does not solve ``puzzle``, in a few words (the first fault found: its size, an
    empty or out-of-range cell, a changed given, a repeated value), or ``""`` when it does."""
    cells = np.asarray(grid).ravel()
    shape = puzzle.shape
    if cells.size != shape.cells:
        return f"it has {cells.size} cells, not {shape.cells}"
    if not np.issubdtype(cells.dtype, np.integer):
        return f"its cells are {cells.dtype}, not whole numbers"
    outside = np.flatnonzero((cells < 1) | (cells > shape.n))
    if outside.size:
        cell = int(outside[0])
        what = "is empty" if cells[cell] == 0 else f"holds {cells[cell]}, outside 1-{shape.n}"
        return f"cell {shape.cell_name(cell)} {what}"
    changed = np.flatnonzero(puzzle.givens & (cells != puzzle.cells))
    if changed.size:
        cell = int(changed[0])
        return f"the given {puzzle.cells[cell]} at {shape.cell_name(cell)} is changed to {cells[cell]}"
    conflicts = find_conflicts(shape, cells)
    return conflicts[0].describe(shape) if conflicts else ""
