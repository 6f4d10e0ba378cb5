"""Ant colony system of Lloyd & Amos (IEEE Trans. Games 2019; their solver: huwlloyd-mmu/sudoku_acs).

As documented (the defaults, as the authors' code runs them): 10 ants, pheromone 1/cells on
every (cell, value) to begin with; each ant starts at a random cell and visits every cell in
turn, the ants stepping one cell each in turn; an open cell takes the value of highest pheromone
among its candidates when a draw is above q0 = 0.9 (the released code), else a value by roulette
over their pheromone; the value is propagated (naked and hidden singles among the cell's peers)
and its pheromone decays towards 1/cells (local rate 0.1); a cell left with no candidate fails.
An ant that filled f of N cells is worth N / (N - f); the best grid is replaced when an ant is
worth more than the best value kept, its values reinforced (rho 0.9) every iteration, and the best
value evaporates by 0.005 per iteration.

The paper's own greedy rule (greedy with probability q0) is the switch --greedy paper.

    python examples/ant_colony.py [PUZZLE_FILE] [--population 10] [--q0 0.9] [--greedy paper] [--max-seconds 10]
"""

from __future__ import annotations

import random

import click
from deap import base

from deap_sudoku.algorithms import Stop, ea_ant_colony
from deap_sudoku.cli.examples import example_help, example_options, load_puzzle, print_generation, run_example
from deap_sudoku.io import load_sample
from deap_sudoku.tools import HallOfFame, Individual, Pheromone, batch_map, clone, eval_collisions, fitness_statistics


def main(
    puzzle=None,
    *,
    seed=0,
    population_size=10,
    q0=0.9,
    greedy="code",
    rho=0.9,
    best_evaporation=0.005,
    local_evaporation=0.1,
    max_generations=None,
    max_seconds=10.0,
    requested=None,
    verbose=True,
):
    """Run the ant colony system; return ``(colony, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_sample("16x16.txt")  # propagation leaves 112 cells to the colony (9x9-easy: none)
    rng = random.Random(seed)
    pheromone = Pheromone(puzzle, local_evaporation=local_evaporation)
    toolbox = base.Toolbox()
    toolbox.register("individual", pheromone.start, Individual)  # the givens propagated
    toolbox.register("colony", pheromone.colony, Individual, ants=population_size, q0=q0, greedy=greedy, rng=rng)
    toolbox.register("evaluate", eval_collisions, puzzle=puzzle)  # an ant's grid never clashes: its empty cells
    toolbox.register("deposit", pheromone.deposit, rho=rho)
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)

    hof = HallOfFame(1)
    colony, logbook = ea_ant_colony(
        toolbox,
        pheromone=pheromone.matrix,
        stop=Stop(solved=0, max_generations=max_generations, max_seconds=max_seconds, requested=requested),
        rng=rng,
        best_evaporation=best_evaporation,
        stats=fitness_statistics(),
        halloffame=hof,
        callback=print_generation if verbose else None,
    )
    return colony, logbook, hof


@click.command(help=example_help(__doc__))
@example_options(population=10)
@click.option("--q0", type=click.FloatRange(0, 1), default=0.9, show_default=True, help="Greediness.")
@click.option(
    "--greedy",
    type=click.Choice(["code", "paper"]),
    default="code",
    show_default=True,
    help="code: greedy when a draw is above q0 (the released solver); paper: greedy with probability q0.",
)
@click.option("--rho", type=click.FloatRange(0, 1), default=0.9, show_default=True, help="Global update rate.")
@click.option(
    "--best-evaporation", type=click.FloatRange(0, 1), default=0.005, show_default=True, help="Best-value evaporation."
)
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True)
def cli(puzzle_file, seed, population, q0, greedy, rho, best_evaporation, max_seconds):
    run_example(
        main,
        load_puzzle(puzzle_file, "16x16.txt"),
        seed=seed,
        population_size=population,
        q0=q0,
        greedy=greedy,
        rho=rho,
        best_evaporation=best_evaporation,
        max_seconds=max_seconds,
    )


if __name__ == "__main__":
    cli()
