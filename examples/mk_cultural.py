"""Mantere & Koljonen's cultural algorithm (IEEE WCCI/CEC 2008: "Solving and analyzing Sudokus with
cultural algorithms").

As documented (the defaults; docs/literature.md says which rules we could read): their GA of
2007 (examples/mk_ga.py) with a belief space. Before each selection the 2 best individuals
(acceptance) set, for every free cell, the value they both hold there (belief), and the mutation
leaves a cell alone when it holds the believed value, as it does a given (influence). The GA as in
2007: each individual is the grid as nine boxes, each a permutation of 1..9 with the givens in place;
a help array marks, for every cell, the values given in its row or column; crossover points lie
only between boxes (whole boxes from either parent); mutation acts inside one box, a swap, a
three-swap or an insertion, and is refused when the help array says a value would meet a given of
its row or column; fitness 10 * sum gaps + sqrt(product gaps) + 50 * missing values over rows and
columns; 21 individuals, the best kept, the child for place i from two parents drawn among the i
places above it; until solved, or 100,000 generations. A run with no progress for 2000
generations starts again (a secondary source's reading).

Switches: --crossover one_point (one point between boxes), --no-help-array, --restart-after G,
--accepted K (how many of the best update the belief space).

    python examples/mk_cultural.py [PUZZLE_FILE] [--accepted 2] [--no-help-array] [--max-generations 100000]
"""

from __future__ import annotations

import random

import click
import numpy as np
from deap import base, tools

from deap_sudoku.algorithms import Stop, ea_generational
from deap_sudoku.cli.examples import (
    checkpoint_options,
    example_help,
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
    cx_block_one_point,
    BeliefSpace,
    cx_block_uniform,
    eval_closeness_mk,
    fitness_statistics,
    init_block_permutation,
    mut_mixed_in_box,
    sel_ranked_pairs,
)


def main(
    puzzle=None,
    *,
    seed=0,
    population_size=21,
    elites=1,
    cxpb=1.0,
    mutpb=1.0,
    crossover="uniform",
    swap=1.0,
    three_swap=1.0,
    insert=1.0,
    use_help_array=True,
    tries=10,
    restart_after=2000,
    accepted=2,
    max_generations=100_000,
    checkpoint=None,
    requested=None,
    verbose=True,
):
    """Run Mantere & Koljonen's cultural algorithm; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    belief = BeliefSpace(puzzle, accepted=accepted)  # what the accepted best agree on
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, Individual, puzzle=puzzle, rng=rng)  # boxes permuted
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_closeness_mk, puzzle=puzzle)  # sums, products and missing values
    cx = cx_block_one_point if crossover == "one_point" else cx_block_uniform  # points only between boxes
    toolbox.register("mate", cx, puzzle=puzzle, rng=rng)
    toolbox.register(
        "mutate",
        mut_mixed_in_box,  # swap, three-swap or insertion inside one box, checked by the help array
        puzzle=puzzle,
        swap=swap,
        three_swap=three_swap,
        insert=insert,
        use_help_array=use_help_array,
        tries=tries,
        belief=belief,  # influence: believed cells stay put
        rng=rng,
    )
    toolbox.register("select", belief.accepting(sel_ranked_pairs), rng=rng)  # acceptance, then the parents
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_generational(
        toolbox.population(n=population_size),
        toolbox,
        cxpb,
        mutpb,
        elites=elites,
        one_child_per_mating=True,
        restart_after=restart_after,
        rng=rng,
        halloffame=hof,
        stats=fitness_statistics(),
        stop=Stop(solved=0, max_generations=max_generations, requested=requested),
        checkpoint=checkpoint,
        callback=print_generation if verbose else None,
    )
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@example_options(population=21)
@checkpoint_options
@click.option(
    "--crossover",
    type=click.Choice(["uniform", "one_point"]),
    default="uniform",
    show_default=True,
    help="uniform: each box from either parent; one_point: one point between boxes.",
)
@click.option("--no-help-array", is_flag=True, help="Make every drawn mutation, even one the help array refuses.")
@click.option(
    "--restart-after",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Start again after this many generations without progress.",
)
@click.option(
    "--accepted",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="How many of the best update the belief space each generation.",
)
@click.option("--max-generations", type=click.IntRange(min=1), default=100_000, show_default=True)
def cli(
    puzzle_file,
    seed,
    population,
    checkpoint,
    checkpoint_every,
    crossover,
    no_help_array,
    restart_after,
    accepted,
    max_generations,
):
    run_example(
        main,
        load_puzzle(puzzle_file),
        algorithm="mk-cultural",
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        seed=seed,
        population_size=population,
        crossover=crossover,
        use_help_array=not no_help_array,
        restart_after=restart_after,
        accepted=accepted,
        max_generations=max_generations,
    )


if __name__ == "__main__":
    cli()
