"""``solve --watch``: a GA's run as it evolves, every N-th generation on standard error.

The run hands each generation to a DEAP-style hook, ``watch(generation, population, logbook)``
(:func:`~deap_sudoku.runs.task.run_task`'s ``watch``); :class:`Watch` is that hook for a
terminal: the generation, the evaluations so far, the best fitness and the best grid with its
clashing cells marked (:func:`~deap_sudoku.grid.show`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from ..grid import Puzzle, show
from .errors import plural, wrap
from .numbers import count
from .outputs import grid_picture

__all__ = ["Watch", "WATCH_EVERY", "watch_option"]

WATCH_EVERY = 10
"""Generations between two frames of ``--watch`` without N."""


class Watch:
    """Frames of one run of ``puzzle`` for ``echo``: generation 0, every ``every``-th generation,
    and the generation that solves it (a line: its grid is the answer ``solve`` prints)."""

    def __init__(self, puzzle: Puzzle, every: int, echo: Callable[[str], None]) -> None:
        self.puzzle, self.every, self.echo = puzzle, every, echo

    def __call__(self, generation: int, population: list, logbook) -> None:
        best = max(population, key=lambda individual: individual.fitness)
        evaluations = sum(n for n in logbook.select("nevals") if n is not None)
        if generation == 0:
            direction = "higher" if best.fitness.weights[0] > 0 else "lower"
            target = getattr(logbook, "target", None)  # the fitness of a solved grid, where the loop says
            solves = f", {target:g} solves it" if isinstance(target, (int, float)) else ""
            every = f"the best grid every {_nth(self.every)}generation, clashes marked"
            self.echo(wrap(f"{every}; {direction} fitness is better{solves}"))
        line = f"generation {generation}: {evaluations:,} evaluation{'s' * (evaluations != 1)}, best fitness"
        line += f" {best.fitness.values[0]:g}"
        view = show(best, self.puzzle)
        marks = view.clashes if view.changed is None else view.clashes | view.changed
        if not (marks.any() or view.empty_count):
            self.echo(f"{line}, no clashes: solved")
        elif generation % self.every == 0:
            grid = grid_picture(self.puzzle, best, sys.stderr)  # red on a terminal, else marked *
            self.echo(f"{line}, {plural(view.clash_count, 'cell')} clash\n{grid}\n")


def _nth(every: int) -> str:
    """``10th ``, ``2nd ``; nothing for 1 (every generation)."""
    if every == 1:
        return ""
    suffix = "th" if every % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(every % 10, "th")
    return f"{every}{suffix} "


watch_option = click.option(
    "--watch",
    "watch_every",
    type=count(1),
    is_flag=False,
    flag_value=WATCH_EVERY,
    default=None,
    metavar="[N]",
    help=f"Watch a GA evolve: best fitness and grid every N-th generation ({WATCH_EVERY}th), on stderr.",
)
"""``--watch [N]``, which ``solve`` hands to runs that take it as a :class:`Watch`."""
