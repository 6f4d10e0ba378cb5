"""Where the free cells of a puzzle are, by box and by row, computed once per puzzle for the operators."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..grid.puzzle import Puzzle, require

__all__ = ["FreeCells", "free_cells"]


@dataclass(frozen=True)
class FreeCells:
    """The cells operators may change: all of them, per box and per row, and the values each unit misses."""

    cells: np.ndarray
    boxes: tuple[np.ndarray, ...]
    rows: tuple[np.ndarray, ...]
    box_missing: tuple[np.ndarray, ...]
    row_missing: tuple[np.ndarray, ...]
    box_of: np.ndarray


@functools.lru_cache(maxsize=64)
def free_cells(puzzle: Puzzle) -> FreeCells:
    require(puzzle, Puzzle, "puzzle")
    shape, values, givens = puzzle.shape, puzzle.cells, puzzle.givens

    def split(units: np.ndarray) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
        free = tuple(unit[~givens[unit]] for unit in units)
        present = np.zeros((len(units), puzzle.n + 1), dtype=bool)
        present[np.arange(len(units))[:, None], values[units]] = True
        missing = tuple(np.flatnonzero(~seen[1:]) + 1 for seen in present)
        return free, missing

    boxes, box_missing = split(shape.boxes)
    rows, row_missing = split(shape.rows)
    box_of = np.empty(shape.cells, dtype=np.int64)
    box_of[shape.boxes] = np.arange(puzzle.n)[:, None]
    return FreeCells(np.flatnonzero(~givens), boxes, rows, box_missing, row_missing, box_of)
