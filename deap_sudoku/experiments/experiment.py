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
from typing import Any

from ..grid.puzzle import Puzzle
from ..io.fileio import lock_for_writing, release
from ..runs.record import Algorithm
from ..runs.registry import algorithm
from ..runs.sandbox import run_contained, run_pool, stop_all
from ..runs.dask_engine import run_on_dask
from ..runs.hosts import HostShare
from ..runs.task import FAILED_RUNS, RunResult, Task, run_all, run_task, scoop_is_running
from .plan import Plan
from .provenance import provenance, provenance_clock
from .store import ResultsFile

__all__ = ["Experiment", "run_experiment", "Finished"]


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
        self.unkept = ""
        """Why the results file could not keep a run (a full disk), once it could not."""
        self.finished: list[RunResult] = []
        """The runs :meth:`run` finished, each listed here before it is kept and handed on: a signal
        that comes between cannot leave a finished run out of the session's report."""
        self._locked: str | os.PathLike | None = None
        self.hosts: dict[str, HostShare] = {}
        """Each host's share of the runs :meth:`run` gave SCOOP's or Dask's workers, by host name."""

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
        return [self.store.result(task) for task in self.plan.at(self.store.places) if self.store.check(task)]

    def replaceable(self, path: str) -> bool:
        """Whether ``path`` is an output this experiment's last session (cut short, or done) wrote and left as
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

    def run(
        self,
        *,
        parallel: bool = False,
        workers: int | None = None,
        contain: bool | None = None,
        scheduler: Any = None,
    ) -> Iterator[RunResult]:
        """Run what is missing and yield each result, in plan order, once it is kept in the results
        file (if one is open).  A user's algorithm that raises, calls ``sys.exit``, returns no grid,
        prints or changes folder fails its run at most (:func:`~deap_sudoku.runs.task.run_task`);
        contained, it also runs in a process of its own
        (:func:`~deap_sudoku.runs.sandbox.run_contained`), so that one that ends its process or hangs
        past its time budget fails its run too (and the processes it forked end with it), but what
        it changes in its process (a counter of its calls) stays there.  ``contain``: True (as
        ``deap-sudoku bench`` runs) for every user's algorithm, False for none, None (the default)
        for those named (``module:attribute``, a plug-in), not the records given as such (made in
        this session, whose state the caller may want to see).  ``workers``: that many processes
        forked from this one, on this machine, every run contained in one of them
        (:func:`~deap_sudoku.runs.sandbox.run_pool`: a worker that dies or hangs is replaced);
        ``parallel``: SCOOP's workers (under ``python -m scoop``), which need names, as they import
        the algorithms by them; ``scheduler``: a Dask cluster's workers, the same way
        (:func:`~deap_sudoku.runs.dask_engine.run_on_dask`: an address ``"tcp://host:8786"``, a
        cluster object or a ``Client``).  Stop iterating to stop between runs: what finished is kept.

        :raises ValueError: for two ways of running in parallel at once, or records for SCOOP or Dask.
        :raises RuntimeError: for ``parallel`` in a program SCOOP did not start (it said so in a
            traceback of its own).
        """
        self._refuse_what_cannot_run(parallel, workers, scheduler)
        handed: collections.deque = collections.deque()  # the tasks handed out, whose results come back in order

        def handed_out() -> Iterator[Task]:
            for task in self.tasks(by_name=parallel or scheduler is not None):
                handed.append(task)
                yield task

        if scheduler is not None:
            runs = run_on_dask(handed_out(), scheduler, runner=self._runner(contain), hosts=self.hosts)
        elif workers and workers > 1:
            runs = run_pool(handed_out(), workers, self.records.values())
        else:
            runs = run_all(handed_out(), parallel=parallel, runner=self._runner(contain), hosts=self.hosts)
        self.finished = []
        try:
            for result in runs:
                task = handed.popleft()
                self.finished.append(result)
                if self.store is not None:
                    try:
                        self.store.append(task, result)
                    except OSError as exc:  # a full disk: the run is handed over all the same, then the error
                        self.unkept = f"{self.store.path}: the run could not be kept: {exc.strerror or exc}"
                        yield result
                        raise
                yield result
        finally:
            if contain is not False and not workers:
                stop_all()  # the sandbox's child, and whatever a user's algorithm left running in its group

    def _refuse_what_cannot_run(self, parallel: bool, workers: int | None, scheduler: Any = None) -> None:
        """The errors :meth:`run` raises before any run."""
        if sum((bool(parallel), bool(workers), scheduler is not None)) > 1:
            raise ValueError(
                "give one of parallel (SCOOP), workers (processes forked here) and scheduler (Dask), not two"
            )
        if (parallel or scheduler is not None) and self.local:
            raise ValueError(
                "parallel runs need algorithms by name (bundled, plug-in or module:attribute): SCOOP's "
                "and Dask's workers import them by it"
            )
        if parallel and not scoop_is_running():
            raise RuntimeError(
                "parallel=True runs on SCOOP's workers, and SCOOP did not start this program: start it "
                "with `python -m scoop SCRIPT` (docs/cluster.md), or give workers=N for processes forked here"
            )

    def _runner(self, contain: bool | None) -> Callable[[Task], RunResult]:
        """What runs one task (module-level functions: SCOOP pickles the runner): as it is, contained,
        or contained when its algorithm is named (see :meth:`run`)."""
        if contain is False:
            return run_task
        if contain or not self.local:
            return run_contained
        return functools.partial(_contained_if_named, frozenset(self.local))

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
    contain: bool | None = None,
    scheduler: Any = None,
) -> Finished:
    """Run the :class:`Experiment` and return every run's result, those already in ``results`` first
    (a list; its :attr:`~Finished.failed` and :attr:`~Finished.exit_code` say whether runs failed
    with errors).

    ``results``: the JSON-lines file that keeps every run as it finishes (see
    :mod:`~deap_sudoku.experiments.store`); runs already in it are not run again.  ``workers``,
    ``parallel`` (SCOOP), ``scheduler`` (Dask) and ``contain`` (by default a user's algorithm named
    by import path or plug-in in a process of its own, a record given as such in this one), as
    :meth:`Experiment.run` takes them.  ``progress(done, total)`` is called after
    each run; ``requested()`` is asked after each run, and a true answer stops the experiment there,
    with what finished returned (and kept).
    """
    with Experiment(algorithms, datasets, runs=runs, seed=seed, options=options) as experiment:
        finished = Finished(experiment.open(results) if results is not None else [])
        total = len(experiment.plan)
        for result in experiment.run(parallel=parallel, workers=workers, contain=contain, scheduler=scheduler):
            finished.append(result)
            if progress is not None:
                progress(len(finished), total)
            if requested is not None and requested():
                break
        return finished


class Finished(list):
    """What :func:`run_experiment` returns: every run's result, in a list, which also says whether
    runs failed with errors (a user's algorithm that raised, exited, ended its process or hung), as
    a script or a CI job asks: ``sys.exit(results.exit_code)``."""

    @property
    def failed(self) -> list[RunResult]:
        """The runs that failed with an error (their ``error`` says what), counted as unsolved."""
        return [result for result in self if result.error]

    @property
    def exit_code(self) -> int:
        """:data:`~deap_sudoku.runs.task.FAILED_RUNS` (3) when runs failed with errors, else 0:
        the code ``deap-sudoku bench`` exits with for the same runs."""
        return FAILED_RUNS if self.failed else 0


def _contained_if_named(local: frozenset[str], task: Task) -> RunResult:
    """The run of ``task``, contained unless its algorithm is one of the records given as such (``local``)."""
    return run_task(task) if task.algorithm in local else run_contained(task)


def _collection(puzzles: Iterable[Puzzle]) -> Sized:
    """``puzzles`` itself when it can be counted and iterated again (a list, a file read lazily),
    else its puzzles in a list."""
    if isinstance(puzzles, Sized) and not isinstance(puzzles, Iterator):
        return puzzles
    return list(puzzles)
