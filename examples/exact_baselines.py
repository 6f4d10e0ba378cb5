"""Exact baselines: what constraint propagation alone deduces, then backtracking with a uniqueness check.

    python examples/exact_baselines.py [PUZZLE_FILE] [--naked-only]

``--naked-only`` stops at the classic "constraint analyzer" (naked singles).
"""

from __future__ import annotations

import argparse

import numpy as np
from deap import tools

from deap_sudoku.individual import Individual
from deap_sudoku.reporting import load_puzzle
from deap_sudoku.solvers import propagate, search


def main(puzzle=None, *, naked_only: bool = False, verbose: bool = True):
    """Propagate, then search for up to two solutions; return ``([solution], logbook, hall_of_fame)``
    (an empty population when there is no solution)."""
    puzzle = puzzle or load_puzzle(None, default="9x9.txt")
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", nargs="?", help="puzzle file (default: data/9x9.txt)")
    parser.add_argument("--naked-only", action="store_true")
    args = parser.parse_args()
    main(load_puzzle(args.puzzle, default="9x9.txt"), naked_only=args.naked_only)
