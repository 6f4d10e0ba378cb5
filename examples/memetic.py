"""The project's best solver: a memetic GA with propagation repair (deap_sudoku.algorithms.memetic).

Block-permutation individuals started from the candidates propagation leaves, the
first one seeded with the answer of a short exact search when it finds one;
tournament-selected mates and block-uniform crossover; every child improved
by a large-neighbourhood move (free the clashing cells and half their peers,
rebuild them under constraint propagation, never backtracking); a slot that
stalls restarts.  Solves the hardest 9x9 benchmark sets and 25x25 puzzles at
the phase transition (see the README's Performance section).

    python examples/memetic.py [PUZZLE_FILE] [--max-seconds 10] [--cxpb 0.2] [--restart-after 20]
"""

from __future__ import annotations

import random

import click
import numpy as np
from deap import base, tools

from deap_sudoku.algorithms import Stop, ea_memetic, mut_destroy_repair, mut_repair
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
    clone,
    cx_block_uniform,
    eval_collisions,
    fitness_statistics,
    init_block_permutation,
    seed_from_search,
    sel_tournament,
)


def main(
    puzzle=None,
    *,
    seed=0,
    population_size=4,
    cxpb=0.2,
    restart_after=20,
    share=0.5,
    max_generations=None,
    max_seconds=60.0,
    checkpoint=None,
    requested=None,
    verbose=True,
):
    """Run the memetic GA until solved or a budget ends; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, Individual, puzzle=puzzle, restrict=True, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_collisions, puzzle=puzzle)
    toolbox.register("mate", cx_block_uniform, puzzle=puzzle, rng=rng)
    toolbox.register("repair", mut_repair, puzzle=puzzle, rng=rng)  # after crossover: keep clash-free cells
    toolbox.register("improve", mut_destroy_repair, puzzle=puzzle, share=share, rng=rng)  # the local search
    toolbox.register("select", sel_tournament, tournsize=2, rng=rng)
    toolbox.register("clone", clone)
    toolbox.register("seed", seed_from_search, puzzle=puzzle, max_nodes=1000)  # ea_memetic seeds one individual

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_memetic(
        toolbox.population(n=population_size),
        toolbox,
        cxpb=cxpb,
        restart_after=restart_after,
        rng=rng,
        halloffame=hof,
        stats=fitness_statistics(),
        stop=Stop(solved=0, max_generations=max_generations, max_seconds=max_seconds, requested=requested),
        checkpoint=checkpoint,
        callback=print_generation if verbose else None,
    )
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@example_options(population=4)
@checkpoint_options
@click.option(
    "--cxpb", type=click.FloatRange(0, 1), default=0.2, show_default=True, help="Chance that a child is a crossover."
)
@click.option(
    "--restart-after",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Children without improvement before a slot restarts.",
)
@click.option(
    "--share",
    type=click.FloatRange(0, 1),
    default=0.5,
    show_default=True,
    help="Part of a clashing cell's peers freed with it.",
)
@click.option(
    "--max-seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="Wall-time budget of the run.",
)
@click.option(
    "--max-generations", type=click.IntRange(min=1), default=None, help="Generation budget (none by default)."
)
def cli(
    puzzle_file,
    seed,
    population,
    checkpoint,
    checkpoint_every,
    cxpb,
    restart_after,
    share,
    max_seconds,
    max_generations,
):
    run_example(
        main,
        load_puzzle(puzzle_file),
        algorithm="memetic",
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        seed=seed,
        population_size=population,
        cxpb=cxpb,
        restart_after=restart_after,
        share=share,
        max_seconds=max_seconds,
        max_generations=max_generations,
    )


if __name__ == "__main__":
    cli()
