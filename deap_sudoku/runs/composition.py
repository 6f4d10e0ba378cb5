"""How a GA recipe composes its run: the user's operators registered in place of the recipe's, the
first population made under the run's stop, and the run with a hall of fame of one and fitness
statistics, its logbook saying what was optimised."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from deap import tools

from ..algorithms import Abandoned, Stop
from ..grid.puzzle import Puzzle
from ..tools import HallOfFame, fitness_statistics

__all__ = ["GA_ALIASES", "MEMETIC_ALIASES", "evolve", "first_population", "takes"]

GA_ALIASES = ("individual", "population", "evaluate", "mate", "mutate", "select", "clone", "map")
"""The toolbox aliases of the GAs built like :func:`~deap_sudoku.tools.make_toolbox` (DEAP's own)."""
MEMETIC_ALIASES = (
    "individual",
    "population",
    "evaluate",
    "mate",
    "repair",
    "improve",
    "select",
    "clone",
    "map",
    "seed",
)
"""The memetic GA's toolbox aliases (:func:`~deap_sudoku.algorithms.memetic.memetic_toolbox`)."""


def evolve(
    puzzle: Puzzle, operators: dict | None, algorithm: Callable, toolbox, population_size: int, *, stop: Stop, **options
):
    """Run ``algorithm`` on a fresh population with a hall of fame of one and fitness statistics,
    after registering ``operators`` (``{"mutate": my_mutation}``) in place of the recipe's own: each
    gets ``puzzle=`` and the run's ``rng=`` (``options["rng"]``) when its signature takes them.

    The logbook also says what was optimised: ``logbook.fitness`` is the fitness's name (its
    ``eval_*`` function without the prefix) and ``logbook.target`` the value of a solved grid.
    """
    for alias, operator in (operators or {}).items():
        if not hasattr(toolbox, alias):
            raise ValueError(
                f"this recipe registers no {alias!r} to replace; it has "
                f"{', '.join(sorted(n for n in vars(toolbox) if not n.startswith('_')))}"
            )
        bound = {"puzzle": puzzle} if takes(operator, "puzzle") else {}
        if takes(operator, "rng") and options.get("rng") is not None:
            bound["rng"] = options["rng"]
        toolbox.register(alias, operator, **bound)
    hof = HallOfFame(1)
    population, logbook = algorithm(
        first_population(toolbox, population_size, stop),
        toolbox,
        halloffame=hof,
        stats=fitness_statistics(),
        stop=stop,
        **options,
    )
    name = toolbox.evaluate.func.__name__.removeprefix("eval_")
    logbook.fitness = f"{stop.solved:g} - threats" if name == "threats" else name  # eval_threats is 108 - threats
    logbook.target = stop.solved
    return population, logbook, hof


def first_population(toolbox, size: int, stop: Stop) -> list:
    """``toolbox.population(n=size)``; when that is DEAP's ``initRepeat``, made one individual at a
    time with the same calls, so that a stop request or the time budget ends it (200,000 36x36
    grids take a minute): the individuals made so far, at least one, go on to a run that then ends
    at generation 0."""
    made = toolbox.population
    if getattr(made, "func", None) is not tools.initRepeat or len(made.args) != 2 or made.keywords:
        return made(n=size)
    container, individual = made.args
    poll, population = stop.poller(), []
    try:
        for _ in range(size):
            population.append(individual())
            poll()
    except Abandoned:
        pass
    return container(population)


def takes(operator: Callable, parameter: str) -> bool:
    """Whether ``operator`` has a parameter called ``parameter`` (the package's operators take
    ``puzzle`` and ``rng`` by keyword)."""
    try:
        return parameter in inspect.signature(operator).parameters
    except (TypeError, ValueError):
        return False
