"""Tabu search over in-box swaps: the alldifferent-tabu idea, a non-evolutionary yardstick.

Start from a random block-permutation (every box right), score = duplicates in
rows and columns, and at each step look at ``candidates`` random swaps of two
free cells inside a box; take the best one whose cells are not tabu, even if it
is worse (a tabu move is allowed when it beats the best score ever: the
aspiration criterion); the two swapped cells then stay tabu for ``tenure``
steps.  Scores change incrementally: a swap touches two rows and two columns.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from deap import tools

from ..grid.puzzle import Puzzle
from ..tools.free_cells import free_cells
from ..tools.individual import Individual
from ..tools.init import init_block_permutation
from .generational import INTERRUPTED

__all__ = ["TabuResult", "tabu_search"]


@dataclass(frozen=True)
class TabuResult:
    """The best grid found (flat array, a solution when ``score`` is 0), its score, steps and seconds,
    and whether a stop request ended the search."""

    grid: np.ndarray
    score: int
    steps: int
    seconds: float
    interrupted: bool = False

    @property
    def solved(self) -> bool:
        return self.score == 0

    def as_deap(self) -> tuple[list[Individual], tools.Logbook, tools.HallOfFame]:
        """``([best], logbook, hall_of_fame)`` like the GAs return: the best grid as an evaluated
        individual, and a logbook of one record (steps, score, seconds) with its ``stop_reason``."""
        best = Individual(self.grid)
        best.fitness.values = (self.score,)
        hof = tools.HallOfFame(1, similar=np.array_equal)
        hof.update([best])
        logbook = tools.Logbook()
        logbook.record(steps=self.steps, score=self.score, seconds=self.seconds)
        logbook.stop_reason = INTERRUPTED if self.interrupted else "solved" if self.solved else "steps"
        return [best], logbook, hof


def tabu_search(puzzle: Puzzle, *, rng: random.Random, candidates: int = 100, tenure: int = 5,
                max_steps: int = 100_000, max_seconds: float | None = None, restrict: bool = True,
                callback: Callable[[int, int, int], None] | None = None, report_every: int = 1000,
                requested: Callable[[], object] | None = None) -> TabuResult:
    """Search until solved, ``max_steps`` steps or ``max_seconds`` seconds; return the best grid seen.

    ``rng`` draws the start and every move.  ``callback(step, score,
    best_score)`` is called every ``report_every`` steps, for progress;
    ``requested()`` is asked every 256 steps, and a true answer ends the search.
    """
    n = puzzle.n
    boxes = [cells.tolist() for cells in free_cells(puzzle).boxes if len(cells) >= 2]
    grid = init_block_permutation(Individual, puzzle=puzzle, restrict=restrict, rng=rng).tolist()
    row_counts = [[0] * (n + 1) for _ in range(n)]
    col_counts = [[0] * (n + 1) for _ in range(n)]
    for cell, value in enumerate(grid):
        row_counts[cell // n][value] += 1
        col_counts[cell % n][value] += 1
    score = sum(c - 1 for counts in row_counts + col_counts for c in counts if c > 1)
    best_score, best_grid = score, list(grid)
    tabu_until: dict[int, int] = {}
    started = time.perf_counter()
    step = 0
    interrupted = False
    while score and boxes and step < max_steps:
        if step % 256 == 0:
            if max_seconds is not None and time.perf_counter() - started >= max_seconds:
                break
            if requested is not None and requested():
                interrupted = True
                break
        step += 1
        chosen, chosen_delta = None, None
        for _ in range(candidates):
            a, b = rng.sample(rng.choice(boxes), 2)
            delta = _swap_delta(grid, a, b, n, row_counts, col_counts)
            is_tabu = tabu_until.get(a, 0) > step or tabu_until.get(b, 0) > step
            if is_tabu and score + delta >= best_score:
                continue
            if chosen_delta is None or delta < chosen_delta:
                chosen, chosen_delta = (a, b), delta
        if chosen is None:
            continue
        a, b = chosen
        _apply_swap(grid, a, b, n, row_counts, col_counts)
        score += chosen_delta
        tabu_until[a] = tabu_until[b] = step + tenure
        if score < best_score:
            best_score, best_grid = score, list(grid)
        if callback is not None and step % report_every == 0:
            callback(step, score, best_score)
    return TabuResult(np.array(best_grid, dtype=puzzle.cells.dtype), best_score, step,
                      time.perf_counter() - started, interrupted)


def _change(counts: list[int], old: int, new: int) -> int:
    """Move one cell of a line from ``old`` to ``new``: the change in the line's duplicates."""
    delta = -1 if counts[old] > 1 else 0
    counts[old] -= 1
    delta += 1 if counts[new] >= 1 else 0
    counts[new] += 1
    return delta


def _apply_swap(grid: list[int], a: int, b: int, n: int, row_counts, col_counts) -> int:
    va, vb = grid[a], grid[b]
    delta = 0
    if a // n != b // n:
        delta += _change(row_counts[a // n], va, vb) + _change(row_counts[b // n], vb, va)
    if a % n != b % n:
        delta += _change(col_counts[a % n], va, vb) + _change(col_counts[b % n], vb, va)
    grid[a], grid[b] = vb, va
    return delta


def _swap_delta(grid: list[int], a: int, b: int, n: int, row_counts, col_counts) -> int:
    delta = _apply_swap(grid, a, b, n, row_counts, col_counts)
    _apply_swap(grid, a, b, n, row_counts, col_counts)
    return delta
