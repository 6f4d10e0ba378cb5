"""The published ant colony system as a run: Lloyd & Amos's ACS composed from the package's parts
(``examples/ant_colony.py`` writes the same composition out; ``docs/literature.md`` tables its
rules against the paper and the authors' code)."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable

from deap import base, tools

from .. import seeding
from ...algorithms import Checkpointer, Stop
from ...algorithms.ant_colony import ea_ant_colony
from ...grid.puzzle import Puzzle
from ...tools import (
    DrawStream,
    HallOfFame,
    Individual,
    Pheromone,
    batch_map,
    clone,
    eval_collisions,
    fitness_statistics,
)
from ..record import COMPILING, bundled, ga_run

__all__ = ["ant_colony", "warm_up_colony"]


def warm_up_colony(puzzle: Puzzle, compiled: bool | None) -> None:
    """Compile or load the colony's construction kernel (one ant on ``puzzle``): the twin that
    :mod:`~deap_sudoku.propagation.choice` picks for ``compiled=None``, so nothing without numba."""
    Pheromone(puzzle, compiled=compiled).colony(Individual, ants=1, rng=seeding.generator(0))


@bundled(
    "acs-paper",
    "colony",
    "Lloyd & Amos 2019 with the greedy choice as their paper states it (probability q0; acs, as their code: 1 - q0)",
    ("population_size", "max_generations", "max_evaluations", "max_seconds"),
    run=lambda recipe: functools.partial(ga_run(recipe), greedy="paper"),
    checkpointable=True,
    stoppable=True,
    warm_up=warm_up_colony,
    warm_up_message=COMPILING.format(name="ant colony"),
    memory="colony",
)  # declared second: decorators apply from the bottom up
@bundled(
    "acs",
    "colony",
    "Lloyd & Amos 2019: ant colony system with constraint propagation and best-value evaporation",
    ("population_size", "max_generations", "max_evaluations", "max_seconds"),
    run=ga_run,
    checkpointable=True,
    stoppable=True,
    example="ant_colony",
    warm_up=warm_up_colony,
    warm_up_message=COMPILING.format(name="ant colony"),
    memory="colony",
)
def ant_colony(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    population_size: int = 10,
    q0: float = 0.9,
    greedy: str = "code",
    rho: float = 0.9,
    best_evaporation: float = 0.005,
    local_evaporation: float = 0.1,
    precision: str = "float32",
    rng: random.Random | DrawStream | None = None,
    compiled: bool | None = None,
    stop: Stop = Stop(max_seconds=10.0),
    checkpoint: Checkpointer | None = None,
    callback: Callable[[int, list, tools.Logbook], object] | None = None,
):
    """Lloyd & Amos's ant colony system: ``population_size`` ants (10), greedy choice by ``q0``
    (0.9) under the ``greedy`` rule (``"code"``, the released solver's, or ``"paper"``), global
    update rate ``rho`` (0.9), best-value evaporation ``best_evaporation`` (0.005), local update
    rate ``local_evaporation`` (0.1), computed in ``precision`` (``"float32"``, as the authors'
    solver, or ``"float64"``), until solved or ``stop`` (by default the authors' 10 s).  The colony
    draws from ``rng``, by default ``random.Random(seed)``; a
    :class:`~deap_sudoku.tools.DrawStream` replays a recorded stream (``benchmarks/acs_replay.py``).
    Returns ``(colony, logbook, hall_of_fame)``; a grid's fitness is its failed cells.  A
    ``checkpoint`` keeps the pheromone, the best grid and value with the run."""
    started = time.perf_counter()
    rng = seeding.generator(seed) if rng is None else rng
    pheromone = Pheromone(puzzle, local_evaporation=local_evaporation, precision=precision, compiled=compiled)
    toolbox = base.Toolbox()
    toolbox.register("individual", pheromone.start, Individual)
    toolbox.register("colony", pheromone.colony, Individual, ants=population_size, q0=q0, greedy=greedy, rng=rng)
    toolbox.register("evaluate", eval_collisions, puzzle=puzzle)  # an ant's collisions are its failed cells
    toolbox.register("deposit", pheromone.deposit, rho=rho)
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)
    stop = stop.with_defaults(solved=0, started=started)
    hof = HallOfFame(1)
    colony, logbook = ea_ant_colony(
        toolbox,
        pheromone=pheromone.matrix,
        stop=stop,
        rng=rng,
        best_evaporation=best_evaporation,
        stats=fitness_statistics(),
        halloffame=hof,
        callback=callback,
        checkpoint=checkpoint,
    )
    logbook.fitness, logbook.target = "collisions", 0  # found_by: propagation at generation 0, else the ants
    return colony, logbook, hof
