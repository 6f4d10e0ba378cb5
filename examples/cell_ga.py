"""Cell GA (the report's Implementation 1): random values in the free cells.

Fitness = distinct values per row, column and box (maximised; 243 solves a
9x9); 80 % of the children come from parents drawn from the top 20 %, 20 % from
anyone; cell-uniform crossover; ``mutation_amount`` random cells reset.

    python examples/cell_ga.py [PUZZLE_FILE] [--population 200] [--mutation-amount 2]
"""

from __future__ import annotations

import random

from deap_sudoku.algorithms import Stop
from deap_sudoku.fitness import optimum
from deap_sudoku.mutation import mut_random_reset
from deap_sudoku.reporting import evolve, example_parser, load_puzzle
from deap_sudoku.toolbox import make_toolbox


def main(puzzle=None, *, seed: int = 0, population_size: int = 200, mutation_amount: int = 2,
         cxpb: float = 0.9, mutpb: float = 1.0, max_generations: int = 1000, verbose: bool = True):
    """Run the cell GA; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_puzzle(None)
    random.seed(seed)
    toolbox = make_toolbox(puzzle, representation="cells", fitness="distinct", mate="cell_uniform",
                           select="elite_biased")
    toolbox.register("mutate", mut_random_reset, puzzle=puzzle, k=mutation_amount)
    stop = Stop(solved=optimum(toolbox.evaluate.func, puzzle), max_generations=max_generations)
    return evolve(puzzle, toolbox, population_size, cxpb, mutpb, stop=stop, verbose=verbose)


if __name__ == "__main__":
    parser = example_parser(__doc__.splitlines()[0])
    parser.add_argument("--mutation-amount", type=int, default=2)
    parser.add_argument("--max-generations", type=int, default=1000)
    args = parser.parse_args()
    main(load_puzzle(args.puzzle), seed=args.seed, population_size=args.population,
         mutation_amount=args.mutation_amount, max_generations=args.max_generations)
