"""What the example scripts share: reading the puzzle argument, statistics, and printing the result."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
from deap import tools

from .algorithms import Stop, ea_generational
from .checkpoint import Checkpoint, CheckpointError, run_identity
from .formats import read
from .interrupt import INTERRUPTED, exit_code, graceful, requested
from .puzzle import Puzzle, format_grid
from .solvers import verify

__all__ = ["load_puzzle", "fitness_statistics", "report", "evolve", "example_parser", "run_example"]

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
    """The options every GA example has: the puzzle file, ``--seed``, ``--population`` and checkpoints."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("puzzle", nargs="?", help="puzzle file (default: data/9x9-easy.txt)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--population", type=int, default=200)
    parser.add_argument("--checkpoint", default=None,
                        help="save the run to this file, and resume from it if it exists (a pickle: "
                             "use only files you wrote)")
    parser.add_argument("--checkpoint-every", type=int, default=10, help="generations between checkpoints")
    return parser


def run_example(main: Callable, args: argparse.Namespace, algorithm: str, **options) -> None:
    """Run an example's ``main`` on the parsed arguments: the puzzle, seed, population and
    checkpoint, plus ``options``.  Ctrl-C or SIGTERM stops at the next generation, prints the best
    grid, writes the final checkpoint and exits with 130 or 143."""
    puzzle = load_puzzle(args.puzzle)
    options = dict(population_size=args.population, **options)
    if args.checkpoint:
        try:
            options["checkpoint"] = Checkpoint(args.checkpoint, args.checkpoint_every,
                                               run_identity(puzzle, algorithm, args.seed, options))
            options["checkpoint"].read()  # refuse another run's file before starting
        except (CheckpointError, ValueError) as exc:
            raise SystemExit(f"error: {exc}") from None
    with graceful():
        _, logbook, _ = main(puzzle, seed=args.seed, **options)
        signum = requested()
    if logbook.stop_reason == INTERRUPTED:
        raise SystemExit(exit_code(signum))
