"""What the example scripts share: reading the puzzle argument, statistics, and printing the result."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from deap import tools

from .formats import read
from .puzzle import Puzzle, format_grid
from .solvers import verify

__all__ = ["load_puzzle", "fitness_statistics", "report"]

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
