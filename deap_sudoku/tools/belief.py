"""The belief space of Mantere & Koljonen's cultural algorithm (IEEE CEC 2008): what the best
individuals agree on, which the mutation then leaves alone.

Acceptance: each generation, before selection, the ``accepted`` best individuals of the population
update the belief space (:meth:`BeliefSpace.update`).  Belief: a free cell on whose value all of them
agree holds that value in the belief space; the others hold none (0).  Influence: a mutation given the
belief space (:func:`~deap_sudoku.tools.mutation.mut_mixed_in_box` with ``belief=``) treats a cell
whose value is the believed one as it treats a given: it does not move it.

The belief is read afresh from each generation's population, so it needs no saving: a run resumed
from a checkpoint rebuilds it at its next selection.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..grid.puzzle import Puzzle, require

__all__ = ["BeliefSpace"]


class BeliefSpace:
    """The cultural algorithm's belief space over ``puzzle``: ``values`` holds, per cell, the value
    the ``accepted`` best individuals agree on (givens included) or 0."""

    def __init__(self, puzzle: Puzzle, *, accepted: int = 2) -> None:
        require(puzzle, Puzzle, "puzzle")
        if accepted < 1:
            raise ValueError(f"BeliefSpace: accepted is at least 1, not {accepted}")
        self.puzzle, self.accepted = puzzle, accepted
        self.values = np.where(puzzle.givens, puzzle.cells, 0).astype(np.int64)

    def update(self, population: Sequence) -> None:
        """Acceptance and belief: the ``accepted`` best of ``population`` (evaluated individuals)
        set, for every free cell, the value they all hold there, or 0 where they differ."""
        best = sorted(population, key=lambda ind: ind.fitness, reverse=True)[: self.accepted]
        grids = np.stack([np.asarray(ind, dtype=np.int64) for ind in best])
        agreed = (grids == grids[0]).all(axis=0) & ~self.puzzle.givens
        self.values = np.where(self.puzzle.givens, self.puzzle.cells, np.where(agreed, grids[0], 0))

    def frozen(self, individual) -> np.ndarray:
        """The free cells of ``individual`` that hold the believed value: the influence's mask."""
        return (np.asarray(individual) == self.values) & ~self.puzzle.givens

    @property
    def believed(self) -> int:
        """How many free cells hold a belief."""
        return int(np.count_nonzero(self.values[~self.puzzle.givens]))

    def accepting(self, select: Callable) -> Callable:
        """``select`` that first lets the population it is given update the belief space: the
        acceptance step, once per generation, at the point DEAP's loops select."""

        def select_after_acceptance(individuals: Sequence, k: int, *args, **kwargs) -> list:
            self.update(individuals)
            return select(individuals, k, *args, **kwargs)

        return select_after_acceptance
