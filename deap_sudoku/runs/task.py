"""Running one task (one puzzle x one algorithm x one seed), or many, serially or over SCOOP.

A task is the unit SCOOP distributes, because single evaluations are far
too cheap to ship to another process.  ``deap-sudoku solve`` and ``bench``
both run tasks here.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import io
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO
import dataclasses
from dataclasses import dataclass, field

import numpy as np

from ..algorithms.stop import INTERRUPTED
from ..exact.verification import unsolved_because
from ..grid.puzzle import Puzzle
from .hosts import HostShare, counted, on_host
from .kernels import compile_here, warm_up
from .record import Algorithm, Objective, Outcome, Trace, found_by_run, seeded_globals
from .registry import algorithm

__all__ = [
    "Task",
    "RunResult",
    "run_task",
    "run_all",
    "scoop_is_running",
    "warm_up",
    "compile_here",
    "failed_run",
    "reverified",
    "TIME_TOLERANCE",
    "FAILED_RUNS",
]

FAILED_RUNS = 3
"""The exit code of a command (``bench``, ``solve``) whose runs all came to an end and whose outputs
are whole, but some runs failed with errors (a user's algorithm that raised, exited, ended its
process, hung, or returned no grid): a job script or CI tells a broken plug-in from a clean run by
it.  :class:`~deap_sudoku.experiments.experiment.Finished` gives the same code for
``run_experiment``."""

TIME_TOLERANCE = 0.2
"""Seconds a run may end after its ``max_seconds`` and still count as within it: the bundled
algorithms ask the clock between children and inside their searches, and return within this
(``tests/cli/test_budgets.py``); a run that takes longer is censored at its budget."""


@dataclass(frozen=True)
class Task:
    """One run to do: which algorithm on which puzzle with which seed and options (budgets)."""

    algorithm: str
    puzzle: Puzzle
    seed: int = 0
    dataset: str = ""
    index: int = 0
    options: dict = field(default_factory=dict)
    record: Algorithm | None = None
    """The algorithm itself, for one that no name reaches (made in a notebook): runs in this process only."""


@dataclass(frozen=True)
class RunResult:
    """What one run gave: the best grid (flat list), whether it solves the puzzle within its
    budgets, and its cost.

    ``solved`` is what verification says of the grid, never the algorithm's own claim (``note``
    says when a claim failed verification), and only for a solution found within the run's
    ``max_evaluations`` and ``max_seconds``: a run that found it later, or returned late, is
    censored at the budget (``censored`` says how), as COCO and IOHprofiler count.
    ``evaluations`` are those the algorithm spent; ``first_hit`` the one that first scored a solved
    grid, where the algorithm records it (the package's GAs do).  ``seconds`` is the run's wall
    time, kernel compilation excluded (see :func:`warm_up`); ``objective`` and ``trace`` say what
    was optimised and how it went (``None`` for exact solvers).
    """

    algorithm: str
    dataset: str
    index: int
    seed: int
    givens_share: float
    solved: bool
    fitness: float
    generations: int
    steps: int
    evaluations: int
    seconds: float
    grid: list[int]
    note: str = ""
    objective: Objective | None = None
    trace: Trace | None = None
    error: str = ""
    """What a user's algorithm raised in this run (``ValueError: ...``); the run counts as unsolved."""
    first_hit: int | None = None
    """The evaluation that first scored a solved grid, counted from 1 (None: unsolved, or not recorded)."""
    censored: str = ""
    """How the run went past a budget, in a sentence, when it did: it then counts as unsolved, its
    ``evaluations`` or ``seconds`` cut to the budget."""
    found_by: str = ""
    """Which part of the algorithm found the answer of a solved run (one of
    :data:`~deap_sudoku.runs.record.FOUND_BY`: ``"seed search"``, ``"evolution"``, ``"exact
    search"``, ...), what the algorithm says or else what the run did
    (:func:`~deap_sudoku.runs.record.found_by_run`); empty when unsolved, never when solved."""

    @property
    def evaluations_to_solve(self) -> int | None:
        """What a solved run spent to solve: :attr:`first_hit` where recorded, else its evaluations
        (None when unsolved)."""
        if not self.solved:
            return None
        return self.first_hit if self.first_hit is not None else self.evaluations

    def course(self) -> tuple[Objective, Trace]:
        """What the run optimised and how it went, with the evaluations it spent on the way.

        :raises ValueError: for a run that traced no fitness against evaluations (exact solvers,
            tabu search): plots and exports leave those out beforehand."""
        if self.objective is None or self.trace is None or self.trace.evaluations is None:
            raise ValueError(f"the {self.algorithm} run traced no fitness against evaluations")
        return self.objective, self.trace


def run_task(
    task: Task,
    *,
    requested: Callable[[], object] | None = None,
    progress: Callable[[str], None] | None = None,
    progress_every: int | None = None,
    checkpoint=None,
    censor: bool = True,
    started: float | None = None,
    watch: Callable[[int, list, object], object] | None = None,
) -> RunResult:
    """Do one run with the registry's record of ``task.algorithm``, the ``random`` module and numpy's
    global generator seeded with ``task.seed`` (:func:`~deap_sudoku.runs.record.seeded_globals`), so
    that the run is a function of its seed alone.  The grid is verified, and the run judged against
    its budgets, here (:class:`RunResult`; ``censor=False`` keeps a late answer).  A user's algorithm
    that raises, or returns no grid of whole numbers, gives a failed run (``error`` says what it
    raised), so an experiment goes on.  A user's algorithm is given a copy of the puzzle, the grid it
    returns is verified against the task's own, and a process it forked that returns here ends here.

    The kernels are warmed up first (:func:`warm_up`), off the clock.  ``requested``, ``progress``
    (every ``progress_every`` generations or steps) and ``checkpoint`` go to algorithms that take
    them (see :class:`~deap_sudoku.runs.registry.Algorithm`).  ``started``, a :func:`time.perf_counter`
    reading, is when the task's ``max_seconds`` began, if before the run: ``deap-sudoku solve``
    counts the loading of the kernels in the first puzzle's budget, the wall time its user waits.
    ``watch(generation, population, logbook)``, for an algorithm that takes it
    (:attr:`~deap_sudoku.runs.record.Algorithm.watchable`), is called after every generation.
    """
    record = task.record or algorithm(task.algorithm)
    warm_up(task.algorithm, task.puzzle, record=record)
    extras = _extras(task.algorithm, record, requested, progress, progress_every, checkpoint, started, watch)
    user = record.source != "bundled"
    # A user's algorithm gets a puzzle of its own: one it changed is never the puzzle its grid is verified against.
    puzzle = Puzzle(task.puzzle.cells, box=task.puzzle.shape) if user else task.puzzle
    process = os.getpid()
    start = time.perf_counter()
    try:
        with seeded_globals(task.seed), _kept_apart(user):
            start = time.perf_counter()  # the seeding off the run's clock, as the warm-up is
            outcome = record.run(puzzle, seed=task.seed, **extras, **task.options)
            _no_fork(process)
            seconds = time.perf_counter() - start
        result = _judged(task, outcome, seconds, censor, kind=record.kind)
    except BaseException as exc:  # a user's sys.exit(), or its own BaseException, ends the run, not the experiment
        _no_fork(process)
        if record.source == "bundled" or isinstance(exc, KeyboardInterrupt):
            raise  # a bundled algorithm that fails is a bug of this package: never hidden; a Ctrl-C is the user's
        return failed_run(task, f"{type(exc).__name__}: {exc}".splitlines()[0], time.perf_counter() - start)
    return result


def reverified(task: Task, result: RunResult) -> RunResult:
    """``result``, a run of ``task`` judged in another process (a sandbox's, where a user's code ran
    and could change the verifier), with its claim of a solution verified again here against
    ``task.puzzle``: one that fails is counted unsolved, its note saying why."""
    if not result.solved:
        return result
    why = unsolved_because(np.asarray(result.grid), task.puzzle)
    if not why:
        return result
    note = f"claimed solved ({result.note or 'solved'}) but verification failed: {why}; counted unsolved"
    return dataclasses.replace(result, solved=False, note=note, first_hit=None, found_by="")


def _no_fork(process: int) -> None:
    """End this process unless it is ``process``: a fork a user's algorithm made and returned from
    (or raised in) is no run of ours, and going on would give a second answer for the task (filed
    under the next one where a sandbox reads answers in turn) and run the rest of the caller's program twice."""
    if os.getpid() != process:
        os._exit(0)


def failed_run(task: Task, error: str, seconds: float) -> RunResult:
    """The result of a run of ``task`` that gave nothing: unsolved, ``error`` saying why, the puzzle
    as its grid."""
    return RunResult(
        **_which_run(task),
        solved=False,
        fitness=math.nan,
        generations=0,
        steps=0,
        evaluations=0,
        seconds=seconds,
        grid=task.puzzle.cells.tolist(),
        note="failed",
        error=error,
    )


def _which_run(task: Task) -> dict:
    """The fields of a :class:`RunResult` that say which run of which puzzle it is."""
    puzzle = task.puzzle
    return {
        "algorithm": task.algorithm,
        "dataset": task.dataset,
        "index": task.index,
        "seed": task.seed,
        "givens_share": puzzle.num_givens / puzzle.shape.cells,
    }


@contextlib.contextmanager
def _kept_apart(user: bool) -> Iterator[None]:
    """For a user's algorithm: what it prints, from Python or from C, is caught (a string, and a
    temporary file in place of file descriptor 1) and handed to standard error once the run is
    over, so standard output holds data only (``--json -``, ``--out -``) and a full or closed
    standard error never fails the algorithm's own writes; and the working folder it may change is
    given back, so that relative paths keep meaning what they meant."""
    if not user:
        yield
        return
    folder = os.getcwd()
    sys.stdout.flush()
    caught = _caught_file()
    saved = os.dup(1)
    os.dup2(caught.fileno(), 1)
    text = io.StringIO()
    try:
        with contextlib.redirect_stdout(text):
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.chdir(folder)
        caught.seek(0)
        printed = text.getvalue() + caught.read().decode("utf-8", "replace")
        caught.seek(0)
        caught.truncate()
        if printed:
            with contextlib.suppress(OSError, ValueError, AttributeError):  # messages: lost, never the run
                sys.stderr.write(printed)
                sys.stderr.flush()


_CAUGHT: dict[int, IO[bytes]] = {}
"""The temporary file each process catches a user's algorithm's file-descriptor-1 writes in (by pid:
a forked child has its own)."""


def _caught_file() -> IO[bytes]:
    if os.getpid() not in _CAUGHT:
        _CAUGHT[os.getpid()] = caught = tempfile.TemporaryFile()
        atexit.register(caught.close)  # kept for the process's runs, closed with it (no ResourceWarning)
    return _CAUGHT[os.getpid()]


def _judged(task: Task, outcome: Outcome, seconds: float, censor: bool = True, *, kind: str = "") -> RunResult:
    """The run's result: solved if verification says so, within the budgets ``task.options`` gives.

    A claim of a solution (note ``solved``, or the objective's target as fitness) that verification
    refutes is kept in the note with the reason.  A solution found after ``max_evaluations``
    (its :attr:`~Outcome.first_hit`, or, where the algorithm does not record it, its evaluations),
    or a run that returned more than :data:`TIME_TOLERANCE` after ``max_seconds``, is censored at
    the budget: unsolved, its cost cut to the budget, and ``censored`` says what happened; unless
    ``censor`` is false (``deap-sudoku solve``, which wants the answer, late or not).  ``found_by``
    is :func:`~deap_sudoku.runs.record.found_by_run`'s, from the outcome and the algorithm's ``kind``."""
    puzzle = task.puzzle
    cells = np.asarray(outcome.grid)
    grid = _grid_of(cells, puzzle)
    why = unsolved_because(cells, puzzle)  # cells as returned: a float grid of whole values is no solution
    solved = not why
    note = _note(outcome, solved, why)
    fitness, evaluations, trace = float(outcome.fitness), outcome.evaluations, outcome.trace
    first_hit = outcome.first_hit if solved else None
    censored = []
    budget = task.options.get("max_evaluations")
    spent = first_hit if first_hit is not None else evaluations
    if censor and budget is not None and solved and spent > budget:
        when = (
            f"at evaluation {spent:,}"
            if first_hit is not None
            else f"with {spent:,} evaluations (when, it does not say)"
        )
        censored.append(f"solved {when}, past its budget of {budget:,} evaluations")
        solved, first_hit, evaluations = False, None, budget
        if trace is not None and trace.evaluations is not None:
            trace = trace.within(budget)
            fitness = float(trace.series["best"][-1]) if "best" in trace.series else fitness
    limit = task.options.get("max_seconds")
    if censor and limit is not None and seconds > limit + TIME_TOLERANCE:
        censored.append(
            f"returned after {seconds:.3g} s, past its budget of {limit:g} s (tolerance {TIME_TOLERANCE:g} s)"
            + (" with a solution" if solved else "")
        )
        solved, first_hit, seconds = False, None, float(limit)
    return RunResult(
        **_which_run(task),
        solved=solved,
        fitness=fitness,
        generations=outcome.generations,
        steps=outcome.steps,
        evaluations=evaluations,
        seconds=seconds,
        grid=grid,
        note=note,
        objective=outcome.objective,
        trace=trace,
        first_hit=first_hit,
        censored="; ".join(censored) + ("; counted unsolved at the budget" if censored else ""),
        found_by=found_by_run(kind, outcome) if solved else "",
    )


def _extras(
    name: str,
    record: Algorithm,
    requested: Callable[[], object] | None,
    progress: Callable[[str], None] | None,
    progress_every: int | None,
    checkpoint,
    started: float | None,
    watch: Callable[[int, list, object], object] | None,
) -> dict[str, object]:
    """What :func:`run_task` hands the record beside the task's options: only what it takes, and an
    error for a checkpoint or a watch it cannot take."""
    extras: dict[str, object] = {"requested": requested} if record.stoppable else {}
    if progress is not None and record.stoppable:
        extras["progress"] = progress
        if progress_every is not None:
            extras["progress_every"] = progress_every
    if checkpoint is not None:
        if not record.checkpointable:
            raise ValueError(f"{name} cannot be checkpointed")
        extras["checkpoint"] = checkpoint
    if started is not None:
        extras["started"] = started
    if watch is not None:
        if not record.watchable:
            raise ValueError(f"{name} takes no watch (it has no generations to show)")
        extras["watch"] = watch
    return extras


def _grid_of(cells: np.ndarray, puzzle: Puzzle) -> list[int]:
    """The returned grid as whole numbers, refused when it is no grid of ``puzzle``."""
    try:
        grid = [int(v) for v in cells.ravel().tolist()]
    except (TypeError, ValueError, OverflowError):
        why = unsolved_because(cells, puzzle)
        raise ValueError(f"the algorithm returned a grid that is no grid of whole numbers: {why}") from None
    n = puzzle.shape.n
    if len(grid) != puzzle.shape.cells or not all(0 <= v <= n for v in grid):
        wrong = next((v for v in grid if not 0 <= v <= n), None)
        what = f"{len(grid)} cells, not {puzzle.shape.cells}" if wrong is None else f"{wrong}, outside 0-{n}"
        raise ValueError(f"the algorithm returned a grid that is no grid of this puzzle: it holds {what}")
    return grid


def _note(outcome: Outcome, solved: bool, why: str) -> str:
    """The run's note: a stop asked for in the generation that solved it (a Ctrl-C, another chain's
    stop file) does not make the run "interrupted"; a claim of a solution that verification refutes
    is kept with the reason."""
    note = outcome.note
    if solved and note == INTERRUPTED:
        return "solved"
    claimed = note == "solved" or (outcome.objective is not None and outcome.fitness == outcome.objective.target)
    if claimed and not solved:
        claim = note or f"fitness {outcome.fitness:g}"
        return f"claimed solved ({claim}) but verification failed: {why}; counted unsolved"
    return note


def run_all(
    tasks: Iterable[Task],
    *,
    parallel: bool = False,
    window: int = 256,
    runner: Callable[[Task], RunResult] = run_task,
    hosts: dict[str, HostShare] | None = None,
) -> Iterator[RunResult]:
    """Results in task order, each of ``runner(task)`` (a module-level function, which SCOOP can
    send), tasks taken as they are needed; with ``parallel``, the runs go to SCOOP workers (run
    under ``python -m scoop``), at most ``window`` at a time, which gives the same results for the
    same seeds, only faster, and each host's share of them is counted in ``hosts``, by host name
    (:mod:`~deap_sudoku.runs.hosts`).  SCOOP notices a worker that dies and sends its run to
    another one, so no result is lost."""
    if not parallel:
        yield from map(runner, tasks)
        return
    from scoop import futures

    pending: collections.deque = collections.deque()
    for task in tasks:
        pending.append(futures.submit(on_host, runner, task))
        if len(pending) >= window:
            yield counted(pending.popleft().result(), hosts)
    while pending:
        yield counted(pending.popleft().result(), hosts)


def scoop_is_running() -> bool:
    """True inside ``python -m scoop ...``."""
    try:
        import scoop
    except ImportError:  # pragma: no cover - scoop is a dependency
        return False
    return bool(getattr(scoop, "IS_RUNNING", False))
