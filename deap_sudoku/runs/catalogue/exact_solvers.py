"""The exact solvers a run can use, each declared where it is defined (as the GAs are in
:mod:`~deap_sudoku.runs.catalogue.ga_recipes`): backtracking, clause learning, the documented analyzer and
propagation alone, with their warm-ups (:mod:`~deap_sudoku.runs.kernel_cache`)."""

from __future__ import annotations

import math
from collections.abc import Callable

from ...algorithms import Stop
from .. import seeding
from ...exact import SearchBudgetExceeded, solve, solve_learning
from ...grid.puzzle import Puzzle
from ...propagation import analyze, propagate
from ..kernel_cache import warm_up_clause_learning, warm_up_learning, warm_up_search
from ..record import COMPILING, Outcome, bundled

__all__: list[str] = []  # its records are the registry's


@bundled(
    "backtracking",
    "exact",
    "the documented MRV backtracking, with our propagation and restarts",
    ("max_nodes", "max_seconds"),
    warm_up=warm_up_search,
    warm_up_message=COMPILING.format(name="propagation"),
)
def _backtracking(
    puzzle: Puzzle,
    *,
    seed: int,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    started: float | None = None,
    **_: object,
) -> Outcome:
    rng = seeding.generator(seed)
    stop = Stop(max_nodes=max_nodes, max_seconds=max_seconds, started=started)
    return _exact_outcome(puzzle, lambda: solve(puzzle, rng=rng, **stop.search_limits()))


def _exact_outcome(puzzle: Puzzle, search: Callable[[], Puzzle | None]) -> Outcome:
    """The outcome of a complete search: its solution; ``None``, proof that there is none (note
    "exhausted"); or the budget it ran out of, as the note."""
    try:
        solution = search()
        note = "exhausted" if solution is None else ""
    except SearchBudgetExceeded as exc:
        solution, note = None, str(exc)
    grid = puzzle.cells if solution is None else solution.cells
    return Outcome(grid, 0.0 if solution is not None else math.nan, 0, 0, 0, note)


@bundled(
    "cdcl",
    "exact",
    "ours: exact search that learns clauses from its dead ends (CDCL, as MiniSat does)",
    ("max_seconds",),
    warm_up=warm_up_learning,
    warm_up_message=COMPILING.format(name="clause-learning"),
    warm_up_first=warm_up_clause_learning,
)
def _cdcl(
    puzzle: Puzzle, *, seed: int, max_seconds: float | None = None, started: float | None = None, **_: object
) -> Outcome:
    rng = seeding.generator(seed)
    stop = Stop(max_seconds=max_seconds, started=started)
    return _exact_outcome(puzzle, lambda: solve_learning(puzzle, rng=rng, **stop.search_limits(nodes=None)))


@bundled("analyzer", "exact", "the documented constraint analyzer: naked singles, sweep by sweep")
def _analyzer(puzzle: Puzzle, **_: object) -> Outcome:
    result = analyze(puzzle)
    note = (
        "the analyzer met a square with no possible value"
        if result.contradiction
        else f"the analyzer filled {result.filled} cells in {result.sweeps} sweep{'s' * (result.sweeps != 1)}"
    )
    return Outcome(result.values, 0.0 if result.solved else math.nan, 0, 0, 0, note, found_by="propagation")


@bundled("propagation", "exact", "ours: constraint propagation only, naked and hidden singles")
def _propagation(puzzle: Puzzle, **_: object) -> Outcome:
    result = propagate(puzzle)
    note = "propagation found a contradiction" if result.contradiction else f"propagation filled {result.filled} cells"
    return Outcome(result.values, 0.0 if result.solved else math.nan, 0, 0, 0, note, found_by="propagation")
