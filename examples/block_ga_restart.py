"""Block GA with random restart (the documented Python GA).

Block-permutation individuals; fitness ``108 - threats`` (maximised); roulette
selection weighted by fitness; block-uniform crossover taking 1 to 8 boxes from
one parent; in-box swap mutation; a fresh population after ``restart_after``
generations without improvement.  Prints ``generation N: best F`` lines.

    python examples/block_ga_restart.py [PUZZLE_FILE] [--restart-after 100]
"""

from __future__ import annotations

import random

import click
import numpy as np
from deap import base, tools

from deap_sudoku.algorithms import Stop, ea_generational
from deap_sudoku.cli.examples import checkpoint_options, example_options, load_puzzle, run_example
from deap_sudoku.io import load_sample
from deap_sudoku.tools import (MaxIndividual, batch_map, clone, cx_block_uniform, eval_threats, fitness_statistics,
                               init_block_permutation, max_threats, mut_swap_in_box, sel_roulette)


def print_best(generation, population, logbook):
    click.echo(f"generation {generation}: best {logbook[-1]['max']:g}")


def main(puzzle=None, *, seed=0, population_size=200, restart_after=100, cxpb=0.8, mutpb=0.5, max_generations=3000,
         checkpoint=None, requested=None, verbose=True):
    """Run the GA with restarts; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, MaxIndividual, puzzle=puzzle, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_threats, puzzle=puzzle)  # maximised: 108 solves a 9x9
    toolbox.register("mate", cx_block_uniform, puzzle=puzzle, rng=rng)
    toolbox.register("mutate", mut_swap_in_box, puzzle=puzzle, rng=rng)
    toolbox.register("select", sel_roulette, rng=rng)
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_generational(
        toolbox.population(n=population_size), toolbox, cxpb, mutpb, rng=rng, elites=1, restart_after=restart_after,
        halloffame=hof, stats=fitness_statistics(),
        stop=Stop(solved=max_threats(puzzle.shape), max_generations=max_generations, requested=requested),
        checkpoint=checkpoint, callback=print_best if verbose else None)
    return population, logbook, hof


@click.command(help=__doc__.splitlines()[0])
@example_options()
@checkpoint_options
@click.option("--restart-after", type=click.IntRange(min=1), default=100, show_default=True,
              help="Generations without improvement before a fresh population.")
@click.option("--max-generations", type=click.IntRange(min=1), default=3000, show_default=True)
def cli(puzzle_file, seed, population, checkpoint, checkpoint_every, restart_after, max_generations):
    run_example(main, load_puzzle(puzzle_file), algorithm="restart-ga", checkpoint=checkpoint,
                checkpoint_every=checkpoint_every, seed=seed, population_size=population, restart_after=restart_after,
                max_generations=max_generations)


if __name__ == "__main__":
    cli()
