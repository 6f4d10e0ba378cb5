"""Exact search: backtracking with propagation at every node, solution counting, randomised restarts.

The project's verifiers, the uniqueness check of the puzzle generator, and
the yardstick the evolutionary solvers are measured against.  Every node
propagates with :func:`deap_sudoku.propagation.propagate_masks`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from ..grid.conflicts import value_dtype
from ..grid.puzzle import Puzzle
from ..propagation import initial_masks, mask_values, propagate_masks, tables
from ..propagation.choice import (
    charged,
    check_compiled,
    interrupted_kernel,
    prefer_compiled,
    probe_seconds,
    take_up_compiled,
)

__all__ = ["SearchResult", "SearchBudgetExceeded", "search", "solve", "count_solutions", "is_unique"]


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


def _use_compiled(puzzle: Puzzle, compiled: bool | None) -> bool:
    if compiled is None:
        return prefer_compiled(puzzle.shape.cells, puzzle.n)
    check_compiled(compiled, puzzle.n)
    return compiled


@dataclass(frozen=True)
class _Order:
    """The search's choices: the branch cell is the undecided one with the fewest candidates, ties
    to the smallest ``keys``; values are tried in increasing ``ranks[cell]`` (``None``: increasing
    value, and ties to the first cell).  A randomised search draws both once, from its ``rng``."""

    keys: np.ndarray
    ranks: np.ndarray | None

    @classmethod
    def of(cls, puzzle: Puzzle, rng: random.Random | None) -> _Order:
        cells = puzzle.shape.cells
        if rng is None:
            return cls(np.arange(cells, dtype=np.int64), None)
        draw = np.random.default_rng(rng.getrandbits(64))
        return cls(draw.permutation(cells).astype(np.int64), draw.random((cells, puzzle.n)))


def _branch_cell(cands: list[int], keys: list[int], randomised: bool) -> int:
    """The cell to branch on (see :class:`_Order`), or -1 when every cell is decided."""
    best, fewest, best_key = -1, 1 << 30, 0
    for cell, m in enumerate(cands):
        if m & (m - 1):
            count = m.bit_count()
            if count < fewest or (count == fewest and keys[cell] < best_key):
                best, fewest, best_key = cell, count, keys[cell]
                if count == 2 and not randomised:
                    break
    return best


def check_puzzle(puzzle: object) -> None:
    """Refuse anything but a :class:`~deap_sudoku.grid.puzzle.Puzzle` with a ``TypeError``."""
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"puzzle must be a deap_sudoku.Puzzle, not {type(puzzle).__name__}")


def check_budget(max_nodes: object, max_seconds: object, *, name: str = "max_nodes") -> None:
    """Refuse a budget that cannot mean anything: ``max_nodes`` (a count called ``name``, such as
    ``max_conflicts``) a whole number of at least 1, ``max_seconds`` a positive number (a budget of
    0 would settle nothing)."""
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, np.integer))):
        raise TypeError(f"{name} must be a whole number, not {max_nodes!r}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"{name} must be at least 1, not {max_nodes}")
    if max_seconds is not None and (isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float))):
        raise TypeError(f"max_seconds must be a number of seconds, not {max_seconds!r}")
    if max_seconds is not None and not max_seconds > 0:
        raise ValueError(f"max_seconds must be more than 0, not {max_seconds}")


class _Budget:
    """The node and time budget of one search, asked before every node (the compiled search asks
    between runs of nodes)."""

    def __init__(self, max_nodes: int | None, max_seconds: float | None) -> None:
        check_budget(max_nodes, max_seconds)
        self.max_nodes, self.max_seconds = max_nodes, max_seconds
        self.deadline = None if max_seconds is None else time.perf_counter() + max_seconds

    def check(self, nodes: int) -> None:
        if self.max_nodes is not None and nodes >= self.max_nodes:
            raise SearchBudgetExceeded(f"no answer after {nodes} search nodes")
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchBudgetExceeded(f"no answer within {self.max_seconds:g} s ({nodes} search nodes)")


class _ProbeEnded(Exception):
    """A Python probe ran out of its time before the search's own budget did."""


class _Probe:
    """The budget of a Python probe: the search's own, and ``seconds`` more at most."""

    def __init__(self, budget: _Budget, seconds: float) -> None:
        self.budget, self.deadline = budget, time.perf_counter() + seconds

    def check(self, nodes: int) -> None:
        self.budget.check(nodes)
        if time.perf_counter() >= self.deadline:
            raise _ProbeEnded


class _TakenUp(Exception):
    """The compiled kernels were taken up while a search ran in Python (:class:`_TakeUp`)."""


class _TakeUp:
    """The budget of a search left to choose its twin that runs in Python: the search's own, and,
    between nodes, whether a hold on the compiled kernels has ended
    (:func:`~deap_sudoku.propagation.choice.take_up_compiled`)."""

    def __init__(self, budget: _Budget, puzzle: Puzzle) -> None:
        self.budget, self.cells, self.n = budget, puzzle.shape.cells, puzzle.n

    def check(self, nodes: int) -> None:
        self.budget.check(nodes)
        if take_up_compiled(self.budget.deadline) and prefer_compiled(self.cells, self.n):
            raise _TakenUp


def _answer(puzzle: Puzzle, cands: list[int] | np.ndarray) -> Puzzle:
    """The solution in ``cands``, every cell decided at a fixed point of propagation.

    Propagation has proved it sound: each decided cell took its value out of
    its peers, so no unit holds a value twice, and a given's mask only ever
    loses its one value in a contradiction.  So the grid is frozen without
    :meth:`Puzzle.filled`'s check, which would cost a one-node 25x25 search a
    third of its time.  (The tests and the benchmark verify every answer.)
    """
    return Puzzle._checked(puzzle.shape, mask_values(cands, value_dtype(puzzle.n)))


def _search_python(
    puzzle: Puzzle, limit: int, budget: _Budget | _Probe | _TakeUp, hidden: bool, locked: bool, order: _Order
) -> SearchResult:
    """Depth-first search on lists of Python ints, propagated by the reference kernel."""
    t = tables(puzzle.shape)
    keys, randomised = order.keys.tolist(), order.ranks is not None
    state: list[int] | None
    state, queue = initial_masks(puzzle)
    nodes, solutions = 1, []
    if not propagate_masks(state, queue, t, hidden=hidden, locked=locked):
        return SearchResult((), nodes, True)
    stack: list[tuple[list[int], int, list[int]]] = []  # parent, branch cell, value bits left (next last)
    while True:
        if state is not None:
            cell = _branch_cell(state, keys, randomised)
            if cell < 0:
                solutions.append(_answer(puzzle, state))
                if len(solutions) >= limit:
                    return SearchResult(tuple(solutions), nodes, False)
            else:
                values = [v for v in range(puzzle.n) if state[cell] >> v & 1]
                if order.ranks is not None:  # randomised
                    values.sort(key=order.ranks[cell].__getitem__)
                stack.append((state, cell, [1 << v for v in reversed(values)]))
        while stack and not stack[-1][2]:
            stack.pop()
        if not stack:
            return SearchResult(tuple(solutions), nodes, True)
        budget.check(nodes)
        parent, cell, bits = stack[-1]
        nodes += 1
        state = parent.copy()
        state[cell] = bits.pop()
        if not propagate_masks(state, [cell], t, hidden=hidden, locked=locked, dirty=set(t.cell_units[cell])):
            state = None


_NODES_PER_CALL = 2_000_000
"""The compiled search returns to Python to ask the budget about every this many cells' worth of
nodes (``_NODES_PER_CALL // cells`` nodes, a few milliseconds)."""


def _search_compiled(
    puzzle: Puzzle, limit: int, budget: _Budget, hidden: bool, locked: bool, order: _Order
) -> SearchResult:
    """The same search as :func:`_search_python`, node for node, in the compiled loop."""
    from ..propagation.kernel_compiled import Propagator  # imports numba
    from .backtracking_compiled import EXHAUSTED, FOUND, depth_first

    propagator = Propagator(puzzle.shape, hidden=hidden, locked=locked)
    root, consistent = propagator.run_givens(puzzle.cells)
    if not consistent:
        return SearchResult((), 1, True)
    levels = int(np.count_nonzero(np.bitwise_count(root.view(np.uint64)) > 1)) + 1  # a level decides a cell
    states = np.empty((levels, puzzle.shape.cells), dtype=np.int64)
    states[0] = root
    branch, tried, counts = (np.zeros(levels, dtype=np.int64) for _ in range(3))
    tries = np.zeros((levels, puzzle.n), dtype=np.int64)
    ctrl = np.array([0, 1, 1], dtype=np.int64)  # depth, nodes, expand states[depth] next
    ranks = order.ranks if order.ranks is not None else np.zeros((1, 1))
    per_call = max(64, _NODES_PER_CALL // puzzle.shape.cells)
    solutions: list[Puzzle] = []
    while True:
        pause_at = ctrl[1] + per_call
        if budget.max_nodes is not None:
            pause_at = min(pause_at, budget.max_nodes)
        try:
            status = depth_first(
                states,
                branch,
                tries,
                tried,
                counts,
                ctrl,
                order.keys,
                ranks,
                order.ranks is not None,
                pause_at,
                *propagator.scratch(),
            )
        except SystemError as error:
            interrupted_kernel(error)
        nodes = int(ctrl[1])
        if status == EXHAUSTED:
            return SearchResult(tuple(solutions), nodes, True)
        if status == FOUND:
            solutions.append(_answer(puzzle, states[ctrl[0]]))
            if len(solutions) >= limit:
                return SearchResult(tuple(solutions), nodes, False)
        else:
            budget.check(nodes)


def search(
    puzzle: Puzzle,
    *,
    limit: int = 1,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    hidden_singles: bool = True,
    locked_candidates: bool = True,
    rng: random.Random | None = None,
    compiled: bool | None = None,
) -> SearchResult:
    """Depth-first search with propagation at every node and the minimum-remaining-values rule.

    Stops after ``limit`` solutions (``limit=2`` answers "is it unique?").
    Each node is one tentative assignment followed by propagation (naked and
    hidden singles, and box-line reduction unless ``locked_candidates`` is off).
    With ``rng`` the value order of every cell and the ties between equally
    constrained cells are drawn at random once, at the start; without it the
    search is deterministic.  ``compiled`` runs the whole search in the
    compiled loop (the same nodes and answers); by default it is used where it
    pays (:mod:`deap_sudoku.propagation.choice`), and a search in Python while another process
    compiles the kernels starts over compiled once they are cached (the same nodes again, faster).

    :raises SearchBudgetExceeded: when ``max_nodes`` nodes or ``max_seconds`` seconds (wall time)
        did not settle the question.
    """
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1:
        raise ValueError(f"limit must be a whole number of at least 1, not {limit!r}")
    check_puzzle(puzzle)
    budget = _Budget(max_nodes, max_seconds)
    order = _Order.of(puzzle, rng)
    if _use_compiled(puzzle, compiled):
        probe = probe_seconds(puzzle.shape.cells, puzzle.n) if compiled is None else 0.0
        if probe:  # a short try in Python first; the compiled search repeats its nodes if it fails
            try:
                with charged():
                    return _search_python(
                        puzzle, limit, _Probe(budget, probe), hidden_singles, locked_candidates, order
                    )
            except _ProbeEnded:
                pass
        return _search_compiled(puzzle, limit, budget, hidden_singles, locked_candidates, order)
    if compiled is not None:
        with charged():
            return _search_python(puzzle, limit, budget, hidden_singles, locked_candidates, order)
    try:
        with charged():
            return _search_python(puzzle, limit, _TakeUp(budget, puzzle), hidden_singles, locked_candidates, order)
    except _TakenUp:  # the kernels are loaded: the search starts over compiled, as after a probe
        return _search_compiled(puzzle, limit, budget, hidden_singles, locked_candidates, order)


def solve(
    puzzle: Puzzle,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    rng: random.Random | None = None,
    compiled: bool | None = None,
    deterministic_first: bool = True,
    max_try_nodes: int | None = None,
    started: float | None = None,
) -> Puzzle | None:
    """A solution, or ``None`` when the puzzle provably has none.

    Search times on hard large grids are heavy-tailed, so after a first
    deterministic search (randomised too with ``deterministic_first=False``:
    a random solution of a puzzle with many) this runs randomised ones (random value order and
    tie-breaks, drawn from ``rng``; a generator seeded with 0 when none is
    given, so the result is always reproducible) with a node budget that grows by half
    after each restart, the remedy of Gomes,
    Selman & Kautz ("Heavy-tailed phenomena in satisfiability and constraint
    satisfaction problems", 2000).  It stays complete: the budget grows
    without bound, and a search that exhausts its tree proves there is no
    solution.  ``max_try_nodes`` stops the growth there (a try that runs longer is lost where a
    short one succeeds, as when drawing a random full grid); the search then proves "no solution"
    only when a tree that small is exhausted.  ``started`` is the :func:`time.perf_counter` reading
    ``max_seconds`` counts from (by default, this call): a command that spent some of its budget
    before the search (loading the kernels) passes its own.

    :raises SearchBudgetExceeded: when ``max_nodes`` nodes or ``max_seconds`` seconds in all did not
        settle it.
    """
    check_budget(max_nodes, max_seconds)
    if max_try_nodes is not None and (
        isinstance(max_try_nodes, bool) or not isinstance(max_try_nodes, int) or max_try_nodes < 1
    ):
        raise ValueError(f"max_try_nodes must be a whole number of at least 1, not {max_try_nodes!r}")
    deadline = None if max_seconds is None else (time.perf_counter() if started is None else started) + max_seconds
    rng = rng if rng is not None else random.Random(0)
    order = None if deterministic_first else rng
    budget, spent = _FIRST_BUDGET if max_try_nodes is None else min(_FIRST_BUDGET, max_try_nodes), 0
    while True:
        if max_nodes is not None:
            budget = min(budget, max_nodes - spent)
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:  # spent before this try began (a caller's start, or the last try)
            raise SearchBudgetExceeded(f"no answer within {max_seconds:g} s")
        try:
            result = search(puzzle, limit=1, max_nodes=budget, max_seconds=left, rng=order, compiled=compiled)
        except SearchBudgetExceeded:
            if deadline is not None and time.perf_counter() >= deadline:
                raise SearchBudgetExceeded(f"no answer within {max_seconds:g} s") from None
            spent += budget
            if max_nodes is not None and spent >= max_nodes:
                raise SearchBudgetExceeded(f"no answer after {spent} search nodes") from None
            budget += budget // 2
            if max_try_nodes is not None:
                budget = min(budget, max_try_nodes)
            order = rng
            continue
        return result.solutions[0] if result.solutions else None


_FIRST_BUDGET = 200


def count_solutions(
    puzzle: Puzzle,
    *,
    limit: int = 2,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    compiled: bool | None = None,
) -> int:
    """The number of solutions, counted up to ``limit``.

    :raises SearchBudgetExceeded: when ``max_nodes`` nodes or ``max_seconds`` seconds do not settle it.
    """
    return search(puzzle, limit=limit, max_nodes=max_nodes, max_seconds=max_seconds, compiled=compiled).count


def is_unique(puzzle: Puzzle, *, max_nodes: int | None = None, compiled: bool | None = None) -> bool:
    """True when the puzzle has exactly one solution."""
    return count_solutions(puzzle, limit=2, max_nodes=max_nodes, compiled=compiled) == 1
