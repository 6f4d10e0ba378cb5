"""Wang et al.'s local-search GA ("LSGA", IEEE Transactions on Games 16(1), 2024), its rules read from
the abstract and from third-party reimplementations that say they follow the paper's pseudocode.

As documented (the defaults): each row's empty squares get a random permutation of the values the
row lacks; fitness = the columns and boxes that hold a repeated value (minimised); tournaments of 2
choose 150 parents; each parent, with probability 0.2, mates with a random parent and takes each of
its rows with probability 0.1; each row swaps two of its empty squares with probability 0.3 and is
re-initialised with probability 0.05; a column local search and a sub-block local search then swap
repeated values between illegal columns (boxes) within a row; an archive of the 50 best ever
individuals teaches the population's worst (copied with probability Pb = (f_worst - f_elite) /
f_worst, otherwise re-initialised).  Runs until solved or 200 generations.  ``main`` takes DEAP's
and the package's names (``cxpb``, ``mutpb``, ``tournsize``).

    python examples/lsga.py [PUZZLE_FILE] [--elite-size 50] [--pc1 0.2] [--pc2 0.1] [--pm1 0.3] [--pm2 0.05]
"""

from __future__ import annotations

import random

import click
import numpy as np
from deap import base, tools

from deap_sudoku.algorithms import Stop, ea_lsga
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
    eval_illegal_units,
    fitness_statistics,
    init_row_permutation,
    mut_block_local_search,
    mut_column_local_search,
    mut_reinit_row,
    mut_swap_in_row,
    sel_tournament,
)


def main(
    puzzle=None,
    *,
    seed=0,
    population_size=150,
    elite_size=50,
    tournsize=2,
    cxpb=0.2,
    row_cxpb=0.1,
    mutpb=0.3,
    reinitpb=0.05,
    max_generations=200,
    checkpoint=None,
    requested=None,
    verbose=True,
):
    """Run LSGA; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    toolbox.register("individual", init_row_permutation, Individual, puzzle=puzzle, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_illegal_units, puzzle=puzzle)  # rows are right by construction
    toolbox.register("mate", cx_row_uniform, puzzle=puzzle, indpb=row_cxpb, rng=rng)
    toolbox.register("mutate", mut_swap_in_row, puzzle=puzzle, indpb=mutpb, rng=rng)
    toolbox.register("reinit", mut_reinit_row, puzzle=puzzle, indpb=reinitpb, rng=rng)
    toolbox.register("column_search", mut_column_local_search, puzzle=puzzle, rng=rng)
    toolbox.register("block_search", mut_block_local_search, puzzle=puzzle, rng=rng)
    toolbox.register("select", sel_tournament, tournsize=tournsize, rng=rng)
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_lsga(
        toolbox.population(n=population_size),
        toolbox,
        cxpb,
        rng=rng,
        elite_size=elite_size,
        halloffame=hof,
        stats=fitness_statistics(),
        stop=Stop(solved=0, max_generations=max_generations, requested=requested),
        checkpoint=checkpoint,
        callback=print_generation if verbose else None,
    )
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@example_options(population=150)
@checkpoint_options
@click.option(
    "--elite-size", type=click.IntRange(min=1), default=50, show_default=True, help="Size of the elite archive."
)
@click.option("--k", type=click.IntRange(min=1), default=2, show_default=True, help="Tournament size.")
@click.option("--pc1", type=click.FloatRange(0, 1), default=0.2, show_default=True, help="Individual crossover rate.")
@click.option("--pc2", type=click.FloatRange(0, 1), default=0.1, show_default=True, help="Row crossover rate.")
@click.option("--pm1", type=click.FloatRange(0, 1), default=0.3, show_default=True, help="Per-row swap mutation rate.")
@click.option(
    "--pm2", type=click.FloatRange(0, 1), default=0.05, show_default=True, help="Per-row re-initialisation rate."
)
@click.option("--max-generations", type=click.IntRange(min=1), default=200, show_default=True, help="Budget.")
def cli(
    puzzle_file, seed, population, checkpoint, checkpoint_every, elite_size, k, pc1, pc2, pm1, pm2, max_generations
):
    run_example(
        main,
        load_puzzle(puzzle_file),
        algorithm="lsga",
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        seed=seed,
        population_size=population,
        elite_size=elite_size,
        tournsize=k,
        cxpb=pc1,
        row_cxpb=pc2,
        mutpb=pm1,
        reinitpb=pm2,
        max_generations=max_generations,
    )


if __name__ == "__main__":
    cli()
