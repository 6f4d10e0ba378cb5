"""Block GA as documented for the C++ "Sudoku Löser" (source 000), with our improvements as switches.

As documented (the defaults): block-permutation individuals, random or smart
initialisation; a population of a wished size from which selection keeps the
best ``keeping_percentage`` (truncation) or draws that many with stochastic
universal sampling, and children of random survivors (one child per
Crossover(2) band two-point or three-parent Crossover(3) diagonal) fill it back
up; the collision fitness (per-cell collision map, summed) or the closeness
fitness (per-cell 0/1 map); mutation swaps, in random pairs anywhere, the cells
whose value in the map of the fitness in use exceeds 1; optional punish-same.
Stops when solved or when the best fitness equals the population mean.

Our switches: ``--mutation-threshold 0`` (every cell in a collision),
``--in-box-pairs`` (pairs inside each box, keeping block-permutations) and
``--fitness collisions`` (duplicates per unit).

    python examples/block_ga.py [PUZZLE_FILE] [--init smart] [--crossover diagonal] ...
"""

from __future__ import annotations

import random

import click
import numpy as np
from deap import base, tools

from deap_sudoku.algorithms import Stop, ea_keep_refill
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
    cell_map,
    clone,
    cx_band_two_point,
    cx_diagonal,
    eval_cell_collisions,
    eval_closeness,
    eval_collisions,
    fitness_statistics,
    init_block_permutation,
    init_smart_block_permutation,
    mut_conflict_swap,
    sel_stochastic_universal_sampling,
    with_punish_same,
)

FITNESSES = {"cell_collisions": eval_cell_collisions, "closeness": eval_closeness, "collisions": eval_collisions}


def main(
    puzzle=None,
    *,
    seed=0,
    population_size=200,
    init="random",
    crossover_kind="two_point",
    fitness="cell_collisions",
    select="truncation",
    keep=0.5,
    mutpb=0.5,
    mutation_threshold=1,
    in_box_pairs=False,
    punish_same=False,
    max_generations=1000,
    checkpoint=None,
    requested=None,
    verbose=True,
):
    """Run the block GA; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    evaluate = FITNESSES[fitness]
    toolbox = base.Toolbox()
    toolbox.register(
        "individual",
        init_smart_block_permutation if init == "smart" else init_block_permutation,
        Individual,
        puzzle=puzzle,
        rng=rng,
    )
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", evaluate, puzzle=puzzle)
    if crossover_kind == "diagonal":
        toolbox.register("mate", cx_diagonal, puzzle=puzzle)  # Crossover(3): the child takes band i from parent i
    else:
        toolbox.register("mate", cx_band_two_point, puzzle=puzzle, rng=rng)  # Crossover(2): the middle band
    toolbox.register(
        "mutate",
        mut_conflict_swap,
        puzzle=puzzle,
        cell_map=cell_map(evaluate),
        threshold=mutation_threshold,
        in_box=in_box_pairs,
        rng=rng,
    )
    if select == "truncation":
        toolbox.register("select", tools.selBest)  # the best keep share stay
    else:
        toolbox.register("select", sel_stochastic_universal_sampling, rng=rng)  # pointers 1/k of the wheel apart
    if punish_same:
        toolbox.register("select", with_punish_same(toolbox.select, free=~puzzle.givens))
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_keep_refill(
        toolbox.population(n=population_size),
        toolbox,
        mutpb,
        keep=keep,
        rng=rng,
        parents=3 if crossover_kind == "diagonal" else 2,
        halloffame=hof,
        stats=fitness_statistics(),
        stop=Stop(solved=0, stagnation=True, max_generations=max_generations, requested=requested),
        checkpoint=checkpoint,
        callback=print_generation if verbose else None,
    )
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@example_options()
@checkpoint_options
@click.option("--init", type=click.Choice(["random", "smart"]), default="random", show_default=True)
@click.option(
    "--crossover",
    type=click.Choice(["two_point", "diagonal"]),
    default="two_point",
    show_default=True,
    help="Crossover(2): the middle band from the second parent; Crossover(3): band i from parent i.",
)
@click.option(
    "--fitness",
    type=click.Choice(list(FITNESSES)),
    default="cell_collisions",
    show_default=True,
    help="cell_collisions and closeness are documented; collisions (duplicates per unit) is ours.",
)
@click.option("--selection", type=click.Choice(["truncation", "sus"]), default="truncation", show_default=True)
@click.option(
    "--keeping-percentage",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.5,
    show_default=True,
    help="Share of the population selection keeps (the source names no value).",
)
@click.option(
    "--mutpb",
    type=click.FloatRange(0, 1),
    default=0.5,
    show_default=True,
    help="Probability that a child is mutated (the source names no value).",
)
@click.option(
    "--mutation-threshold",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Mutate the cells whose map value exceeds this: 1 as documented, 0 (ours) for every clash.",
)
@click.option("--in-box-pairs", is_flag=True, help="Ours: pair the mutated cells inside each box.")
@click.option("--punish-same", is_flag=True, help="Worsen the fitness of individuals like many others.")
@click.option(
    "--max-generations",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Budget (ours: the source stops only when solved or stagnant).",
)
def cli(
    puzzle_file,
    seed,
    population,
    checkpoint,
    checkpoint_every,
    init,
    crossover,
    fitness,
    selection,
    keeping_percentage,
    mutpb,
    mutation_threshold,
    in_box_pairs,
    punish_same,
    max_generations,
):
    run_example(
        main,
        load_puzzle(puzzle_file),
        algorithm="block-ga",
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        seed=seed,
        population_size=population,
        init=init,
        crossover_kind=crossover,
        fitness=fitness,
        select=selection,
        keep=keeping_percentage,
        mutpb=mutpb,
        mutation_threshold=mutation_threshold,
        in_box_pairs=in_box_pairs,
        punish_same=punish_same,
        max_generations=max_generations,
    )


if __name__ == "__main__":
    cli()
