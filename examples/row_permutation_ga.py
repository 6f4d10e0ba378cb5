"""Row-permutation GA (the report's Implementation 2): every row a permutation.

Fitness = duplicates in columns and boxes; ``elites_size`` elites; tournament
of size ``K``; row-uniform crossover with two children per pair; each row
swaps two free cells with probability ``mutation_rate``.

    python examples/row_permutation_ga.py [PUZZLE_FILE] [--elites-size 10] [--k 3] [--mutation-rate 0.1]
"""

from __future__ import annotations

import random

from deap_sudoku.algorithms import Stop
from deap_sudoku.reporting import evolve, example_parser, load_puzzle
from deap_sudoku.toolbox import make_toolbox


def main(puzzle=None, *, seed: int = 0, population_size: int = 200, elites_size: int = 10, k: int = 3,
         mutation_rate: float = 0.1, cxpb: float = 0.9, max_generations: int = 1000, verbose: bool = True):
    """Run the row-permutation GA; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_puzzle(None)
    random.seed(seed)
    toolbox = make_toolbox(puzzle, representation="row", fitness="column_box_collisions", mate="row_uniform",
                           mutate="swap_in_row", indpb=mutation_rate, select="tournament", tournsize=k)
    return evolve(puzzle, toolbox, population_size, cxpb, 1.0, elites=elites_size,
                  stop=Stop(solved=0, max_generations=max_generations), verbose=verbose)


if __name__ == "__main__":
    parser = example_parser(__doc__.splitlines()[0])
    parser.add_argument("--elites-size", type=int, default=10)
    parser.add_argument("--k", type=int, default=3, help="tournament size")
    parser.add_argument("--mutation-rate", type=float, default=0.1)
    parser.add_argument("--max-generations", type=int, default=1000)
    args = parser.parse_args()
    main(load_puzzle(args.puzzle), seed=args.seed, population_size=args.population, elites_size=args.elites_size,
         k=args.k, mutation_rate=args.mutation_rate, max_generations=args.max_generations)
