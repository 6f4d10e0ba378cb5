"""Loops in which every mating makes one child: the population models of the two documented block GAs.

DEAP's crossovers return as many children as they get parents; the C++ and the
Python block GA keep one child per mating and differ in who stays.
:func:`ea_keep_refill` is the C++ GA's model: selection keeps a share of the
population (its ``keeping_percentage``) and children of random survivors fill
it back to its size ("wished" and current population size).
:func:`ea_plus_children` is the Python GA's: half as many children as the
population, each from a pair drawn by ``toolbox.select``, the best of parents
and children staying, and a fresh population at restarts.  Both share
:class:`~deap_sudoku.algorithms.run.Run` with ``ea_generational``:
stop criteria, logbook, hall of fame, checkpoints and stop requests.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from deap import base, tools

from .generational import one_child
from .run import Checkpointer, Run
from .stop import Stop

__all__ = ["ea_keep_refill", "ea_plus_children"]


def ea_keep_refill(
    population: list,
    toolbox: base.Toolbox,
    mutpb: float,
    *,
    keep: float,
    stop: Stop,
    rng: random.Random,
    parents: int = 2,
    stats: tools.Statistics | None = None,
    halloffame: tools.HallOfFame | None = None,
    callback: Callable[[int, list, tools.Logbook], object] | None = None,
    checkpoint: Checkpointer | None = None,
) -> tuple[list, tools.Logbook]:
    """Each generation ``toolbox.select`` keeps ``round(keep * size)`` survivors (at least one, at most
    ``size - 1``), unchanged; each missing place is filled by one child of ``parents`` survivors
    drawn at random (distinct when there are enough), mutated with ``mutpb``.

    Register ``tools.selBest`` for truncation or a stochastic universal sampling for SUS: with
    ``k`` survivors its pointers are ``1/k`` of the wheel apart, so ``keep`` sets the step.
    """
    if not 0 < keep < 1:
        raise ValueError(f"keep is the share of the population selection keeps, between 0 and 1; got {keep}")
    run = Run(
        population, stop=stop, stats=stats, halloffame=halloffame, callback=callback, checkpoint=checkpoint, rng=rng
    )
    size = len(population)
    kept = min(max(1, round(keep * size)), size - 1)
    if not run.resumed:
        run.evaluate_first(toolbox)
    while not run.finished():
        with run.generating():
            survivors = [toolbox.clone(ind) for ind in run.each(toolbox.select(run.population, kept))]
            children = [
                one_child(toolbox, _draw(survivors, parents, rng), 1.0, mutpb, rng)
                for _ in run.each(range(size - kept))
            ]
            run.evaluate(children, toolbox)
            run.next_generation(survivors + children)
    return run.population, run.logbook


def _draw(survivors: list, parents: int, rng: random.Random) -> list:
    return rng.sample(survivors, parents) if len(survivors) >= parents else rng.choices(survivors, k=parents)


def ea_plus_children(
    population: list,
    toolbox: base.Toolbox,
    mutpb: float,
    *,
    stop: Stop,
    rng: random.Random,
    children: int | None = None,
    restart_every: int | None = None,
    restart_after: int | None = None,
    stats: tools.Statistics | None = None,
    halloffame: tools.HallOfFame | None = None,
    callback: Callable[[int, list, tools.Logbook], object] | None = None,
    checkpoint: Checkpointer | None = None,
) -> tuple[list, tools.Logbook]:
    """Each generation makes ``children`` (half the population by default) children, each of a pair
    that ``toolbox.select`` draws, mutated with ``mutpb``; the best ``size`` of parents and
    children stay (``tools.selBest``).

    ``restart_every``: a fresh ``toolbox.population`` every that many generations (the
    Python GA's restart); ``restart_after``: when the best ever has not improved for that
    many (our switch).  The logbook counts ``restarts``; the hall of fame keeps the best ever.
    """
    run = Run(
        population,
        stop=stop,
        stats=stats,
        halloffame=halloffame,
        callback=callback,
        checkpoint=checkpoint,
        rng=rng,
        extra={"since_restart": 0},
    )
    size = len(population)
    children = max(1, size // 2) if children is None else children
    if not run.resumed:
        run.evaluate_first(toolbox)
    while not run.finished():
        with run.generating():
            if (restart_every is not None and run.extra["since_restart"] >= restart_every) or (
                restart_after is not None and run.since_improvement >= restart_after
            ):
                offspring = toolbox.population(n=size)
                run.restarts += 1
                run.extra["since_restart"] = run.since_improvement = 0
                run.evaluate(offspring, toolbox)
            else:
                pairs = toolbox.select(run.population, 2 * children)
                kids = [
                    one_child(toolbox, pairs[i : i + 2], 1.0, mutpb, rng) for i in run.each(range(0, len(pairs), 2))
                ]
                run.evaluate(kids, toolbox)
                offspring = tools.selBest(run.population + kids, size)
            run.extra["since_restart"] += 1
            run.next_generation(offspring)
    return run.population, run.logbook
