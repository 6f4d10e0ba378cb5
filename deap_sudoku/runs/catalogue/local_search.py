"""Local search as runs: tabu search as documented and ours (two records of one recipe), an iterated
local search after Musliu & Winter, and simulated annealing after Lewis with and without propagation
first (two records of one recipe), declared where they are defined (as the GAs are in
:mod:`~deap_sudoku.runs.catalogue.ga_recipes`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from .. import seeding
from ...algorithms import Stop, iterated_local_search, simulated_annealing, tabu_search
from ...grid.puzzle import Puzzle
from ..record import bundled, tabu_run

__all__ = ["tabu", "cp_ils", "annealing"]


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
    stop: Stop | None = None,
):
    """Tabu search as documented (value moves, a table of visited boards), our in-box swaps, cell tenure and
    restricted start as switches (``examples/tabu_search.py``); returns ``([best], logbook, hall_of_fame)``
    like the GAs, the logbook one record of steps, score, seconds and moves scored (its ``trace`` the
    score's course)."""
    return tabu_search(
        puzzle,
        rng=seeding.generator(seed),
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
        stop=stop,
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
    max_steps: int | None = None,
    max_evaluations: int | None = None,
    max_seconds: float | None = None,
    requested: Callable[[], object] | None = None,
    callback: Callable[[int, int, int], None] | None = None,
    report_every: int = 1000,
    stop: Stop | None = None,
):
    """An iterated local search with a constraint-programming perturbation after Musliu & Winter
    (whose paper could not be read here: every rule and value is ours, ``docs/literature.md``)
    (``examples/iterated_local_search.py``); returns ``([best], logbook, hall_of_fame)`` like tabu
    search, the logbook one record of steps, score, seconds and evaluations (its ``trace`` the
    score's course). ``max_steps=None`` (the default) sets no step cap: a run ends by its time or
    evaluation budget (a hidden cap of 100,000 steps ended runs before their stated seconds)."""
    return iterated_local_search(
        puzzle,
        rng=seeding.generator(seed),
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
        stop=stop,
    ).as_deap()


@bundled(
    "sa-lewis-cp",
    "local search",
    "after Lewis's HM 2007 hybrid (schedule values ours): propagation fixes cells, then sa-lewis",
    ("max_steps", "max_evaluations", "max_seconds"),
    run=partial(tabu_run, propagate_first=True),
    stoppable=True,
)  # declared second: decorators apply from the bottom up
@bundled(
    "sa-lewis",
    "local search",
    "after Lewis 2007 (his paper's rules and values): in-box swaps from a cell drawn over the grid, restarting reheats",
    ("max_steps", "max_evaluations", "max_seconds"),
    run=tabu_run,
    stoppable=True,
    example="simulated_annealing",
)
def annealing(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    alpha: float = 0.99,
    chain_length: int | None = None,
    reheat_after: int | None = 20,
    sample_size: int = 200,
    propagate_first: bool = False,
    move: str = "cell",
    restart_on_reheat: bool = True,
    max_steps: int = 100_000_000,
    max_evaluations: int | None = None,
    max_seconds: float | None = None,
    requested: Callable[[], object] | None = None,
    callback: Callable[[int, int, int], None] | None = None,
    report_every: int = 10_000,
    stop: Stop | None = None,
):
    """Simulated annealing after Lewis (2007), propagation first (his HM 2007 hybrid) as a switch
    (``examples/simulated_annealing.py``); returns ``([best], logbook, hall_of_fame)`` like the GAs, the
    logbook one record of moves, cost, seconds and moves scored (its ``trace`` the cost's course)."""
    return simulated_annealing(
        puzzle,
        rng=seeding.generator(seed),
        alpha=alpha,
        chain_length=chain_length,
        reheat_after=reheat_after,
        sample_size=sample_size,
        propagate_first=propagate_first,
        move=move,
        restart_on_reheat=restart_on_reheat,
        max_steps=max_steps,
        max_evaluations=max_evaluations,
        max_seconds=max_seconds,
        callback=callback,
        report_every=report_every,
        requested=requested,
        stop=stop,
    ).as_deap()
