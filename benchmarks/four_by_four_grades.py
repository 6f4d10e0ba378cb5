"""Every 4x4 puzzle with one solution falls to naked singles, so none grades above ``easy``.

Checked exhaustively: all 65,536 sets of givens on each of the 12 solution grids whose first
row is 1 2 3 4 (every one of the 288 grids is one of these relabelled, and relabelling changes
neither uniqueness nor what naked singles do).  A set of givens has one solution when no other
grid agrees with it on every given; naked singles then run on all such puzzles at once.
``deap-sudoku generate --box 2x2`` refuses the harder
difficulties because of this result::

    python benchmarks/four_by_four_grades.py
"""

from __future__ import annotations

import numpy as np

from deap_sudoku import Puzzle, Shape
from deap_sudoku.exact import search


def solution_grids() -> np.ndarray:
    """All 288 solved 4x4 grids, ``(288, 16)``."""
    found = search(Puzzle([0] * 16, box=Shape(2, 2)), limit=1000).solutions
    return np.array([p.cells for p in found], dtype=np.int64)


def main() -> None:
    grids = solution_grids()
    shape = Shape(2, 2)
    cells = 16
    masks = np.arange(1 << cells, dtype=np.int64)
    given = ((masks[:, None] >> np.arange(cells)) & 1).astype(bool)  # (65536, 16)
    bits = 1 << np.arange(cells, dtype=np.int64)
    peer_matrix = np.zeros((cells, cells), dtype=bool)
    for cell in range(cells):
        for other in shape.peers[cell]:
            peer_matrix[cell, other] = True
    unique_total = stuck_total = 0
    representatives = [g for g in grids if list(g[:4]) == [1, 2, 3, 4]]
    for grid in representatives:
        differs = (grids != grid) @ bits  # per grid h, the cells where h differs from this one, as bits
        excluded = (masks[:, None] & differs[None, :]) != 0  # a given where h differs rules h out
        unique = excluded.sum(axis=1) == len(grids) - 1
        unique_total += int(unique.sum())
        filled = given[unique].copy()
        candidates = np.ones((filled.shape[0], cells, 4), dtype=bool)
        values = np.broadcast_to(grid - 1, filled.shape)
        for _ in range(cells):
            placed = np.zeros_like(candidates)
            rows, cols = np.nonzero(filled)
            placed[rows, cols, values[rows, cols]] = True
            blocked = np.einsum("pcv,cd->pdv", placed.astype(np.int32), peer_matrix.astype(np.int32)) > 0
            candidates = ~blocked
            single = (~filled) & (candidates.sum(axis=2) == 1)
            if not single.any():
                break
            filled |= single
        stuck_total += int((~filled.all(axis=1)).sum())
    print(
        f"{len(grids)} grids, {len(representatives)} up to relabelling; over their {len(representatives)} x 65536 "
        f"sets of givens, {unique_total} puzzles have one solution and naked singles leave {stuck_total} unsolved"
    )


if __name__ == "__main__":
    main()
