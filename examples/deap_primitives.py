"""Composing with DEAP primitives: ``make_toolbox`` plus DEAP's ``eaSimple`` or ``eaMuPlusLambda``,
ended at the solving generation by this package's twins of those loops (``stop=``).

    python examples/deap_primitives.py [PUZZLE_FILE] [--algorithm mu_plus_lambda] [--all-generations]
"""

from __future__ import annotations

import random

import click
from deap import algorithms

from deap_sudoku.algorithms import Stop, ea_mu_plus_lambda, ea_simple
from deap_sudoku.cli.examples import example_help, example_options, load_puzzle, print_result
from deap_sudoku.io import load_sample
from deap_sudoku.tools import HallOfFame, fitness_statistics, make_toolbox, optimum


def main(puzzle=None, *, seed=0, algorithm="simple", population_size=200, ngen=60, stop_when_solved=True, verbose=True):
    """Run eaSimple or eaMuPlusLambda; return ``(population, logbook, hall_of_fame)``.

    ``stop_when_solved`` runs ``deap_sudoku.algorithms.ea_simple`` / ``ea_mu_plus_lambda`` (DEAP's
    loops with ``stop=``); without it, DEAP's own, which always run all ``ngen`` generations.
    """
    puzzle = puzzle or load_sample()
    random.seed(seed)  # DEAP's own loops draw from the random module, so the operators do too (no rng=)
    toolbox = make_toolbox(puzzle, mutate="conflict_swap_in_box")
    population = toolbox.population(n=population_size)
    hof = HallOfFame(1)
    if algorithm == "simple":
        with_stop, deaps_own, options = ea_simple, algorithms.eaSimple, dict(cxpb=0.3, mutpb=0.8)
    else:
        with_stop, deaps_own = ea_mu_plus_lambda, algorithms.eaMuPlusLambda
        options = dict(mu=population_size, lambda_=2 * population_size, cxpb=0.3, mutpb=0.7)
    if stop_when_solved:
        show = (lambda gen, pop, logbook: print(logbook.stream)) if verbose else None
        population, logbook = with_stop(
            population,
            toolbox,
            ngen=ngen,
            stats=fitness_statistics(),
            halloffame=hof,
            stop=Stop(solved=optimum(toolbox.evaluate)),
            callback=show,
            **options,
        )
    else:
        population, logbook = deaps_own(
            population, toolbox, ngen=ngen, stats=fitness_statistics(), halloffame=hof, verbose=verbose, **options
        )
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@example_options()
@click.option("--algorithm", type=click.Choice(["simple", "mu_plus_lambda"]), default="simple", show_default=True)
@click.option("--ngen", type=click.IntRange(min=1), default=60, show_default=True)
@click.option(
    "--all-generations",
    is_flag=True,
    help="Run DEAP's own loop, which goes on after the solving generation (default: stop when solved).",
)
def cli(puzzle_file, seed, population, algorithm, ngen, all_generations):
    puzzle = load_puzzle(puzzle_file)
    _, _, hof = main(
        puzzle,
        seed=seed,
        algorithm=algorithm,
        population_size=population,
        ngen=ngen,
        stop_when_solved=not all_generations,
    )
    print_result(puzzle, hof[0])


if __name__ == "__main__":
    cli()
