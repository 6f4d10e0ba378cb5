"""Row-permutation GA (the report's Implementation 2): every row a permutation.

Fitness = duplicates in columns and boxes; ``elites_size`` elites; tournament
of size ``K``; row-uniform crossover with two children per pair; each row
swaps two free cells with probability ``mutation_rate``.

    python examples/row_permutation_ga.py [PUZZLE_FILE] [--elites-size 10] [--k 3] [--mutation-rate 0.1]
"""

from __future__ import annotations

from deap_sudoku import recipes
from deap_sudoku.reporting import example_parser, load_puzzle, run_example


def main(puzzle=None, **options):
    """Run :func:`deap_sudoku.recipes.row_permutation_ga` (where the composition is) on ``puzzle``, or on the default puzzle."""
    return recipes.row_permutation_ga(puzzle or load_puzzle(None), **options)


if __name__ == "__main__":
    parser = example_parser(__doc__.splitlines()[0])
    parser.add_argument("--elites-size", type=int, default=10)
    parser.add_argument("--k", type=int, default=3, help="tournament size")
    parser.add_argument("--mutation-rate", type=float, default=0.1)
    parser.add_argument("--max-generations", type=int, default=1000)
    args = parser.parse_args()
    run_example(main, args, "row-ga", elites_size=args.elites_size, k=args.k, mutation_rate=args.mutation_rate,
                max_generations=args.max_generations)
