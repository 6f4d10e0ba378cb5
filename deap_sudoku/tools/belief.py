"""The belief space of Mantere & Koljonen's cultural algorithm (IEEE CEC 2008): what the best
individuals agree on, which the mutation then leaves alone.

Acceptance: each generation, before selection, the ``accepted`` best distinct individuals of the
population update the belief space (:meth:`BeliefSpace.update`).  Belief: a free cell on whose value
all of them agree, a value that clashes with nothing in the best's row and column, holds that value
in the belief space; the others hold none (0).  Influence: a mutation given the
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
        """Acceptance and belief: the ``accepted`` best distinct grids of ``population`` (evaluated
        individuals) set, for every free cell, the value they all hold there where that value clashes
        with nothing in its row and column, or 0.  Copies of one grid are one voice: with fewer than
        ``accepted`` distinct grids (or fewer than two) nothing is believed."""
        grids: list[np.ndarray] = []
        for ind in sorted(population, key=lambda ind: ind.fitness, reverse=True):
            grid = np.asarray(ind, dtype=np.int64)
            if not any(np.array_equal(grid, seen) for seen in grids):
                grids.append(grid)
                if len(grids) == self.accepted:
                    break
        free = ~self.puzzle.givens
        if len(grids) < max(self.accepted, 2):
            self.values = np.where(free, 0, self.puzzle.cells).astype(np.int64)
            return
        best = np.stack(grids)
        agreed = (best == best[0]).all(axis=0) & free & ~self._clashing(best[0])
        self.values = np.where(free, np.where(agreed, best[0], 0), self.puzzle.cells).astype(np.int64)

    def _clashing(self, grid: np.ndarray) -> np.ndarray:
        """The cells whose value is in their row or column twice."""
        shape, clash = self.puzzle.shape, np.zeros(self.puzzle.shape.cells, dtype=bool)
        for cells in shape.units[: 2 * self.puzzle.n]:  # rows, then columns
            values = grid[cells]
            counts = np.bincount(values, minlength=self.puzzle.n + 1)
            clash[cells[counts[values] > 1]] = True
        return clash

    def frozen(self, individual) -> np.ndarray:
        """The free cells of ``individual`` that hold the believed value: the influence's mask."""
        return (np.asarray(individual) == self.values) & ~self.puzzle.givens

    @property
    def believed(self) -> int:
        """How many free cells hold a belief."""
        return int(np.count_nonzero(self.values[~self.puzzle.givens]))

    def accepting(self, select: Callable) -> Accepting:
        """``select`` that first lets the population it is given update the belief space: the
        acceptance step, once per generation, at the point DEAP's loops select.  The answer is an
        :class:`Accepting`, which pickles and which a deep copy copies together with this belief
        space (a toolbox's copy then selects and mutates with one belief space of its own)."""
        return Accepting(self, select)


class Accepting:
    """A selection that lets the population it is given update ``belief`` first, then selects with
    ``select`` (:meth:`BeliefSpace.accepting`): an object, not a closure, so that a toolbox holding
    it pickles, and a deep copy of the toolbox shares one new belief space between its ``select``
    and its ``mutate``."""

    def __init__(self, belief: BeliefSpace, select: Callable) -> None:
        self.belief, self.select = belief, select

    def __call__(self, individuals: Sequence, k: int, *args, **kwargs) -> list:
        self.belief.update(individuals)
        return self.select(individuals, k, *args, **kwargs)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.belief!r}, {getattr(self.select, '__name__', self.select)!r})"
