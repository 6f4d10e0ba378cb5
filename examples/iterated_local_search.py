"""Musliu & Winter's hybrid (IEEE Intelligent Systems, 2017): iterated local search perturbed by constraint programming.

As documented, as far as we could rebuild it without the paper's text (every value is ours): every
box a permutation of the values it misses; the cost is the values missing from rows and columns;
descents of the min-conflicts heuristic with a tabu list (a clashing square swapped with the best
other square of its box), each ended after ``--patience`` steps without progress; the best of a
descent replaces the current grid when it is no worse; then the clashing squares and ``--share``
of the others are freed and completed again by propagation and search of at most
``--max-nodes`` nodes.

Our switches: ``--worse P`` (a worse descent is accepted with probability P) and ``--restrict``
(start from the values constraint propagation allows).

    python examples/iterated_local_search.py [PUZZLE_FILE] [--share 0.2] [--max-nodes 200] [--worse 0.1 --restrict]
"""

from __future__ import annotations

import random

import click
from deap import base

from deap_sudoku.algorithms import iterated_local_search
from deap_sudoku.cli.examples import example_help, example_options, load_puzzle, run_example
from deap_sudoku.io import load_sample
from deap_sudoku.tools import Individual, accept_not_worse, init_block_permutation, mut_free_and_complete


def main(
    puzzle=None,
    *,
    seed=0,
    tenure=10,
    patience=200,
    share=0.2,
    max_nodes=200,
    worse=0.0,
    restrict=False,
    max_steps=None,
    max_evaluations=None,
    max_seconds=None,
    requested=None,
    verbose=True,
):
    """Run the iterated local search; return ``([best], logbook, hall_of_fame)`` like the GA examples."""
    puzzle = puzzle or load_sample()
    rng = random.Random(seed)
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, Individual, puzzle=puzzle, restrict=restrict, rng=rng)
    toolbox.register("accept", accept_not_worse, worse=worse, rng=rng)  # no worse, or worse with probability `worse`
    # the perturbation: the clashing squares and `share` of the others freed, completed by search
    toolbox.register("perturb", mut_free_and_complete, puzzle=puzzle, share=share, max_nodes=max_nodes, rng=rng)

    progress = (lambda step, score, best: click.echo(f"step {step}: score {score}, best {best}")) if verbose else None
    result = iterated_local_search(
        puzzle,
        rng=rng,  # the descent's draws
        toolbox=toolbox,
        tenure=tenure,  # the descent: min-conflicts swaps in a box, (square, value) tabu for `tenure` steps
        patience=patience,  # a descent ends after this many steps without beating its best
        max_steps=max_steps,  # None: no step cap (a time or evaluation budget ends the run)
        max_evaluations=max_evaluations,
        max_seconds=max_seconds,
        callback=progress,
        requested=requested,
    )
    if verbose:
        click.echo(
            f"{result.steps} steps, {result.perturbations} perturbations ({result.accepted} accepted), "
            f"{result.seconds:.3f} s, score {result.score}"
        )
    return result.as_deap()  # ([best], logbook, hall_of_fame), like the GA examples


@click.command(help=example_help(__doc__))
@example_options(population=None)
@click.option(
    "--tenure", type=click.IntRange(min=0), default=10, show_default=True, help="Steps a move stays tabu (ours)."
)
@click.option(
    "--patience",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="Steps without progress that end a descent (ours).",
)
@click.option(
    "--share",
    type=click.FloatRange(0, 1),
    default=0.2,
    show_default=True,
    help="Share of the unclashing free squares the perturbation frees too (ours).",
)
@click.option(
    "--max-nodes",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="Search nodes the perturbation's completion may take (ours).",
)
@click.option(
    "--worse",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Ours: probability of accepting a worse descent.",
)
@click.option("--restrict", is_flag=True, help="Ours: start from the values constraint propagation allows.")
@click.option(
    "--max-steps",
    type=click.IntRange(min=1),
    default=None,
    help="Local-search steps [default: no cap].",
)
@click.option("--max-evaluations", type=click.IntRange(min=1), default=None, help="Swaps scored, at most.")
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=None, help="Seconds, at most.")
def cli(
    puzzle_file, seed, tenure, patience, share, max_nodes, worse, restrict, max_steps, max_evaluations, max_seconds
):
    run_example(
        main,
        load_puzzle(puzzle_file),
        seed=seed,
        tenure=tenure,
        patience=patience,
        share=share,
        max_nodes=max_nodes,
        worse=worse,
        restrict=restrict,
        max_steps=max_steps,
        max_evaluations=max_evaluations,
        max_seconds=max_seconds,
    )


if __name__ == "__main__":
    cli()
