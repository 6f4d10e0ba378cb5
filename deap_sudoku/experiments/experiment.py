"""An experiment from Python: every puzzle of every dataset x every algorithm x seeded runs, the
runs kept in a results file as they finish if one is given, so that a rerun (a restarted notebook
kernel, a second machine) does only what is missing.  ``deap-sudoku bench`` is the same from the
command line."""

from __future__ import annotations

import dataclasses
import functools
import multiprocessing
import os
from collections.abc import Callable, Iterable, Mapping

from ..grid.puzzle import Puzzle
from ..io.fileio import lock_for_writing, release
from ..runs.bench import Plan
from ..runs.record import Algorithm
from ..runs.registry import algorithm
from ..runs.task import RunResult, run_all, run_task
from .store import ResultsFile

__all__ = ["run_experiment"]


def run_experiment(
    algorithms: Iterable[str | Algorithm],
    datasets: Mapping[str, Iterable[Puzzle]],
    *,
    runs: int,
    seed: int = 0,
    options: Mapping[str, dict] | None = None,
    results: str | os.PathLike | None = None,
    parallel: bool = False,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[RunResult]:
    """Run the plan and return every run's result, those already in ``results`` first.

    ``algorithms`` are names (bundled, plug-in, ``module:attribute``) or records made by
    :mod:`deap_sudoku.runs.user`.  ``workers``: that many processes forked from this one, on this
    machine, which run records too; ``parallel``: SCOOP's workers (under ``python -m scoop``), which
    need names, as they import the algorithms by them.  ``options`` gives each algorithm's budgets and settings
    by its name, e.g. ``{"memetic": {"max_evaluations": 20000}}``; one it does not take is refused
    before any run.  With ``results``, runs already in that file are not run again.
    ``progress(done, total)`` is called after each run.
    """
    records = {}
    for item in algorithms:
        record = item if isinstance(item, Algorithm) else algorithm(item)
        records[record.name] = (record, isinstance(item, Algorithm))
    options = {name: dict((options or {}).get(name, {})) for name in records}
    for name, given in options.items():
        unknown = sorted(set(given) - set(records[name][0].options))
        if unknown:
            raise ValueError(
                f"{name} takes {', '.join(records[name][0].options) or 'no options'}, not {', '.join(unknown)}"
            )
    if parallel and workers:
        raise ValueError("give parallel (SCOOP) or workers (processes forked here), not both")
    if parallel and any(local for _, local in records.values()):
        raise ValueError(
            "parallel runs need algorithms by name (bundled, plug-in or module:attribute): SCOOP "
            "workers import them by it"
        )
    frozen = {name: list(puzzles) for name, puzzles in datasets.items()}
    plan = Plan(
        tuple((name, functools.partial(list, puzzles), len(puzzles)) for name, puzzles in frozen.items()),
        tuple(records),
        runs,
        seed,
        options,
    )
    tasks = [
        dataclasses.replace(task, record=records[task.algorithm][0]) if records[task.algorithm][1] else task
        for task in plan
    ]
    if results is not None:
        lock_for_writing(results)  # one experiment per file while this call runs
    try:
        return _run(tasks, ResultsFile(results) if results is not None else None, parallel, workers, progress)
    finally:
        if results is not None:
            release(results)


def _run(
    tasks: list,
    store: ResultsFile | None,
    parallel: bool,
    workers: int | None,
    progress: Callable[[int, int], None] | None,
) -> list[RunResult]:
    finished = [store.result(task) for task in tasks if store.check(task)] if store is not None else []
    pending = [task for task in tasks if store is None or not store.check(task)]
    total = len(finished) + len(pending)
    runs_ = _forked(pending, workers) if workers and workers > 1 else run_all(pending, parallel=parallel)
    for task, result in zip(pending, runs_):
        if store is not None:
            store.append(task, result)
        finished.append(result)
        if progress is not None:
            progress(len(finished), total)
    return finished


_PENDING: list = []
"""The tasks of the forked pool, inherited by its processes (records need not pickle)."""


def _run_index(index: int) -> RunResult:
    return run_task(_PENDING[index])


def _forked(tasks: list, workers: int):
    """The runs of ``tasks`` in ``workers`` processes forked from this one, results in task order."""
    global _PENDING
    _PENDING = tasks
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield from pool.imap(_run_index, range(len(tasks)))
    finally:
        _PENDING = []
