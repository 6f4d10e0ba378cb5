"""Recipes: the documented Sudoku GAs, the project's memetic GA and the tabu baseline, composed from the parts.

Each takes a puzzle and a ``seed`` (the edge where a run's one
``random.Random`` is made), runs until its stop criteria, and returns
``(population, logbook, hall_of_fame)``; nothing is printed (pass
``callback`` for progress).  :mod:`deap_sudoku.runs.registry` runs them by
name for the command line; each script in ``examples/`` writes the same
composition out in full, and a test holds the two equal run for run.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
from deap import tools

from ..algorithms import Checkpointer, Stop, ea_generational, ea_memetic, memetic_toolbox, tabu_search
from ..grid.puzzle import Puzzle
from ..tools import (cx_band_two_point, cx_diagonal, fitness_statistics, make_toolbox, max_threats, mut_random_reset,
                     optimum, with_punish_same)

__all__ = ["memetic", "block_ga", "block_ga_restart", "cell_ga", "row_permutation_ga", "tabu"]

Callback = Callable[[int, list, tools.Logbook], None]


def _evolve(algorithm: Callable, toolbox, population_size: int, *, stats: bool = True, **options):
    """Run ``algorithm`` on a fresh population with a hall of fame of one (and fitness statistics)."""
    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = algorithm(toolbox.population(n=population_size), toolbox, halloffame=hof,
                                    stats=fitness_statistics() if stats else None, **options)
    return population, logbook, hof


def memetic(puzzle: Puzzle, *, seed: int = 0, population_size: int = 4, cxpb: float = 0.2, stall: int = 20,
            share: float = 0.5, noise: float = 0.0, locked_candidates: bool = True, compiled: bool = True,
            max_generations: int = 5000, max_seconds: float | None = None, checkpoint: Checkpointer | None = None,
            requested: Callable[[], object] | None = None, callback: Callback | None = None):
    """The project's best solver: the memetic GA of :mod:`deap_sudoku.algorithms.memetic`
    (block-permutations, block-uniform crossover, propagation repair as local search, restarts of
    stalled slots), until solved or a budget ends."""
    rng = random.Random(seed)
    toolbox = memetic_toolbox(puzzle, rng=rng, share=share, noise=noise, locked_candidates=locked_candidates,
                              compiled=compiled)
    stop = Stop(solved=0, max_generations=max_generations, max_seconds=max_seconds, requested=requested)
    return _evolve(ea_memetic, toolbox, population_size, cxpb=cxpb, stall=stall, stop=stop, rng=rng,
                   checkpoint=checkpoint, callback=callback)


def block_ga(puzzle: Puzzle, *, seed: int = 0, population_size: int = 200, init: str = "smart",
             crossover_kind: str = "two_point", fitness: str = "collisions", select: str = "truncation",
             keeping_percentage: float = 0.5, cxpb: float = 0.9, mutpb: float = 0.5, punish_same: bool = False,
             max_generations: int = 1000, checkpoint: Checkpointer | None = None,
             requested: Callable[[], object] | None = None, callback: Callback | None = None):
    """Block GA with switches, after the documented C++ "Sudoku Löser" GA (``examples/block_ga.py``)."""
    rng = random.Random(seed)
    toolbox = make_toolbox(puzzle, representation="block", smart=init == "smart", fitness=fitness,
                           mutate="conflict_swap_in_box", select="truncation" if select == "truncation" else "sus",
                           keep=keeping_percentage if select == "truncation" else None, rng=rng)
    if crossover_kind == "diagonal":
        toolbox.register("mate", cx_diagonal, puzzle=puzzle)
    else:
        toolbox.register("mate", cx_band_two_point, puzzle=puzzle, rng=rng)
    if punish_same:
        toolbox.register("select", with_punish_same(toolbox.select, free=~puzzle.givens))
    stop = Stop(solved=0, stagnation=True, max_generations=max_generations, requested=requested)
    return _evolve(ea_generational, toolbox, population_size, cxpb=cxpb, mutpb=mutpb,
                   parents=3 if crossover_kind == "diagonal" else 2, stop=stop, rng=rng, checkpoint=checkpoint,
                   callback=callback)


def cell_ga(puzzle: Puzzle, *, seed: int = 0, population_size: int = 200, mutation_amount: int = 2,
            cxpb: float = 0.9, mutpb: float = 1.0, max_generations: int = 1000, checkpoint: Checkpointer | None = None,
            requested: Callable[[], object] | None = None, callback: Callback | None = None):
    """Cell GA, the report's Implementation 1 (``examples/cell_ga.py``)."""
    rng = random.Random(seed)
    toolbox = make_toolbox(puzzle, representation="cells", fitness="distinct", mate="cell_uniform",
                           select="elite_biased", rng=rng)
    toolbox.register("mutate", mut_random_reset, puzzle=puzzle, k=mutation_amount, rng=rng)
    stop = Stop(solved=optimum(toolbox.evaluate.func, puzzle), max_generations=max_generations, requested=requested)
    return _evolve(ea_generational, toolbox, population_size, cxpb=cxpb, mutpb=mutpb, stop=stop, rng=rng,
                   checkpoint=checkpoint, callback=callback)


def row_permutation_ga(puzzle: Puzzle, *, seed: int = 0, population_size: int = 200, elites_size: int = 10, k: int = 3,
                       mutation_rate: float = 0.1, cxpb: float = 0.9, max_generations: int = 1000,
                       checkpoint: Checkpointer | None = None, requested: Callable[[], object] | None = None,
                       callback: Callback | None = None):
    """Row-permutation GA, the report's Implementation 2 (``examples/row_permutation_ga.py``)."""
    rng = random.Random(seed)
    toolbox = make_toolbox(puzzle, representation="row", fitness="column_box_collisions", mate="row_uniform",
                           mutate="swap_in_row", indpb=mutation_rate, select="tournament", tournsize=k, rng=rng)
    stop = Stop(solved=0, max_generations=max_generations, requested=requested)
    return _evolve(ea_generational, toolbox, population_size, cxpb=cxpb, mutpb=1.0, elites=elites_size, stop=stop,
                   rng=rng, checkpoint=checkpoint, callback=callback)


def block_ga_restart(puzzle: Puzzle, *, seed: int = 0, population_size: int = 200, restart_after: int = 100,
                     cxpb: float = 0.8, mutpb: float = 0.5, max_generations: int = 3000,
                     checkpoint: Checkpointer | None = None, requested: Callable[[], object] | None = None,
                     callback: Callback | None = None):
    """Block GA with random restart, the documented Python GA (``examples/block_ga_restart.py``)."""
    rng = random.Random(seed)
    toolbox = make_toolbox(puzzle, representation="block", smart=False, fitness="threats",
                           mate="block_uniform", mutate="swap_in_box", select="roulette", rng=rng)
    stop = Stop(solved=max_threats(puzzle.shape), max_generations=max_generations, requested=requested)
    return _evolve(ea_generational, toolbox, population_size, cxpb=cxpb, mutpb=mutpb, elites=1,
                   restart_after=restart_after, stop=stop, rng=rng, checkpoint=checkpoint, callback=callback)


def tabu(puzzle: Puzzle, *, seed: int = 0, candidates: int = 100, tenure: int = 5, max_steps: int = 100_000,
         max_seconds: float | None = None, restrict: bool = True, requested: Callable[[], object] | None = None,
         callback: Callable[[int, int, int], None] | None = None):
    """Tabu search over in-box swaps, a non-evolutionary yardstick (``examples/tabu_search.py``);
    returns ``([best], logbook, hall_of_fame)`` like the GAs, the logbook one record of steps,
    score and seconds."""
    return tabu_search(puzzle, rng=random.Random(seed), candidates=candidates, tenure=tenure, max_steps=max_steps,
                       max_seconds=max_seconds, restrict=restrict, callback=callback, requested=requested).as_deap()
