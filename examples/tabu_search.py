"""Tabu search as documented by the constraint-analyzer project (source 004), with our improvements as switches.

As documented (the defaults): random values in the empty squares; score = the
error count of the whole board; each step makes ``--candidates`` alternatives
that change one value, ignores those whose board is in the tabu table, always
keeps the best of the rest, and adds it to the table.

Our switches: ``--moves swap`` (start from a block-permutation and swap two
empty squares of a box), ``--memory cells`` (the moved squares stay tabu for
``--tenure`` steps, with aspiration) and ``--restrict`` (start from the values
constraint propagation allows).

    python examples/tabu_search.py [PUZZLE_FILE] [--candidates 100] [--moves swap --memory cells --restrict]
"""

from __future__ import annotations

import random

import click

from deap_sudoku.algorithms import tabu_search
from deap_sudoku.cli.examples import example_help, example_options, load_puzzle, run_example
from deap_sudoku.io import load_sample


def main(
    puzzle=None,
    *,
    seed=0,
    candidates=100,
    moves="value",
    memory="boards",
    tenure=5,
    restrict=False,
    max_steps=100_000,
    requested=None,
    verbose=True,
):
    """Run tabu search; return ``([best], logbook, hall_of_fame)`` like the GA examples."""
    puzzle = puzzle or load_sample()
    progress = (lambda step, score, best: click.echo(f"step {step}: score {score}, best {best}")) if verbose else None
    result = tabu_search(
        puzzle,
        rng=random.Random(seed),
        candidates=candidates,
        moves=moves,
        memory=memory,
        tenure=tenure,
        restrict=restrict,
        max_steps=max_steps,
        callback=progress,
        requested=requested,
    )
    if verbose:
        click.echo(f"{result.steps} steps, {result.seconds:.3f} s, score {result.score}")
    return result.as_deap()  # ([best], logbook, hall_of_fame), like the GA examples


@click.command(help=example_help(__doc__))
@example_options(population=None)
@click.option(
    "--candidates",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Alternatives looked at per step (the source names no value).",
)
@click.option(
    "--moves",
    type=click.Choice(["value", "swap"]),
    default="value",
    show_default=True,
    help="value: change one square (documented); swap: two squares of a box (ours).",
)
@click.option(
    "--memory",
    type=click.Choice(["boards", "cells"]),
    default="boards",
    show_default=True,
    help="boards: every board visited is tabu (documented); cells: moved squares, for --tenure (ours).",
)
@click.option(
    "--tenure",
    type=click.IntRange(min=0),
    default=5,
    show_default=True,
    help="Steps a moved square stays tabu (--memory cells only).",
)
@click.option("--restrict", is_flag=True, help="Ours: start from the values constraint propagation allows.")
@click.option("--max-steps", type=click.IntRange(min=1), default=100_000, show_default=True)
@click.pass_context
def cli(ctx, puzzle_file, seed, candidates, moves, memory, tenure, restrict, max_steps):
    if memory != "cells" and ctx.get_parameter_source("tenure") is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--tenure applies to --memory cells only")
    run_example(
        main,
        load_puzzle(puzzle_file),
        seed=seed,
        candidates=candidates,
        moves=moves,
        memory=memory,
        tenure=tenure,
        restrict=restrict,
        max_steps=max_steps,
    )


if __name__ == "__main__":
    cli()
