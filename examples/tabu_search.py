"""Tabu search over in-box swaps (the alldifferent-tabu idea), a non-evolutionary yardstick.

    python examples/tabu_search.py [PUZZLE_FILE] [--candidates 100] [--tenure 5] [--no-restrict]
"""

from __future__ import annotations

import argparse

from deap_sudoku import recipes
from deap_sudoku.reporting import load_puzzle


def main(puzzle=None, **options):
    """Run :func:`deap_sudoku.recipes.tabu` (where the composition is) on ``puzzle``, or on the default puzzle."""
    return recipes.tabu(puzzle or load_puzzle(None), **options)


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
