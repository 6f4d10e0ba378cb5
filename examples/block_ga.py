"""Block GA with switches, after the documented C++ "Sudoku Löser" GA.

Block-permutation individuals; random or smart initialisation; two-point band
or three-parent diagonal crossover; collision or closeness fitness; truncation
(``keeping_percentage``) or stochastic-universal selection; conflict-guided
in-box swap mutation; optional punish-same penalty.  Stops when solved or when
the best fitness equals the population mean (a local minimum).

    python examples/block_ga.py [PUZZLE_FILE] [--init smart] [--crossover diagonal] ...
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
from deap_sudoku.tools import (Individual, batch_map, clone, cx_band_two_point, cx_diagonal, eval_closeness,
                               eval_collisions, fitness_statistics, init_block_permutation,
                               init_smart_block_permutation, mut_conflict_swap, sel_stochastic_universal_sampling,
                               sel_truncation, with_punish_same)


def main(puzzle=None, *, seed=0, population_size=200, init="smart", crossover_kind="two_point", fitness="collisions",
         select="truncation", keeping_percentage=0.5, cxpb=0.9, mutpb=0.5, punish_same=False, max_generations=1000,
         checkpoint=None, requested=None, verbose=True):
    """Run the block GA; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    toolbox.register("individual", init_smart_block_permutation if init == "smart" else init_block_permutation,
                     Individual, puzzle=puzzle, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_closeness if fitness == "closeness" else eval_collisions, puzzle=puzzle)
    if crossover_kind == "diagonal":
        toolbox.register("mate", cx_diagonal, puzzle=puzzle)  # three parents, three children
    else:
        toolbox.register("mate", cx_band_two_point, puzzle=puzzle, rng=rng)
    toolbox.register("mutate", mut_conflict_swap, puzzle=puzzle, in_box=True, rng=rng)
    if select == "truncation":
        toolbox.register("select", sel_truncation, keep=keeping_percentage)
    else:
        toolbox.register("select", sel_stochastic_universal_sampling, rng=rng)
    if punish_same:
        toolbox.register("select", with_punish_same(toolbox.select, free=~puzzle.givens))
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_generational(
        toolbox.population(n=population_size), toolbox, cxpb, mutpb, rng=rng,
        parents=3 if crossover_kind == "diagonal" else 2, halloffame=hof, stats=fitness_statistics(),
        stop=Stop(solved=0, stagnation=True, max_generations=max_generations, requested=requested),
        checkpoint=checkpoint, callback=print_generation if verbose else None)
    return population, logbook, hof


@click.command(help=__doc__.splitlines()[0])
@example_options()
@checkpoint_options
@click.option("--init", type=click.Choice(["random", "smart"]), default="smart", show_default=True)
@click.option("--crossover", type=click.Choice(["two_point", "diagonal"]), default="two_point", show_default=True)
@click.option("--fitness", type=click.Choice(["collisions", "closeness"]), default="collisions", show_default=True)
@click.option("--selection", type=click.Choice(["truncation", "sus"]), default="truncation", show_default=True)
@click.option("--keeping-percentage", type=click.FloatRange(0, 1, min_open=True), default=0.5, show_default=True)
@click.option("--cxpb", type=click.FloatRange(0, 1), default=0.9, show_default=True)
@click.option("--mutpb", type=click.FloatRange(0, 1), default=0.5, show_default=True)
@click.option("--punish-same", is_flag=True)
@click.option("--max-generations", type=click.IntRange(min=1), default=1000, show_default=True)
def cli(puzzle_file, seed, population, checkpoint, checkpoint_every, init, crossover, fitness, selection,
        keeping_percentage, cxpb, mutpb, punish_same, max_generations):
    run_example(main, load_puzzle(puzzle_file), algorithm="block-ga", checkpoint=checkpoint,
                checkpoint_every=checkpoint_every, seed=seed, population_size=population, init=init,
                crossover_kind=crossover, fitness=fitness, select=selection, keeping_percentage=keeping_percentage,
                cxpb=cxpb, mutpb=mutpb, punish_same=punish_same, max_generations=max_generations)


if __name__ == "__main__":
    cli()
