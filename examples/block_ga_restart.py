"""Block GA with random restart (the documented Python GA).

Block-permutation individuals; fitness ``108 - threats`` (maximised); roulette
selection weighted by fitness; block-uniform crossover taking 1 to 8 boxes from
one parent; in-box swap mutation; a fresh population after ``restart_after``
generations without improvement.  Prints ``generation N: best F`` lines.

    python examples/block_ga_restart.py [PUZZLE_FILE] [--restart-after 100]
"""

from __future__ import annotations

import random

from deap_sudoku.algorithms import Stop
from deap_sudoku.fitness import max_threats
from deap_sudoku.reporting import evolve, example_parser, load_puzzle
from deap_sudoku.toolbox import make_toolbox


def main(puzzle=None, *, seed: int = 0, population_size: int = 200, restart_after: int = 100,
         cxpb: float = 0.8, mutpb: float = 0.5, max_generations: int = 3000, verbose: bool = True):
    """Run the GA with restarts; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_puzzle(None)
    random.seed(seed)
    toolbox = make_toolbox(puzzle, representation="block", smart=False, fitness="threats",
                           mate="block_uniform", mutate="swap_in_box", select="roulette")
    def progress(generation, population, logbook):
        if verbose:
            print(f"generation {generation}: best {max(ind.fitness.values[0] for ind in population):g}")

    stop = Stop(solved=max_threats(puzzle.shape), max_generations=max_generations)
    return evolve(puzzle, toolbox, population_size, cxpb, mutpb, stop=stop, verbose=verbose, log_statistics=False,
                  elites=1, restart_after=restart_after, callback=progress)


if __name__ == "__main__":
    parser = example_parser(__doc__.splitlines()[0])
    parser.add_argument("--restart-after", type=int, default=100)
    parser.add_argument("--max-generations", type=int, default=3000)
    args = parser.parse_args()
    main(load_puzzle(args.puzzle), seed=args.seed, population_size=args.population,
         restart_after=args.restart_after, max_generations=args.max_generations)
