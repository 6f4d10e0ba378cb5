"""Recipes: the documented Sudoku GAs (and the tabu and exact baselines) composed from this package's parts.

Each function takes a puzzle and returns ``(population, logbook,
hall_of_fame)``; the scripts in ``examples/`` and ``deap-sudoku solve
--algorithm`` call them.  Read one to see how the library's operators are put
together for that algorithm.
"""

from __future__ import annotations

import random

import numpy as np
from deap import tools

from . import crossover, selection
from .algorithms import Stop
from .checkpoint import Checkpoint
from .fitness import max_threats, optimum
from .individual import Individual
from .interrupt import INTERRUPTED
from .memetic import ea_memetic, memetic_toolbox
from .mutation import mut_random_reset
from .reporting import evolve, report
from .solvers import propagate, search
from .tabu import tabu_search
from .toolbox import make_toolbox

__all__ = ["memetic", "block_ga", "block_ga_restart", "cell_ga", "row_permutation_ga", "tabu", "exact"]


def memetic(puzzle, *, seed: int = 0, population_size: int = 4, cxpb: float = 0.2, stall: int = 20,
            share: float = 0.5, noise: float = 0.0, locked_candidates: bool = True, compiled: bool = True,
            max_generations: int = 5000, max_seconds: float | None = None,
            checkpoint: Checkpoint | None = None, verbose: bool = True):
    """The project's best solver: the memetic GA of :mod:`deap_sudoku.memetic` (block-permutations,
    block-uniform crossover, propagation repair as local search, restarts of stalled slots).

    Run it until solved or a budget ends; return ``(population, logbook, hall_of_fame)``."""
    random.seed(seed)
    toolbox = memetic_toolbox(puzzle, share=share, noise=noise, locked_candidates=locked_candidates,
                              compiled=compiled, rng=random)
    return evolve(puzzle, toolbox, population_size, algorithm=ea_memetic, cxpb=cxpb, stall=stall,
                  stop=Stop(solved=0, max_generations=max_generations, max_seconds=max_seconds),
                  checkpoint=checkpoint, verbose=verbose)


def block_ga(puzzle, *, seed: int = 0, population_size: int = 200, init: str = "smart",
             crossover_kind: str = "two_point", fitness: str = "collisions", select: str = "truncation",
             keeping_percentage: float = 0.5, cxpb: float = 0.9, mutpb: float = 0.5, punish_same: bool = False,
             max_generations: int = 1000, checkpoint: Checkpoint | None = None, verbose: bool = True):
    """Block GA with switches, after the documented C++ "Sudoku Löser" GA.

    Run the block GA; return ``(population, logbook, hall_of_fame)``."""
    random.seed(seed)
    toolbox = make_toolbox(puzzle, representation="block", smart=init == "smart", fitness=fitness,
                           mutate="conflict_swap_in_box", select="truncation" if select == "truncation" else "sus",
                           **({"keep": keeping_percentage} if select == "truncation" else {}))
    if crossover_kind == "diagonal":
        toolbox.register("mate", crossover.cx_diagonal, puzzle=puzzle)
    else:
        toolbox.register("mate", crossover.cx_band_two_point, puzzle=puzzle)
    if punish_same:
        toolbox.register("select", selection.with_punish_same(toolbox.select, free=~puzzle.givens))
    return evolve(puzzle, toolbox, population_size, cxpb=cxpb, mutpb=mutpb,
                  parents=3 if crossover_kind == "diagonal" else 2,
                  stop=Stop(solved=0, stagnation=True, max_generations=max_generations),
                  checkpoint=checkpoint, verbose=verbose)


def cell_ga(puzzle, *, seed: int = 0, population_size: int = 200, mutation_amount: int = 2,
            cxpb: float = 0.9, mutpb: float = 1.0, max_generations: int = 1000,
            checkpoint: Checkpoint | None = None, verbose: bool = True):
    """Cell GA (the report's Implementation 1): random values in the free cells.

    Run the cell GA; return ``(population, logbook, hall_of_fame)``."""
    random.seed(seed)
    toolbox = make_toolbox(puzzle, representation="cells", fitness="distinct", mate="cell_uniform",
                           select="elite_biased")
    toolbox.register("mutate", mut_random_reset, puzzle=puzzle, k=mutation_amount)
    stop = Stop(solved=optimum(toolbox.evaluate.func, puzzle), max_generations=max_generations)
    return evolve(puzzle, toolbox, population_size, cxpb=cxpb, mutpb=mutpb, stop=stop, checkpoint=checkpoint,
                  verbose=verbose)


def row_permutation_ga(puzzle, *, seed: int = 0, population_size: int = 200, elites_size: int = 10, k: int = 3,
                       mutation_rate: float = 0.1, cxpb: float = 0.9, max_generations: int = 1000,
                       checkpoint: Checkpoint | None = None, verbose: bool = True):
    """Row-permutation GA (the report's Implementation 2): every row a permutation.

    Run the row-permutation GA; return ``(population, logbook, hall_of_fame)``."""
    random.seed(seed)
    toolbox = make_toolbox(puzzle, representation="row", fitness="column_box_collisions", mate="row_uniform",
                           mutate="swap_in_row", indpb=mutation_rate, select="tournament", tournsize=k)
    return evolve(puzzle, toolbox, population_size, cxpb=cxpb, mutpb=1.0, elites=elites_size,
                  stop=Stop(solved=0, max_generations=max_generations), checkpoint=checkpoint, verbose=verbose)


def block_ga_restart(puzzle, *, seed: int = 0, population_size: int = 200, restart_after: int = 100,
                     cxpb: float = 0.8, mutpb: float = 0.5, max_generations: int = 3000,
                     checkpoint: Checkpoint | None = None, verbose: bool = True):
    """Block GA with random restart (the documented Python GA).

    Run the GA with restarts; return ``(population, logbook, hall_of_fame)``."""
    random.seed(seed)
    toolbox = make_toolbox(puzzle, representation="block", smart=False, fitness="threats",
                           mate="block_uniform", mutate="swap_in_box", select="roulette")
    def progress(generation, population, logbook):
        if verbose:
            print(f"generation {generation}: best {max(ind.fitness.values[0] for ind in population):g}")

    stop = Stop(solved=max_threats(puzzle.shape), max_generations=max_generations)
    return evolve(puzzle, toolbox, population_size, cxpb=cxpb, mutpb=mutpb, stop=stop, checkpoint=checkpoint,
                  verbose=verbose, log_statistics=False,
                  elites=1, restart_after=restart_after, callback=progress)


def tabu(puzzle, *, seed: int = 0, candidates: int = 100, tenure: int = 5, max_steps: int = 100_000,
         restrict: bool = True, verbose: bool = True):
    """Tabu search over in-box swaps (the alldifferent-tabu idea), a non-evolutionary yardstick.

    Run tabu search; return ``([best], logbook, hall_of_fame)`` like the GA examples."""
    def progress(step, score, best):
        print(f"step {step}: score {score}, best {best}")

    result = tabu_search(puzzle, candidates=candidates, tenure=tenure, max_steps=max_steps, restrict=restrict,
                         seed=seed, callback=progress if verbose else None)
    best = Individual(result.grid)
    best.fitness.values = (result.score,)
    hof = tools.HallOfFame(1, similar=np.array_equal)
    hof.update([best])
    logbook = tools.Logbook()
    logbook.record(steps=result.steps, score=result.score, seconds=result.seconds)
    logbook.stop_reason = INTERRUPTED if result.interrupted else "solved" if result.solved else "steps"
    if verbose:
        print(f"{result.steps} steps, {result.seconds:.3f} s, score {result.score}")
        report(puzzle, best)
    return [best], logbook, hof


def exact(puzzle, *, naked_only: bool = False, verbose: bool = True):
    """Propagate, then search for up to two solutions; return ``([solution], logbook, hall_of_fame)``
    (an empty population when there is no solution)."""
    naked = propagate(puzzle, hidden_singles=False)
    full = propagate(puzzle)
    result = search(puzzle, limit=2, hidden_singles=not naked_only, locked_candidates=not naked_only)
    logbook = tools.Logbook()
    logbook.record(naked_filled=naked.filled, propagation_filled=full.filled, nodes=result.nodes,
                   solutions=result.count)
    hof = tools.HallOfFame(1, similar=np.array_equal)
    population = []
    if result.solutions:
        best = Individual(result.solutions[0].cells)
        best.fitness.values = (0,)
        population = [best]
        hof.update(population)
    if verbose:
        print(f"puzzle, {puzzle.shape.name}, {puzzle.num_givens} givens:\n{puzzle}\n")
        print(f"naked singles fill {naked.filled} cells; with hidden singles {full.filled}"
              f"{' (contradiction)' if full.contradiction else ''}")
        if not result.solutions:
            print(f"no solution ({result.nodes} search nodes)")
        else:
            verdict = "unique" if result.count == 1 else "not unique: 2 or more solutions"
            print(f"backtracking: {result.nodes} search nodes, the solution is {verdict}\n")
            print(result.solutions[0])
    return population, logbook, hof
