"""A user's algorithm run where it cannot take an experiment down: in a process of its own.

:func:`~deap_sudoku.runs.task.run_task` already turns what a user's algorithm raises (``sys.exit``
included) or returns into a failed run, keeps its prints off standard output and gives the working
folder back.  What no code in the same process can answer is an algorithm that ends the process
(``os._exit``, a crash) or never returns: :func:`run_contained` runs such algorithms in a child
process forked from this one (so records made in a notebook go along), one child serving run after
run, and stops one that has not returned :data:`GRACE` after its time budget.  The run is then a
failed run saying why, the child is replaced, and the experiment goes on.  The package's own
algorithms run in this process, as before.  Where ``os.fork`` does not exist, every run is in this
process.

Each child leads a session of its own, so the processes an algorithm forks and leaves behind are
ended with it: its whole process group is killed when the child is stopped, replaced, or this
process ends.  :func:`run_pool` runs tasks in several such children at once (``run_experiment``'s
``workers``), and :func:`call_contained` runs one call in a child of its own (``deap-sudoku
solve``), whose callbacks (progress, a stop request) need not pickle.
"""

from __future__ import annotations

import atexit
import dataclasses
import os
import pickle
import select
import signal
import struct
import time

from collections.abc import Callable, Iterable, Iterator

from ..io.fileio import forget_locks
from .record import Algorithm
from .registry import algorithm
from .task import RunResult, Task, failed_run, reverified, run_task

__all__ = ["run_contained", "run_pool", "call_contained", "contained_run", "contains", "GRACE", "Sandbox"]

GRACE = float(os.environ.get("DEAP_SUDOKU_GRACE", "2.0"))
"""Seconds, beyond its ``max_seconds`` and a tenth of it, that a user's run may take before it is
stopped as hung; without a time budget a run is never stopped.  The environment variable
``DEAP_SUDOKU_GRACE`` sets another (the tests take a short one)."""


def limit(task: Task) -> float | None:
    """The seconds after which a contained run of ``task`` is stopped as hung (None: never)."""
    budget = task.options.get("max_seconds")
    return None if budget is None else float(budget) * 1.1 + GRACE


def run_contained(task: Task) -> RunResult:
    """:func:`~deap_sudoku.runs.task.run_task`, in this process's :class:`Sandbox` for a user's
    algorithm (one that is not the package's own)."""
    record = task.record or algorithm(task.algorithm)
    if record.source == "bundled" or not hasattr(os, "fork"):
        return run_task(task)
    return _SANDBOX.run(task, record)


class Sandbox:
    """A child process that runs tasks for this one, started when first needed and again after it
    ended or was stopped; records it does not know (made after it was forked) start a new one."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.send: int | None = None
        self.receive: int | None = None
        self.known: set[int] = set()
        self.task: Task | None = None  # the run handed out, until collected
        self.started = 0.0

    def run(self, task: Task, record: Algorithm) -> RunResult:
        """Run ``task`` in the child and return its result, or a failed run saying why there is none."""
        self.submit(task, record)
        return self.collect()

    def submit(self, task: Task, record: Algorithm) -> None:
        """Hand ``task`` to the child (started first if need be); :meth:`collect` takes its result."""
        _KNOWN[id(record)] = record
        if self.pid is None or id(record) not in self.known:
            self.stop()
            self._start()
        assert self.send is not None and self.receive is not None
        self.started = time.monotonic()
        self.task = task
        try:
            _write(self.send, (id(record), dataclasses.replace(task, record=None)))
        except BrokenPipeError:  # the child ended between two runs: collect says how
            pass
        except BaseException:
            self.stop()
            raise

    @property
    def deadline(self) -> float | None:
        """When the run handed out is stopped as hung (a ``time.monotonic`` reading), if ever."""
        assert self.task is not None
        seconds = limit(self.task)
        return None if seconds is None else self.started + seconds

    def collect(self) -> RunResult:
        """The result of the run handed out, or a failed run saying why there is none (the child,
        ended or stopped, is then replaced at the next run)."""
        assert self.receive is not None and self.task is not None
        task = self.task
        try:
            answer = _read(self.receive, self.deadline)
        except BaseException:  # a Ctrl-C, say: the run in the child goes with this one
            self.stop()
            raise
        finally:
            self.task = None
        if isinstance(answer, RunResult) and _place(answer) == _place(task):
            return reverified(task, answer)  # judged again here: the child ran the user's code
        if isinstance(answer, RunResult):  # one a fork of the algorithm sent after the child's own
            answer = f"an answer for another task ({_place(answer)}, not {_place(task)})"
        why = self._why(answer, task, time.monotonic() - self.started)
        self.stop()
        return failed_run(task, why, time.monotonic() - self.started)

    def _why(self, answer: object, task: Task, seconds: float) -> str:
        if isinstance(answer, str):
            return f"Refused: the algorithm's process gave {answer}; none of its answers is believed"
        if answer is _TIMED_OUT:
            budget = task.options["max_seconds"]
            return (
                f"Stopped: no result {seconds:.3g} s into a run with a budget of {budget:g} s "
                f"(a grace of a tenth of it and {GRACE:g} s): it hangs or does not keep max_seconds"
            )
        code = self._reap()
        how = f"exit code {code}" if code is not None and code >= 0 else f"signal {-code}" if code else "no status"
        return f"Ended: the algorithm ended its process ({how}) without returning a result"

    def _start(self) -> None:
        child_reads, parent_writes = os.pipe()
        parent_reads, child_writes = os.pipe()
        # A signal met inside the fork runs its handler in an at-fork hook (logging's), where the
        # KeyboardInterrupt it raises is printed as "Exception ignored" and lost: held until after.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        pid = -1
        try:
            pid = os.fork()
            if pid == 0:  # the child: it never returns from here
                code = 0
                try:
                    os.setsid()  # a group of its own, which is killed with it, whatever it forked
                    _die_with_parent()
                    os.close(parent_writes)
                    os.close(parent_reads)
                    forget_locks()  # a results file's lock ends with the experiment, not with this child
                    _serve(child_reads, child_writes, held)
                except BaseException:
                    code = 1
                finally:
                    os._exit(code)
        finally:
            if pid != 0:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.close(child_reads)
        os.close(child_writes)
        self.pid, self.send, self.receive = pid, parent_writes, parent_reads
        self.known = set(_KNOWN)
        _LIVE[id(self)] = self

    def _reap(self) -> int | None:
        """The child's end, once it ended: its exit code, or minus the signal that ended it."""
        if self.pid is None:
            return None
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            return None
        self.pid = None
        return os.waitstatus_to_exitcode(status)

    def stop(self) -> None:
        """End the child, if there is one, and every process it left in its group, and close the pipes."""
        if self.pid is not None:
            _kill_group(self.pid)  # the child, not yet reaped, keeps its group's id from being reused
            self._reap()
        for fd in (self.send, self.receive):
            if fd is not None:
                os.close(fd)
        self.pid = self.send = self.receive = None
        _LIVE.pop(id(self), None)


_KNOWN: dict[int, Algorithm] = {}
"""The records handed to a sandbox in this process, by id: a child forked after one was added knows it."""
_SANDBOX = Sandbox()
_TIMED_OUT = object()
_LIVE: dict[int, Sandbox] = {}
"""The sandboxes of this process with a child, stopped (their groups killed) when it ends."""
_OWNER = os.getpid()


def _die_with_parent() -> None:
    """In a contained child, on Linux: be sent SIGKILL when the process that forked it ends, even by
    SIGKILL (no atexit then stops the child, and a hung algorithm would spin on alone)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the child ends when its pipe closes, or its run does
        pass


def _kill_group(pid: int) -> None:
    """SIGKILL to the process group ``pid`` leads, and to ``pid`` itself (in case it had no time
    to make its group)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


@atexit.register
def _stop_all() -> None:
    if os.getpid() == _OWNER:  # not in a forked process that inherited the table
        for sandbox in list(_LIVE.values()):
            sandbox.stop()


def stop_all() -> None:
    """Stop every sandbox of this process: their children, and whatever those left running."""
    for sandbox in list(_LIVE.values()):
        sandbox.stop()


def run_pool(tasks: Iterable[Task], workers: int, records: Iterable[Algorithm] = ()) -> Iterator[RunResult]:
    """The runs of ``tasks``, every one in one of ``workers`` sandboxes at a time, results in task
    order: a run whose process ends, or that hangs past its budget and :data:`GRACE`, is a failed
    run saying so, its sandbox is replaced, and the other runs go on (a pool of forked workers
    would hang on a worker that died).  ``records``, the algorithms the tasks carry, are known to
    every sandbox from its start.  The sandboxes end with the last run, their groups killed."""
    for record in records:
        _KNOWN[id(record)] = record
    pool = [Sandbox() for _ in range(workers)]
    todo = iter(tasks)
    busy: dict[int, tuple[int, Sandbox]] = {}  # receive fd -> (the run's place, its sandbox)
    done: dict[int, RunResult] = {}
    given = 0
    try:
        while True:
            for box in pool:  # a look-ahead of a few runs at most: results are yielded in order
                task = next(todo, None) if box.task is None and len(busy) + len(done) < 4 * workers else None
                if task is not None:
                    box.submit(task, task.record or algorithm(task.algorithm))
                    assert box.receive is not None
                    busy[box.receive] = (given + len(busy) + len(done), box)
            while given in done:
                yield done.pop(given)
                given += 1
            if not busy:
                return
            _collect_ready(busy, done)
    finally:
        for box in pool:
            box.stop()


def _collect_ready(busy: dict[int, tuple[int, Sandbox]], done: dict[int, RunResult]) -> None:
    """Wait for the first of the ``busy`` sandboxes to answer or be due, and move every result
    there is (or failed run) from ``busy`` to ``done``."""
    deadlines = [d for _, box in busy.values() if (d := box.deadline) is not None]
    wait = None if not deadlines else max(min(deadlines) - time.monotonic(), 0.0)
    ready, _, _ = select.select(list(busy), [], [], wait)
    now = time.monotonic()
    for fd in list(busy):
        place, box = busy[fd]
        due = box.deadline is not None and box.deadline <= now
        if fd in ready or due:
            del busy[fd]
            done[place] = box.collect()


def call_contained(
    call: Callable[[], object], seconds: float | None, *, stop: Callable[[], int | None] | None = None
) -> object:
    """``call()`` in a child process of its own (forked here: ``call`` need not pickle, its result
    must), its process group ended with it.  Returns what it returned, or raised (the exception
    itself); else a string saying why there is nothing: it ended its process, or had not returned
    ``seconds`` after it began.  ``stop()``, asked while it runs, is a signal number (a Ctrl-C)
    to hand on to the child once, where the call's own handlers answer it."""
    reads, writes = os.pipe()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: it never returns from here
        code = 0
        try:
            os.setsid()
            _die_with_parent()
            os.close(reads)
            forget_locks()  # an output's lock stays the parent's
            try:
                given: object = ("returned", call())
            except BaseException as exc:  # a KeyboardInterrupt too: the parent hands it on
                given = ("raised", exc)
            try:
                _write(writes, given)
            except Exception as exc:  # a result or exception that does not pickle
                _write(writes, ("raised", ValueError(f"the algorithm's result does not pickle: {exc}")))
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(writes)
    handed_on = False
    deadline = None if seconds is None else started + seconds
    answer: object = _TIMED_OUT
    try:
        while deadline is None or time.monotonic() < deadline:
            wait = [] if deadline is None else [deadline - time.monotonic()]
            ready, _, _ = select.select(
                [reads], [], [], min([*wait, 0.1]) if stop is not None else min(wait, default=None)
            )
            if ready:  # the whole answer follows at once, or the end of the pipe
                answer = _read(reads, time.monotonic() + 10 + (seconds or 0))
                break
            signum = stop() if stop is not None else None
            if signum and not handed_on:
                handed_on = True
                os.kill(pid, signum)
    finally:
        os.close(reads)
        _kill_group(pid)
        _, status = os.waitpid(pid, 0)
    if isinstance(answer, tuple) and len(answer) == 2 and answer[0] in ("returned", "raised"):
        return answer[1]
    took = time.monotonic() - started
    if answer is _TIMED_OUT:
        return f"Stopped: no result {took:.3g} s into a run past its time (a grace of a tenth of it and {GRACE:g} s)"
    code = os.waitstatus_to_exitcode(status)
    how = f"exit code {code}" if code >= 0 else f"signal {-code}"
    return f"Ended: the algorithm ended its process ({how}) without returning a result"


def _serve(receive: int, send: int, mask: set) -> None:
    """The child's loop: a task in, its result out, until the pipe closes.  A Ctrl-C is the
    parent's to answer: the child leaves SIGINT to it, and takes the signal ``mask`` back once its
    own handlers are set."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    while True:
        message = _read(receive, None)
        if not isinstance(message, tuple):
            return
        key, task = message
        task = dataclasses.replace(task, record=_KNOWN[key])
        started = time.perf_counter()
        try:
            result = run_task(task)
        except BaseException as exc:  # SystemExit and the like, which run_task leaves to its caller
            result = failed_run(task, f"{type(exc).__name__}: {exc}".splitlines()[0], time.perf_counter() - started)
        _write(send, result)


def _place(run: Task | RunResult) -> tuple:
    """Which run of the experiment a task or a result is: algorithm, dataset, puzzle index and seed."""
    return (run.algorithm, run.dataset, run.index, run.seed)


_LENGTH = struct.Struct("<Q")


def _write(fd: int, message: object) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_LENGTH.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read(fd: int, deadline: float | None) -> object:
    """The next message from ``fd``; :data:`_TIMED_OUT` at ``deadline`` (a ``time.monotonic``
    reading), None when the other end closed."""
    header = _exactly(fd, _LENGTH.size, deadline)
    if not isinstance(header, bytes):
        return header
    body = _exactly(fd, _LENGTH.unpack(header)[0], deadline)
    return pickle.loads(body) if isinstance(body, bytes) else body


def _exactly(fd: int, size: int, deadline: float | None) -> bytes | object:
    chunks, left = [], size
    while left:
        wait = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            return _TIMED_OUT
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def contained_run(
    task: Task, run: Callable[[], RunResult], *, stop: Callable[[], int | None] | None = None
) -> RunResult:
    """``run()``, a run of ``task`` by a user's algorithm, through :func:`call_contained`: one that
    ends its process or hangs past :func:`limit` is a failed run saying so; what ``run`` raises
    (a checkpoint of another run, a Ctrl-C) is raised here."""
    began = time.perf_counter()
    answer = call_contained(run, limit(task), stop=stop)
    if isinstance(answer, RunResult):
        return reverified(task, answer)  # judged again here: the child ran the user's code
    if isinstance(answer, BaseException):
        raise answer
    return failed_run(task, str(answer), time.perf_counter() - began)


def contains(task: Task) -> bool:
    """Whether ``task`` is a user's algorithm's, to be run contained (where ``os.fork`` exists)."""
    record = task.record or algorithm(task.algorithm)
    return record.source != "bundled" and hasattr(os, "fork")
