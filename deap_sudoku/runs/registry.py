"""One registry of the algorithms a run can use: how to run each, which budgets it honours, whether it
can be checkpointed and whether it stops cleanly on request.

The command line, ``bench`` and the checkpoint identity all read this table;
adding an algorithm is one :class:`Algorithm` record here.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..exact import SearchBudgetExceeded, solve
from ..grid.puzzle import Puzzle
from ..propagation import analyze, propagate
from . import recipes

__all__ = ["Algorithm", "Outcome", "ALGORITHMS", "algorithm", "names"]

BUDGETS = ("population_size", "max_generations", "max_seconds", "max_steps", "max_nodes")
"""Every budget option a record may honour."""


@dataclass(frozen=True)
class Outcome:
    """What an algorithm gave: the best grid, its fitness (NaN for the exact solvers without an
    answer), generations and evaluations (steps for tabu, 0 for exact), the best fitness per
    generation, and why it stopped."""

    grid: np.ndarray
    fitness: float
    generations: int
    evaluations: int
    minima: list[float]
    note: str


@dataclass(frozen=True)
class Algorithm:
    """One algorithm as runs see it.

    ``run(puzzle, seed=..., requested=..., progress=..., checkpoint=..., **options)``
    returns an :class:`Outcome`; ``options`` are the names in ``budgets``.
    ``checkpointable``: takes ``checkpoint=``.  ``stoppable``: asks
    ``requested()`` at safe points and returns its best so far (the others
    are stopped by ``KeyboardInterrupt``).  ``progress(line)`` receives a
    line of text per generation (GAs) or per 1000 steps (tabu).
    """

    name: str
    kind: str
    description: str
    run: Callable[..., Outcome]
    budgets: tuple[str, ...] = ()
    checkpointable: bool = False
    stoppable: bool = False


def _ga(recipe: Callable) -> Callable[..., Outcome]:
    def run(puzzle: Puzzle, *, seed: int, requested=None, progress=None, checkpoint=None, **options) -> Outcome:
        callback = None
        if progress is not None:
            def callback(generation, population, logbook):
                best = max(ind.fitness for ind in population).values[0]
                progress(f"generation {generation}: best fitness {best:g}")
        _, logbook, hof = recipe(puzzle, seed=seed, requested=requested, callback=callback, checkpoint=checkpoint,
                                 **options)
        weight = hof[0].fitness.weights[0]
        column = "min" if weight < 0 else "max"
        minima = [float(v) for v in logbook.select(column)] if column in logbook.header else []
        return Outcome(np.asarray(hof[0]), float(hof[0].fitness.values[0]), int(logbook[-1]["gen"]),
                       int(sum(logbook.select("nevals"))), minima, logbook.stop_reason)
    run.__doc__ = f"Run :func:`{recipe.__module__}.{recipe.__name__}` and summarise it as an :class:`Outcome`."
    return run


def _tabu(**variant) -> Callable[..., Outcome]:
    def run(puzzle: Puzzle, *, seed: int, requested=None, progress=None, **options) -> Outcome:
        callback = None
        if progress is not None:
            def callback(step, score, best):
                progress(f"step {step}: score {score}, best {best}")
        _, logbook, hof = recipes.tabu(puzzle, seed=seed, requested=requested, callback=callback, **variant,
                                       **options)
        steps = int(logbook[-1]["steps"])
        return Outcome(np.asarray(hof[0]), float(hof[0].fitness.values[0]), steps, steps, [], logbook.stop_reason)
    run.__doc__ = f"Run :func:`recipes.tabu` with {variant or 'its documented defaults'} as an :class:`Outcome`."
    return run


def _backtracking(puzzle: Puzzle, *, seed: int, max_nodes: int | None = None, **_: object) -> Outcome:
    try:
        solution = solve(puzzle, max_nodes=max_nodes, rng=random.Random(seed))
        note = "exhausted" if solution is None else ""
    except SearchBudgetExceeded as exc:
        solution, note = None, str(exc)
    grid = puzzle.cells if solution is None else solution.cells
    return Outcome(grid, 0.0 if solution is not None else math.nan, 0, 0, [], note)


def _analyzer(puzzle: Puzzle, **_: object) -> Outcome:
    result = analyze(puzzle)
    note = ("the analyzer met a square with no possible value" if result.contradiction
            else f"the analyzer filled {result.filled} cells in {result.sweeps} sweep{'s' * (result.sweeps != 1)}")
    return Outcome(result.values, 0.0 if result.solved else math.nan, 0, 0, [], note)


def _propagation(puzzle: Puzzle, **_: object) -> Outcome:
    result = propagate(puzzle)
    note = "propagation found a contradiction" if result.contradiction else f"propagation filled {result.filled} cells"
    return Outcome(result.values, 0.0 if result.solved else math.nan, 0, 0, [], note)


_GA_BUDGETS = ("population_size", "max_generations")

ALGORITHMS: dict[str, Algorithm] = {a.name: a for a in (
    Algorithm("memetic", "ga", "the project's best solver: memetic GA with propagation repair",
              _ga(recipes.memetic), _GA_BUDGETS + ("max_seconds",), checkpointable=True, stoppable=True),
    Algorithm("block-ga", "ga", "block GA as the C++ \"Sudoku Löser\" documents it", _ga(recipes.block_ga),
              _GA_BUDGETS, checkpointable=True, stoppable=True),
    Algorithm("restart-ga", "ga", "block GA with random restart as the Python GA documents it",
              _ga(recipes.block_ga_restart), _GA_BUDGETS, checkpointable=True, stoppable=True),
    Algorithm("cell-ga", "ga", "cell GA as the report's Implementation 1 documents it", _ga(recipes.cell_ga),
              _GA_BUDGETS, checkpointable=True, stoppable=True),
    Algorithm("row-ga", "ga", "row-permutation GA as the report's Implementation 2 documents it",
              _ga(recipes.row_permutation_ga), _GA_BUDGETS, checkpointable=True, stoppable=True),
    Algorithm("tabu", "local search", "tabu search as documented: one-value moves, a table of visited boards",
              _tabu(), ("max_steps",), stoppable=True),
    Algorithm("tabu-swap", "local search", "our tabu search: in-box swaps, cell tenure, start narrowed by propagation",
              _tabu(moves="swap", memory="cells", restrict=True), ("max_steps",), stoppable=True),
    Algorithm("backtracking", "exact", "backtracking with propagation and restarts", _backtracking, ("max_nodes",)),
    Algorithm("analyzer", "exact", "the documented constraint analyzer: naked singles, sweep by sweep", _analyzer),
    Algorithm("propagation", "exact", "constraint propagation only: naked and hidden singles", _propagation),
)}


def names(*, kind: str | None = None, checkpointable: bool | None = None) -> tuple[str, ...]:
    """The registered names, optionally only those of one ``kind`` or that can be checkpointed."""
    return tuple(a.name for a in ALGORITHMS.values()
                 if (kind is None or a.kind == kind) and (checkpointable is None or a.checkpointable == checkpointable))


def algorithm(name: str) -> Algorithm:
    """The record of ``name``; ``ValueError`` naming the choices for an unknown one."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        raise ValueError(f"unknown algorithm {name!r}; choose from {', '.join(ALGORITHMS)}") from None
