"""``solve --watch``: a GA's run as it evolves, every N-th generation on standard error.

The run hands each generation to a DEAP-style hook, ``watch(generation, population, logbook)``
(:func:`~deap_sudoku.runs.task.run_task`'s ``watch``); :class:`Watch` is that hook for a
terminal: the generation, the evaluations so far, the best fitness and the best grid with its
clashing cells marked (:func:`~deap_sudoku.grid.show`).
"""

from __future__ import annotations

from collections.abc import Callable

import click

from ..grid import Puzzle, show
from .options import count

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
        caption = f"generation {generation}: {evaluations:,} evaluations, best fitness {best.fitness.values[0]:g}"
        view = show(best, self.puzzle, caption=caption)
        if not (view.clash_count or view.changed_count or view.empty_count):
            self.echo(f"{caption}, no clashes: solved")
        elif generation % self.every == 0:
            self.echo(f"{view}\n")


watch_option = click.option(
    "--watch",
    "watch_every",
    type=count(1),
    is_flag=False,
    flag_value=WATCH_EVERY,
    default=None,
    metavar="[N]",
    help=f"Watch a GA evolve: every N-th generation (without N, every {WATCH_EVERY}th) on standard error, "
    "the evaluations so far, the best fitness and the best grid with its clashing cells marked *; "
    "e.g. 'solve data/9x9-easy.txt -a restart-ga --watch'.",
)
"""``--watch [N]``, which ``solve`` hands to runs that take it as a :class:`Watch`."""
