"""Musliu & Winter's hybrid (IEEE Intelligent Systems 32(2), 2017): iterated local search whose
perturbation is constraint programming.

As we rebuilt it (the paper's text could not be read while writing this: the rules below are our
reading of the method's outline, and every parameter value is ours): boxes are permutations of the
values they miss, givens fixed; the cost is the values missing from rows and columns. The local
search is the min-conflicts heuristic with a tabu list: each step draws a free cell that clashes in
its row or column, scores every swap with another free cell of its box, and makes the best one not
tabu (a tabu one when it beats the best cost of this descent), even a worse one; after a swap,
giving either cell back its old value is tabu for ``tenure`` steps. A descent ends after
``patience`` steps without beating its best. Its best grid is then judged by ``accept`` against the
current one (:func:`~deap_sudoku.tools.perturbation.accept_not_worse` by default), and the current
one is perturbed by :func:`~deap_sudoku.tools.perturbation.mut_free_and_complete`: its clashing
cells and ``share`` of the others freed and completed again by propagation and search of at most
``max_nodes`` nodes, the rest kept. Every swap scored is one evaluation, and so is every perturbed
grid (scored whole); the start is one too.  The start, the acceptance and the perturbation are a
toolbox's (:func:`iterated_search_toolbox` registers them as ``examples/iterated_local_search.py``
does); the descent is the search's own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from deap import base

from ..grid.puzzle import Puzzle
from ..tools.free_cells import free_cells
from ..tools.individual import Individual
from ..tools.init import init_block_permutation
from ..tools.perturbation import accept_not_worse, mut_free_and_complete
from .stop import INTERRUPTED, Stop, given_stop
from .tabu import TRACE_POINTS, TabuResult, _swap_in_box, _unit_counts

__all__ = ["IteratedSearchResult", "iterated_local_search", "iterated_search_toolbox"]


@dataclass(frozen=True)
class IteratedSearchResult(TabuResult):
    """:class:`~deap_sudoku.algorithms.tabu.TabuResult` (``steps`` counts local-search steps, ``visited``
    is 0) and how many perturbations were made and how many of their descents were accepted."""

    perturbations: int = 0
    accepted: int = 0


def iterated_search_toolbox(
    puzzle: Puzzle,
    *,
    rng: random.Random,
    share: float = 0.2,
    max_nodes: int = 200,
    worse: float = 0.0,
    accept: Callable[..., bool] = accept_not_worse,
    restrict: bool = False,
) -> base.Toolbox:
    """The search's parts on ``puzzle``, registered as ``examples/iterated_local_search.py`` registers
    them: ``individual()`` the start (every box a permutation of the values it misses; ``restrict``
    narrows it by propagation), ``accept(old_cost, new_cost)`` the acceptance (``accept`` with
    ``rng`` and ``worse``), ``perturb(individual, max_seconds=...)`` the perturbation
    (:func:`~deap_sudoku.tools.mut_free_and_complete`, in place).  Every draw comes from ``rng``."""
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, Individual, puzzle=puzzle, restrict=restrict, rng=rng)
    toolbox.register("accept", accept, rng=rng, worse=worse)
    toolbox.register("perturb", mut_free_and_complete, puzzle=puzzle, share=share, max_nodes=max_nodes, rng=rng)
    return toolbox


def iterated_local_search(
    puzzle: Puzzle,
    *,
    rng: random.Random,
    toolbox: base.Toolbox | None = None,
    tenure: int = 10,
    patience: int = 200,
    share: float = 0.2,
    max_nodes: int = 200,
    worse: float = 0.0,
    accept: Callable[..., bool] = accept_not_worse,
    restrict: bool = False,
    max_steps: int | None = None,
    max_evaluations: int | None = None,
    max_seconds: float | None = None,
    callback: Callable[[int, int, int], object] | None = None,
    report_every: int = 1000,
    requested: Callable[[], object] | None = None,
    stop: Stop | None = None,
) -> IteratedSearchResult:
    """Search until solved, ``max_steps`` local-search steps (None: no cap), ``max_evaluations`` evaluations or
    ``max_seconds`` seconds; return the best grid seen.  ``stop``, a :class:`~deap_sudoku.algorithms.Stop`,
    holds those budgets and ``requested`` instead, the loose keywords then left at their defaults.

    ``toolbox`` holds the start, the acceptance and the perturbation (:func:`iterated_search_toolbox`
    names them); without one, ``iterated_search_toolbox(puzzle, rng=rng, share=share,
    max_nodes=max_nodes, worse=worse, accept=accept, restrict=restrict)`` is used, and with one
    those five are its own (left at their defaults here).  ``rng`` draws the descent's cells and
    ties.  ``accept(old_cost, new_cost, rng=..., worse=...)`` decides whether a descent's best
    replaces the current grid; ``restrict`` narrows the start by propagation.  ``callback``, ``report_every``,
    ``requested`` and ``stop`` as for :func:`~deap_sudoku.algorithms.tabu.tabu_search`.
    """
    stop = given_stop(
        stop,
        "iterated_local_search",
        {},
        max_steps=max_steps,
        max_evaluations=max_evaluations,
        max_seconds=max_seconds,
        requested=requested,
    )
    if stop.max_evaluations is not None and stop.max_evaluations < 1:
        raise ValueError(f"max_evaluations must be at least 1, not {stop.max_evaluations!r}")
    if toolbox is None:
        toolbox = iterated_search_toolbox(
            puzzle, rng=rng, share=share, max_nodes=max_nodes, worse=worse, accept=accept, restrict=restrict
        )
    elif (share, max_nodes, worse, accept, restrict) != (0.2, 200, 0.0, accept_not_worse, False):
        raise ValueError("with a toolbox, share, max_nodes, worse, accept and restrict are its parts'")
    search = _Search(puzzle, rng, tenure=tenure, restrict=restrict, start=toolbox.individual)
    reason, perturbations, accepted = _iterate(search, toolbox, stop, patience, callback, report_every)
    seconds = stop.elapsed()
    interrupted = reason == INTERRUPTED
    return search.result(puzzle, seconds, interrupted, "" if interrupted else reason, perturbations, accepted)


def _iterate(
    search: _Search,
    toolbox: base.Toolbox,
    stop: Stop,
    patience: int,
    callback: Callable[[int, int, int], object] | None,
    report_every: int,
) -> tuple[str, int, int]:
    """Descend, accept or not, perturb, until solved or a reason to end; return the reason and the
    perturbations made and accepted."""
    reason = ""
    perturbations = accepted = 0
    current, current_score = list(search.grid), search.score
    while search.best_score and search.movable:
        reason, descent_score, descent_grid = search.descent(patience, stop, callback, report_every)
        if reason or not search.best_score:
            break
        if toolbox.accept(current_score, descent_score):
            current, current_score = descent_grid, descent_score
            accepted += 1
        reason = _reached(stop, search, between_steps=False)
        if reason:
            break
        grid = Individual(np.array(current, dtype=np.int64))
        left = stop.seconds_left()
        toolbox.perturb(grid, max_seconds=None if left is None else max(1e-6, left))  # the search refuses 0
        perturbations += 1
        search.restart(grid.tolist())
    return reason, perturbations, accepted


def _reached(stop: Stop, search: _Search, between_steps: bool = True) -> str:
    """The budget ``search`` has spent (``"steps"``, ``"evaluations"``, ``"time"``, a stop request),
    or ``""``: asked before every step (steps, evaluations, the clock, and every 32 steps a stop
    request) and before every perturbation (evaluations and the clock)."""
    steps = search.step if between_steps else None
    return stop.spent(steps, search.evaluations, ask=between_steps and search.step % 32 == 0)


class _Search:
    """The grid with its row, column and box counts and score, the boxes' free cells, the tabu
    (cell, value) pairs, the best grid ever and the trace."""

    def __init__(
        self, puzzle: Puzzle, rng: random.Random, *, tenure: int, restrict: bool, start: Callable | None = None
    ) -> None:
        n = puzzle.n
        free = free_cells(puzzle)
        first = (
            start()
            if start is not None
            else init_block_permutation(Individual, puzzle=puzzle, restrict=restrict, rng=rng)
        )
        grid = first.tolist()
        self.n, self.rng, self.tenure = n, rng, tenure
        self.units_of = [tuple(units) for units in puzzle.shape.cell_units.tolist()]
        self.box_cells = {}
        for cells in free.boxes:
            if len(cells) >= 2:
                for cell in cells.tolist():
                    self.box_cells[cell] = [other for other in cells.tolist() if other != cell]
        self.movable_cells = sorted(self.box_cells)
        self.movable = bool(self.movable_cells)
        self.step, self.evaluations = 0, 1  # the start, scored whole
        self.tabu_until: dict[tuple[int, int], int] = {}
        self.grid: list[int] = []
        self.restart(grid, count=False)
        self.best_score, self.best_grid = self.score, list(grid)
        self.trace, self.spacing = [(0, self.score, self.best_score, self.evaluations)], 1

    def restart(self, grid: list[int], count: bool = True) -> None:
        """Go on from ``grid`` (a perturbed one: scored whole, one evaluation), its tabu list empty."""
        self.grid = grid
        self.counts, self.score = _unit_counts(grid, self.units_of, self.n)
        self.tabu_until = {}
        if count:
            self.evaluations += 1
            self._keep_best()

    def _keep_best(self) -> None:
        if self.score < self.best_score:
            self.best_score, self.best_grid = self.score, list(self.grid)

    def clashing(self, cell: int) -> bool:
        n, value = self.n, self.grid[cell]
        return self.counts[cell // n][value] > 1 or self.counts[n + cell % n][value] > 1

    def pick(self) -> int | None:
        """A movable free cell that clashes in its row or column, drawn uniformly (None if none)."""
        cells, rng = self.movable_cells, self.rng
        for _ in range(4 * len(cells)):
            cell = cells[int(rng.random() * len(cells))]
            if self.clashing(cell):
                return cell
        clashing = [cell for cell in cells if self.clashing(cell)]
        return rng.choice(clashing) if clashing else None

    def descent(
        self, patience: int, stop: Stop, callback: Callable[[int, int, int], object] | None, report_every: int
    ) -> tuple[str, int, list[int]]:
        """Min-conflicts steps until ``patience`` of them in a row do not beat the descent's best, or a
        budget ends the search (its reason, else ``""``); the descent's best score and grid."""
        best, best_grid, idle = self.score, list(self.grid), 0
        while self.score and idle < patience:
            reason = _reached(stop, self)
            if reason:
                return reason, best, best_grid
            self.step += 1
            self.descend(best, stop.limit("max_evaluations"))
            if self.score < best:
                best, best_grid, idle = self.score, list(self.grid), 0
            else:
                idle += 1
            if (
                callback is not None
                and self.step % report_every == 0
                and callback(self.step, self.score, self.best_score)
            ):
                return "callback", best, best_grid
        return "", best, best_grid

    def descend(self, descent_best: int, budget: float) -> None:
        """One min-conflicts step: the best allowed swap of a clashing cell inside its box (ties drawn
        at random), scoring at most what is left of ``budget``."""
        a = self.pick()
        if a is None:
            return
        grid, counts, n, step, tabu_until = self.grid, self.counts, self.n, self.step, self.tabu_until
        score, va = self.score, grid[a]
        candidates = self.box_cells[a]
        if budget - self.evaluations < len(candidates):  # the evaluation budget ends inside this step
            candidates = candidates[: max(0, int(budget - self.evaluations))]
        self.evaluations += len(candidates)  # every swap scored, a tabu one included
        allowed: list[tuple[int, int]] = []
        for b in candidates:
            delta = _swap_in_box(grid, a, b, n, counts)
            _swap_in_box(grid, a, b, n, counts)
            tabu = tabu_until.get((a, grid[b]), 0) > step or tabu_until.get((b, va), 0) > step
            if not tabu or score + delta < descent_best:  # aspiration: a tabu swap that beats the descent's best
                allowed.append((delta, b))
        if not allowed:
            return
        least = min(delta for delta, _ in allowed)
        ties = [b for delta, b in allowed if delta == least]
        b = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        vb = grid[b]
        _swap_in_box(grid, a, b, n, counts)
        self.score += least
        tabu_until[(a, va)] = tabu_until[(b, vb)] = step + self.tenure  # no giving back the old values
        self._keep_best()
        self._trace()

    def _trace(self) -> None:
        step = self.step
        if step % self.spacing == 0:
            if len(self.trace) == TRACE_POINTS:
                self.trace, self.spacing = self.trace[::2], 2 * self.spacing
            if step % self.spacing == 0:
                self.trace.append((step, self.score, self.best_score, self.evaluations))

    def result(
        self, puzzle: Puzzle, seconds: float, interrupted: bool, reason: str, perturbations: int, accepted: int
    ) -> IteratedSearchResult:
        last = (self.step, self.score, self.best_score, self.evaluations)
        if self.trace[-1] != last:  # a perturbation's restart may have moved on since the last step traced
            self.trace.append(last)
        return IteratedSearchResult(
            np.array(self.best_grid, dtype=puzzle.cells.dtype),
            self.best_score,
            self.step,
            seconds,
            interrupted,
            0,
            self.evaluations,
            tuple(self.trace),
            reason or ("solved" if not self.best_score else "no moves"),
            perturbations,
            accepted,
        )
