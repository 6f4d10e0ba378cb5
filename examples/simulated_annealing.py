"""Simulated annealing for Sudoku as R. Lewis describes it (J. Heuristics 2007), his propagation-first hybrid a switch.

As documented by his paper (the defaults; sections of an author's preprint): each box's empty
squares get a random permutation of the values the box misses (§2.1); a move draws an empty square
over the whole grid, then another empty square of its box, and swaps them (§2.1); the cost counts,
for every row and column, the values it misses (§2.2); the initial temperature is the standard
deviation of the cost over a sample of moves; the temperature is multiplied by --alpha after every
Markov chain of (empty squares)^2 moves, and after --reheat-after chains without an improvement
goes back up and the search starts again from a new random grid (§2.3).

Lewis's HM 2007 hybrid: ``--propagate-first`` fixes every square naked and
hidden singles settle before the annealing starts.

    python examples/simulated_annealing.py [PUZZLE_FILE] [--alpha 0.99] [--reheat-after 20] [--propagate-first]
"""

from __future__ import annotations

import random

import click
from deap import base

from deap_sudoku.algorithms import simulated_annealing
from deap_sudoku.cli.examples import example_help, example_options, load_puzzle, run_example
from deap_sudoku.io import load_sample
from deap_sudoku.tools import BoxSwaps, GeometricSchedule, Individual, init_block_permutation, initial_temperature
from deap_sudoku.tools import metropolis


def main(
    puzzle=None,
    *,
    seed=0,
    alpha=0.99,
    chain_length=None,
    reheat_after=20,
    sample_size=200,
    propagate_first=False,
    max_steps=100_000_000,
    requested=None,
    verbose=True,
):
    """Run simulated annealing; return ``([best], logbook, hall_of_fame)`` like the GA examples."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    # the start, and the new random solution of every reheat: each box's empty squares a permutation
    # of the values it misses (§2.1); the annealing gives it the puzzle it anneals
    toolbox.register("individual", init_block_permutation, Individual, restrict=propagate_first, rng=rng)
    toolbox.register("neighbourhood", BoxSwaps, first="cell", rng=rng)  # §2.1: a square over the grid, then its box's
    toolbox.register("accept", metropolis, rng=rng)  # §2.3: a worse move with probability exp(-delta / t)
    toolbox.register("initial_temperature", initial_temperature)  # §2.3: the cost's spread over the sampled moves
    toolbox.register("schedule", GeometricSchedule, alpha=alpha, reheat_after=reheat_after)  # t <- alpha t; reheats

    progress = (lambda step, cost, best: click.echo(f"move {step}: cost {cost}, best {best}")) if verbose else None
    result = simulated_annealing(
        puzzle,
        toolbox=toolbox,
        chain_length=chain_length,  # None: (empty squares)^2 moves per chain (§2.3 eq. 4)
        sample_size=sample_size,  # moves whose costs' standard deviation is t0
        restart_on_reheat=True,  # §2.3: a reheat starts again from a new random solution
        propagate_first=propagate_first,  # HM 2007: singles fix squares first
        max_steps=max_steps,
        callback=progress,
        report_every=100_000,
        requested=requested,
    )
    if verbose:
        click.echo(
            f"{result.steps} moves, {result.seconds:.3f} s, cost {result.score}; t0 {result.initial_temperature:.3f}, "
            f"{len(result.chains)} chains of {result.chain_length}, {result.reheats} reheats, "
            f"{result.fixed} fixed first"
        )
    return result.as_deap()  # ([best], logbook, hall_of_fame), like the GA examples


@click.command(help=example_help(__doc__))
@example_options(population=None)
@click.option(
    "--alpha",
    type=click.FloatRange(min=0, max=1, min_open=True),
    default=0.99,
    show_default=True,
    help="Cooling: the temperature is multiplied by this after every Markov chain.",
)
@click.option(
    "--chain-length",
    type=click.IntRange(min=1),
    default=None,
    help="Moves per Markov chain [default: the number of empty squares, squared].",
)
@click.option(
    "--reheat-after",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Chains without an improvement before the temperature goes back to its initial value.",
)
@click.option("--propagate-first", is_flag=True, help="Lewis's HM 2007 hybrid: singles fix squares first.")
@click.option("--max-steps", type=click.IntRange(min=1), default=100_000_000, show_default=True, help="Moves.")
def cli(puzzle_file, seed, alpha, chain_length, reheat_after, propagate_first, max_steps):
    run_example(
        main,
        load_puzzle(puzzle_file),
        seed=seed,
        alpha=alpha,
        chain_length=chain_length,
        reheat_after=reheat_after,
        propagate_first=propagate_first,
        max_steps=max_steps,
    )


if __name__ == "__main__":
    cli()
