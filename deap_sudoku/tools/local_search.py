"""Wang et al.'s (IEEE Trans. Games 2024, "LSGA") column and sub-block local searches, as mutations of
row-permutations: DEAP's contract (change the individual in place, return ``(individual,)``).

Both swap two free cells of one row, so every row stays a permutation and the givens never move.
Each looks at the illegal units (columns, or boxes) of the individual as it is when called: for
every illegal unit it draws another illegal one, and swaps the first pair of cells in one row that
both hold a value repeated in their own unit, where neither value is repeated in the other unit.
The rules are read from third-party reimplementations that say they follow the paper's pseudocode
(``docs/literature.md`` says which); the paper's body could not be read here.
"""

from __future__ import annotations

import random

import numpy as np

from ..grid.puzzle import Puzzle
from .individual import Individual, grid_operator
from .randomness import random_source
from .wrapping import claim_invariant

__all__ = ["mut_column_local_search", "mut_block_local_search", "repeated_values"]


def repeated_values(values: np.ndarray, n: int) -> np.ndarray:
    """``(n + 1,)`` booleans: true for each value held by more than one of ``values`` (one unit's cells)."""
    counts = np.bincount(np.asarray(values, dtype=np.intp), minlength=n + 1)
    return counts > 1


def _illegal(individual: np.ndarray, units: np.ndarray, n: int) -> list[int]:
    return [u for u in range(len(units)) if repeated_values(individual[units[u]], n).any()]


def _swap_first(individual: np.ndarray, pairs: list[tuple[int, int]], unit1, unit2, givens, n: int) -> bool:
    """Swap the first of ``pairs`` (cells of ``unit1``, ``unit2`` in one row) whose cells are free, hold
    values repeated in their own unit, and whose values are not repeated in the other unit."""
    repeated1 = repeated_values(individual[unit1], n)
    repeated2 = repeated_values(individual[unit2], n)
    for a, b in pairs:
        if givens[a] or givens[b]:
            continue
        va, vb = int(individual[a]), int(individual[b])
        if repeated1[va] and repeated2[vb] and not repeated2[va] and not repeated1[vb]:
            individual[a], individual[b] = vb, va
            return True
    return False


@grid_operator
def mut_column_local_search(
    individual: Individual, *, puzzle: Puzzle, rng: random.Random | None = None
) -> tuple[Individual]:
    """Column local search: for each illegal column (those illegal on entry, in order), draw another
    illegal column and swap, in the first row where both cells are free and hold repeated values, the
    two cells when neither value is repeated in the other column.  Nothing happens with fewer than
    two illegal columns."""
    rng = random_source(rng)
    n, cols, givens = puzzle.n, puzzle.shape.cols, puzzle.givens
    illegal = _illegal(individual, cols, n)
    if len(illegal) < 2:
        return (individual,)
    for j1 in illegal:
        j2 = rng.choice([j for j in illegal if j != j1])
        _swap_first(individual, list(zip(cols[j1].tolist(), cols[j2].tolist())), cols[j1], cols[j2], givens, n)
    return (individual,)


@grid_operator
def mut_block_local_search(
    individual: Individual, *, puzzle: Puzzle, rng: random.Random | None = None
) -> tuple[Individual]:
    """Sub-block local search: for each illegal box (those illegal on entry, in order), draw another
    illegal box of the same band (boxes side by side, which share rows) and swap the first pair of
    free cells, one in each box and both in one row, that hold values repeated in their own box when
    neither value is repeated in the other box.  A box with no illegal box beside it is left alone."""
    rng = random_source(rng)
    n, boxes, givens = puzzle.n, puzzle.shape.boxes, puzzle.givens
    band = [int(box[0]) // n // puzzle.shape.box_rows for box in boxes]
    illegal = _illegal(individual, boxes, n)
    for s1 in illegal:
        others = [s for s in illegal if s != s1 and band[s] == band[s1]]
        if not others:
            continue
        s2 = rng.choice(others)
        pairs = [(a, b) for a in boxes[s1].tolist() for b in boxes[s2].tolist() if a // n == b // n]
        _swap_first(individual, pairs, boxes[s1], boxes[s2], givens, n)
    return (individual,)


# The representation invariant each operator keeps (tools.checks.check_operator checks the claim).
claim_invariant("row", mut_column_local_search, mut_block_local_search)
