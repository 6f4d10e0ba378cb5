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

import functools
import random
from dataclasses import dataclass, field

import numpy as np

from ..tools.randomness import random_source
from ..grid.puzzle import Puzzle
from ..propagation import initial_masks, propagate_masks, tables
from ..propagation.tables import int64_masks
from ..propagation.choice import MAX_COMPILED_SIDE, charged, check_compiled, interrupted_kernel, prefer_compiled
from ..tools.individual import Individual, grid_operator
from .repair_kernel import Draws, fill_boxes, fill_boxes_reference, rebuild_compiled, rebuild_reference

__all__ = ["PropagationRepair", "propagation_repair", "mut_repair", "mut_destroy_repair"]


@dataclass
class PropagationRepair:
    """The repair kernel for one puzzle: root candidates after propagating the givens, and the tables.

    ``consistent`` is False when propagation alone proves the puzzle has no
    solution; repairs then only fill boxes and the collisions stay.  ``compiled``
    chooses the kernels' twin (the same results): ``None`` lets
    :func:`deap_sudoku.propagation.choice.prefer_compiled` decide call by call,
    so small grids do not wait for numba to load.
    """

    puzzle: Puzzle
    locked_candidates: bool = True
    compiled: bool | None = None
    consistent: bool = field(init=False)

    def __post_init__(self) -> None:
        check_compiled(self.compiled, self.puzzle.n)
        cands, queue = initial_masks(self.puzzle)
        self.consistent = propagate_masks(cands, queue, tables(self.puzzle.shape), hidden=True, locked=True)
        if not self.consistent:  # keep the givens, drop what the failed propagation removed
            cands, _ = initial_masks(self.puzzle)
        self._root = cands
        self._open = [c for c, m in enumerate(cands) if m & (m - 1)]
        self._open_array = np.array(self._open, dtype=np.int64)
        # only the compiled twin reads it, and its int64 masks hold no wider grid
        self._root_array = int64_masks(cands) if self.puzzle.n <= MAX_COMPILED_SIDE else None
        self.fixed = np.array([c for c, m in enumerate(cands) if not m & (m - 1)], dtype=np.intp)
        shape = self.puzzle.shape
        fixed = np.zeros(shape.cells, dtype=bool)
        fixed[self.fixed] = True
        # each box's cells, fixed ones first, so a fixed cell wins a duplicate
        self._box_order = np.array(
            [sorted(box, key=lambda c: not fixed[c]) for box in shape.boxes.tolist()], dtype=np.int64
        )
        self._lines = shape.units[: 2 * shape.n].astype(np.intp)
        self._peers = shape.peers.astype(np.intp)

    def candidates(self) -> list[int]:
        """The root candidate bitmasks (bit ``v - 1`` set when ``v`` is still possible)."""
        return list(self._root)

    def rebuild(
        self, values: np.ndarray, keep: np.ndarray, rng: np.random.Generator, noise: float = 0.0
    ) -> tuple[np.ndarray, int]:
        """Values of a rebuilt grid and the number of failed cells (see :func:`rebuild_reference`).

        The cells in ``keep`` are fixed to ``values`` first; the open cells are
        then decided most-constrained first, each preferring ``values[cell]``
        unless a ``noise`` coin says otherwise.  ``rng`` draws every random
        choice, so a seeded run is reproducible, and the same with either kernel.
        """
        shape = self.puzzle.shape
        values = shape.check_grid(values, "values").astype(np.int64)
        keep = _cell_indices(keep, shape.cells)
        return self._rebuild(values, keep, _generator(rng), check_probability(noise))

    def _rebuild(
        self, values: np.ndarray, keep: np.ndarray, rng: np.random.Generator, noise: float
    ) -> tuple[np.ndarray, int]:
        """:meth:`rebuild` of arguments already checked (int64 values and cells): the operators' hot path."""
        shape = self.puzzle.shape
        draws = Draws.new(rng, self._open_array, shape.cells, shape.n, noise)
        if self._compiled() and self._root_array is not None:  # None only above the compiled kernels' sides
            grid, failed = rebuild_compiled(self._root_array, values, keep, draws, shape, self.locked_candidates)
            return grid, int(failed)
        with charged():
            cells, failed = rebuild_reference(
                self._root, values.tolist(), keep.tolist(), draws, shape, self.locked_candidates
            )
        return np.array(cells, dtype=np.int64), failed

    def _compiled(self) -> bool:
        if self.compiled is not None:
            return self.compiled
        return prefer_compiled(self.puzzle.shape.cells, self.puzzle.n)

    def as_block_permutation(self, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """``values`` with every box made a permutation: a box's repeated or empty cells take its
        missing values in random order.  Of two equal cells the fixed one (a given, or forced by
        propagation) keeps its value, else the earlier one."""
        return self._as_block_permutation(
            self.puzzle.shape.check_grid(values, "values").astype(np.int64), _generator(rng)
        )

    def _as_block_permutation(self, out: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """:meth:`as_block_permutation` in place on an int64 grid already checked."""
        keys = rng.random(self._box_order.shape)
        if self._compiled():
            try:
                fill_boxes(out, self._box_order, keys)
            except SystemError as error:
                interrupted_kernel(error)
        else:
            with charged():
                fill_boxes_reference(out, self._box_order, keys)
        return out

    def clashing(self, values: np.ndarray) -> np.ndarray:
        """Cells sharing their value with another cell of their row or column, in increasing order."""
        return self._clashing(self.puzzle.shape.check_grid(values, "values"))

    def _clashing(self, values: np.ndarray) -> np.ndarray:
        lines = self._lines
        grid = values[lines]  # (2n, n)
        same = grid[:, :, None] == grid[:, None, :]
        clash = same.sum(axis=2) > 1
        cells = np.zeros(self.puzzle.shape.cells, dtype=bool)
        cells[lines[clash]] = True
        return np.flatnonzero(cells)

    def destroy(self, values: np.ndarray, rng: np.random.Generator, share: float = 0.5) -> np.ndarray:
        """Cells to keep: all open cells except the clashing ones and ``share`` of each one's peers."""
        return self._destroy(
            self.puzzle.shape.check_grid(values, "values"), _generator(rng), check_probability(share, "share")
        )

    def _destroy(self, values: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
        clash = self._clashing(values)
        drop = np.zeros(self.puzzle.shape.cells, dtype=bool)
        drop[clash] = True
        peers = self._peers[clash]
        drop[peers[rng.random(peers.shape) < share]] = True
        return self._open_array[~drop[self._open_array]]


@functools.lru_cache(maxsize=64)
def propagation_repair(
    puzzle: Puzzle, *, locked_candidates: bool = True, compiled: bool | None = None
) -> PropagationRepair:
    """The repair kernel of ``puzzle``, made once per puzzle and options (as
    :func:`~deap_sudoku.tools.free_cells.free_cells` is) for the repair moves that take ``puzzle=``."""
    return PropagationRepair(puzzle, locked_candidates, compiled)


def _cell_indices(cells: object, count: int) -> np.ndarray:
    """``cells`` as int64 cell indices, checked to be a flat list of whole numbers 0..count-1."""
    array = np.asarray(cells)
    if array.size and (array.dtype == bool or not np.issubdtype(array.dtype, np.integer)):
        raise TypeError(f"keep must hold cell indices (whole numbers), not {array.dtype}")
    if array.ndim != 1:
        raise ValueError(f"keep must be a flat list of cell indices; it has shape {array.shape}")
    if array.size and (array.min() < 0 or array.max() >= count):
        raise ValueError(
            f"keep holds cell {int(array.min() if array.min() < 0 else array.max())}, outside 0..{count - 1}"
        )
    return array.astype(np.int64)


def _generator(rng: object) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"rng must be a numpy.random.Generator (numpy.random.default_rng(seed)), not {type(rng).__name__}"
        )
    return rng


def check_probability(value: object, name: str = "noise") -> float:
    """``value`` itself when it is a probability 0..1 (not a bool), else a ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(f"{name} must be a probability 0..1, not {value!r}")
    return value


def _numpy_rng(rng) -> np.random.Generator:
    return np.random.default_rng(rng.getrandbits(64))


@grid_operator
def mut_repair(
    individual: Individual,
    *,
    puzzle: Puzzle,
    noise: float = 0.0,
    locked_candidates: bool = True,
    compiled: bool | None = None,
    rng: random.Random | None = None,
) -> tuple[Individual]:
    """Rebuild ``individual`` keeping its clash-free cells (Lamarckian repair); a mutation by contract:
    changed in place, returned as a tuple, its fitness left for the algorithm to invalidate.
    ``locked_candidates`` and ``compiled`` choose the kernel (:class:`PropagationRepair`)."""
    generator = _numpy_rng(random_source(rng))
    repair = propagation_repair(puzzle, locked_candidates=locked_candidates, compiled=compiled)
    values = repair.puzzle.shape.check_grid(individual, "mut_repair: individual").astype(np.int64)
    clash = np.zeros(values.size, dtype=bool)
    clash[repair._clashing(values)] = True
    keep = repair._open_array[~clash[repair._open_array]]
    rebuilt, _ = repair._rebuild(values, keep, generator, check_probability(noise))
    individual[:] = repair._as_block_permutation(rebuilt, generator)
    return (individual,)


@grid_operator
def mut_destroy_repair(
    individual: Individual,
    *,
    puzzle: Puzzle,
    share: float = 0.5,
    noise: float = 0.0,
    locked_candidates: bool = True,
    compiled: bool | None = None,
    rng: random.Random | None = None,
) -> tuple[Individual]:
    """Large-neighbourhood move: free the clashing cells and ``share`` of their peers, rebuild them
    (the kernel as for :func:`mut_repair`)."""
    generator = _numpy_rng(random_source(rng))
    repair = propagation_repair(puzzle, locked_candidates=locked_candidates, compiled=compiled)
    values = repair.puzzle.shape.check_grid(individual, "mut_destroy_repair: individual").astype(np.int64)
    keep = repair._destroy(values, generator, check_probability(share, "share"))
    rebuilt, _ = repair._rebuild(values, keep, generator, check_probability(noise))
    individual[:] = repair._as_block_permutation(rebuilt, generator)
    return (individual,)
