"""Block GA with random restart (the documented Python GA).

Block-permutation individuals; fitness ``108 - threats`` (maximised); roulette
selection weighted by fitness; block-uniform crossover taking 1 to 8 boxes from
one parent; in-box swap mutation; a fresh population after ``restart_after``
generations without improvement.  Prints ``generation N: best F`` lines.

    python examples/block_ga_restart.py [PUZZLE_FILE] [--restart-after 100]
"""

from __future__ import annotations

from deap_sudoku import recipes
from deap_sudoku.reporting import example_parser, load_puzzle, run_example


def main(puzzle=None, **options):
    """Run :func:`deap_sudoku.recipes.block_ga_restart` (where the composition is) on ``puzzle``, or on the default puzzle."""
    return recipes.block_ga_restart(puzzle or load_puzzle(None), **options)


if __name__ == "__main__":
    parser = example_parser(__doc__.splitlines()[0])
    parser.add_argument("--restart-after", type=int, default=100)
    parser.add_argument("--max-generations", type=int, default=3000)
    args = parser.parse_args()
    run_example(main, args, "restart-ga", restart_after=args.restart_after, max_generations=args.max_generations)
