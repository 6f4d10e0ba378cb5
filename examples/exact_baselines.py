"""Exact baselines: what constraint propagation alone deduces, then backtracking with a uniqueness check.

    python examples/exact_baselines.py [PUZZLE_FILE] [--naked-only]

``--naked-only`` stops at the classic "constraint analyzer" (naked singles).
"""

from __future__ import annotations

import argparse

from deap_sudoku import recipes
from deap_sudoku.reporting import load_puzzle


def main(puzzle=None, **options):
    """Run :func:`deap_sudoku.recipes.exact` (where the composition is) on ``puzzle``, or on the default puzzle."""
    return recipes.exact(puzzle or load_puzzle(None, default="9x9.txt"), **options)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", nargs="?", help="puzzle file (default: data/9x9.txt)")
    parser.add_argument("--naked-only", action="store_true")
    args = parser.parse_args()
    main(load_puzzle(args.puzzle, default="9x9.txt"), naked_only=args.naked_only)
