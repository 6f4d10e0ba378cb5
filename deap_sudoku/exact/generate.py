"""Puzzle generation: random solved grids, and puzzles dug out of them with a unique solution."""

from __future__ import annotations

import random
import time
from collections.abc import Iterable

import numpy as np

from ..grid.puzzle import Puzzle, require
from ..grid.shape import Shape
from ..propagation import propagate
from .backtracking import _FIRST_BUDGET, SearchBudgetExceeded, count_solutions, search, solve

__all__ = [
    "random_solution",
    "dig_puzzle",
    "generate_puzzle",
    "grade",
    "generate_graded",
    "reachable",
    "DIFFICULTIES",
    "GenerationBudgetExceeded",
]


class GenerationBudgetExceeded(RuntimeError):
    """No puzzle of the difficulty asked for within the attempts or seconds allowed."""


def random_solution(shape: Shape, rng: random.Random, *, deadline: float | None = None) -> Puzzle:
    """A random complete grid of ``shape``, built Las Vegas style: randomised exact searches of the
    empty grid (random value order and tie-breaks, all drawn from ``rng``) until one completes it.

    Every grid of the shape can come out, unlike symmetry transforms of one base grid.  A try
    that has not finished within its node budget is restarted; the budget starts at 200 nodes
    and grows by half, as :func:`~deap_sudoku.exact.solve`'s does, but stops growing at
    :data:`TRY_NODES_PER_CELL` nodes per cell.  At 64x64 a try that completes the empty grid
    does so in 0.9-2.4 nodes per cell (3,582-9,810 nodes: 49 of 3,000 tries of at most 10,000
    nodes); a try that runs longer is lost in a subtree without a solution (none of 32 tries of
    300,000 nodes finished), so a budget growing without bound made the wait heavy-tailed (9 s
    for one seed, over 120 s for others).  36x36 and smaller grids finish before the cap (their
    seeds 0-24 are drawn as before), as do 21 of 25 49x49 grids.
    ``python benchmarks/random_grids.py`` times it (docs/performance.md).  ``deadline`` (a
    ``time.perf_counter()`` value) ends the draw with :class:`GenerationBudgetExceeded`.
    """
    require(shape, Shape, "shape")
    _require_random(rng)
    cap = max(FIRST_TRY_NODES, round(TRY_NODES_PER_CELL * shape.cells))
    left = None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
    try:
        solution = solve(
            Puzzle([0] * shape.cells, box=shape),
            rng=rng,
            deterministic_first=False,
            max_try_nodes=cap,
            max_seconds=left,
        )
    except SearchBudgetExceeded:
        raise GenerationBudgetExceeded("no solved grid drawn in time") from None
    assert solution is not None, "an empty grid always has a solution"
    return solution


FIRST_TRY_NODES = _FIRST_BUDGET
"""The node budget of :func:`random_solution`'s first try (:func:`~deap_sudoku.exact.solve`'s)."""
TRY_NODES_PER_CELL = 2.5
"""The most nodes per cell a try of :func:`random_solution` gets."""


def dig_puzzle(
    solution: Puzzle,
    givens: int,
    rng: random.Random,
    *,
    unique: bool = True,
    max_nodes: int = 20_000,
    deadline: float | None = None,
) -> Puzzle:
    """Empty cells of ``solution`` in random order down to ``givens`` givens.

    With ``unique`` a cell is only emptied if the puzzle keeps exactly one
    solution (a count the search cannot settle in ``max_nodes`` nodes counts
    as "not unique"), so the result may keep more givens than asked for.  ``deadline`` (a
    ``time.perf_counter()`` value) ends the digging with :class:`GenerationBudgetExceeded`.
    """
    require(solution, Puzzle, "solution")
    _require_random(rng)
    cells = solution.cells.copy()
    order = list(range(solution.shape.cells))
    rng.shuffle(order)
    left = int(np.count_nonzero(cells))
    for cell in order:
        if left <= givens:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            raise GenerationBudgetExceeded(f"out of time while emptying cells, at {left} givens of the {givens} asked")
        value = cells[cell]
        cells[cell] = 0
        if unique and not _has_one_solution(Puzzle(cells, box=solution.shape), max_nodes):
            cells[cell] = value
        else:
            left -= 1
    return Puzzle(cells, box=solution.shape)


def _has_one_solution(puzzle: Puzzle, max_nodes: int) -> bool:
    try:
        return count_solutions(puzzle, limit=2, max_nodes=max_nodes) == 1
    except SearchBudgetExceeded:
        return False


def generate_puzzle(shape: Shape, givens: int, rng: random.Random, *, unique: bool = True) -> Puzzle:
    """A puzzle of ``shape`` with (about, see :func:`dig_puzzle`) ``givens`` givens, drawn from ``rng``."""
    require(shape, Shape, "shape")
    return dig_puzzle(random_solution(shape, rng), givens, rng, unique=unique)


DIFFICULTIES = ("easy", "medium", "hard", "expert")
_SEARCH_NODES_FOR_EXPERT = 10
_GIVENS_TARGET = {"easy": 0.45, "medium": 0.35, "hard": 0.0, "expert": 0.0}  # share of cells, then dig


def grade(puzzle: Puzzle) -> tuple[str, int]:
    """The difficulty class by the logic a solution needs, and the search nodes it took.

    ``easy``: naked singles alone solve it; ``medium``: hidden singles are
    needed too; ``hard``: singles do not suffice, backtracking with singles
    needs at most 10 nodes; ``expert``: more.
    """
    require(puzzle, Puzzle, "puzzle")
    if propagate(puzzle, hidden_singles=False).solved:
        return "easy", 1
    if propagate(puzzle).solved:
        return "medium", 1
    nodes = search(puzzle, limit=1, locked_candidates=False).nodes
    return ("hard" if nodes <= _SEARCH_NODES_FOR_EXPERT else "expert"), nodes


def reachable(shape: Shape, difficulty: str) -> bool:
    """False for a difficulty no puzzle of ``shape`` has: every 4x4 puzzle with one solution falls to
    naked singles (checked over all of them by ``benchmarks/four_by_four_grades.py``), so 2x2 boxes
    are only ever ``easy``."""
    require(shape, Shape, "shape")
    return not (shape.n == 4 and difficulty != "easy")


def generate_graded(
    shape: Shape, difficulty: str, attempts: Iterable[random.Random], *, max_seconds: float | None = None
) -> Puzzle:
    """A unique puzzle of ``difficulty``: the first that grades as asked of the puzzles made with
    each generator of ``attempts`` in turn (one fresh generator per attempt, so any attempt can be
    remade alone; ``deap-sudoku generate`` seeds attempt ``a`` of puzzle ``i`` with
    ``(seed + i) * 10000 + a``).

    :raises ValueError: for a difficulty the shape cannot have (:func:`reachable`).
    :raises GenerationBudgetExceeded: when no attempt, or none within ``max_seconds``, gives such a puzzle.
    """
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose from {', '.join(DIFFICULTIES)}")
    if not reachable(shape, difficulty):
        raise ValueError(
            f"no {shape.name} puzzle is {difficulty}: every one with a unique solution falls to "
            "naked singles, so all are easy"
        )
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    givens = round(_GIVENS_TARGET[difficulty] * shape.cells)
    tried = 0
    for rng in attempts:
        tried += 1
        try:
            puzzle = dig_puzzle(random_solution(shape, rng, deadline=deadline), givens, rng, deadline=deadline)
        except GenerationBudgetExceeded:
            break
        if grade(puzzle)[0] == difficulty:
            return puzzle
        if deadline is not None and time.perf_counter() >= deadline:
            break
    within = f" within {max_seconds:g} s" if deadline is not None else ""
    raise GenerationBudgetExceeded(
        f"no {difficulty} {shape.name} puzzle in {tried} attempt{'s' * (tried != 1)}{within}"
    )


def _require_random(rng: object) -> None:
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random (random.Random(seed)), not {type(rng).__name__}")
