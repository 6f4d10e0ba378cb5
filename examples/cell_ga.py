"""Cell GA (the report's Implementation 1): random values in the free cells.

Fitness = distinct values per row, column and box (maximised; 243 solves a
9x9); 80 % of the children come from parents drawn from the top 20 %, 20 % from
anyone; cell-uniform crossover; ``mutation_amount`` random cells reset.

    python examples/cell_ga.py [PUZZLE_FILE] [--population 200] [--mutation-amount 2]
"""

from __future__ import annotations

import random

import click
import numpy as np
from deap import base, tools

from deap_sudoku.algorithms import Stop, ea_generational
from deap_sudoku.cli.examples import (checkpoint_options, example_options, load_puzzle, print_generation,
                                      run_example)
from deap_sudoku.io import load_sample
from deap_sudoku.tools import (MaxIndividual, batch_map, clone, cx_cell_uniform, eval_distinct, fitness_statistics,
                               init_free_cells, mut_random_reset, optimum, sel_elite_biased)


def main(puzzle=None, *, seed=0, population_size=200, mutation_amount=2, cxpb=0.9, mutpb=1.0, max_generations=1000,
         checkpoint=None, requested=None, verbose=True):
    """Run the cell GA; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    toolbox.register("individual", init_free_cells, MaxIndividual, puzzle=puzzle, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_distinct, puzzle=puzzle)  # maximised: 3 n^2 when solved
    toolbox.register("mate", cx_cell_uniform, puzzle=puzzle, rng=rng)
    toolbox.register("mutate", mut_random_reset, puzzle=puzzle, k=mutation_amount, rng=rng)
    toolbox.register("select", sel_elite_biased, rng=rng)  # 80 % from the best 20 %
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_generational(
        toolbox.population(n=population_size), toolbox, cxpb, mutpb, rng=rng, halloffame=hof,
        stats=fitness_statistics(),
        stop=Stop(solved=optimum(eval_distinct, puzzle), max_generations=max_generations, requested=requested),
        checkpoint=checkpoint, callback=print_generation if verbose else None)
    return population, logbook, hof


@click.command(help=__doc__.splitlines()[0])
@example_options()
@checkpoint_options
@click.option("--mutation-amount", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--max-generations", type=click.IntRange(min=1), default=1000, show_default=True)
def cli(puzzle_file, seed, population, checkpoint, checkpoint_every, mutation_amount, max_generations):
    run_example(main, load_puzzle(puzzle_file), algorithm="cell-ga", checkpoint=checkpoint,
                checkpoint_every=checkpoint_every, seed=seed, population_size=population,
                mutation_amount=mutation_amount, max_generations=max_generations)


if __name__ == "__main__":
    cli()
