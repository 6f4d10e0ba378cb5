"""The "constraint analyzer" exactly as documented: naked singles, one sweep over the board at a time.

For every empty square, the values its row, column and box lack are its
candidates; a square with one candidate gets it at once (later squares of the
same sweep see it), and sweeps repeat until one fills nothing.  It reaches the
fixed point that :func:`~deap_sudoku.propagation.kernel.propagate` with
``hidden_singles=False`` reaches (property-tested), and also counts the sweeps
the source's walk-through counts ("5 times" for its example puzzle).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..grid.puzzle import Puzzle, require

__all__ = ["Analysis", "analyze"]


@dataclass(frozen=True)
class Analysis:
    """The grid after the sweeps (0 where unknown), how many sweeps filled a square, and whether a
    square was left with no candidate."""

    puzzle: Puzzle
    values: np.ndarray
    sweeps: int
    contradiction: bool

    @property
    def filled(self) -> int:
        return int(np.count_nonzero(self.values)) - self.puzzle.num_givens

    @property
    def solved(self) -> bool:
        return not self.contradiction and bool(np.all(self.values))


def analyze(puzzle: Puzzle) -> Analysis:
    """Sweep the board in reading order, filling every square with one candidate, until a sweep fills none."""
    require(puzzle, Puzzle, "puzzle")
    shape = puzzle.shape
    grid = puzzle.cells.tolist()
    peers = [row.tolist() for row in shape.peers]
    everything = set(range(1, puzzle.n + 1))
    sweeps = 0
    while True:
        filled_now = False
        for cell, value in enumerate(grid):
            if value:
                continue
            left = everything.difference(grid[p] for p in peers[cell])
            if not left:
                return Analysis(puzzle, np.array(grid, dtype=puzzle.cells.dtype), sweeps + filled_now, True)
            if len(left) == 1:
                grid[cell] = left.pop()
                filled_now = True
        if not filled_now:
            return Analysis(puzzle, np.array(grid, dtype=puzzle.cells.dtype), sweeps, False)
        sweeps += 1
