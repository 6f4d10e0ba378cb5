"""Local search as runs: tabu search, the documented one and ours (two records of one recipe), and
Musliu & Winter's iterated local search, declared where they are defined (as the GAs are in
:mod:`~deap_sudoku.runs.recipes`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from ..algorithms import iterated_local_search, tabu_search
from ..grid.puzzle import Puzzle
from .record import bundled, tabu_run

__all__ = ["tabu", "cp_ils"]


@bundled(
    "tabu-swap",
    "local search",
    "our tabu search: in-box swaps, cell tenure, start narrowed by propagation",
    ("max_steps", "max_seconds"),
    run=partial(tabu_run, moves="swap", memory="cells", restrict=True),
    stoppable=True,
)  # declared second: decorators apply from the bottom up
@bundled(
    "tabu",
    "local search",
    "tabu search as documented: one-value moves, a table of visited boards",
    ("max_steps", "max_seconds"),
    run=tabu_run,
    stoppable=True,
    example="tabu_search",
)
def tabu(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    candidates: int = 100,
    moves: str = "value",
    memory: str = "boards",
    tenure: int = 5,
    restrict: bool = False,
    max_steps: int = 100_000,
    max_seconds: float | None = None,
    requested: Callable[[], object] | None = None,
    callback: Callable[[int, int, int], None] | None = None,
    report_every: int = 1000,
    started: float | None = None,
):
    """Tabu search as documented (value moves, a table of visited boards), our in-box swaps, cell tenure and
    restricted start as switches (``examples/tabu_search.py``); returns ``([best], logbook, hall_of_fame)``
    like the GAs, the logbook one record of steps, score, seconds and moves scored (its ``trace`` the
    score's course)."""
    return tabu_search(
        puzzle,
        rng=random.Random(seed),
        candidates=candidates,
        moves=moves,
        memory=memory,
        tenure=tenure,
        restrict=restrict,
        max_steps=max_steps,
        max_seconds=max_seconds,
        callback=callback,
        report_every=report_every,
        requested=requested,
        started=started,
    ).as_deap()


@bundled(
    "cp-ils",
    "local search",
    "after Musliu & Winter 2017 (their text not readable here: rules and values ours): min-conflicts tabu "
    "descents in boxes, perturbed by freeing part of the grid and completing it by search",
    ("max_steps", "max_evaluations", "max_seconds"),
    run=tabu_run,
    stoppable=True,
    example="iterated_local_search",
)
def cp_ils(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    tenure: int = 10,
    patience: int = 200,
    share: float = 0.2,
    max_nodes: int = 200,
    worse: float = 0.0,
    restrict: bool = False,
    max_steps: int = 100_000,
    max_evaluations: int | None = None,
    max_seconds: float | None = None,
    requested: Callable[[], object] | None = None,
    callback: Callable[[int, int, int], None] | None = None,
    report_every: int = 1000,
    started: float | None = None,
):
    """An iterated local search with a constraint-programming perturbation after Musliu & Winter
    (whose paper could not be read here: every rule and value is ours, ``docs/literature.md``)
    (``examples/iterated_local_search.py``); returns ``([best], logbook, hall_of_fame)`` like tabu
    search, the logbook one record of steps, score, seconds and evaluations (its ``trace`` the
    score's course)."""
    return iterated_local_search(
        puzzle,
        rng=random.Random(seed),
        tenure=tenure,
        patience=patience,
        share=share,
        max_nodes=max_nodes,
        worse=worse,
        restrict=restrict,
        max_steps=max_steps,
        max_evaluations=max_evaluations,
        max_seconds=max_seconds,
        callback=callback,
        report_every=report_every,
        requested=requested,
        started=started,
    ).as_deap()
