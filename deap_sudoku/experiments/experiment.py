"""An experiment: every puzzle of every dataset x every algorithm x seeded runs, each run a function of
its seed alone, kept in a results file as it finishes if one is given, so that a rerun (a restarted
notebook kernel, a killed command, a second machine) does only what is missing.

:class:`Experiment` is the experiment as data and its one loop; :func:`run_experiment` runs one in a
call, and ``deap-sudoku bench`` is the same class behind a command line, so the two cannot disagree.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sized

from ..grid.puzzle import Puzzle
from ..io.fileio import lock_for_writing, release
from ..runs.record import Algorithm
from ..runs.registry import algorithm
from ..runs.sandbox import run_contained
from ..runs.task import RunResult, Task, run_all, run_task
from .plan import Plan
from .provenance import provenance, provenance_clock
from .store import ResultsFile

__all__ = ["Experiment", "run_experiment"]


class Experiment:
    """The plan of an experiment, where its runs are kept, and where it came from.

    ``algorithms`` are names (bundled, plug-in, ``module:attribute``) or records made by
    :mod:`deap_sudoku.runs.user`.  ``datasets`` maps a name to puzzles: a list, or any sized
    collection that can be iterated again (a file read lazily), which is read as runs need it.
    ``options`` gives each algorithm's budgets and settings by its name, e.g.
    ``{"memetic": {"max_evaluations": 20000}}``; one it does not take is refused here, before any run.
    Run ``r`` of every puzzle uses seed ``seed + r``.  ``command`` is the command line to record
    (by default this process's; see :mod:`~deap_sudoku.experiments.provenance`).

    :raises ValueError: for an unknown algorithm or option.
    """

    def __init__(
        self,
        algorithms: Iterable[str | Algorithm],
        datasets: Mapping[str, Iterable[Puzzle]],
        *,
        runs: int,
        seed: int = 0,
        options: Mapping[str, dict] | None = None,
        command: str | None = None,
    ) -> None:
        self.records: dict[str, Algorithm] = {}
        self.local: set[str] = set()
        """The algorithms given as records: their tasks carry them, as no name reaches them."""
        for item in algorithms:
            record = item if isinstance(item, Algorithm) else algorithm(item)
            self.records[record.name] = record
            if isinstance(item, Algorithm):
                self.local.add(record.name)
        self.options = {name: dict((options or {}).get(name, {})) for name in self.records}
        for name, given in self.options.items():
            unknown = sorted(set(given) - set(self.records[name].options))
            if unknown:
                raise ValueError(
                    f"{name} takes {', '.join(self.records[name].options) or 'no options'}, not {', '.join(unknown)}"
                )
        collections_ = {name: _collection(puzzles) for name, puzzles in datasets.items()}
        self.plan = Plan(
            tuple((name, functools.partial(iter, puzzles), len(puzzles)) for name, puzzles in collections_.items()),
            tuple(self.records),
            runs,
            seed,
            self.options,
        )
        self._call = (
            f"run_experiment([{', '.join(self.records)}], "
            f"{{{', '.join(f'{name}: {len(puzzles)} puzzles' for name, puzzles in collections_.items())}}}, "
            f"runs={runs}, seed={seed}, options={self.options})"
        )
        self._command = command
        self.started = provenance_clock()
        self.store: ResultsFile | None = None
        self._locked: str | os.PathLike | None = None

    @functools.cached_property
    def provenance(self) -> dict:
        """Where this experiment comes from (:func:`~deap_sudoku.experiments.provenance.provenance`),
        worked out when an output first needs it: a command that writes none pays nothing for it."""
        return provenance(seed=self.plan.seed, call=self._call, command=self._command, started=self.started)

    @property
    def description(self) -> dict:
        """What makes this experiment, as its results file's header keeps it: the algorithms with
        their options, and the datasets.  More runs or seeds of it are the same experiment."""
        return {"algorithms": self.options, "datasets": [name for name, _, _ in self.plan.datasets]}

    def open(self, results: str | os.PathLike, *, lock: bool = True) -> list[RunResult]:
        """Keep the runs in the results file at ``results`` from now on, and return the runs of the
        plan it already holds, which :meth:`run` will not run again.  With ``lock``, this process
        becomes the file's one writer until :meth:`close`.

        :raises ~deap_sudoku.experiments.store.StoreError: for a file of another experiment, or no
            results file, naming the file, the line and what differs.
        :raises ~deap_sudoku.io.fileio.FileInUse: when another process writes to it.
        """
        if lock:
            lock_for_writing(results)
            self._locked = results
        self.store = ResultsFile(results, experiment=self.description, provenance=lambda: self.provenance)
        return [self.store.result(task) for task in self.plan if self.store.check(task)]

    def replaceable(self, path: str) -> bool:
        """Whether ``path`` is an output this experiment's last session, cut short, wrote and left as
        it is (:meth:`~deap_sudoku.experiments.store.ResultsFile.replaceable`): the same command,
        going on, writes over it without being forced.  False without a results file."""
        return self.store is not None and self.store.replaceable(path)

    def tasks(self, *, by_name: bool = False) -> Iterator[Task]:
        """The plan's tasks not yet done, in plan order, made as they are taken, each carrying its
        algorithm's record; ``by_name`` (for SCOOP's workers, which find the records by their
        names) only those no name reaches."""
        for task in self.plan:
            if self.store is not None and self.store.check(task):
                continue
            carried = not by_name or task.algorithm in self.local
            yield dataclasses.replace(task, record=self.records[task.algorithm]) if carried else task

    def run(self, *, parallel: bool = False, workers: int | None = None, contain: bool = False) -> Iterator[RunResult]:
        """Run what is missing and yield each result, in plan order, once it is kept in the results
        file (if one is open).  A user's algorithm that raises, calls ``sys.exit``, returns no grid,
        prints or changes folder fails its run at most (:func:`~deap_sudoku.runs.task.run_task`);
        with ``contain`` (as ``deap-sudoku bench`` runs) it also runs in a process of its own
        (:func:`~deap_sudoku.runs.sandbox.run_contained`), so that one that ends its process or hangs
        past its time budget fails its run too, but what it changes in its process (a counter of
        its calls) stays there.  ``workers``: that many processes forked from this one, on this
        machine, which run records too; ``parallel``: SCOOP's workers (under ``python -m scoop``),
        which need names, as they import the algorithms by them.  Stop iterating to stop between
        runs: what finished is kept.

        :raises ValueError: for both ways of running in parallel, or records for SCOOP.
        """
        if parallel and workers:
            raise ValueError("give parallel (SCOOP) or workers (processes forked here), not both")
        if parallel and self.local:
            raise ValueError(
                "parallel runs need algorithms by name (bundled, plug-in or module:attribute): SCOOP "
                "workers import them by it"
            )
        handed: collections.deque = collections.deque()  # the tasks handed out, whose results come back in order

        def handed_out() -> Iterator[Task]:
            for task in self.tasks(by_name=parallel):
                handed.append(task)
                yield task

        runner = run_contained if contain else run_task
        runs = (
            _forked(handed_out(), workers, runner)
            if workers and workers > 1
            else run_all(handed_out(), parallel=parallel, runner=runner)
        )
        for result in runs:
            task = handed.popleft()
            if self.store is not None:
                self.store.append(task, result)
            yield result

    def missing(self, results: Iterable[RunResult]) -> tuple[list[str], int]:
        """The plan's runs without a result (:meth:`~deap_sudoku.experiments.plan.Plan.missing`)."""
        return self.plan.missing(results)

    def close(self) -> None:
        """Give up the results file's lock, if :meth:`open` took it."""
        if self._locked is not None:
            release(self._locked)
            self._locked = None

    def __enter__(self) -> Experiment:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


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
    requested: Callable[[], object] | None = None,
    contain: bool = False,
) -> list[RunResult]:
    """Run the :class:`Experiment` and return every run's result, those already in ``results`` first.

    ``results``: the JSON-lines file that keeps every run as it finishes (see
    :mod:`~deap_sudoku.experiments.store`); runs already in it are not run again.  ``workers`` and
    ``parallel``, and ``contain`` (a user's algorithm in a process of its own), as
    :meth:`Experiment.run` takes them.  ``progress(done, total)`` is called after
    each run; ``requested()`` is asked after each run, and a true answer stops the experiment there,
    with what finished returned (and kept).
    """
    with Experiment(algorithms, datasets, runs=runs, seed=seed, options=options) as experiment:
        finished = experiment.open(results) if results is not None else []
        total = len(experiment.plan)
        for result in experiment.run(parallel=parallel, workers=workers, contain=contain):
            finished.append(result)
            if progress is not None:
                progress(len(finished), total)
            if requested is not None and requested():
                break
        return finished


def _collection(puzzles: Iterable[Puzzle]) -> Sized:
    """``puzzles`` itself when it can be counted and iterated again (a list, a file read lazily),
    else its puzzles in a list."""
    if isinstance(puzzles, Sized) and not isinstance(puzzles, Iterator):
        return puzzles
    return list(puzzles)


_PENDING: list = []
"""The (runner, task) pairs of the forked pool, inherited by its processes (records need not pickle)."""


def _run_index(index: int) -> RunResult:
    return _PENDING[index][0](_PENDING[index][1])


def _forked(tasks: Iterable[Task], workers: int, runner: Callable[[Task], RunResult]) -> Iterator[RunResult]:
    """The runs of ``tasks`` (each ``runner(task)``) in ``workers`` processes forked from this one,
    results in task order."""
    import multiprocessing  # here, not at import: most experiments never fork

    global _PENDING
    _PENDING = [(runner, task) for task in tasks]
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield from pool.imap(_run_index, range(len(_PENDING)))
    finally:
        _PENDING = []
