"""Tabu search over in-box swaps (the alldifferent-tabu idea), a non-evolutionary yardstick.

    python examples/tabu_search.py [PUZZLE_FILE] [--candidates 100] [--tenure 5] [--no-restrict]
"""

from __future__ import annotations

import random

import click

from deap_sudoku.algorithms import tabu_search
from deap_sudoku.cli.examples import example_options, load_puzzle, run_example
from deap_sudoku.io import load_sample


def main(puzzle=None, *, seed=0, candidates=100, tenure=5, max_steps=100_000, restrict=True, requested=None,
         verbose=True):
    """Run tabu search; return ``([best], logbook, hall_of_fame)`` like the GA examples."""
    puzzle = puzzle or load_sample()
    progress = (lambda step, score, best: click.echo(f"step {step}: score {score}, best {best}")) if verbose else None
    result = tabu_search(puzzle, rng=random.Random(seed), candidates=candidates, tenure=tenure, max_steps=max_steps,
                         restrict=restrict, callback=progress, requested=requested)
    if verbose:
        click.echo(f"{result.steps} steps, {result.seconds:.3f} s, score {result.score}")
    return result.as_deap()  # ([best], logbook, hall_of_fame), like the GA examples


@click.command(help=__doc__.splitlines()[0])
@example_options(population=None)
@click.option("--candidates", type=click.IntRange(min=1), default=100, show_default=True,
              help="Random in-box swaps looked at per step.")
@click.option("--tenure", type=click.IntRange(min=0), default=5, show_default=True,
              help="Steps a swapped cell stays tabu.")
@click.option("--max-steps", type=click.IntRange(min=1), default=100_000, show_default=True)
@click.option("--restrict/--no-restrict", default=True, show_default=True,
              help="Start from a block-permutation restricted by propagation, or from any.")
def cli(puzzle_file, seed, candidates, tenure, max_steps, restrict):
    run_example(main, load_puzzle(puzzle_file), seed=seed, candidates=candidates, tenure=tenure, max_steps=max_steps,
                restrict=restrict)


if __name__ == "__main__":
    cli()
