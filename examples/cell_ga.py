"""Cell GA (the report's Implementation 1): random values in the free cells.

Fitness = distinct values per row, column and box (maximised; 243 solves a
9x9); 80 % of the children come from parents drawn from the top 20 %, 20 % from
anyone; cell-uniform crossover; ``mutation_amount`` random cells reset.

    python examples/cell_ga.py [PUZZLE_FILE] [--population 200] [--mutation-amount 2]
"""

from __future__ import annotations

from deap_sudoku import recipes
from deap_sudoku.reporting import example_parser, load_puzzle, run_example


def main(puzzle=None, **options):
    """Run :func:`deap_sudoku.recipes.cell_ga` (where the composition is) on ``puzzle``, or on the default puzzle."""
    return recipes.cell_ga(puzzle or load_puzzle(None), **options)


if __name__ == "__main__":
    parser = example_parser(__doc__.splitlines()[0])
    parser.add_argument("--mutation-amount", type=int, default=2)
    parser.add_argument("--max-generations", type=int, default=1000)
    args = parser.parse_args()
    run_example(main, args, "cell-ga", mutation_amount=args.mutation_amount, max_generations=args.max_generations)
