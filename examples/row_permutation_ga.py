"""Row-permutation GA as documented for the report's Implementation 2 (source 001), with our improvement as a switch.

As documented (the defaults): each row's empty squares get random values the
row lacks; fitness = duplicates in columns and boxes (minimised); the next
generation starts with the ``elites_size`` best, and tournaments of ``K``
choose parents for the other places; every pair of parents makes two children
that take each row from one parent or the other; each row of a child swaps two
of its empty squares with probability ``mutation_rate``.  Runs until solved
(with our ``--max-generations`` budget).  The flags keep the report's words; ``main`` takes
DEAP's and the package's names (``elites``, ``tournsize``, ``indpb``).

Our switch: ``--restrict`` starts the rows from the values constraint propagation allows.

    python examples/row_permutation_ga.py [PUZZLE_FILE] [--elites-size 10] [--k 3] [--mutation-rate 0.1]
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
    Individual,
    batch_map,
    clone,
    cx_row_uniform,
    eval_column_box_collisions,
    fitness_statistics,
    init_row_permutation,
    mut_swap_in_row,
    sel_tournament,
)


def main(
    puzzle=None,
    *,
    seed=0,
    population_size=200,
    elites=10,
    tournsize=3,
    indpb=0.1,
    restrict=False,
    max_generations=1000,
    checkpoint=None,
    requested=None,
    verbose=True,
):
    """Run the row-permutation GA; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    toolbox.register("individual", init_row_permutation, Individual, puzzle=puzzle, restrict=restrict, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_column_box_collisions, puzzle=puzzle)  # rows are right by construction
    toolbox.register("mate", cx_row_uniform, puzzle=puzzle, rng=rng)
    toolbox.register("mutate", mut_swap_in_row, puzzle=puzzle, indpb=indpb, rng=rng)
    toolbox.register("select", sel_tournament, tournsize=tournsize, rng=rng)
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_generational(
        toolbox.population(n=population_size),
        toolbox,
        1.0,
        1.0,
        rng=rng,
        elites=elites,
        halloffame=hof,
        stats=fitness_statistics(),
        stop=Stop(solved=0, max_generations=max_generations, requested=requested),
        checkpoint=checkpoint,
        callback=print_generation if verbose else None,
    )
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@example_options()
@checkpoint_options
@click.option(
    "--elites-size",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Best individuals kept unchanged (the report names no value).",
)
@click.option(
    "--k", type=click.IntRange(min=1), default=3, show_default=True, help="Tournament size (the report names no value)."
)
@click.option(
    "--mutation-rate",
    type=click.FloatRange(0, 1),
    default=0.1,
    show_default=True,
    help="Per-row swap probability (the report names no value).",
)
@click.option("--restrict", is_flag=True, help="Ours: start rows from the values propagation allows.")
@click.option(
    "--max-generations",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Budget (ours: the report runs until solved).",
)
def cli(
    puzzle_file,
    seed,
    population,
    checkpoint,
    checkpoint_every,
    elites_size,
    k,
    mutation_rate,
    restrict,
    max_generations,
):
    run_example(
        main,
        load_puzzle(puzzle_file),
        algorithm="row-ga",
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        seed=seed,
        population_size=population,
        elites=elites_size,
        tournsize=k,
        indpb=mutation_rate,
        restrict=restrict,
        max_generations=max_generations,
    )


if __name__ == "__main__":
    cli()
