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
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import select
import signal
import struct
import time

from ..io.fileio import forget_locks
from .record import Algorithm
from .registry import algorithm
from .task import RunResult, Task, failed_run, reverified, run_task

__all__ = ["run_contained", "GRACE", "Sandbox"]

GRACE = 2.0
"""Seconds, beyond its ``max_seconds`` and a tenth of it, that a user's run may take before it is
stopped as hung; without a time budget a run is never stopped."""


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

    def run(self, task: Task, record: Algorithm) -> RunResult:
        """Run ``task`` in the child and return its result, or a failed run saying why there is none."""
        _KNOWN[id(record)] = record
        if self.pid is None or id(record) not in self.known:
            self.stop()
            self._start()
        assert self.send is not None and self.receive is not None
        started = time.monotonic()
        try:
            _write(self.send, (id(record), dataclasses.replace(task, record=None)))
            budget = task.options.get("max_seconds")
            limit = None if budget is None else float(budget) * 1.1 + GRACE
            answer = _read(self.receive, None if limit is None else started + limit)
        except BaseException:  # a Ctrl-C, say: the run in the child goes with this one
            self.stop()
            raise
        if isinstance(answer, RunResult) and _place(answer) == _place(task):
            return reverified(task, answer)  # judged again here: the child ran the user's code
        if isinstance(answer, RunResult):  # one a fork of the algorithm sent after the child's own
            answer = f"an answer for another task ({_place(answer)}, not {_place(task)})"
        why = self._why(answer, task, time.monotonic() - started)
        self.stop()
        return failed_run(task, why, time.monotonic() - started)

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
        """End the child, if there is one, and close the pipes."""
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap()
        for fd in (self.send, self.receive):
            if fd is not None:
                os.close(fd)
        self.pid = self.send = self.receive = None


_KNOWN: dict[int, Algorithm] = {}
"""The records handed to a sandbox in this process, by id: a child forked after one was added knows it."""
_SANDBOX = Sandbox()
_TIMED_OUT = object()


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
