"""Exact baselines as documented: the "constraint analyzer" (source 004) and MRV backtracking with a uniqueness
check (source 002), on every puzzle of a file.

As documented (the defaults): the analyzer sweeps the board filling every
square with one possible value until a sweep fills nothing (naked singles);
the backtracking search expands the square with the fewest possible values,
fills forced squares at once, and keeps searching after the first solution to
tell whether it is unique.  ``--solution-out`` writes the solutions, one grid
of single symbols per puzzle (the ``dash`` format of ``aufgabe.txt`` and
``loesung.txt``).

Our switch: ``--propagation`` adds hidden singles and box-line reduction at every search node.

    python examples/exact_baselines.py [PUZZLE_FILE] [--solution-out loesung.txt] [--propagation]
"""

from __future__ import annotations

import os

import click
import numpy as np
from deap import tools

from deap_sudoku.cli.examples import example_help, load_puzzles
from deap_sudoku.exact import search
from deap_sudoku.io import load_sample, write
from deap_sudoku.propagation import analyze
from deap_sudoku.tools import Individual


def main(puzzle=None, *, propagation=False, verbose=True):
    """Analyze, then search for up to two solutions; return ``([solution], logbook, hall_of_fame)``
    (an empty population when there is no solution)."""
    puzzle = puzzle or load_sample("9x9.txt")
    analysis = analyze(puzzle)
    result = search(puzzle, limit=2, hidden_singles=propagation, locked_candidates=propagation)
    logbook = tools.Logbook()
    logbook.record(analyzer_filled=analysis.filled, sweeps=analysis.sweeps, nodes=result.nodes, solutions=result.count)
    hof = tools.HallOfFame(1, similar=np.array_equal)
    population = []
    if result.solutions:
        best = Individual(result.solutions[0].cells)
        best.fitness.values = (0,)
        population = [best]
        hof.update(population)
    if verbose:
        click.echo(f"puzzle, {puzzle.shape.name}, {puzzle.num_givens} givens:\n{puzzle}\n")
        click.echo(
            f"the analyzer fills {analysis.filled} squares in {analysis.sweeps} sweeps"
            f"{' and meets a square with no possible value' if analysis.contradiction else ''}"
            f"{', the whole puzzle' if analysis.solved else ''}"
        )
        if not result.solutions:
            click.echo(f"no solution ({result.nodes} search nodes)")
        else:
            verdict = "unique" if result.count == 1 else "not unique: 2 or more solutions"
            click.echo(f"backtracking: {result.nodes} search nodes, the solution is {verdict}\n")
            click.echo(str(result.solutions[0]))
    return population, logbook, hof


@click.command(help=example_help(__doc__))
@click.argument("puzzle_file", required=False, metavar="[PUZZLE_FILE]")
@click.option("--propagation", is_flag=True, help="Ours: hidden singles and box-line reduction at every node.")
@click.option(
    "--solution-out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the solutions here in the dash format (refuses an existing file).",
)
def cli(puzzle_file, propagation, solution_out):
    if solution_out and os.path.lexists(solution_out):
        raise click.ClickException(f"{solution_out}: exists; choose a new file for the solutions")
    puzzles = load_puzzles(puzzle_file, default="9x9.txt")
    solutions, unsolved = [], []
    for number, puzzle in enumerate(puzzles, start=1):
        if number > 1:
            click.echo()
        click.echo(f"# puzzle {number}")
        population, _, _ = main(puzzle, propagation=propagation)
        if population:
            solutions.append(puzzle.filled(np.asarray(population[0])))
        else:
            unsolved.append(number)
    if solution_out:
        try:
            write(solution_out, solutions, format="dash")
        except (FileExistsError, OSError, ValueError) as exc:
            raise click.ClickException(f"{solution_out}: {exc}") from None
        missing = f" (puzzles without a solution: {', '.join(map(str, unsolved))})" if unsolved else ""
        click.echo(f"{len(solutions)} solutions written to {solution_out}{missing}", err=True)


if __name__ == "__main__":
    cli()
