"""Simulated annealing after R. Lewis, "Metaheuristics can solve sudoku puzzles" (J. Heuristics 13(4), 2007),
with the constraint-propagation-first variant of his "On the combination of constraint programming and
stochastic search: the Sudoku case" (Hybrid Metaheuristics 2007) as a switch.

Each box's free cells hold a permutation of the values the box misses, so boxes are always right
(§2.1); a move draws a free cell over the whole grid, then another free cell of its box, and swaps
them (§2.1, ``move="cell"``; ``"box"`` draws the box first); the cost is, for every row and every
column, how many values it misses, summed (§2.2; 0 is a solution), scored incrementally.  The
initial temperature is the standard deviation of the cost over a random walk of ``sample_size``
moves from the start, the temperature is multiplied by ``alpha`` (0.99, §3.1) after every Markov
chain of ``chain_length`` moves (the number of free cells squared unless given), and after
``reheat_after`` (20) chains without an improvement it goes back to the initial value and the search
starts again from a new random solution (§2.3, ``restart_on_reheat``;
:class:`~deap_sudoku.tools.annealing.GeometricSchedule`).  Worse moves are taken by the Metropolis
rule (:func:`~deap_sudoku.tools.annealing.metropolis`).  Section numbers are those of an author's
preprint of the 2007 paper.

``propagate_first``: naked and hidden singles fix every cell they settle, which then counts as a
given, and each box is filled preferring the values propagation leaves each cell (the HM 2007
paper's abstract only: which rules it uses, and whether moves keep to the narrowed domains, are our
reading).  Ours, where his text is silent: the sample is a random walk (every move taken) and its
spread the population standard deviation over 200 moves, and a chain "improves" when its lowest cost
is below the previous chain's.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from deap import base

from ..grid.puzzle import Puzzle
from ..propagation import propagate
from ..tools.annealing import BoxSwaps, GeometricSchedule, initial_temperature, metropolis
from ..tools.free_cells import free_cells
from ..tools.individual import Individual
from ..tools.init import init_block_permutation
from .stop import Stop, given_stop
from .tabu import TRACE_POINTS, TabuResult

__all__ = ["AnnealingResult", "simulated_annealing", "annealing_toolbox"]

CHECK_EVERY = 64
"""Moves between two looks at the clock and the budgets: at a few microseconds a move, well under
a millisecond."""


@dataclass(frozen=True)
class AnnealingResult(TabuResult):
    """:class:`~deap_sudoku.algorithms.TabuResult`'s fields (``steps`` are the moves proposed after the
    temperature sample, ``evaluations`` every move scored, the sample's included; ``visited`` is 0), and
    the annealing's own: the initial temperature, the chain length, each finished chain's
    ``(temperature, lowest cost)``, how many reheats, and how many cells propagation fixed beyond the
    givens (``propagate_first``)."""

    initial_temperature: float = 0.0
    chain_length: int = 0
    chains: tuple[tuple[float, int], ...] = ()
    reheats: int = 0
    fixed: int = 0
    found: str = ""
    """What found the best grid (:meth:`found_by`): ``"local search"`` once a move was made (the
    temperature sample's count), ``"propagation"`` when propagation first left no move, else ``"start"``."""

    def found_by(self) -> str:
        return self.found or super().found_by()


def annealing_toolbox(
    *,
    rng: random.Random,
    alpha: float = 0.99,
    reheat_after: int | None = 20,
    move: str = "cell",
    restrict: bool = False,
) -> base.Toolbox:
    """The annealing's parts, registered as ``examples/simulated_annealing.py`` registers them (Lewis
    2007's rules with these defaults): ``individual(puzzle=...)`` a start (each box a random
    permutation of the values it misses, §2.1; ``restrict`` prefers the values propagation leaves a
    cell), ``neighbourhood(puzzle)`` the moves (:class:`~deap_sudoku.tools.BoxSwaps`, ``first=move``,
    §2.1), ``accept(delta, t)`` the Metropolis rule (§2.3 eq. 2), ``initial_temperature(costs)`` the
    spread of the sampled costs (§2.3), ``schedule(t0)`` the geometric cooling with reheats (§2.3
    eq. 3).  Every draw comes from ``rng``."""
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, Individual, restrict=restrict, rng=rng)
    toolbox.register("neighbourhood", BoxSwaps, first=move, rng=rng)
    toolbox.register("accept", metropolis, rng=rng)
    toolbox.register("initial_temperature", initial_temperature)
    toolbox.register("schedule", GeometricSchedule, alpha=alpha, reheat_after=reheat_after)
    return toolbox


def simulated_annealing(
    puzzle: Puzzle,
    *,
    rng: random.Random | None = None,
    toolbox: base.Toolbox | None = None,
    alpha: float = 0.99,
    chain_length: int | None = None,
    reheat_after: int | None = 20,
    sample_size: int = 200,
    propagate_first: bool = False,
    move: str = "cell",
    restart_on_reheat: bool = True,
    max_steps: int = 100_000_000,
    max_evaluations: int | None = None,
    max_seconds: float | None = None,
    callback: Callable[[int, int, int], object] | None = None,
    report_every: int = 10_000,
    requested: Callable[[], object] | None = None,
    stop: Stop | None = None,
) -> AnnealingResult:
    """Anneal until solved, ``max_steps`` moves, ``max_evaluations`` moves scored (the temperature sample's
    included) or ``max_seconds`` seconds; return the best grid seen.  ``stop``, a
    :class:`~deap_sudoku.algorithms.Stop`, holds those budgets and ``requested`` instead (its clock,
    :attr:`~deap_sudoku.algorithms.Stop.started`, may have begun before the call), the loose keywords then left
    at their defaults.

    ``toolbox`` holds the parts it is composed of (:func:`annealing_toolbox` names them); without one,
    ``annealing_toolbox(rng=rng, alpha=alpha, reheat_after=reheat_after, move=move, restrict=propagate_first)``
    is used, and with one those four are its own (left at their defaults here).  The annealing gives
    ``toolbox.individual`` the puzzle it anneals (the propagated one with ``propagate_first``).
    ``callback(step, cost, best_cost)`` is called every ``report_every`` moves, and a true answer ends the
    search (``stop_reason`` ``"callback"``); the clock is read every :data:`CHECK_EVERY` moves (counting from
    the call, or from the stop's ``started``), ``requested()`` every 16 such looks, and either ends the search.
    ``reheat_after=None`` never reheats.

    ``move="cell"`` (Lewis 2007, §2.1): a free cell drawn uniformly over the grid, then another free cell of its
    box, "to stop a sampling bias towards squares with less non-fixed values"; ``"box"``: a box drawn uniformly
    first (this package's reading before his text was at hand). ``restart_on_reheat`` (§2.3): a reheat also
    starts again from a new random solution (his "random-restart mechanism"); false keeps the grid.  The start,
    and each restart, is one evaluation.
    """
    toolbox = _composed(toolbox, rng, alpha, reheat_after, move, propagate_first, chain_length)
    stop = given_stop(  # its clock begun: the start, drawn and scored, is on it too
        stop,
        "simulated_annealing",
        _LOOSE,
        max_steps=max_steps,
        max_evaluations=max_evaluations,
        max_seconds=max_seconds,
        requested=requested,
    )
    work, fixed = _propagated(puzzle) if propagate_first else (puzzle, 0)
    state = _Annealer(work, toolbox)
    length = chain_length if chain_length is not None else max(len(free_cells(work).cells) ** 2, 1)
    costs = _sample(state, sample_size, stop)
    schedule = toolbox.schedule(toolbox.initial_temperature(costs))
    run = _Run(state, schedule, length, 1 + len(costs), restart_on_reheat)
    reason = _anneal(run, state, stop, length, callback, report_every)
    found = "local search" if run.step or costs else "propagation" if fixed and not state.movable else "start"
    return dataclasses.replace(run.result(puzzle, stop.elapsed(), reason, fixed), found=found)


def _composed(
    toolbox: base.Toolbox | None,
    rng: random.Random | None,
    alpha: float,
    reheat_after: int | None,
    move: str,
    propagate_first: bool,
    chain_length: int | None,
) -> base.Toolbox:
    """The toolbox :func:`simulated_annealing` runs: the one given (whose schedule and neighbourhood
    are its own), or :func:`annealing_toolbox` built from the arguments; the arguments checked first."""
    if chain_length is not None and chain_length < 1:
        raise ValueError(f"chain_length is at least 1; got {chain_length}")
    if move not in ("cell", "box"):
        raise ValueError(f"move is 'cell' or 'box'; got {move!r}")
    if toolbox is not None:
        if (alpha, reheat_after, move) != (0.99, 20, "cell"):
            raise ValueError(
                "alpha, reheat_after and move are the toolbox's (its schedule and neighbourhood), not arguments"
            )
        return toolbox
    if rng is None:
        raise TypeError("simulated_annealing needs rng, or a toolbox whose parts draw from one")
    return annealing_toolbox(rng=rng, alpha=alpha, reheat_after=reheat_after, move=move, restrict=propagate_first)


def _anneal(
    run: _Run,
    state: _Annealer,
    stop: Stop,
    length: int,
    callback: Callable[[int, int, int], object] | None,
    report_every: int,
) -> str:
    """Move in runs of at most :data:`CHECK_EVERY` moves (ending at a chain's end, a report, the step
    or evaluation budget) until a reason to end; return it."""
    reason, looks = "", 0
    steps, evaluations = stop.limit("max_steps"), stop.limit("max_evaluations")
    while not (reason := _reason(stop, state, run.step, run.evaluations, looks := looks + 1)):
        count = min(CHECK_EVERY, length - run.position, report_every - run.step % report_every)
        run.advance(int(min(count, steps - run.step, evaluations - run.evaluations)))
        if callback is not None and run.step % report_every == 0 and callback(run.step, state.cost, state.best):
            return "callback"
    return reason


_LOOSE: dict[str, object] = {"max_steps": 100_000_000}
"""The defaults of :func:`simulated_annealing`'s loose budget keywords (the others None)."""


def _reason(stop: Stop, state: _Annealer, step: int, evaluations: int, looks: int) -> str:
    """Why the search ends now (``"interrupted"`` when asked to stop, every 16th look), or ``""`` to go on."""
    if not state.best:
        return "solved"
    if not state.movable:
        return "no moves"
    return stop.spent(step, evaluations, ask=looks % 16 == 1)


def _sample(state: _Annealer, size: int, stop: Stop) -> list[int]:
    """The costs along a random walk of ``size`` moves from the start, every move taken (fewer when the
    evaluation budget is smaller, a move solves the puzzle, or there is no move or time)."""
    costs: list[int] = []
    if state.movable and not stop.out_of_time():
        for _ in range(int(min(size, stop.limit("max_evaluations") - 1))):  # the start was one
            if not state.best:
                break
            state.moves(1, math.inf)
            costs.append(state.cost)
    return costs


class _Run:
    """The annealing's progress: moves made and scored, the position in the current chain, each
    finished chain's ``(temperature, lowest cost)``, and the trace."""

    def __init__(
        self, state: _Annealer, schedule: GeometricSchedule, length: int, evaluations: int, restart: bool
    ) -> None:
        self.state, self.schedule, self.length, self.restart = state, schedule, length, restart
        self.step, self.evaluations, self.position = 0, evaluations, 0
        self.chains: list[tuple[float, int]] = []
        self.trace, self.spacing = [(0, state.cost, state.best, evaluations)], CHECK_EVERY
        state.lowest = state.cost

    def advance(self, count: int) -> None:
        """Propose ``count`` moves at the schedule's temperature; end the chain when it is full."""
        state = self.state
        made = state.moves(count, self.schedule.temperature)
        self.step, self.evaluations, self.position = self.step + made, self.evaluations + made, self.position + made
        if self.position == self.length:
            self.chains.append((self.schedule.temperature, state.lowest))
            reheats = self.schedule.reheats
            self.schedule.end_chain(state.lowest)
            if self.restart and self.schedule.reheats > reheats:
                state.restart()  # a new random solution, scored: one evaluation
                self.evaluations += 1
            state.lowest, self.position = state.cost, 0
        if self.step - self.trace[-1][0] >= self.spacing:
            if len(self.trace) == TRACE_POINTS:
                self.trace, self.spacing = self.trace[::2], 2 * self.spacing
            self.trace.append((self.step, state.cost, state.best, self.evaluations))

    def result(self, puzzle: Puzzle, seconds: float, reason: str, fixed: int) -> AnnealingResult:
        state = self.state
        if self.trace[-1][0] != self.step:
            self.trace.append((self.step, state.cost, state.best, self.evaluations))
        interrupted = reason == "interrupted"
        return AnnealingResult(
            np.array(state.best_grid, dtype=puzzle.cells.dtype),
            state.best,
            self.step,
            seconds,
            interrupted,
            0,
            self.evaluations,
            tuple(self.trace),
            "" if interrupted else reason,
            self.schedule.initial,
            self.length,
            tuple(self.chains),
            self.schedule.reheats,
            fixed,
        )


def _propagated(puzzle: Puzzle) -> tuple[Puzzle, int]:
    """The puzzle with every cell naked and hidden singles settle made a given, and how many that is
    beyond the givens; the puzzle itself when propagation finds it has no solution."""
    result = propagate(puzzle)
    if result.contradiction:
        return puzzle, 0
    return Puzzle(result.values, box=puzzle.shape), int(np.count_nonzero(result.values)) - int(puzzle.givens.sum())


class _Annealer:
    """The grid (a block-permutation) with each row's and column's value counts, its cost, the lowest
    cost of the current chain, and the best cost and grid seen; its start, moves and acceptance are
    the toolbox's."""

    def __init__(self, puzzle: Puzzle, toolbox: base.Toolbox) -> None:
        n = puzzle.n
        self.puzzle, self.individual, self.accept = puzzle, toolbox.individual, toolbox.accept
        self.swaps: BoxSwaps = toolbox.neighbourhood(puzzle)
        self.row_of = [cell // n for cell in range(n * n)]
        self.col_of = [cell % n for cell in range(n * n)]
        self.movable = bool(self.swaps.boxes)
        self._fill()
        self.lowest = self.best = self.cost
        self.best_grid = list(self.grid)

    def _fill(self) -> None:
        """A random solution (the toolbox's ``individual``): each box's free cells a permutation of
        the values it misses."""
        n = self.puzzle.n
        grid = self.individual(puzzle=self.puzzle).tolist()
        self.grid = grid
        self.rows = [[0] * (n + 1) for _ in range(n)]
        self.cols = [[0] * (n + 1) for _ in range(n)]
        for cell, value in enumerate(grid):
            self.rows[cell // n][value] += 1
            self.cols[cell % n][value] += 1
        self.cost = sum(unit[1:].count(0) for unit in self.rows + self.cols)  # the values each misses

    def restart(self) -> None:
        """Start again from a new random solution (Lewis's reheat), keeping the best grid seen."""
        self._fill()
        if self.cost < self.best:
            self.best, self.best_grid = self.cost, list(self.grid)

    def moves(self, count: int, temperature: float) -> int:
        """Propose ``count`` swaps at ``temperature`` (``math.inf`` takes every one), each taken by the
        Metropolis rule; return how many were proposed, fewer when one solves the puzzle."""
        grid, rows, cols, row_of, col_of = self.grid, self.rows, self.cols, self.row_of, self.col_of
        draw, accept = self.swaps.draw, self.accept
        cost, lowest, best = self.cost, self.lowest, self.best
        made = 0
        while made < count:
            made += 1
            a, b = draw()  # two distinct free cells of one box
            va, vb = grid[a], grid[b]  # distinct: the box holds a permutation
            ra, rb, ca, cb = row_of[a], row_of[b], col_of[a], col_of[b]
            delta = 0
            if ra != rb:  # a row that loses its only va misses one more; one that gains a missing vb, one fewer
                x, y = rows[ra], rows[rb]
                delta = (x[va] == 1) - (x[vb] == 0) + (y[vb] == 1) - (y[va] == 0)
            if ca != cb:
                x, y = cols[ca], cols[cb]
                delta += (x[va] == 1) - (x[vb] == 0) + (y[vb] == 1) - (y[va] == 0)
            if delta > 0 and not accept(delta, temperature):
                continue
            grid[a], grid[b] = vb, va
            if ra != rb:
                x, y = rows[ra], rows[rb]
                x[va] -= 1
                x[vb] += 1
                y[vb] -= 1
                y[va] += 1
            if ca != cb:
                x, y = cols[ca], cols[cb]
                x[va] -= 1
                x[vb] += 1
                y[vb] -= 1
                y[va] += 1
            cost += delta
            if cost < lowest:
                lowest = cost
                if cost < best:
                    best, self.best_grid = cost, grid[:]
                    if not cost:
                        break
        self.cost, self.lowest, self.best = cost, lowest, best
        return made
