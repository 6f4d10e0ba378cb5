"""DEAP's own loops, ``eaSimple``, ``eaMuPlusLambda`` and ``eaMuCommaLambda``, with a ``stop=``.

DEAP's loops always run all ``ngen`` generations, long after a Sudoku is
solved.  These take the same arguments, vary with DEAP's own ``varAnd`` and
``varOr``, and give the same population, hall of fame and logbook as DEAP's
for the same seed; they also end early when ``stop`` says so, and record why
in ``logbook.stop_reason`` (``"generations"`` when ``ngen`` ran out)::

    population, logbook = ea_simple(population, toolbox, cxpb=0.3, mutpb=0.8, ngen=500,
                                    stop=Stop(solved=optimum(toolbox.evaluate)))

``stop`` is a :class:`~deap_sudoku.algorithms.stop.Stop` (solved,
stagnation, patience and budgets) or any ``stop(generation, population,
logbook)`` whose true answer ends the run (a string answer becomes the stop
reason); ``callback(generation, population, logbook)`` follows every
generation and can end the run the same way.  The library prints nothing, so
``verbose=True`` is refused: print ``logbook`` after the run, or its
``stream`` from the callback.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from deap import algorithms, base, tools

from .run import Hook, Run
from .stop import Stop

__all__ = ["ea_simple", "ea_mu_plus_lambda", "ea_mu_comma_lambda"]


def _evolve(
    population: list,
    toolbox: base.Toolbox,
    ngen: int,
    stats: tools.Statistics | None,
    halloffame: tools.HallOfFame | None,
    verbose: bool,
    stop: Stop | Hook | None,
    callback: Hook | None,
    vary: Callable[[list], list],
    survive: Callable[[list, list], list],
) -> tuple[list, tools.Logbook]:
    """The loop DEAP's three share, kept by the package loops' :class:`Run`: each generation
    ``vary(population)`` makes the offspring, the changed ones are evaluated, the hall of fame sees
    them, and ``survive(population, offspring)`` is the next population (``population`` is changed
    in place, as DEAP's loops do).  DEAP's variation draws from the ``random`` module, so that is
    the state a generation abandoned by a stop request puts back."""
    if verbose:
        raise ValueError(
            "the library prints nothing: leave verbose off and print(logbook) after the run, "
            "or pass callback=lambda gen, population, logbook: print(logbook.stream)"
        )
    if ngen < 0:
        raise ValueError(f"ngen is a number of generations, at least 0; got {ngen}")
    if isinstance(stop, Stop):
        limit = ngen if stop.max_generations is None else min(ngen, stop.max_generations)
        criteria, until = dataclasses.replace(stop, max_generations=limit), None
    else:
        criteria, until = Stop(max_generations=ngen), stop
    run = Run(
        list(population),
        stop=criteria,
        rng=random,  # type: ignore[arg-type]  # the module: DEAP's variation draws from its state
        stats=stats,
        halloffame=halloffame,
        callback=callback,
        until=until,
        restarts=False,
    )
    run.evaluate_first(toolbox)
    while not run.finished():
        with run.generating():
            offspring = vary(run.population)
            run.evaluate(offspring, toolbox)
            run.next_generation(survive(run.population, offspring), offered=offspring)
    population[:] = run.population
    return population, run.logbook


def ea_simple(
    population: list,
    toolbox: base.Toolbox,
    cxpb: float,
    mutpb: float,
    ngen: int,
    stats: tools.Statistics | None = None,
    halloffame: tools.HallOfFame | None = None,
    verbose: bool = False,
    *,
    stop: Stop | Hook | None = None,
    callback: Hook | None = None,
) -> tuple[list, tools.Logbook]:
    """DEAP's ``eaSimple`` (select ``len(population)``, ``varAnd``, evaluate the changed ones) that
    ends when ``stop`` says so; without ``stop`` and ``callback`` it is ``eaSimple`` exactly."""
    return _evolve(
        population,
        toolbox,
        ngen,
        stats,
        halloffame,
        verbose,
        stop,
        callback,
        vary=lambda parents: algorithms.varAnd(toolbox.select(parents, len(parents)), toolbox, cxpb, mutpb),
        survive=lambda parents, offspring: offspring,
    )


def ea_mu_plus_lambda(
    population: list,
    toolbox: base.Toolbox,
    mu: int,
    lambda_: int,
    cxpb: float,
    mutpb: float,
    ngen: int,
    stats: tools.Statistics | None = None,
    halloffame: tools.HallOfFame | None = None,
    verbose: bool = False,
    *,
    stop: Stop | Hook | None = None,
    callback: Hook | None = None,
) -> tuple[list, tools.Logbook]:
    """DEAP's ``eaMuPlusLambda`` (``lambda_`` children by ``varOr``, ``mu`` survivors selected from
    parents and children) that ends when ``stop`` says so."""
    return _evolve(
        population,
        toolbox,
        ngen,
        stats,
        halloffame,
        verbose,
        stop,
        callback,
        vary=lambda parents: algorithms.varOr(parents, toolbox, lambda_, cxpb, mutpb),
        survive=lambda parents, offspring: toolbox.select(parents + offspring, mu),
    )


def ea_mu_comma_lambda(
    population: list,
    toolbox: base.Toolbox,
    mu: int,
    lambda_: int,
    cxpb: float,
    mutpb: float,
    ngen: int,
    stats: tools.Statistics | None = None,
    halloffame: tools.HallOfFame | None = None,
    verbose: bool = False,
    *,
    stop: Stop | Hook | None = None,
    callback: Hook | None = None,
) -> tuple[list, tools.Logbook]:
    """DEAP's ``eaMuCommaLambda`` (``mu`` survivors selected from the ``lambda_`` children only)
    that ends when ``stop`` says so."""
    if lambda_ < mu:
        raise ValueError(f"lambda_ must be at least mu ({mu}); got {lambda_}")
    return _evolve(
        population,
        toolbox,
        ngen,
        stats,
        halloffame,
        verbose,
        stop,
        callback,
        vary=lambda parents: algorithms.varOr(parents, toolbox, lambda_, cxpb, mutpb),
        survive=lambda parents, offspring: toolbox.select(offspring, mu),
    )
