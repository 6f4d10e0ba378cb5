"""The ant colony system of Lloyd & Amos (IEEE Trans. Games 2019) as a loop over DEAP parts.

Generation 0 is ``toolbox.individual()``, the grid the ants start from (the givens propagated:
a puzzle that propagation solves ends there).  Each generation after it, ``toolbox.colony()``
builds the ants' grids (a population; see :class:`~deap_sudoku.tools.Pheromone`),
``toolbox.evaluate`` scores them (their failed cells with :func:`~deap_sudoku.tools.eval_collisions`:
0 is solved), and the colony's *best value* decides
the global update: an ant that filled ``f`` of the ``N`` cells is worth ``N / (N - f)``; when the
iteration's best is worth more than the best value kept, its grid becomes the best grid and its
worth the best value, and ``toolbox.deposit(best_grid, best_value)`` then reinforces the best
grid's values.  The best value then evaporates, ``best_value *= 1 - best_evaporation``, so an old
best grid is replaced, in time, by a worse but newer one: the paper's anti-stagnation operator.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
from deap import base, tools

from ..tools.pheromone import DrawStream
from .run import Checkpointer, Hook, Run
from .stop import Abandoned, Stop

__all__ = ["ea_ant_colony", "worth"]


def worth(unfilled: float, cells: int, precision: str = "float64") -> float:
    """What an ant that left ``unfilled`` of ``cells`` cells failed is worth to the global update:
    ``cells / unfilled`` (infinite for a solution), divided in ``precision`` (``"float32"`` as the
    authors' ``numCells / (float)(numCells - cellsFilled)``)."""
    if unfilled == 0:
        return float("inf")
    real = np.dtype(precision).type
    return float(real(cells) / real(unfilled))


def ea_ant_colony(
    toolbox: base.Toolbox,
    *,
    pheromone: np.ndarray,
    stop: Stop,
    rng: random.Random | DrawStream,
    best_evaporation: float = 0.005,
    stats: tools.Statistics | None = None,
    halloffame: tools.HallOfFame | None = None,
    callback: Hook | None = None,
    checkpoint: Checkpointer | None = None,
) -> tuple[list, tools.Logbook]:
    """Run the colony until ``stop``; return the last colony and the logbook (a generation is one
    iteration of the colony, its evaluations the ants evaluated).

    ``toolbox`` registers ``individual(until=...)`` (the ants' starting grid; once ``until()``
    answers true, a stop or the time budget, the grid as far as it is made, and the run ends at
    generation 0), ``colony(poll=...)`` (the ants' individuals; ``poll`` raises to stop it),
    ``evaluate`` (one objective, minimised: the failed cells), ``deposit(grid, amount)`` and
    ``clone``.  ``pheromone`` is the ``(cells, values)`` matrix the colony reads and the deposits
    change (:attr:`~deap_sudoku.tools.Pheromone.matrix`): a ``checkpoint`` saves it with the best
    grid and value, and a resumed run takes them up, in place.  The best value is reckoned in the
    matrix's type (float32 as the authors' solver, or float64): an ant's worth, the comparison and
    the evaporation.  ``rng`` is the generator the colony draws from (registered with it), or a
    :class:`~deap_sudoku.tools.DrawStream`."""
    if not 0 <= best_evaporation <= 1:
        raise ValueError(f"best_evaporation is a rate 0..1, not {best_evaporation!r}")
    stop = stop.begun()  # generation 0, the givens' propagation, is on the clock
    start = toolbox.individual(until=_asker(stop.poller()))
    best = {"pheromone": pheromone, "best_grid": np.zeros(len(start), dtype=np.int64), "best_value": 0.0}
    run = Run(
        [start],
        stop=stop,
        rng=rng,  # type: ignore[arg-type]  # a DrawStream has getstate/setstate, all a Run asks
        stats=stats,
        halloffame=halloffame,
        callback=callback,
        checkpoint=checkpoint,
        extra=best,
        restarts=False,
    )
    if not run.resumed:
        run.evaluate_first(toolbox)
    cells = pheromone.shape[0]
    while not run.finished():
        with run.generating():
            colony = toolbox.colony(poll=run.poll)
            run.evaluate(colony, toolbox)
            colony = [ant for ant in colony if ant.fitness.valid]
            _update(run.extra, colony, cells, toolbox, best_evaporation, pheromone.dtype.name)
            run.next_generation(colony)
    return run.population, run.logbook


def _asker(poll: Callable[[], None]) -> Callable[[], bool]:
    """``poll`` (:meth:`Stop.poller`) as a question: whether a stop request or the time budget has
    ended the run."""

    def until() -> bool:
        try:
            poll()
        except Abandoned:
            return True
        return False

    return until


def _update(best: dict, colony: list, cells: int, toolbox: base.Toolbox, evaporation: float, precision: str) -> None:
    """Take the colony's best ant (the first of equals) as the best grid when it is worth more than
    the best value kept; deposit on the best grid; evaporate the best value (``best_value *= 1 -
    evaporation``, in ``precision``)."""
    if not colony:
        return
    ant = max(colony, key=lambda ant: ant.fitness)
    value = worth(ant.fitness.values[0], cells, precision)
    if value > best["best_value"]:
        best["best_grid"][:] = ant
        best["best_value"] = value
    toolbox.deposit(best["best_grid"], best["best_value"])
    real = np.dtype(precision).type
    best["best_value"] = float(real(best["best_value"]) * (real(1) - real(evaporation)))
