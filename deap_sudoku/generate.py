"""Puzzle generation: random solved grids, and puzzles dug out of them with a unique solution."""

from __future__ import annotations

import random

import numpy as np

from .puzzle import Puzzle
from .shape import Shape
from .solvers import SearchBudgetExceeded, count_solutions, solve

__all__ = ["random_solution", "dig_puzzle", "generate_puzzle"]


def random_solution(shape: Shape, rng: random.Random) -> Puzzle:
    """A uniformly seeded (not uniformly distributed) random complete grid of ``shape``."""
    solution = solve(Puzzle([0] * shape.cells, box=shape), seed=rng.randrange(2**32))
    assert solution is not None, "an empty grid always has a solution"
    return solution


def dig_puzzle(solution: Puzzle, givens: int, rng: random.Random, *, unique: bool = True,
               max_nodes: int = 20_000) -> Puzzle:
    """Empty cells of ``solution`` in random order down to ``givens`` givens.

    With ``unique`` a cell is only emptied if the puzzle keeps exactly one
    solution (a count the search cannot settle in ``max_nodes`` nodes counts
    as "not unique"), so the result may keep more givens than asked for.
    """
    cells = solution.cells.copy()
    order = list(range(solution.shape.cells))
    rng.shuffle(order)
    left = int(np.count_nonzero(cells))
    for cell in order:
        if left <= givens:
            break
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


def generate_puzzle(shape: Shape, givens: int, *, seed: int, unique: bool = True) -> Puzzle:
    """A reproducible puzzle of ``shape`` with (about, see :func:`dig_puzzle`) ``givens`` givens."""
    rng = random.Random(seed)
    return dig_puzzle(random_solution(shape, rng), givens, rng, unique=unique)
