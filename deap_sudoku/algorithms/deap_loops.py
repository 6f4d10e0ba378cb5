"""DEAP's own loops, ``eaSimple``, ``eaMuPlusLambda`` and ``eaMuCommaLambda``, with a ``stop=``.

DEAP's loops always run all ``ngen`` generations, long after a Sudoku is
solved.  These take the same arguments, vary with DEAP's own ``varAnd`` and
``varOr``, and give the same population, hall of fame and logbook as DEAP's
for the same seed; they also end early when ``stop`` says so, and record why
in ``logbook.stop_reason`` (``"generations"`` when ``ngen`` ran out)::

    population, logbook = ea_simple(population, toolbox, cxpb=0.3, mutpb=0.8, ngen=500,
                                    stop=Stop(solved=optimum(toolbox.evaluate)))

``stop`` is a :class:`~deap_sudoku.algorithms.generational.Stop` (solved,
stagnation, patience and budgets) or any ``stop(generation, population,
logbook)`` whose true answer ends the run (a string answer becomes the stop
reason); ``callback(generation, population, logbook)`` follows every
generation and can end the run the same way.  The library prints nothing, so
``verbose=True`` is refused: print ``logbook`` after the run, or its
``stream`` from the callback.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from deap import algorithms, base, tools

from .generational import HALTED, INTERRUPTED, Abandoned, Stop, evaluate_invalid, stop_reason

__all__ = ["ea_simple", "ea_mu_plus_lambda", "ea_mu_comma_lambda"]

Hook = Callable[[int, list, tools.Logbook], object]


class _Ending:
    """Keeps what a :class:`Stop` needs between generations (evaluations, improvement, clock)."""

    def __init__(self, stop: Stop | Hook | None, callback: Hook | None) -> None:
        self.stop, self.callback = stop, callback
        given = stop.started if isinstance(stop, Stop) else None
        self.started = given if given is not None else time.perf_counter()
        self.evaluations = self.since_improvement = 0
        self.best = None

    def reason(self, generation: int, population: list, logbook: tools.Logbook, nevals: int) -> str | None:
        self.evaluations += nevals
        best = max(ind.fitness for ind in population)
        if self.best is None or best > self.best:
            self.best, self.since_improvement = best, 0
        else:
            self.since_improvement += 1
        if self.callback is not None and self.callback(generation, population, logbook):
            return HALTED
        if isinstance(self.stop, Stop):
            if self.stop.requested is not None and self.stop.requested():
                return INTERRUPTED
            return stop_reason(self.stop, population, generation, self.evaluations, self.since_improvement,
                               self.started)
        if self.stop is not None:
            answer = self.stop(generation, population, logbook)
            return answer if isinstance(answer, str) and answer else "stop" if answer else None
        return None


def _evolve(population: list, toolbox: base.Toolbox, ngen: int, stats: tools.Statistics | None,
            halloffame: tools.HallOfFame | None, verbose: bool, stop: Stop | Hook | None, callback: Hook | None,
            vary: Callable[[list], list], survive: Callable[[list, list], list]) -> tuple[list, tools.Logbook]:
    """The loop DEAP's three share: each generation ``vary(population)`` makes the offspring, the
    changed ones are evaluated, the hall of fame sees them, and ``survive(population, offspring)``
    is the next population."""
    if verbose:
        raise ValueError("the library prints nothing: leave verbose off and print(logbook) after the run, "
                         "or pass callback=lambda gen, population, logbook: print(logbook.stream)")
    if ngen < 0:
        raise ValueError(f"ngen is a number of generations, at least 0; got {ngen}")
    logbook = tools.Logbook()
    logbook.header = ["gen", "nevals"] + (stats.fields if stats else [])
    ending = _Ending(stop, callback)

    def record(generation: int, nevals: int) -> str | None:
        logbook.record(gen=generation, nevals=nevals, **(stats.compile(population) if stats else {}))
        return ending.reason(generation, population, logbook, nevals)

    stopping = stop if isinstance(stop, Stop) else Stop()
    try:
        nevals = evaluate_invalid(population, toolbox, stopping.poller())
    except Abandoned:  # a stop request: the run ends at generation 0 with the individuals evaluated
        population[:] = [ind for ind in population if ind.fitness.valid]
        nevals = len(population)
    if halloffame is not None:
        halloffame.update(population)
    reason, generation = record(0, nevals), 0
    poll = stopping.poller(ending.started)  # inside a generation, the time budget too
    while reason is None and generation < ngen:
        offspring = vary(population)
        try:
            nevals = evaluate_invalid(offspring, toolbox, poll)
        except Abandoned:  # the generation is dropped: the population is the last whole one
            reason = INTERRUPTED if stopping.requested is not None and stopping.requested() else "time"
            break
        generation += 1
        if halloffame is not None:
            halloffame.update(offspring)
        population[:] = survive(population, offspring)
        reason = record(generation, nevals)
    logbook.stop_reason = reason or "generations"
    return population, logbook


def ea_simple(population: list, toolbox: base.Toolbox, cxpb: float, mutpb: float, ngen: int,
              stats: tools.Statistics | None = None, halloffame: tools.HallOfFame | None = None,
              verbose: bool = False, *, stop: Stop | Hook | None = None,
              callback: Hook | None = None) -> tuple[list, tools.Logbook]:
    """DEAP's ``eaSimple`` (select ``len(population)``, ``varAnd``, evaluate the changed ones) that
    ends when ``stop`` says so; without ``stop`` and ``callback`` it is ``eaSimple`` exactly."""
    return _evolve(population, toolbox, ngen, stats, halloffame, verbose, stop, callback,
                   vary=lambda parents: algorithms.varAnd(toolbox.select(parents, len(parents)), toolbox, cxpb, mutpb),
                   survive=lambda parents, offspring: offspring)


def ea_mu_plus_lambda(population: list, toolbox: base.Toolbox, mu: int, lambda_: int, cxpb: float, mutpb: float,
                      ngen: int, stats: tools.Statistics | None = None, halloffame: tools.HallOfFame | None = None,
                      verbose: bool = False, *, stop: Stop | Hook | None = None,
                      callback: Hook | None = None) -> tuple[list, tools.Logbook]:
    """DEAP's ``eaMuPlusLambda`` (``lambda_`` children by ``varOr``, ``mu`` survivors selected from
    parents and children) that ends when ``stop`` says so."""
    return _evolve(population, toolbox, ngen, stats, halloffame, verbose, stop, callback,
                   vary=lambda parents: algorithms.varOr(parents, toolbox, lambda_, cxpb, mutpb),
                   survive=lambda parents, offspring: toolbox.select(parents + offspring, mu))


def ea_mu_comma_lambda(population: list, toolbox: base.Toolbox, mu: int, lambda_: int, cxpb: float, mutpb: float,
                       ngen: int, stats: tools.Statistics | None = None, halloffame: tools.HallOfFame | None = None,
                       verbose: bool = False, *, stop: Stop | Hook | None = None,
                       callback: Hook | None = None) -> tuple[list, tools.Logbook]:
    """DEAP's ``eaMuCommaLambda`` (``mu`` survivors selected from the ``lambda_`` children only)
    that ends when ``stop`` says so."""
    if lambda_ < mu:
        raise ValueError(f"lambda_ must be at least mu ({mu}); got {lambda_}")
    return _evolve(population, toolbox, ngen, stats, halloffame, verbose, stop, callback,
                   vary=lambda parents: algorithms.varOr(parents, toolbox, lambda_, cxpb, mutpb),
                   survive=lambda parents, offspring: toolbox.select(offspring, mu))
