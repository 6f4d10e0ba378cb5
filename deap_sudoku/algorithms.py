"""A generational loop in DEAP's style with what ``eaSimple`` lacks for Sudoku.

:func:`ea_generational` adds elitism, crossovers with more than two parents,
stop criteria (:class:`Stop`), random restarts and a per-generation callback,
while keeping DEAP's interface: a toolbox with ``select``, ``mate``,
``mutate``, ``evaluate``, ``clone`` and ``map``; ``Statistics``, ``Logbook``
and ``HallOfFame``; it returns ``(population, logbook)``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from deap import base, tools

__all__ = ["Stop", "ea_generational", "evaluate_invalid"]


@dataclass(frozen=True)
class Stop:
    """When a run ends; every criterion that is set applies, the first one met wins.

    ``solved``: the first-objective value of a solved grid (0 for collisions, 243
    for distinct values of a 9x9). ``stagnation``: the best equals the population
    mean (the block GA's local-minimum test). ``patience``: generations without
    improvement of the best ever. The rest are budgets.
    """

    solved: float | None = None
    stagnation: bool = False
    patience: int | None = None
    max_generations: int | None = None
    max_evaluations: int | None = None
    max_seconds: float | None = None


def evaluate_invalid(individuals: list, toolbox: base.Toolbox) -> int:
    """Evaluate the individuals whose fitness is invalid (in one ``toolbox.map`` call); return how many."""
    invalid = [ind for ind in individuals if not ind.fitness.valid]
    for ind, fit in zip(invalid, toolbox.map(toolbox.evaluate, invalid)):
        ind.fitness.values = fit
    return len(invalid)


def _vary(offspring: list, toolbox: base.Toolbox, cxpb: float, mutpb: float, parents: int, rng) -> None:
    """DEAP's ``varAnd`` for groups of ``parents``: mate consecutive groups with ``cxpb``, then
    mutate each with ``mutpb``; changed individuals lose their fitness."""
    for start in range(0, len(offspring) - parents + 1, parents):
        if rng.random() < cxpb:
            group = offspring[start:start + parents]
            toolbox.mate(*group)
            for ind in group:
                del ind.fitness.values
    for ind in offspring:
        if rng.random() < mutpb:
            toolbox.mutate(ind)
            del ind.fitness.values


def ea_generational(population: list, toolbox: base.Toolbox, cxpb: float, mutpb: float, *, stop: Stop,
                    elites: int = 0, parents: int = 2, restart_after: int | None = None,
                    stats: tools.Statistics | None = None, halloffame: tools.HallOfFame | None = None,
                    callback: Callable[[int, list, tools.Logbook], None] | None = None,
                    verbose: bool = False, rng=None) -> tuple[list, tools.Logbook]:
    """Evolve ``population`` until a criterion of ``stop`` is met.

    Each generation selects ``len(population) - elites`` parents, clones and
    varies them in groups of ``parents`` (``toolbox.mate`` must take that many),
    evaluates the changed ones in one ``toolbox.map`` call, and adds the
    ``elites`` best of the previous generation unchanged.  With
    ``restart_after``, a population that has not improved the best ever for
    that many generations is replaced by a fresh ``toolbox.population``; the
    hall of fame keeps the best ever and the logbook counts ``restarts``.
    ``logbook.stop_reason`` names the criterion that ended the run.
    """
    rng = rng or random
    if stop == Stop():
        raise ValueError("set at least one stop criterion")
    started = time.perf_counter()
    logbook = tools.Logbook()
    logbook.header = ["gen", "nevals", "restarts"] + (stats.fields if stats else [])
    size = len(population)
    evaluations = evaluate_invalid(population, toolbox)
    restarts, generation = 0, 0
    best_ever = max(ind.fitness for ind in population)
    since_improvement = 0

    def record(nevals: int) -> None:
        if halloffame is not None:
            halloffame.update(population)
        logbook.record(gen=generation, nevals=nevals, restarts=restarts, **(stats.compile(population) if stats else {}))
        if verbose:
            print(logbook.stream)
        if callback is not None:
            callback(generation, population, logbook)

    record(evaluations)
    while True:
        reason = _stop_reason(stop, population, generation, evaluations, since_improvement, started)
        if reason:
            logbook.stop_reason = reason
            return population, logbook
        generation += 1
        if restart_after is not None and since_improvement >= restart_after:
            population = toolbox.population(n=size)
            restarts += 1
            since_improvement = 0
            nevals = evaluate_invalid(population, toolbox)
        else:
            chosen = sorted(population, key=lambda ind: ind.fitness, reverse=True)[:elites] if elites else []
            offspring = [toolbox.clone(ind) for ind in toolbox.select(population, size - elites)]
            _vary(offspring, toolbox, cxpb, mutpb, parents, rng)
            nevals = evaluate_invalid(offspring, toolbox)
            population = offspring + [toolbox.clone(ind) for ind in chosen]
        evaluations += nevals
        best_now = max(ind.fitness for ind in population)
        if best_now > best_ever:
            best_ever, since_improvement = best_now, 0
        else:
            since_improvement += 1
        record(nevals)


def _stop_reason(stop: Stop, population: list, generation: int, evaluations: int, since_improvement: int,
                 started: float) -> str | None:
    values = [ind.fitness.values[0] for ind in population]
    best = max(population, key=lambda ind: ind.fitness).fitness.values[0]
    if stop.solved is not None and best == stop.solved:
        return "solved"
    if stop.stagnation and generation > 0 and best == sum(values) / len(values):
        return "stagnation"
    if stop.patience is not None and since_improvement >= stop.patience:
        return "no improvement"
    if stop.max_generations is not None and generation >= stop.max_generations:
        return "generations"
    if stop.max_evaluations is not None and evaluations >= stop.max_evaluations:
        return "evaluations"
    if stop.max_seconds is not None and time.perf_counter() - started >= stop.max_seconds:
        return "time"
    return None
