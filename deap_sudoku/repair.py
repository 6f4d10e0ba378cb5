"""Propagation repair: the memetic solver's improvement step for block-permutation individuals.

A repair rebuilds an individual cell by cell the way Lloyd & Amos's ant
colony builds a grid ("Solving Sudoku with Ant Colony Optimization", IEEE
Trans. Games 2019): the most constrained open cell takes the individual's own
value when constraint propagation (naked and hidden singles, box-line
reduction) accepts it, else another value propagation accepts; a cell that
admits no value *fails*: it keeps a value and becomes a collision, and the
construction goes on.  Nothing is ever undone, so this is not a backtracking
search: the population has to find the grid.  The result is written back
(Lamarckian) as a block-permutation: failed and duplicated cells of a box take
the box's missing values.

:func:`mut_destroy_repair` is the large-neighbourhood move on top of it: keep
every cell outside the collisions and a random part of their peers, rebuild
the rest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from .individual import Individual
from .puzzle import Puzzle
from .solvers import _context, _initial, _propagate

__all__ = ["PropagationRepair", "mut_repair", "mut_destroy_repair"]


@dataclass
class PropagationRepair:
    """The repair kernel for one puzzle: root candidates after propagating the givens, and the tables.

    ``consistent`` is False when propagation alone proves the puzzle has no
    solution; repairs then only fill boxes and the collisions stay.
    """

    puzzle: Puzzle
    consistent: bool = field(init=False)
    repairs: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self._ctx = ctx = _context(self.puzzle.shape)
        cands, queue = _initial(self.puzzle, ctx)
        self.consistent = _propagate(cands, queue, ctx, True, True)
        if not self.consistent:  # keep the givens, drop what the failed propagation removed
            cands, _ = _initial(self.puzzle, ctx)
        self._root = cands
        self._open = [c for c, m in enumerate(cands) if m & (m - 1)]
        self.fixed = np.array([c for c, m in enumerate(cands) if not m & (m - 1)], dtype=np.intp)
        boxes = self.puzzle.shape.boxes.tolist()
        self._boxes = boxes
        self._lines = self.puzzle.shape.units[: 2 * self.puzzle.n].tolist()

    def candidates(self) -> list[int]:
        """The root candidate bitmasks (bit ``v - 1`` set when ``v`` is still possible)."""
        return list(self._root)

    def rebuild(self, values: list[int], keep: list[int], rng: random.Random, noise: float = 0.0) -> tuple[list[int], int]:
        """Values of a rebuilt grid and the number of failed cells.

        The cells in ``keep`` are fixed to ``values`` first in one propagation
        (dropped all together if that contradicts); the open cells are then
        decided most-constrained first, each preferring ``values[cell]``
        unless a ``noise`` coin says otherwise.
        """
        self.repairs += 1
        ctx = self._ctx
        cands = list(self._root)
        if keep:
            queue = []
            for c in keep:
                bit = 1 << (values[c] - 1)
                if cands[c] & bit and cands[c] != bit:
                    cands[c] = bit
                    queue.append(c)
            dirty = {u for c in queue for u in ctx.cell_units[c]}
            if not _propagate(cands, queue, ctx, True, True, dirty):
                cands = list(self._root)
        open_cells = [c for c in self._open if cands[c] & (cands[c] - 1)]
        rng.shuffle(open_cells)  # random ties among equally constrained cells
        failed = 0
        peers, cell_units, n = ctx.peers, ctx.cell_units, ctx.n
        while open_cells:
            open_cells = [c for c in open_cells if cands[c] & (cands[c] - 1)]
            if not open_cells:
                break
            cell = min(open_cells, key=lambda c: cands[c].bit_count())
            m = cands[cell]
            choices = [v for v in range(1, n + 1) if m >> (v - 1) & 1]
            rng.shuffle(choices)
            preferred = values[cell]
            if preferred in choices and rng.random() >= noise:
                choices.remove(preferred)
                choices.insert(0, preferred)
            for v in choices:
                trial = cands.copy()
                trial[cell] = 1 << (v - 1)
                if _propagate(trial, [cell], ctx, True, True, set(cell_units[cell])):
                    cands = trial
                    break
            else:  # no value survives propagation: keep the first choice as a collision
                failed += 1
                bit = 1 << (choices[0] - 1)
                cands[cell] = bit
                for p in peers[cell]:
                    pm = cands[p]
                    if pm & bit and pm & (pm - 1):
                        cands[p] = pm & ~bit
        return [m.bit_length() if m and not m & (m - 1) else 0 for m in cands], failed

    def as_block_permutation(self, values: list[int], rng: random.Random) -> list[int]:
        """``values`` with every box made a permutation: a box's repeated or empty cells
        (the later of two equal ones) take its missing values in random order."""
        out = list(values)
        for box in self._boxes:
            seen = set()
            redo = []
            for c in box:
                v = out[c]
                if v and v not in seen:
                    seen.add(v)
                else:
                    redo.append(c)
            if redo:
                missing = [v for v in range(1, len(box) + 1) if v not in seen]
                rng.shuffle(missing)
                for c, v in zip(redo, missing):
                    out[c] = v
        return out

    def clashing(self, values: list[int]) -> list[int]:
        """Cells sharing their value with another cell of their row or column."""
        bad = set()
        for line in self._lines:
            first: dict[int, int] = {}
            for c in line:
                v = values[c]
                if v in first:
                    bad.add(c)
                    bad.add(first[v])
                else:
                    first[v] = c
        return sorted(bad)

    def collisions(self, values: list[int]) -> int:
        """Row and column collisions of a block-permutation (equal to :func:`eval_collisions`)."""
        return sum(len(line) - len({values[c] for c in line}) for line in self._lines)

    def destroy(self, values: list[int], rng: random.Random, share: float = 0.5) -> list[int]:
        """Cells to keep: all open cells except the clashing ones and ``share`` of each one's peers."""
        drop = set(self.clashing(values))
        peers = self._ctx.peers
        for c in list(drop):
            drop.update(p for p in peers[c] if rng.random() < share)
        return [c for c in self._open if c not in drop]


def _store(individual: Individual, values: list[int]) -> None:
    individual[:] = values
    del individual.fitness.values


def mut_repair(individual: Individual, *, repair: PropagationRepair, noise: float = 0.0,
               rng: random.Random | None = None) -> tuple[Individual]:
    """Rebuild ``individual`` keeping its clash-free cells (Lamarckian repair); a mutation by contract."""
    rng = rng or random
    values = individual.tolist()
    clash = set(repair.clashing(values))
    keep = [c for c in repair._open if c not in clash]
    rebuilt, _ = repair.rebuild(values, keep, rng, noise)
    _store(individual, repair.as_block_permutation(rebuilt, rng))
    return (individual,)


def mut_destroy_repair(individual: Individual, *, repair: PropagationRepair, share: float = 0.5,
                       noise: float = 0.0, rng: random.Random | None = None) -> tuple[Individual]:
    """Large-neighbourhood move: free the clashing cells and ``share`` of their peers, rebuild them."""
    rng = rng or random
    values = individual.tolist()
    rebuilt, _ = repair.rebuild(values, repair.destroy(values, rng, share), rng, noise)
    _store(individual, repair.as_block_permutation(rebuilt, rng))
    return (individual,)
