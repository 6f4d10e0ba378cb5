"""Composing with DEAP primitives: ``make_toolbox`` plus DEAP's own ``eaSimple`` or ``eaMuPlusLambda``.

    python examples/deap_primitives.py [PUZZLE_FILE] [--algorithm mu_plus_lambda]
"""

from __future__ import annotations

import argparse
import random

import numpy as np
from deap import algorithms, tools

from deap_sudoku.reporting import fitness_statistics, load_puzzle, report
from deap_sudoku.toolbox import make_toolbox


def main(puzzle=None, *, seed: int = 0, algorithm: str = "simple", population_size: int = 200,
         ngen: int = 60, verbose: bool = True):
    """Run eaSimple or eaMuPlusLambda; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_puzzle(None)
    random.seed(seed)
    toolbox = make_toolbox(puzzle, mutate="conflict_swap_in_box")
    population = toolbox.population(n=population_size)
    hof = tools.HallOfFame(1, similar=np.array_equal)
    if algorithm == "simple":
        population, logbook = algorithms.eaSimple(population, toolbox, cxpb=0.3, mutpb=0.8, ngen=ngen,
                                                  stats=fitness_statistics(), halloffame=hof, verbose=verbose)
    else:
        population, logbook = algorithms.eaMuPlusLambda(population, toolbox, mu=population_size,
                                                        lambda_=2 * population_size, cxpb=0.3, mutpb=0.7,
                                                        ngen=ngen, stats=fitness_statistics(), halloffame=hof,
                                                        verbose=verbose)
    if verbose:
        report(puzzle, hof[0])
    return population, logbook, hof


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", nargs="?", help="puzzle file (default: data/9x9-easy.txt)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--algorithm", choices=["simple", "mu_plus_lambda"], default="simple")
    parser.add_argument("--population", type=int, default=200)
    parser.add_argument("--ngen", type=int, default=60)
    args = parser.parse_args()
    main(load_puzzle(args.puzzle), seed=args.seed, algorithm=args.algorithm, population_size=args.population,
         ngen=args.ngen)
