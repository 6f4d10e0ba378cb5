"""A portfolio for one hard puzzle: independently seeded chains on SCOOP workers, the first solution wins.

Solve times of the memetic GA (and of randomised search) are heavy-tailed:
most seeds finish fast, a few take far longer.  Running ``workers`` chains at
once with seeds ``seed, seed + 1, ...`` and keeping the first verified
solution cuts the tail (the effect restarts have within one chain, spread over
cores; ``benchmarks/portfolio.py`` measures it).  One worker is exactly the
serial run with ``seed``.

The winner asks the others to stop through a file it writes and they look for
between generations (``requested``); on hosts that do not share the root's temporary
folder the other chains run on to their budget, and the launcher ends them
when the command is done.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace

from ..grid.puzzle import Puzzle
from .kernel_cache import compiled_before
from .sandbox import contained_run, contains
from .task import RunResult, Task, run_task, warm_up

__all__ = ["portfolio", "chains"]


def chains(task: Task, workers: int) -> list[Task]:
    """The portfolio's tasks: ``task`` with seeds ``task.seed``, ``task.seed + 1``, ... (one per worker)."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    return [replace(task, seed=task.seed + k) for k in range(workers)]


def _chain(task: Task, stop_file: str, stop_asked: Callable[[], bool] | None = None) -> RunResult:
    """One chain: run until solved, its budget, or ``stop_asked`` (by default: the stop file exists),
    and write the stop file when solved, so the other chains end without waiting for the root.
    ``run_task`` warms the kernels up off the chain's clock; a solution is kept however late it
    comes (``censor=False``): the portfolio solves one puzzle, it is no comparison."""
    asked = stop_asked or (lambda: os.path.exists(stop_file))

    def run() -> RunResult:
        return run_task(task, requested=asked, censor=False)

    # a user's algorithm in a process of its own: one that ends it or hangs fails its chain, not the worker
    result = contained_run(task, run) if contains(task) else run()
    if result.solved:
        open(stop_file, "w").close()
    return result


def _warmed_up(name: str, puzzle: Puzzle, budgeted: bool) -> bool:
    """A chain's kernels, before the portfolio's clock starts: loaded where this machine compiled
    them before; on a first-ever run, left to the background process the command started, the chain
    going on with the Python twins and taking the kernels up once cached, as a run without
    ``--workers`` does.  Compiled here, each worker compiled for 20-40 s without a word under the
    line that said the run goes on meanwhile, and SCOOP, hearing nothing from it, sent the warm-up
    again (issue 63)."""
    return warm_up(name, puzzle, True if compiled_before(name) else None, budgeted=budgeted)


POLL_SECONDS = 0.05
"""How often the root, busy with its own chain or waiting for the others, looks at theirs."""


def portfolio(task: Task, workers: int, *, requested: Callable[[], object] | None = None) -> RunResult:
    """Run ``workers`` seeded chains of ``task``, the first in this process and the others on SCOOP
    workers (under ``python -m scoop``), and return the first verified solution, or, when none solves
    it, the best chain's result.

    The result's ``seconds`` is the portfolio's wall time from the first chain's start (the
    workers' kernels are warmed up before it), its ``seed`` the winning chain's.  ``requested``
    (e.g. Ctrl-C) is asked between generations of the first chain and then while waiting; a true
    answer stops every chain.
    """
    from scoop import _types, futures

    tasks = chains(task, workers)
    budgeted = ["max_seconds" in t.options for t in tasks]
    list(futures.map(_warmed_up, [t.algorithm for t in tasks], [t.puzzle for t in tasks], budgeted))  # off the clock
    folder = tempfile.mkdtemp(prefix="deap-sudoku-portfolio-")
    stop_file = os.path.join(folder, "stop")
    # SCOOP's root, idle while it waits, asks the broker where its futures are and resends those the
    # broker has no report of yet; workers report every 25 s, so a chain running for longer than
    # that was started a second time (measured: a 25 s chain twice, and the other chain starved).
    # A lost chain costs the portfolio one of its seeds, not the answer, so the root does not ask.
    asking = _types.FutureQueue.askForPreviousFutures
    _types.FutureQueue.askForPreviousFutures = lambda queue: None
    try:
        start = time.perf_counter()
        pending = {futures.submit(_chain, chain, stop_file) for chain in tasks[1:]}
        polled = [start]

        def stop_asked() -> bool:
            if time.perf_counter() - polled[0] > POLL_SECONDS:
                polled[0] = time.perf_counter()
                _poll(pending)
            return os.path.exists(stop_file) or (requested is not None and bool(requested()))

        _poll(pending)  # every other chain leaves for a worker before this one starts
        finished = [_chain(tasks[0], stop_file, stop_asked)]
        seconds = None
        while True:
            if seconds is None and (any(r.solved for r in finished) or (requested is not None and requested())):
                seconds = time.perf_counter() - start
                open(stop_file, "w").close()  # the others stop within a generation, freeing their workers
            if not pending:
                break
            done = _poll(pending)
            pending -= done
            finished += [future.result() for future in done]
            if not done:
                time.sleep(POLL_SECONDS)
    finally:
        _types.FutureQueue.askForPreviousFutures = asking
        if os.path.exists(stop_file):
            os.remove(stop_file)
        os.rmdir(folder)
    seconds = seconds if seconds is not None else time.perf_counter() - start
    winners = [result for result in finished if result.solved]
    return replace(winners[0] if winners else min(finished, key=_badness), seconds=seconds)


def _poll(pending: set) -> set:
    """The futures of ``pending`` that have ended.  ``Future.done`` also sends a future held in this
    process to SCOOP's broker and reads the broker's messages; the root never waits inside SCOOP,
    where it would run chains itself.  (SCOOP keeps the last future submitted in the submitting
    process, and its broker may answer an old request of the root with another: the root then ran
    two chains one after the other while a worker idled, 5 of 10 trials of 2 chains on 2 workers.)"""
    return {future for future in pending if future.done()}


def _badness(result: RunResult) -> float:
    """How far an unsolved chain's best is from a solution (lower: closer)."""
    objective = result.objective
    if objective is None:
        return float("inf")
    return result.fitness if objective.lower_is_better else -result.fitness
