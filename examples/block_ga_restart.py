"""Block GA with random restart as documented for the Python GA (source 003), with our improvements as switches.

As documented (the defaults): block-permutation individuals filled at random
around the givens; fitness ``108 - threats`` (row and column duplicates
subtracted from their worst case; maximised); half as many children as the
population, each of a pair of parents drawn "with the weight of the fitness"
(raw fitness-proportional roulette); the child takes 1 to 8 random boxes from
one parent and the rest from the other; mutation swaps two free cells of a
random box; a fresh population every ``--restart-every`` generations.  Prints
``In generation N MAX was F``, counting from 1.

Our switches: ``--normalised-roulette`` (min-max normalised wheel) and
``--restart-after G`` (restart after G generations without improvement,
instead of on a fixed period).

    python examples/block_ga_restart.py [PUZZLE_FILE] [--restart-every 500]
"""

from __future__ import annotations

import random

import click
import numpy as np
from deap import base, tools

from deap_sudoku.algorithms import Stop, ea_plus_children
from deap_sudoku.cli.examples import example_help, checkpoint_options, example_options, load_puzzle, run_example
from deap_sudoku.io import load_sample
from deap_sudoku.tools import (
    MaxIndividual,
    batch_map,
    clone,
    cx_block_uniform,
    eval_threats,
    fitness_statistics,
    init_block_permutation,
    max_threats,
    mut_swap_in_box,
    sel_roulette,
)


def print_best(generation, population, logbook):
    """The source's progress line, generations counted from 1."""
    click.echo(f"In generation {generation + 1} MAX was {logbook[-1]['max']:g}")


def main(
    puzzle=None,
    *,
    seed=0,
    population_size=200,
    mutpb=1.0,
    restart_every=500,
    normalised_roulette=False,
    restart_after=None,
    max_generations=3000,
    checkpoint=None,
    requested=None,
    verbose=True,
):
    """Run the GA with restarts; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, MaxIndividual, puzzle=puzzle, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_threats, puzzle=puzzle)  # maximised: 108 solves a 9x9
    toolbox.register("mate", cx_block_uniform, puzzle=puzzle, rng=rng)  # the child is the first of the two
    toolbox.register("mutate", mut_swap_in_box, puzzle=puzzle, rng=rng)
    toolbox.register("select", sel_roulette, normalise=normalised_roulette, rng=rng)
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_plus_children(
        toolbox.population(n=population_size),
        toolbox,
        mutpb,
        rng=rng,
        restart_every=None if restart_after else restart_every,
        restart_after=restart_after,
        halloffame=hof,
        stats=fitness_statistics(),
        stop=Stop(solved=max_threats(puzzle.shape), max_generations=max_generations, requested=requested),
        checkpoint=checkpoint,
        callback=print_best if verbose else None,
    )
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@example_options()
@checkpoint_options
@click.option(
    "--mutpb",
    type=click.FloatRange(0, 1),
    default=1.0,
    show_default=True,
    help="Probability that a child is mutated (the source names no value).",
)
@click.option(
    "--restart-every",
    type=click.IntRange(min=1),
    default=500,
    show_default=True,
    help="Generations between restarts (the source names no value).",
)
@click.option("--normalised-roulette", is_flag=True, help="Ours: size the wheel by min-max normalised fitness.")
@click.option(
    "--restart-after",
    type=click.IntRange(min=1),
    default=None,
    help="Ours: restart after this many generations without improvement instead.",
)
@click.option("--max-generations", type=click.IntRange(min=1), default=3000, show_default=True)
def cli(
    puzzle_file,
    seed,
    population,
    checkpoint,
    checkpoint_every,
    mutpb,
    restart_every,
    normalised_roulette,
    restart_after,
    max_generations,
):
    run_example(
        main,
        load_puzzle(puzzle_file),
        algorithm="restart-ga",
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        seed=seed,
        population_size=population,
        mutpb=mutpb,
        restart_every=restart_every,
        normalised_roulette=normalised_roulette,
        restart_after=restart_after,
        max_generations=max_generations,
    )


if __name__ == "__main__":
    cli()
