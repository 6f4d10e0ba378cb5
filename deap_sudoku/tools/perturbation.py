"""Iterated local search's two public parts: a perturbation that frees part of a grid and completes it
again by constraint programming, and an acceptance rule.

:func:`mut_free_and_complete` is the constraint-programming perturbation of Musliu & Winter's hybrid
("A hybrid approach for the Sudoku problem: using constraint programming in iterated local
search", IEEE Intelligent Systems 32(2), 2017), as far as we could reconstruct it: the paper's text
could not be read while writing this, so which cells are freed, how they are completed and every
value here are our choices, not checked against it.  It follows DEAP's mutation contract and keeps
block-permutations.
"""

from __future__ import annotations

import random

import numpy as np

from ..exact.backtracking import SearchBudgetExceeded, solve
from ..grid.puzzle import Puzzle
from ..propagation import propagate
from .free_cells import free_cells
from .individual import Individual, grid_operator
from .randomness import random_source
from .wrapping import claim_invariant

__all__ = ["mut_free_and_complete", "accept_not_worse", "conflicting_cells"]


def conflicting_cells(values: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    """The free cells whose value is also elsewhere in their row, column or box (sorted).

    :raises ValueError: for values that are not a grid of ``puzzle``'s shape."""
    shape = puzzle.shape
    values = shape.check_grid(values, "values")
    n = shape.n
    units = shape.units  # rows, columns, boxes: (3n, n) cell indices
    unit_values = values[units]
    counts = np.zeros((len(units), n + 1), dtype=np.int64)
    np.add.at(counts, (np.arange(len(units))[:, None], unit_values), 1)
    twice = counts[np.arange(len(units))[:, None], unit_values] > 1
    clashing = np.zeros(shape.cells, dtype=bool)
    clashing[units[twice]] = True
    return np.flatnonzero(clashing & ~puzzle.givens)


@grid_operator
def mut_free_and_complete(
    individual: Individual,
    *,
    puzzle: Puzzle,
    share: float = 0.2,
    max_nodes: int = 200,
    max_seconds: float | None = None,
    rng: random.Random | None = None,
) -> tuple[Individual]:
    """Free every clashing free cell and ``share`` of the other free cells, then complete them again.

    The cells kept form a partial grid without a clash, given to the exact search
    (:func:`~deap_sudoku.exact.solve`: propagation at every node, randomised value order drawn from
    ``rng``) with at most ``max_nodes`` nodes (and ``max_seconds``).  A completion found is written
    in: every box a permutation, and if the kept cells allowed one, the puzzle is solved.  When the
    search proves there is none or runs out of budget, each box's freed cells get the values the
    box misses, at random, each cell preferring the values propagation of the partial grid still
    allows it.  Givens never move; the result is a block-permutation whatever the input.
    """
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must be between 0 and 1, not {share!r}")
    rng = random_source(rng)
    shape = puzzle.shape
    values = np.asarray(individual).astype(np.int64)
    free = free_cells(puzzle)
    clashing = conflicting_cells(values, puzzle)
    others = np.setdiff1d(free.cells, clashing).tolist()
    extra = rng.sample(others, round(share * len(others))) if others else []
    freed = np.union1d(clashing, np.asarray(extra, dtype=np.int64)).astype(np.int64)
    if not len(freed):
        return (individual,)
    partial = values.copy()
    partial[freed] = 0
    sub = Puzzle(partial, box=shape)
    try:
        completed = solve(
            sub, max_nodes=max_nodes, max_seconds=max_seconds, rng=rng, compiled=False, deterministic_first=False
        )
    except SearchBudgetExceeded:
        completed = None
    if completed is not None:
        individual[freed] = completed.cells[freed]
        return (individual,)
    masks = propagate(sub).masks
    chosen = set(freed.tolist())
    for cells in free.boxes:
        open_cells = [int(c) for c in cells if int(c) in chosen]
        if not open_cells:
            continue
        kept = set(partial[shape.boxes[free.box_of[open_cells[0]]]].tolist())
        missing = [v for v in range(1, shape.n + 1) if v not in kept]
        rng.shuffle(open_cells)
        for cell in open_cells:
            allowed = [v for v in missing if masks[cell] >> (v - 1) & 1]
            value = rng.choice(allowed or missing)
            missing.remove(value)
            individual[cell] = value
    return (individual,)


claim_invariant("block", mut_free_and_complete)


def accept_not_worse(old_cost: float, new_cost: float, rng: random.Random | None = None, *, worse: float = 0.0) -> bool:
    """Iterated local search's acceptance: the new local optimum replaces the current one when its
    cost is not higher, and a worse one with probability ``worse`` (0: never, and ``rng`` is not
    drawn from)."""
    if new_cost <= old_cost:
        return True
    return worse > 0.0 and random_source(rng).random() < worse
