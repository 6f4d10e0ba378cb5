"""A generational loop in DEAP's style with what ``eaSimple`` lacks for Sudoku.

:func:`ea_generational` adds elitism, crossovers with more than two parents,
stop criteria (:class:`Stop`), random restarts and a per-generation callback
that can end the run (by returning a true value), while keeping DEAP's interface: a toolbox with ``select``, ``mate``,
``mutate``, ``evaluate``, ``clone`` and ``map``; ``Statistics``, ``Logbook``
and ``HallOfFame``; it returns ``(population, logbook)``.  Progress goes to
the callback (the examples print ``logbook.stream`` there); nothing is printed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from deap import base, tools

from .run import Checkpointer, Run
from .stop import Stop, no_poll

__all__ = ["ea_generational", "one_child"]


def _vary(
    offspring: list,
    toolbox: base.Toolbox,
    cxpb: float,
    mutpb: float,
    parents: int,
    rng,
    poll: Callable[[], None] = no_poll,
) -> None:
    """DEAP's ``varAnd`` for groups of ``parents``: mate consecutive groups with ``cxpb``, then
    mutate each with ``mutpb``; changed individuals lose their fitness.  ``poll`` comes before each group."""
    for start in range(0, len(offspring) - parents + 1, parents):
        poll()
        if rng.random() < cxpb:
            group = offspring[start : start + parents]
            toolbox.mate(*group)
            for ind in group:
                del ind.fitness.values
    for ind in offspring:
        poll()
        if rng.random() < mutpb:
            toolbox.mutate(ind)
            del ind.fitness.values


def one_child(toolbox: base.Toolbox, parents: list, cxpb: float, mutpb: float, rng) -> object:
    """One child of ``parents``: a clone of the first, mated with clones of the others with
    probability ``cxpb`` (the first child the crossover returns), then mutated with ``mutpb``;
    its fitness is invalid.  The parents are not changed."""
    group = [toolbox.clone(ind) for ind in parents]
    if rng.random() < cxpb:
        group = toolbox.mate(*group)
    child = group[0]
    if rng.random() < mutpb:
        toolbox.mutate(child)
    del child.fitness.values
    return child


def ea_generational(
    population: list,
    toolbox: base.Toolbox,
    cxpb: float,
    mutpb: float,
    *,
    stop: Stop,
    rng: random.Random,
    elites: int = 0,
    parents: int = 2,
    one_child_per_mating: bool = False,
    restart_after: int | None = None,
    stats: tools.Statistics | None = None,
    halloffame: tools.HallOfFame | None = None,
    callback: Callable[[int, list, tools.Logbook], object] | None = None,
    checkpoint: Checkpointer | None = None,
) -> tuple[list, tools.Logbook]:
    """Evolve ``population`` until a criterion of ``stop`` is met (or a stop is requested).

    Each generation selects ``len(population) - elites`` parents, clones and
    varies them in groups of ``parents`` (``toolbox.mate`` must take that many),
    evaluates the changed ones in one ``toolbox.map`` call, and adds the
    ``elites`` best of the previous generation unchanged.  With
    ``one_child_per_mating``, it selects ``parents`` times as many and each
    group makes one child (:func:`one_child`), as the report's cell GA does.  With
    ``restart_after``, a population that has not improved the best ever for
    that many generations is replaced by a fresh ``toolbox.population``; the
    hall of fame keeps the best ever and the logbook counts ``restarts``.
    ``logbook.stop_reason`` names the criterion that ended the run.  ``rng``
    draws the crossover and mutation coins; ``callback(generation, population,
    logbook)`` follows every generation, and a true answer ends the run (reason
    :data:`HALTED`).  With ``checkpoint``, the run saves
    itself and resumes from an existing state (:class:`Run`).
    """
    run = Run(
        population, stop=stop, stats=stats, halloffame=halloffame, callback=callback, checkpoint=checkpoint, rng=rng
    )
    size = len(population)
    if not run.resumed:
        run.evaluate_first(toolbox)
    while not run.finished():
        with run.generating():
            population = run.population
            if restart_after is not None and run.since_improvement >= restart_after:
                population = toolbox.population(n=size)
                run.restarts += 1
                run.since_improvement = 0
                run.evaluate(population, toolbox)
            else:
                population = _offspring(run, population, toolbox, cxpb, mutpb, elites, parents, one_child_per_mating)
            run.next_generation(population)
    return run.population, run.logbook


def _offspring(
    run: Run,
    population: list,
    toolbox: base.Toolbox,
    cxpb: float,
    mutpb: float,
    elites: int,
    parents: int,
    one_child_per_mating: bool,
) -> list:
    """One generation of :func:`ea_generational`: the varied offspring, evaluated, and the ``elites``
    best of ``population`` unchanged."""
    size, rng = len(population), run.rng
    best = sorted(population, key=lambda ind: ind.fitness, reverse=True)[:elites] if elites else []
    if one_child_per_mating:
        mates = toolbox.select(population, parents * (size - elites))
        offspring = [
            one_child(toolbox, mates[i : i + parents], cxpb, mutpb, rng)
            for i in run.each(range(0, len(mates), parents))
        ]
    else:
        offspring = [toolbox.clone(ind) for ind in run.each(toolbox.select(population, size - elites))]
        _vary(offspring, toolbox, cxpb, mutpb, parents, rng, run.poll)
    run.evaluate(offspring, toolbox)
    return offspring + [toolbox.clone(ind) for ind in best]
