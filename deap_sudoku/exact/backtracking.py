"""Exact search: backtracking with propagation at every node, solution counting, randomised restarts.

The project's verifiers, the uniqueness check of the puzzle generator, and
the yardstick the evolutionary solvers are measured against.  Every node
propagates with :func:`deap_sudoku.propagation.propagate_masks`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..grid.conflicts import value_dtype
from ..grid.puzzle import Puzzle
from ..propagation import initial_masks, mask_values, propagate_masks, tables

__all__ = ["SearchResult", "SearchBudgetExceeded", "search", "solve", "count_solutions", "is_unique"]


class SearchBudgetExceeded(RuntimeError):
    """The search visited ``max_nodes`` nodes without an answer."""


@dataclass(frozen=True)
class SearchResult:
    """Solutions found (at most ``limit``), search nodes visited, and whether the tree was exhausted."""

    solutions: tuple[Puzzle, ...]
    nodes: int
    exhausted: bool

    @property
    def count(self) -> int:
        return len(self.solutions)


def search(puzzle: Puzzle, *, limit: int = 1, max_nodes: int | None = None,
           hidden_singles: bool = True, locked_candidates: bool = True,
           rng: random.Random | None = None) -> SearchResult:
    """Depth-first search with propagation at every node and the minimum-remaining-values rule.

    Stops after ``limit`` solutions (``limit=2`` answers "is it unique?").
    Each node is one tentative assignment followed by propagation (naked and
    hidden singles, and box-line reduction unless ``locked_candidates`` is off).
    With ``rng`` the value order and ties between equally constrained cells
    are random; without it the search is deterministic.

    :raises SearchBudgetExceeded: when ``max_nodes`` nodes did not settle the question.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    t = tables(puzzle.shape)
    dtype = value_dtype(t.n)
    cands, queue = initial_masks(puzzle)
    solutions: list[Puzzle] = []
    nodes = 1
    if not propagate_masks(cands, queue, t, hidden=hidden_singles, locked=locked_candidates):
        return SearchResult((), nodes, True)
    stack: list[tuple[list[int], int, int]] = []
    state: list[int] | None = cands
    while True:
        if state is not None:
            cell = _most_constrained(state, rng)
            if cell < 0:
                solutions.append(puzzle.filled(mask_values(state, dtype)))
                if len(solutions) >= limit:
                    return SearchResult(tuple(solutions), nodes, False)
            else:
                options = state[cell]
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
        parent, cell, bit = stack.pop()
        nodes += 1
        state = parent.copy()
        state[cell] = bit
        if not propagate_masks(state, [cell], t, hidden=hidden_singles, locked=locked_candidates,
                               dirty=set(t.cell_units[cell])):
            state = None


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


def solve(puzzle: Puzzle, *, max_nodes: int | None = None, rng: random.Random | None = None) -> Puzzle | None:
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

    :raises SearchBudgetExceeded: when ``max_nodes`` nodes in all did not settle it.
    """
    rng = rng if rng is not None else random.Random(0)
    order: random.Random | None = None  # the first search is the deterministic one
    budget, spent = _FIRST_BUDGET, 0
    while True:
        if max_nodes is not None:
            budget = min(budget, max_nodes - spent)
        try:
            result = search(puzzle, limit=1, max_nodes=budget, rng=order)
        except SearchBudgetExceeded:
            spent += budget
            if max_nodes is not None and spent >= max_nodes:
                raise SearchBudgetExceeded(f"no answer after {spent} search nodes") from None
            budget += budget // 2
            order = rng
            continue
        return result.solutions[0] if result.solutions else None


_FIRST_BUDGET = 200


def count_solutions(puzzle: Puzzle, *, limit: int = 2, max_nodes: int | None = None) -> int:
    """The number of solutions, counted up to ``limit``."""
    return search(puzzle, limit=limit, max_nodes=max_nodes).count


def is_unique(puzzle: Puzzle, *, max_nodes: int | None = None) -> bool:
    """True when the puzzle has exactly one solution."""
    return count_solutions(puzzle, limit=2, max_nodes=max_nodes) == 1
