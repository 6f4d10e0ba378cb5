"""Tabu search, the alldifferent-tabu idea of the constraint-analyzer project: a non-evolutionary yardstick.

As documented (the defaults): random values in the free cells; the score is the
error count of the whole board (duplicates in rows, columns and boxes); each
step makes ``candidates`` alternatives that each change *one* value, ignores
those whose board is in the tabu table, keeps the best of the rest even when it
is worse, and adds that board to the table (which never forgets).

Our switches: ``moves="swap"`` starts from a block-permutation (every box
right; ``restrict`` narrows it by propagation) and swaps two free cells inside
a box; ``memory="cells"`` makes the moved cells tabu for ``tenure`` steps
instead of remembering boards, with aspiration (a tabu move is taken when it
beats the best score ever).  Scores change incrementally: a move touches at
most two cells' rows, columns and boxes; boards are remembered by a 64-bit
Zobrist hash.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from deap import tools

from ..grid.puzzle import Puzzle
from ..tools.free_cells import free_cells
from ..tools.individual import Individual
from ..tools.statistics import HallOfFame
from ..tools.init import init_block_permutation, init_free_cells
from .stop import INTERRUPTED, Stop, given_stop

__all__ = ["TabuResult", "tabu_search"]


@dataclass(frozen=True)
class TabuResult:
    """The best grid found (flat array, a solution when ``score`` is 0), its score, steps and seconds,
    whether a stop request ended the search, how many boards the tabu table holds (0 with
    ``memory="cells"``), how many candidate moves were scored, and the score's course:
    ``trace`` holds ``(step, score, best score)`` at most :data:`TRACE_POINTS` times, evenly spaced,
    and, from a search that counts its evaluations exactly (annealing, the iterated local search), the
    evaluations spent by then as a fourth value."""

    grid: np.ndarray
    score: int
    steps: int
    seconds: float
    interrupted: bool = False
    visited: int = 0
    evaluations: int = 0
    trace: tuple[tuple[int, ...], ...] = ()
    stop_reason: str = ""

    @property
    def solved(self) -> bool:
        return self.score == 0

    def found_by(self) -> str:
        """What found the best grid (of :data:`~deap_sudoku.runs.record.FOUND_BY`): the start, when
        no step was taken, else the local search."""
        return "local search" if self.steps else "start"

    def as_deap(self) -> tuple[list[Individual], tools.Logbook, tools.HallOfFame]:
        """``([best], logbook, hall_of_fame)`` like the GAs return: the best grid as an evaluated
        individual, and a logbook of one record (steps, score, seconds) with its ``stop_reason``, its
        ``trace`` and what found the best grid (``found_by``)."""
        best = Individual(self.grid)
        best.fitness.values = (self.score,)
        hof = HallOfFame(1)
        hof.update([best])
        logbook = tools.Logbook()
        logbook.record(steps=self.steps, score=self.score, seconds=self.seconds, evaluations=self.evaluations)
        logbook.trace = self.trace
        logbook.found_by = self.found_by()
        logbook.stop_reason = (
            INTERRUPTED if self.interrupted else self.stop_reason or ("solved" if self.solved else "steps")
        )
        return [best], logbook, hof


TRACE_POINTS = 2000
"""The most points :attr:`TabuResult.trace` keeps: when full, every other one goes and the spacing doubles."""

MOVES = ("value", "swap")
MEMORIES = ("boards", "cells")


def tabu_search(
    puzzle: Puzzle,
    *,
    rng: random.Random,
    candidates: int = 100,
    moves: str = "value",
    memory: str = "boards",
    tenure: int = 5,
    restrict: bool = False,
    max_steps: int = 100_000,
    max_seconds: float | None = None,
    callback: Callable[[int, int, int], object] | None = None,
    report_every: int = 1000,
    requested: Callable[[], object] | None = None,
    stop: Stop | None = None,
) -> TabuResult:
    """Search until solved, ``max_steps`` steps or ``max_seconds`` seconds; return the best grid seen.
    ``stop``, a :class:`~deap_sudoku.algorithms.Stop`, holds those budgets and ``requested`` instead
    (its clock, :attr:`~deap_sudoku.algorithms.Stop.started`, may have begun before the call), the
    loose keywords then left at their defaults; a stop without ``max_steps`` sets no step cap.

    ``moves``: ``"value"`` (documented) or ``"swap"`` (in-box swaps); ``memory``:
    ``"boards"`` (documented) or ``"cells"`` (``tenure`` steps, with aspiration);
    ``restrict``: narrow the start by propagation.  ``rng`` draws the start and
    every move.  ``callback(step, score, best_score)`` is called every
    ``report_every`` steps, for progress, and a true answer ends the search (``stop_reason``
    ``"callback"``); ``requested()`` is asked every 32 steps, and the clock at every step
    (counting from the call, the start on it, or from the stop's ``started``), and either ends the
    search.
    """
    if moves not in MOVES or memory not in MEMORIES:
        raise ValueError(f"moves is one of {MOVES} and memory one of {MEMORIES}; got {moves!r}, {memory!r}")
    stop = given_stop(  # its clock begun: the start, drawn and scored, is on it too
        stop, "tabu_search", {"max_steps": 100_000}, max_steps=max_steps, max_seconds=max_seconds, requested=requested
    )
    steps = stop.limit("max_steps")
    search = _Search(puzzle, rng, candidates=candidates, moves=moves, memory=memory, tenure=tenure, restrict=restrict)
    step = 0
    interrupted = False
    reason = ""
    while search.score and search.movable and step < steps:
        # a step scores `candidates` moves: asking the clock at each costs next to nothing
        if spent := stop.spent(ask=step % 32 == 0):
            interrupted, reason = spent == INTERRUPTED, "" if spent == INTERRUPTED else spent
            break
        step += 1
        chosen, delta, board = search.best_move(step)
        if chosen is None or delta is None:  # no move allowed this step
            continue
        search.move(chosen, delta, board, step)
        if callback is not None and step % report_every == 0 and callback(step, search.score, search.best_score):
            reason = "callback"
            break
    return search.result(puzzle, step, stop.elapsed(), interrupted, reason)


_Change = tuple[tuple[int, int], ...]
"""A move: the ``(cell, new value)`` pairs it sets."""


class _Search:
    """The state of one tabu search: the grid with its row, column and box counts and its score, the
    free cells (value moves) or boxes (swaps) to draw moves from, the memory (the board's Zobrist
    hash and the boards seen, or when each cell stops being tabu), the best grid and the trace.
    The loop in :func:`tabu_search` asks for a step's move (:meth:`best_move`) and makes it
    (:meth:`move`): a call each per step, the candidate moves scored inside them."""

    def __init__(
        self,
        puzzle: Puzzle,
        rng: random.Random,
        *,
        candidates: int,
        moves: str,
        memory: str,
        tenure: int,
        restrict: bool,
    ) -> None:
        n, shape = puzzle.n, puzzle.shape
        free = free_cells(puzzle)
        start = init_block_permutation if moves == "swap" else init_free_cells
        grid = start(Individual, puzzle=puzzle, restrict=restrict, rng=rng).tolist()
        self.grid, self.n, self.rng, self.candidates, self.tenure = grid, n, rng, candidates, tenure
        self.units_of = [tuple(units) for units in shape.cell_units.tolist()]
        self.counts, self.score = _unit_counts(grid, self.units_of, n)
        self.boxes = [cells.tolist() for cells in free.boxes if len(cells) >= 2]
        self.cells = free.cells.tolist()
        self.movable = bool(self.boxes) if moves == "swap" else bool(self.cells) and n > 1
        self.swaps, self.boards = moves == "swap", memory == "boards"
        self.keys = [[rng.getrandbits(64) for _ in range(n + 1)] for _ in grid] if self.boards else []
        self.board = _zobrist(grid, self.keys)
        self.seen = {self.board}
        self.best_score, self.best_grid = self.score, list(grid)
        self.tabu_until: dict[int, int] = {}
        self.evaluations = 0
        self.trace, self.spacing = [(0, self.score, self.best_score)], 1

    def best_move(self, step: int) -> tuple[_Change | None, int | None, int]:
        """Score ``candidates`` random moves and return the best allowed one, its change in the score
        and the board it makes (``None`` when none is allowed): a board seen before is skipped
        unscored, a tabu cell's move is allowed when it beats the best score ever."""
        grid, counts, units_of, n, rng = self.grid, self.counts, self.units_of, self.n, self.rng
        swaps, boards, keys, seen, board = self.swaps, self.boards, self.keys, self.seen, self.board
        boxes, cells, tabu_until = self.boxes, self.cells, self.tabu_until
        score, best_score = self.score, self.best_score
        chosen: _Change | None = None
        chosen_delta, chosen_board = None, board
        evaluations = 0
        # rng.choice(cells) and rng.randint(1, n - 1) are cells[below(len(cells))] and 1 + below(n - 1),
        # the same draws from the same stream, without random's layers of calls around them
        below, free = rng._randbelow, len(cells)  # type: ignore[attr-defined]
        for _ in range(self.candidates):
            change: _Change
            if swaps:
                a, b = rng.sample(rng.choice(boxes), 2)
                change = ((a, grid[b]), (b, grid[a]))
            else:
                a = cells[below(free)]
                value = 1 + below(n - 1)
                change = ((a, value if value < grid[a] else value + 1),)  # any value but the current one
            after = board
            if boards:  # a board seen before is skipped unscored
                for cell, value in change:
                    after ^= keys[cell][grid[cell]] ^ keys[cell][value]
                if after in seen:
                    continue
            if swaps:
                delta = _swap_in_box(grid, a, b, n, counts)  # the box keeps its values: rows and columns only
                _swap_in_box(grid, a, b, n, counts)
            else:
                delta = _delta(grid, change, units_of, counts)
            evaluations += 1  # every move scored, a tabu one included
            if not boards and any(tabu_until.get(cell, 0) > step for cell, _ in change) and score + delta >= best_score:
                continue
            if chosen_delta is None or delta < chosen_delta:
                chosen, chosen_delta, chosen_board = change, delta, after
        self.evaluations += evaluations
        return chosen, chosen_delta, chosen_board

    def move(self, change: _Change, delta: int, board: int, step: int) -> None:
        """Make ``change``, whose score change is ``delta`` and board ``board``: remember the board
        (or make its cells tabu for ``tenure`` steps), keep the best grid, and trace the step when due."""
        if self.swaps:
            _swap_in_box(self.grid, change[0][0], change[1][0], self.n, self.counts)
        else:
            _apply(self.grid, change, self.units_of, self.counts)
        self.score += delta
        if self.boards:
            self.board = board
            self.seen.add(board)
        else:
            for cell, _ in change:
                self.tabu_until[cell] = step + self.tenure
        if self.score < self.best_score:
            self.best_score, self.best_grid = self.score, list(self.grid)
        if step % self.spacing == 0:
            if len(self.trace) == TRACE_POINTS:
                self.trace, self.spacing = self.trace[::2], 2 * self.spacing
            if step % self.spacing == 0:
                self.trace.append((step, self.score, self.best_score))

    def result(self, puzzle: Puzzle, step: int, seconds: float, interrupted: bool, reason: str) -> TabuResult:
        """The search's outcome after ``step`` steps, its trace ending at the last one."""
        if self.trace[-1][0] != step:
            self.trace.append((step, self.score, self.best_score))
        return TabuResult(
            np.array(self.best_grid, dtype=puzzle.cells.dtype),
            self.best_score,
            step,
            seconds,
            interrupted,
            len(self.seen) if self.boards else 0,
            self.evaluations,
            tuple(self.trace),
            reason or ("solved" if not self.best_score else "steps" if self.movable else "no moves"),
        )


def _unit_counts(grid: list[int], units_of: list[tuple[int, ...]], n: int) -> tuple[list[list[int]], int]:
    """How many times each value is in each row, column and box, and the score: the duplicates."""
    counts = [[0] * (n + 1) for _ in range(3 * n)]
    for cell, value in enumerate(grid):
        for unit in units_of[cell]:
            counts[unit][value] += 1
    return counts, sum(c - 1 for unit in counts for c in unit if c > 1)


def _zobrist(grid: list[int], keys: list[list[int]]) -> int:
    """The board's Zobrist hash, the keys of its cells' values XORed (0 without keys)."""
    if not keys:
        return 0
    board = 0
    for cell, value in enumerate(grid):
        board ^= keys[cell][value]
    return board


def _change(counts: list[int], old: int, new: int) -> int:
    """Move one cell of a unit from ``old`` to ``new``: the change in the unit's duplicates."""
    delta = -1 if counts[old] > 1 else 0
    counts[old] -= 1
    delta += 1 if counts[new] >= 1 else 0
    counts[new] += 1
    return delta


def _apply(grid: list[int], change, units_of, counts) -> int:
    """Set each ``(cell, value)`` of ``change`` and keep the row, column and box counts; return the
    change in the score."""
    delta = 0
    for cell, value in change:
        old = grid[cell]
        for unit in units_of[cell]:
            delta += _change(counts[unit], old, value)
        grid[cell] = value
    return delta


def _swap_in_box(grid: list[int], a: int, b: int, n: int, counts) -> int:
    """Swap two cells of one box, keeping the row and column counts (``counts[r]`` row ``r``,
    ``counts[n + c]`` column ``c``; the box's own counts do not change); return the change in the score."""
    va, vb = grid[a], grid[b]
    delta = 0
    if a // n != b // n:
        delta += _change(counts[a // n], va, vb) + _change(counts[b // n], vb, va)
    if a % n != b % n:
        delta += _change(counts[n + a % n], va, vb) + _change(counts[n + b % n], vb, va)
    grid[a], grid[b] = vb, va
    return delta


def _delta(grid: list[int], change, units_of, counts) -> int:
    """The change in the score that ``change`` would make, the grid and counts left as they were."""
    if len(change) == 1:  # one cell to another value: its row, column and box read, nothing written
        ((cell, value),) = change
        old, delta = grid[cell], 0
        if value == old:
            return 0
        for unit in units_of[cell]:
            unit_counts = counts[unit]
            delta += (unit_counts[value] >= 1) - (unit_counts[old] > 1)
        return delta
    undo = [(cell, grid[cell]) for cell, _ in change]
    delta = _apply(grid, change, units_of, counts)
    _apply(grid, undo, units_of, counts)
    return delta
