"""Exact baselines: what constraint propagation alone deduces, then backtracking with a uniqueness check.

    python examples/exact_baselines.py [PUZZLE_FILE]

With no file it uses the first puzzle of data/9x9.txt.
"""

from __future__ import annotations

import sys
from pathlib import Path

from deap_sudoku import Puzzle, read
from deap_sudoku.solvers import propagate, search

DEFAULT = Path(__file__).resolve().parents[1] / "data" / "9x9.txt"


def main(puzzle: Puzzle) -> Puzzle | None:
    """Print the propagation result and the backtracking solution; return the solution."""
    print(f"puzzle, {puzzle.shape.name}, {puzzle.num_givens} givens:\n{puzzle}\n")
    naked = propagate(puzzle, hidden_singles=False)
    full = propagate(puzzle)
    print(f"naked singles fill {naked.filled} cells; with hidden singles {full.filled}"
          f"{' (contradiction)' if full.contradiction else ''}")
    result = search(puzzle, limit=2)
    if not result.solutions:
        print(f"no solution ({result.nodes} search nodes)")
        return None
    verdict = "unique" if result.count == 1 else "not unique: 2 or more solutions"
    print(f"backtracking: {result.nodes} search nodes, the solution is {verdict}\n")
    print(result.solutions[0])
    return result.solutions[0]


if __name__ == "__main__":
    main(read(sys.argv[1] if len(sys.argv) > 1 else DEFAULT)[0])
