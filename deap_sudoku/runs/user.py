"""A user's algorithms as first-class as the bundled ones: made from a toolbox factory and one of the
package's loops, from any function, from a bundled GA with some of its operators replaced, or from a
bundled algorithm with some of its settings fixed (an ablation's arm).

Each maker returns an :class:`~deap_sudoku.runs.registry.Algorithm` record, so everything that runs
the bundled algorithms (``run_task``, ``bench``, ``solve``, SCOOP workers, budgets, the summaries
and plots) runs it too.  On the command line, and in SCOOP workers, a module-level record or
function is named by its import path, ``-a mymod:my_ga``.

Budgets are keyword arguments: ``max_generations``, ``max_seconds`` and ``max_evaluations``
(fitness evaluations, one per individual evaluated, batched or not).  A record honours those it
names in ``options``; asking it for another is refused before any run.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import time
from collections.abc import Callable


from . import seeding
from ..algorithms import Stop, ea_simple
from ..grid.puzzle import Puzzle
from ..tools import HallOfFame, fitness_statistics, optimum

# from_function lives in the registry, which needs it to turn an imported function into a record.
from .record import Algorithm, Objective, Outcome, ga_outcome, generation_progress, seeded_globals
from .registry import algorithm, from_function

__all__ = ["from_toolbox", "from_function", "with_operators", "variant"]

_LOOP_BUDGETS = ("max_generations", "max_seconds", "max_evaluations")
_TOOLBOX_OPTIONS = ("population_size", "cxpb", "mutpb", *_LOOP_BUDGETS)
"""The run options of an algorithm made by :func:`from_toolbox`."""


def from_toolbox(
    make_toolbox: Callable,
    *,
    name: str,
    loop: Callable = ea_simple,
    population_size: int = 100,
    cxpb: float = 0.5,
    mutpb: float = 0.2,
    description: str = "",
) -> Algorithm:
    """An algorithm that runs ``loop`` (:func:`~deap_sudoku.algorithms.ea_simple` or another of the package's loops
    that takes ``stop=``) on the toolbox ``make_toolbox(puzzle, rng)`` builds, from a population of
    ``population_size``, until solved or a budget ends.  Each run seeds its own ``random.Random(seed)`` (handed
    to ``make_toolbox``) and, at this edge, the ``random`` module too, since DEAP's own operators draw from it
    (:func:`~deap_sudoku.runs.record.seeded_globals`).  The toolbox's ``evaluate`` must be an ``eval_*``
    function registered with ``puzzle=`` (or carry ``weights`` and ``target``), so the run knows what a solved
    grid scores; decorated (``toolbox.decorate``), it is still counted once per individual.  A fitness of
    several objectives is refused at the first run: the run's record compares runs on one.
    """
    wants_rng = len(inspect.signature(make_toolbox).parameters) >= 2

    def run(
        puzzle: Puzzle,
        *,
        seed: int,
        requested=None,
        progress=None,
        progress_every: int = 1,
        population_size: int = population_size,
        cxpb: float = cxpb,
        mutpb: float = mutpb,
        max_generations: int | None = None,
        max_seconds: float | None = None,
        max_evaluations: int | None = None,
        started: float | None = None,
        watch=None,
    ) -> Outcome:
        started = time.perf_counter() if started is None else started
        with seeded_globals(seed):
            rng = seeding.generator(seed)
            toolbox = make_toolbox(puzzle, rng) if wants_rng else make_toolbox(puzzle)
            objective = Objective.of(toolbox.evaluate, puzzle)  # a fitness it cannot judge: refused before the run
            stop = Stop(
                solved=optimum(toolbox.evaluate, puzzle),
                max_generations=max_generations,
                max_seconds=max_seconds,
                max_evaluations=max_evaluations,
                started=started,
                requested=requested,
            )
            callback = generation_progress(progress, progress_every, watch)
            hof, logbook = _evolve(loop, toolbox, population_size, cxpb, mutpb, stop, callback)
        return ga_outcome(hof, logbook, objective)

    summary = f"{getattr(make_toolbox, '__name__', 'a toolbox')} with {getattr(loop, '__name__', 'a loop')}"
    return Algorithm(name, "ga", description or summary, run, _TOOLBOX_OPTIONS, stoppable=True, source="user")


def _evolve(loop: Callable, toolbox, population_size: int, cxpb: float, mutpb: float, stop: Stop, callback):
    """``loop`` run on ``toolbox``'s first population until ``stop``: the hall of fame and logbook."""
    hof = HallOfFame(1)
    _, logbook = loop(
        toolbox.population(n=population_size),
        toolbox,
        cxpb=cxpb,
        mutpb=mutpb,
        ngen=sys.maxsize,
        stats=fitness_statistics(),
        halloffame=hof,
        stop=stop,
        callback=callback,
    )
    return hof, logbook


def with_operators(base: str, *, name: str | None = None, **operators: Callable) -> Algorithm:
    """The bundled GA ``base`` (``"block-ga"``, ...) with some of its toolbox's operators replaced,
    e.g. ``with_operators("block-ga", mutate=my_mutation)``: each is registered in place of the
    recipe's own, with ``puzzle=`` when it takes one and the run's ``rng=`` (a ``random.Random`` of
    the run's seed) when it takes one, so a run is a function of its seed; one that draws from the
    ``random`` module instead finds it seeded for the run by
    :func:`~deap_sudoku.runs.task.run_task`, which every experiment runs through.  The loop and the budgets stay as they
    are (checkpoints do not: a checkpoint names the bundled recipe it resumes).

    :raises ValueError: for an alias the recipe does not register (its ``operators``), here, before
        any run.
    """
    record = algorithm(base)
    if record.kind != "ga" or record.source != "bundled":
        raise ValueError(f"with_operators takes a bundled GA ({', '.join(_bundled_gas())}), not {base!r}")
    if not operators:
        raise ValueError("with_operators needs at least one operator, e.g. mutate=my_mutation")
    unknown = sorted(set(operators) - set(record.operators))
    if unknown:
        raise ValueError(
            f"{base} registers no {', '.join(map(repr, unknown))} to replace; it has {', '.join(record.operators)}"
        )
    parts = ", ".join(f"{alias}={getattr(op, '__name__', op)}" for alias, op in operators.items())

    def run(puzzle: Puzzle, **options) -> Outcome:
        return record.run(puzzle, operators=operators, **options)

    return dataclasses.replace(
        record,
        name=name or f"{base}+{parts}",
        description=f"{record.description}, {parts}",
        run=_watched(run, record),
        checkpointable=False,
        warm_up=record.warm_up,
        source="user",
    )


def variant(base: str, *, name: str, **settings) -> Algorithm:
    """The bundled algorithm ``base`` with some of its recipe's settings fixed, e.g.
    ``variant("memetic", name="no crossover", cxpb=0.0)``: an ablation's arm, or a parameter study's
    point.  A setting that is also a run option (``cxpb``, ``population_size``) is no longer one."""
    record = algorithm(base)
    if record.source != "bundled":
        raise ValueError(f"variant takes a bundled algorithm, not {base!r}")
    if not settings:
        raise ValueError("variant needs at least one setting, e.g. cxpb=0.0")

    def run(puzzle: Puzzle, **options) -> Outcome:
        return record.run(puzzle, **options, **settings)

    described = ", ".join(f"{key}={value}" for key, value in settings.items())
    return dataclasses.replace(
        record,
        name=name,
        description=f"{record.description}, {described}",
        run=_watched(run, record),
        options=tuple(o for o in record.options if o not in settings),
        checkpointable=False,
        source="user",
    )


def _watched(run: Callable[..., Outcome], base: Algorithm) -> Callable[..., Outcome]:
    """``run`` taking ``watch=`` as ``base``'s run does (:attr:`~deap_sudoku.runs.record.Algorithm.watchable`
    reads it from the signature), handed on to ``base``'s; ``run`` itself for a base without it."""
    if not base.watchable:
        return run

    def watched(puzzle: Puzzle, *, watch=None, **options) -> Outcome:
        return run(puzzle, **options) if watch is None else run(puzzle, watch=watch, **options)

    watched.__doc__ = run.__doc__
    return watched


def _bundled_gas() -> list[str]:
    from .registry import ALGORITHMS

    return [a.name for a in ALGORITHMS.values() if a.kind == "ga"]
