"""Cell GA as documented for the report's Implementation 1 (source 001), with our improvement as a switch.

As documented (the defaults): random values in the empty squares; fitness =
distinct values summed over rows, columns and boxes (maximised; 243 solves a
9x9); every child of the next generation has its own two parents (possibly the
same one twice), drawn from the best 20 % for 80 % of the children and from
everyone for the rest; the child takes each square from either parent at
random; then ``mutation_amount`` random squares of the board get random values,
and a draw that hits a given square is wasted.  Runs until solved (with our
``--max-generations`` budget).

Our switch: ``--free-cells-only`` draws the mutated squares among the empty ones.

    python examples/cell_ga.py [PUZZLE_FILE] [--population 200] [--mutation-amount 2]
"""

from __future__ import annotations

import random

import click
import numpy as np
from deap import base, tools

from deap_sudoku.algorithms import Stop, ea_generational
from deap_sudoku.cli.examples import (
    example_help,
    checkpoint_options,
    example_options,
    load_puzzle,
    print_generation,
    run_example,
)
from deap_sudoku.io import load_sample
from deap_sudoku.tools import (
    MaxIndividual,
    batch_map,
    clone,
    cx_cell_uniform,
    eval_distinct,
    fitness_statistics,
    init_free_cells,
    mut_random_reset,
    optimum,
    sel_elite_biased,
)


def main(
    puzzle=None,
    *,
    seed=0,
    population_size=200,
    amount=2,
    free_cells_only=False,
    max_generations=1000,
    checkpoint=None,
    requested=None,
    verbose=True,
):
    """Run the cell GA; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    toolbox.register("individual", init_free_cells, MaxIndividual, puzzle=puzzle, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_distinct, puzzle=puzzle)  # maximised: 3 n^2 when solved
    toolbox.register("mate", cx_cell_uniform, puzzle=puzzle, rng=rng)  # the child is the first of the two
    toolbox.register("mutate", mut_random_reset, puzzle=puzzle, amount=amount, any_cell=not free_cells_only, rng=rng)
    toolbox.register("select", sel_elite_biased, rng=rng)  # 80 % of the picks from the best 20 %
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_generational(
        toolbox.population(n=population_size),
        toolbox,
        1.0,
        1.0,
        one_child_per_mating=True,
        rng=rng,
        halloffame=hof,
        stats=fitness_statistics(),
        stop=Stop(solved=optimum(eval_distinct, puzzle), max_generations=max_generations, requested=requested),
        checkpoint=checkpoint,
        callback=print_generation if verbose else None,
    )
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@example_options()
@checkpoint_options
@click.option(
    "--mutation-amount",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Squares each child mutates (the report's figure shows 2).",
)
@click.option("--free-cells-only", is_flag=True, help="Ours: mutate only empty squares, no wasted draws.")
@click.option(
    "--max-generations",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Budget (ours: the report runs until solved).",
)
def cli(puzzle_file, seed, population, checkpoint, checkpoint_every, mutation_amount, free_cells_only, max_generations):
    run_example(
        main,
        load_puzzle(puzzle_file),
        algorithm="cell-ga",
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        seed=seed,
        population_size=population,
        amount=mutation_amount,
        free_cells_only=free_cells_only,
        max_generations=max_generations,
    )


if __name__ == "__main__":
    cli()
