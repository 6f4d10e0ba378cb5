"""Tabu search over in-box swaps (the alldifferent-tabu idea), a non-evolutionary yardstick.

    python examples/tabu_search.py [PUZZLE_FILE] [--candidates 100] [--tenure 5] [--no-restrict]
"""

from __future__ import annotations

import argparse

import numpy as np
from deap import tools

from deap_sudoku.individual import Individual
from deap_sudoku.reporting import load_puzzle, report
from deap_sudoku.solvers import tabu_search


def main(puzzle=None, *, seed: int = 0, candidates: int = 100, tenure: int = 5, max_steps: int = 100_000,
         restrict: bool = True, verbose: bool = True):
    """Run tabu search; return ``([best], logbook, hall_of_fame)`` like the GA examples."""
    puzzle = puzzle or load_puzzle(None)
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
    if verbose:
        print(f"{result.steps} steps, {result.seconds:.3f} s, score {result.score}")
        report(puzzle, best)
    return [best], logbook, hof


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", nargs="?", help="puzzle file (default: data/9x9-easy.txt)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--candidates", type=int, default=100)
    parser.add_argument("--tenure", type=int, default=5)
    parser.add_argument("--max-steps", type=int, default=100_000)
    parser.add_argument("--no-restrict", dest="restrict", action="store_false",
                        help="start from any block-permutation, not one restricted by propagation")
    args = parser.parse_args()
    main(load_puzzle(args.puzzle), seed=args.seed, candidates=args.candidates, tenure=args.tenure,
         max_steps=args.max_steps, restrict=args.restrict)
