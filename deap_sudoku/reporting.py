"""What the example scripts share: reading the puzzle argument, statistics, and printing the result."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
from deap import tools

from .algorithms import Stop, ea_generational
from .formats import read
from .puzzle import Puzzle, format_grid
from .solvers import verify

__all__ = ["load_puzzle", "fitness_statistics", "report", "evolve", "example_parser"]

DATA = Path(__file__).resolve().parent.parent / "data"


def load_puzzle(path: str | None, default: str = "9x9-easy.txt") -> Puzzle:
    """The first puzzle of ``path``, or of ``data/<default>`` when no path is given."""
    return read(path if path else DATA / default)[0]


def fitness_statistics() -> tools.Statistics:
    """min, avg and max of the first objective, as DEAP's examples log them."""
    stats = tools.Statistics(lambda ind: ind.fitness.values[0])
    stats.register("min", np.min)
    stats.register("avg", np.mean)
    stats.register("max", np.max)
    return stats


def report(puzzle: Puzzle, best: np.ndarray) -> bool:
    """Print the best grid and its fitness; return whether it solves the puzzle."""
    solved = verify(best, puzzle)
    print(format_grid(puzzle.shape, np.asarray(best)))
    fitness = best.fitness.values[0] if getattr(best, "fitness", None) is not None and best.fitness.valid else None
    print(("solved" if solved else "no solution found; best grid above") +
          (f", fitness {fitness:g}" if fitness is not None else ""))
    return solved


def evolve(puzzle: Puzzle, toolbox, population_size: int, *, stop: Stop, algorithm: Callable = ea_generational,
           verbose: bool = True, log_statistics: bool = True, **options):
    """Run ``algorithm`` (:func:`ea_generational` unless given) the way the GA examples do: a hall of
    fame of one, statistics logged per generation, the result printed; ``options`` (``cxpb``,
    ``mutpb``, ...) go to the algorithm.  Return ``(population, logbook, hall_of_fame)``."""
    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = algorithm(
        toolbox.population(n=population_size), toolbox, stop=stop, halloffame=hof,
        stats=fitness_statistics() if log_statistics else None, verbose=verbose and log_statistics, **options)
    if verbose:
        restarts = logbook[-1]["restarts"]
        print(f"stopped: {logbook.stop_reason}" + (f" after {restarts} restarts" if restarts else ""))
        report(puzzle, hof[0])
    return population, logbook, hof


def example_parser(description: str) -> argparse.ArgumentParser:
    """The options every example has: the puzzle file, ``--seed`` and ``--population``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("puzzle", nargs="?", help="puzzle file (default: data/9x9-easy.txt)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--population", type=int, default=200)
    return parser
