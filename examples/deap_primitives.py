"""Composing with DEAP primitives: ``make_toolbox`` plus DEAP's own ``eaSimple`` or ``eaMuPlusLambda``.

    python examples/deap_primitives.py [PUZZLE_FILE] [--algorithm mu_plus_lambda]
"""

from __future__ import annotations

import random

import click
import numpy as np
from deap import algorithms, tools

from deap_sudoku.cli.examples import example_help, example_options, load_puzzle, print_result
from deap_sudoku.io import load_sample
from deap_sudoku.tools import fitness_statistics, make_toolbox


def main(puzzle=None, *, seed=0, algorithm="simple", population_size=200, ngen=60, verbose=True):
    """Run eaSimple or eaMuPlusLambda; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    random.seed(seed)  # DEAP's own loops draw from the random module, so the operators do too (no rng=)
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
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@example_options()
@click.option("--algorithm", type=click.Choice(["simple", "mu_plus_lambda"]), default="simple", show_default=True)
@click.option("--ngen", type=click.IntRange(min=1), default=60, show_default=True)
def cli(puzzle_file, seed, population, algorithm, ngen):
    puzzle = load_puzzle(puzzle_file)
    _, _, hof = main(puzzle, seed=seed, algorithm=algorithm, population_size=population, ngen=ngen)
    print_result(puzzle, hof[0])


if __name__ == "__main__":
    cli()
