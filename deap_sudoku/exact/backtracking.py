"""Exact search: backtracking with propagation at every node, solution counting, randomised restarts.

The project's verifiers, the uniqueness check of the puzzle generator, and
the yardstick the evolutionary solvers are measured against.  Every node
propagates with :func:`deap_sudoku.propagation.propagate_masks`.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass

import numpy as np

from ..grid.conflicts import value_dtype
from ..grid.puzzle import Puzzle
from ..propagation import initial_masks, mask_values, propagate_masks, tables

__all__ = ["SearchResult", "SearchBudgetExceeded", "search", "solve", "count_solutions", "is_unique",
           "COMPILED_FROM_CELLS"]


class SearchBudgetExceeded(RuntimeError):
    """The search spent its budget (``max_nodes`` nodes or ``max_seconds`` seconds) without an answer."""


@dataclass(frozen=True)
class SearchResult:
    """Solutions found (at most ``limit``), search nodes visited, and whether the tree was exhausted."""

    solutions: tuple[Puzzle, ...]
    nodes: int
    exhausted: bool

    @property
    def count(self) -> int:
        return len(self.solutions)


COMPILED_FROM_CELLS = 82
"""Grids with at least this many cells search with the compiled propagation kernel by default; so
do smaller ones once numba is loaded in the process.  Measured (``benchmarks/exact_solvers.py
--kernel``): the compiled kernel visits the same nodes 4-7x faster, but its first use costs about
0.45 s (importing numba, loading the cached kernel), more than a 9x9 search takes in Python."""
MAX_COMPILED_SIDE = 62
"""The widest grid whose candidate masks fit the compiled kernel's ``int64``."""


def _use_compiled(puzzle: Puzzle, compiled: bool | None) -> bool:
    if compiled is None:
        return puzzle.n <= MAX_COMPILED_SIDE and (puzzle.shape.cells >= COMPILED_FROM_CELLS
                                                  or "numba" in sys.modules)
    if compiled and puzzle.n > MAX_COMPILED_SIDE:
        raise ValueError(f"the compiled kernel holds sides up to {MAX_COMPILED_SIDE}, not {puzzle.n}")
    return compiled


def _most_constrained(cands: list[int], rng: random.Random | None = None) -> int:
    """The undecided cell with the fewest candidates (ties: the first, or a random one with
    ``rng``), or -1 when every cell is decided."""
    best, best_count, ties = -1, 1 << 30, []
    for cell, m in enumerate(cands):
        if m & (m - 1):
            count = m.bit_count()
            if count < best_count:
                best, best_count, ties = cell, count, [cell]
                if count == 2 and rng is None:
                    break
            elif count == best_count and rng is not None:
                ties.append(cell)
    return rng.choice(ties) if rng is not None and ties else best


class _PythonNodes:
    """Search states as lists of Python ints, propagated by the reference kernel."""

    def __init__(self, puzzle: Puzzle, hidden: bool, locked: bool) -> None:
        self.t, self.hidden, self.locked = tables(puzzle.shape), hidden, locked
        self.dtype = value_dtype(puzzle.n)

    def root(self, puzzle: Puzzle) -> list[int] | None:
        cands, queue = initial_masks(puzzle)
        return cands if propagate_masks(cands, queue, self.t, hidden=self.hidden, locked=self.locked) else None

    def child(self, parent: list[int], cell: int, bit: int) -> list[int] | None:
        state = parent.copy()
        state[cell] = bit
        ok = propagate_masks(state, [cell], self.t, hidden=self.hidden, locked=self.locked,
                             dirty=set(self.t.cell_units[cell]))
        return state if ok else None

    most_constrained = staticmethod(_most_constrained)

    def options(self, state: list[int], cell: int) -> int:
        return state[cell]

    def values(self, state: list[int]) -> np.ndarray:
        return mask_values(state, self.dtype)


class _CompiledNodes:
    """Search states as ``int64`` arrays, propagated by the compiled twin: the same nodes in the same
    order as :class:`_PythonNodes`."""

    def __init__(self, puzzle: Puzzle, hidden: bool, locked: bool) -> None:
        from ..propagation.compiled import Propagator  # imports numba

        self.propagator = Propagator(puzzle.shape, hidden=hidden, locked=locked)
        self.dtype = value_dtype(puzzle.n)

    def root(self, puzzle: Puzzle) -> np.ndarray | None:
        cands, queue = initial_masks(puzzle)
        state = np.array(cands, dtype=np.int64)
        return state if self.propagator.run(state, queue) else None

    def child(self, parent: np.ndarray, cell: int, bit: int) -> np.ndarray | None:
        state = parent.copy()
        state[cell] = bit
        return state if self.propagator.run_cell(state, cell) else None

    @staticmethod
    def most_constrained(state: np.ndarray, rng: random.Random | None) -> int:
        counts = np.bitwise_count(state)
        counts[counts < 2] = 255  # decided cells never branch
        best = counts.min()
        if best == 255:
            return -1
        if rng is None:
            return int(np.argmin(counts))
        return rng.choice(np.flatnonzero(counts == best).tolist())

    def options(self, state: np.ndarray, cell: int) -> int:
        return int(state[cell])

    def values(self, state: np.ndarray) -> np.ndarray:
        return mask_values(state.tolist(), self.dtype)


def search(puzzle: Puzzle, *, limit: int = 1, max_nodes: int | None = None, max_seconds: float | None = None,
           hidden_singles: bool = True, locked_candidates: bool = True,
           rng: random.Random | None = None, compiled: bool | None = None) -> SearchResult:
    """Depth-first search with propagation at every node and the minimum-remaining-values rule.

    Stops after ``limit`` solutions (``limit=2`` answers "is it unique?").
    Each node is one tentative assignment followed by propagation (naked and
    hidden singles, and box-line reduction unless ``locked_candidates`` is off).
    With ``rng`` the value order and ties between equally constrained cells
    are random; without it the search is deterministic.  ``compiled``
    propagates with the compiled twin (the same nodes and answer); by default
    it is used where it pays (:data:`COMPILED_FROM_CELLS`).

    :raises SearchBudgetExceeded: when ``max_nodes`` nodes or ``max_seconds`` seconds (wall time, asked
        at every node) did not settle the question.
    """
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    if limit < 1:
        raise ValueError("limit must be at least 1")
    nodes_of = _CompiledNodes if _use_compiled(puzzle, compiled) else _PythonNodes
    kernel = nodes_of(puzzle, hidden_singles, locked_candidates)
    solutions: list[Puzzle] = []
    nodes = 1
    state = kernel.root(puzzle)
    if state is None:
        return SearchResult((), nodes, True)
    stack: list[tuple[object, int, int]] = []
    while True:
        if state is not None:
            cell = kernel.most_constrained(state, rng)
            if cell < 0:
                solutions.append(puzzle.filled(kernel.values(state)))
                if len(solutions) >= limit:
                    return SearchResult(tuple(solutions), nodes, False)
            else:
                options = kernel.options(state, cell)
                bits = []
                while options:
                    bit = options & -options
                    bits.append(bit)
                    options ^= bit
                if rng is not None:
                    rng.shuffle(bits)
                stack.extend((state, cell, bit) for bit in reversed(bits))
        if not stack:
            return SearchResult(tuple(solutions), nodes, True)
        if max_nodes is not None and nodes >= max_nodes:
            raise SearchBudgetExceeded(f"no answer after {nodes} search nodes")
        if deadline is not None and time.perf_counter() >= deadline:
            raise SearchBudgetExceeded(f"no answer within {max_seconds:g} s ({nodes} search nodes)")
        parent, cell, bit = stack.pop()
        nodes += 1
        state = kernel.child(parent, cell, bit)


def solve(puzzle: Puzzle, *, max_nodes: int | None = None, max_seconds: float | None = None,
          rng: random.Random | None = None, compiled: bool | None = None) -> Puzzle | None:
    """A solution, or ``None`` when the puzzle provably has none.

    Search times on hard large grids are heavy-tailed, so after a first
    deterministic search this runs randomised ones (random value order and
    tie-breaks, drawn from ``rng``; a generator seeded with 0 when none is
    given, so the result is always reproducible) with a node budget that grows by half
    after each restart, the remedy of Gomes,
    Selman & Kautz ("Heavy-tailed phenomena in satisfiability and constraint
    satisfaction problems", 2000).  It stays complete: the budget grows
    without bound, and a search that exhausts its tree proves there is no
    solution.

    :raises SearchBudgetExceeded: when ``max_nodes`` nodes or ``max_seconds`` seconds in all did not
        settle it.
    """
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    rng = rng if rng is not None else random.Random(0)
    order: random.Random | None = None  # the first search is the deterministic one
    budget, spent = _FIRST_BUDGET, 0
    while True:
        if max_nodes is not None:
            budget = min(budget, max_nodes - spent)
        left = None if deadline is None else deadline - time.perf_counter()
        try:
            result = search(puzzle, limit=1, max_nodes=budget, max_seconds=left, rng=order, compiled=compiled)
        except SearchBudgetExceeded:
            if left is not None and time.perf_counter() >= deadline:
                raise SearchBudgetExceeded(f"no answer within {max_seconds:g} s") from None
            spent += budget
            if max_nodes is not None and spent >= max_nodes:
                raise SearchBudgetExceeded(f"no answer after {spent} search nodes") from None
            budget += budget // 2
            order = rng
            continue
        return result.solutions[0] if result.solutions else None


_FIRST_BUDGET = 200


def count_solutions(puzzle: Puzzle, *, limit: int = 2, max_nodes: int | None = None,
                    compiled: bool | None = None) -> int:
    """The number of solutions, counted up to ``limit``."""
    return search(puzzle, limit=limit, max_nodes=max_nodes, compiled=compiled).count


def is_unique(puzzle: Puzzle, *, max_nodes: int | None = None, compiled: bool | None = None) -> bool:
    """True when the puzzle has exactly one solution."""
    return count_solutions(puzzle, limit=2, max_nodes=max_nodes, compiled=compiled) == 1
