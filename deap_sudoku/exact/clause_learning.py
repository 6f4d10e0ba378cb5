"""Exact search that learns from its dead ends: conflict-driven clause learning (CDCL) on the grid.

Backtracking forgets why a branch failed; this search keeps the reason as a clause, so that it never
walks into the same dead end again, and it jumps back to where the reason began.  It is the method of
SAT solvers (MiniSat: Eén & Sörensson, "An extensible SAT-solver", 2003), run on the Sudoku as it is:
a variable per cell and value, the "at most one" rules applied directly (a value set in a cell leaves
its cell and its peers), and a clause per cell and per unit and value saying "at least one" (naked and
hidden singles are their unit propagation).  What it learns comes from the first unique implication
point, minimised; decisions take the most active open variable (VSIDS), restarts follow the Luby
sequence, and on Glucose's schedule (Audemard & Simon, 2009) the half of the learnt clauses with the
most decision levels (LBD, Glucose's measure) is dropped, wherever the search stands.

A decision sets its variable as it stood in the fullest assignment reached so far (the *target phase*
of Biere & Fleury's CaDiCaL), and that assignment is forgotten now and then (CaDiCaL's rephasing):
on the first 12 36x36 puzzles at 45 % givens that ``benchmarks/instance_sets.sh`` makes, the target
phase takes the median from 11.3 s to 0.98 s, and at 50 % rephasing solves 3 of the first 4 within
a minute against 2 (``benchmarks/clause_learning_ablation.py``; ``docs/performance.md`` has the
commands and the comparison with CP-SAT).

The loop itself is :func:`deap_sudoku.exact.clause_learning_kernel.run` and the parts it calls, named
as a SAT solver's are (``propagate``, ``analyze``, ``minimise``, ``learn``, ``backtrack``,
``pick_branch``, ``restart``, ``reduce_db``): plain functions that run as Python or compiled by numba
(the same search either way, conflict for conflict).
"""

from __future__ import annotations

import random
import time

import numpy as np

from ..grid.puzzle import Puzzle
from ..propagation.choice import charged, check_compiled, interrupted_kernel, prefer_compiled, take_up_compiled
from . import clause_learning_kernel as kernel
from . import clause_learning_state as search_state
from .backtracking import SearchBudgetExceeded, check_budget, check_puzzle

__all__ = ["solve_learning", "LEARNT_ROOM", "PAUSE_SECONDS"]

LEARNT_ROOM = 4096
"""Learnt clauses (of the grid's side in length) the clause store holds before it first grows."""

PAUSE_SECONDS = 0.02
"""How long one kernel call may run before it returns to Python to ask the clock (about)."""


def _state(puzzle: Puzzle, rng: random.Random) -> search_state.Search:
    """The state :func:`~deap_sudoku.exact.clause_learning_kernel.run` works on, the givens set."""
    n, cells = puzzle.n, puzzle.shape.cells
    variables = cells * n
    originals = _sudoku_clauses(puzzle)
    count = len(originals)
    width = n + search_state.HEADER
    arena = np.zeros(count * width + max(search_state.HEADER + variables, LEARNT_ROOM * width), np.int32)
    clauses = arena[: count * width].reshape(count, width)
    clauses[:, 0] = n
    clauses[:, search_state.HEADER :] = originals
    room = count + LEARNT_ROOM
    cstart = np.zeros(room, np.int64)
    cstart[:count] = np.arange(count) * width
    head = np.full(2 * variables, -1, np.int64)
    nxt = np.full(2 * room, -1, np.int64)
    for watcher, literal in enumerate(originals[:, :2].ravel().tolist()):
        nxt[watcher], head[literal] = head[literal], watcher
    assign = np.zeros(variables, np.int8)
    trail = np.zeros(variables, np.int32)
    given = np.flatnonzero(puzzle.cells)
    true = given * n + puzzle.cells[given].astype(np.int64) - 1
    assign[true] = 1
    trail[: len(true)] = 2 * true
    heap = np.random.default_rng(rng.getrandbits(64)).permutation(variables).astype(np.int32)
    pos = np.empty(variables, np.int32)
    pos[heap] = np.arange(variables, dtype=np.int32)
    return search_state.Search(
        geometry=np.array([cells, n], np.int64),
        peers=puzzle.shape.peers.astype(np.int64),
        assign=assign,
        level=np.zeros(variables, np.int64),
        reason=np.full(variables, -1, np.int64),
        trail=trail,
        trail_lim=np.zeros(variables + 1, np.int64),
        target=np.zeros(variables, np.int8),
        act=np.zeros(variables, np.float64),
        heap=heap,
        pos=pos,
        arena=arena,
        cstart=cstart,
        head=head,
        nxt=nxt,
        seen=np.zeros(variables, np.int8),
        learnt=np.zeros(variables, np.int32),
        toclear=np.zeros(variables, np.int64),
        stack=np.zeros(variables, np.int64),
        lvl_mark=np.zeros(variables + 1, np.int64),
        ctl=_controls(len(true), variables, count * width, count),
        inc=np.ones(1, np.float64),
    )


def _sudoku_clauses(puzzle: Puzzle) -> np.ndarray:
    """The original clauses as literal rows (variable ``cell * n + value``, literal twice it): each
    cell takes a value, each unit holds each value."""
    n, cells = puzzle.n, puzzle.shape.cells
    values = np.arange(n)
    by_cell = 2 * (np.arange(cells)[:, None] * n + values)
    units = puzzle.shape.units.astype(np.int64)
    by_unit = 2 * (units[:, None, :] * n + values[None, :, None]).reshape(-1, n)
    return np.concatenate([by_cell, by_unit])


def _controls(trail_size: int, variables: int, top: int, count: int) -> np.ndarray:
    """The search's counters at its start: the givens on the trail, every variable in the heap, the
    original clauses, and the first restart, rephasing and clean-up due."""
    ctl = np.zeros(search_state.CONTROLS, np.int64)
    ctl[search_state.TSIZE] = trail_size
    ctl[search_state.HSIZE] = variables
    ctl[search_state.TOP] = top
    ctl[search_state.NCLAUSES] = ctl[search_state.NORIGINAL] = count
    ctl[search_state.NEXT_RESTART] = kernel.RESTART_UNIT
    ctl[search_state.NEXT_REPHASE] = kernel.REPHASE
    ctl[search_state.NEXT_REDUCE] = kernel.REDUCE_FIRST
    return ctl


def _grow(state: search_state.Search) -> search_state.Search:
    """The state with its clause store doubled (the arena, or the clause index and its watch links)."""
    ctl = state.ctl
    if ctl[search_state.TOP] + search_state.HEADER + len(state.assign) > len(state.arena):
        state = state._replace(arena=np.concatenate([state.arena, np.zeros_like(state.arena)]))
    if ctl[search_state.NCLAUSES] + 1 > len(state.cstart):
        cstart, nxt = state.cstart, state.nxt
        state = state._replace(
            cstart=np.concatenate([cstart, np.zeros_like(cstart)]), nxt=np.concatenate([nxt, np.full_like(nxt, -1)])
        )
    return state


def _conflicts(count: int) -> str:
    return f"{count} conflict{'s' * (count != 1)}"


def solve_learning(
    puzzle: Puzzle,
    *,
    max_conflicts: int | None = None,
    max_seconds: float | None = None,
    rng: random.Random | None = None,
    compiled: bool | None = None,
    target_phase: bool = True,
    rephase: bool = True,
    statistics: dict | None = None,
    started: float | None = None,
) -> Puzzle | None:
    """A solution found by clause learning, or ``None`` when the puzzle provably has none.

    ``rng`` (a generator seeded with 0 when none is given) orders the first decisions; the search is
    otherwise deterministic.  ``compiled`` runs the loop compiled by numba (the same answers); by
    default it is used where it pays, as for :func:`~deap_sudoku.exact.solve`, and a search that
    began in Python while another process compiled the kernels goes on compiled once they are
    cached (:func:`~deap_sudoku.propagation.choice.take_up_compiled`).  ``target_phase=False``
    sets every decision's variable false, MiniSat's default, instead of as it stood in the fullest
    assignment yet; ``rephase=False`` keeps that assignment for good instead of forgetting it now and
    then (the switches the ablation in ``docs/performance.md`` turns; without a target phase there is
    nothing to rephase).  A ``statistics`` dict is filled, however the search ends, with its counts:
    ``conflicts``, ``restarts``, ``rephases``, ``reductions`` (clean-ups of the learnt clauses) and
    ``learnt`` (the learnt clauses kept at the end).  ``started`` is the :func:`time.perf_counter`
    reading ``max_seconds`` counts from (by default, this call).

    :raises SearchBudgetExceeded: when ``max_conflicts`` conflicts or ``max_seconds`` seconds (wall
        time) did not settle it.
    """
    check_puzzle(puzzle)
    check_budget(max_conflicts, max_seconds, name="max_conflicts")
    deadline = None if max_seconds is None else (time.perf_counter() if started is None else started) + max_seconds
    chosen = compiled is None  # the twin left to choose: it may change while the search goes on
    if compiled is None:
        compiled = prefer_compiled(puzzle.shape.cells, puzzle.n)
    check_compiled(compiled, puzzle.n)
    if compiled:
        from .clause_learning_compiled import run  # imports numba
    else:
        run = kernel.run
    state = _state(puzzle, rng if rng is not None else random.Random(0))
    ctl = state.ctl
    if not target_phase:
        ctl[search_state.TARGET_SIZE] = len(state.assign) + 1  # no assignment is ever fuller
    if not (target_phase and rephase):
        ctl[search_state.NEXT_REPHASE] = np.iinfo(np.int64).max
    try:
        return _search(puzzle, state, run, compiled, max_conflicts, max_seconds, deadline, chosen)
    finally:
        if statistics is not None:
            ctl = state.ctl
            statistics.update(
                conflicts=int(ctl[search_state.CONFLICTS]),
                restarts=int(ctl[search_state.RESTARTS]),
                rephases=int(ctl[search_state.REPHASES]),
                reductions=int(ctl[search_state.REDUCES]),
                learnt=int(ctl[search_state.NCLAUSES] - ctl[search_state.NORIGINAL]),
            )


def _search(puzzle, state, run, compiled, max_conflicts, max_seconds, deadline, chosen) -> Puzzle | None:
    """The loop of :func:`solve_learning`: calls of the kernel until it settles the puzzle or a
    budget ends, each call given as much work as takes about :data:`PAUSE_SECONDS`.  Where the twin
    was ``chosen`` (not asked for), the Python one gives way to the compiled one once a hold on
    them ends between two calls: the same state, the same search from there on."""
    ctl, chunk, work = state.ctl, 16, 64  # both grow while a call takes less than PAUSE_SECONDS
    while True:
        conflicts = int(ctl[search_state.CONFLICTS])
        pause_at = conflicts + chunk if max_conflicts is None else min(conflicts + chunk, max_conflicts)
        ctl[search_state.PAUSE_WORK] = work
        start = time.perf_counter()
        status = _call(run, state, pause_at, compiled)
        took = time.perf_counter() - start
        if status == kernel.FOUND:
            grid = state.assign.reshape(puzzle.shape.cells, puzzle.n).argmax(axis=1) + 1
            return Puzzle(grid.tolist(), box=(puzzle.shape.box_rows, puzzle.shape.box_cols))
        if status == kernel.EXHAUSTED:
            return None
        if status == kernel.GROW:
            state = _grow(state)
            continue
        _check_budgets(int(ctl[search_state.CONFLICTS]), max_conflicts, max_seconds, deadline)
        if chosen and not compiled and take_up_compiled(deadline):
            compiled = prefer_compiled(puzzle.shape.cells, puzzle.n)
            if compiled:
                from .clause_learning_compiled import run  # loaded by the take-up
        chunk, work = _paced(chunk, work, took)


def _call(run, state: search_state.Search, pause_at: int, compiled: bool) -> int:
    """One call of the kernel ``run`` and its status; the Python kernel's time is charged (see
    :func:`~deap_sudoku.propagation.choice.charged`), a compiled kernel's interruption re-raised."""
    try:
        if compiled:
            return run(state, pause_at)
        with charged():
            return run(state, pause_at)
    except SystemError as error:
        interrupted_kernel(error)


def _check_budgets(
    conflicts: int, max_conflicts: int | None, max_seconds: float | None, deadline: float | None
) -> None:
    """Raise :class:`SearchBudgetExceeded` once ``conflicts`` reach ``max_conflicts`` or the clock the
    ``deadline`` (``max_seconds`` after the start)."""
    if max_conflicts is not None and conflicts >= max_conflicts:
        raise SearchBudgetExceeded(f"no answer after {_conflicts(conflicts)}")
    if deadline is not None and time.perf_counter() >= deadline:
        raise SearchBudgetExceeded(f"no answer within {max_seconds:g} s ({_conflicts(conflicts)})")


def _paced(chunk: int, work: int, took: float) -> tuple[int, int]:
    """The conflicts and the work of the next call: twice as many after a call much shorter than
    :data:`PAUSE_SECONDS`, half after one much longer."""
    if took < PAUSE_SECONDS / 2:
        return 2 * chunk, min(2 * work, 1 << 60)
    if took > 2 * PAUSE_SECONDS:
        return max(1, chunk // 2), max(1, work // 2)
    return chunk, work
