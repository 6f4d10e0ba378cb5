"""Exact baselines: what constraint propagation alone deduces, then backtracking with a uniqueness check.

    python examples/exact_baselines.py [PUZZLE_FILE] [--naked-only]

``--naked-only`` stops at the classic "constraint analyzer" (naked singles).
"""

from __future__ import annotations

import click
import numpy as np
from deap import tools

from deap_sudoku.cli.examples import load_puzzle
from deap_sudoku.exact import search
from deap_sudoku.io import load_sample
from deap_sudoku.propagation import propagate
from deap_sudoku.tools import Individual


def main(puzzle=None, *, naked_only=False, verbose=True):
    """Propagate, then search for up to two solutions; return ``([solution], logbook, hall_of_fame)``
    (an empty population when there is no solution)."""
    puzzle = puzzle or load_sample("9x9.txt")
    naked = propagate(puzzle, hidden_singles=False)
    full = propagate(puzzle)
    result = search(puzzle, limit=2, hidden_singles=not naked_only, locked_candidates=not naked_only)
    logbook = tools.Logbook()
    logbook.record(naked_filled=naked.filled, propagation_filled=full.filled, nodes=result.nodes,
                   solutions=result.count)
    hof = tools.HallOfFame(1, similar=np.array_equal)
    population = []
    if result.solutions:
        best = Individual(result.solutions[0].cells)
        best.fitness.values = (0,)
        population = [best]
        hof.update(population)
    if verbose:
        click.echo(f"puzzle, {puzzle.shape.name}, {puzzle.num_givens} givens:\n{puzzle}\n")
        click.echo(f"naked singles fill {naked.filled} cells; with hidden singles {full.filled}"
                   f"{' (contradiction)' if full.contradiction else ''}")
        if not result.solutions:
            click.echo(f"no solution ({result.nodes} search nodes)")
        else:
            verdict = "unique" if result.count == 1 else "not unique: 2 or more solutions"
            click.echo(f"backtracking: {result.nodes} search nodes, the solution is {verdict}\n")
            click.echo(str(result.solutions[0]))
    return population, logbook, hof


@click.command(help=__doc__.splitlines()[0])
@click.argument("puzzle_file", required=False, metavar="[PUZZLE_FILE]")
@click.option("--naked-only", is_flag=True, help="Propagate and search with naked singles only.")
def cli(puzzle_file, naked_only):
    main(load_puzzle(puzzle_file, default="9x9.txt"), naked_only=naked_only)


if __name__ == "__main__":
    cli()
