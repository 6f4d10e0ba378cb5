"""Runs on a Dask cluster (``pip install deap_sudoku[cluster]``): the same tasks as SCOOP's workers
get, submitted to a Dask scheduler, results handed back in task order.  Dask notices a worker that
dies within seconds and gives its runs to another (a run whose worker died three times fails the
experiment: ``distributed.KilledWorker``); its dashboard shows the workers at work; dask-jobqueue
starts workers as batch jobs.  Only this process sees the results, so only it writes files."""

from __future__ import annotations

import collections
import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .hosts import HostShare, counted, on_host
from .task import run_task

__all__ = ["run_on_dask", "connect", "DaskMissing"]


class DaskMissing(ImportError):
    """Dask's ``distributed`` is not installed: the ``[cluster]`` extra brings it."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise DaskMissing(
            "running on a Dask scheduler needs Dask's distributed: pip install 'deap_sudoku[cluster]'"
        ) from exc
    return distributed


def connect(scheduler: Any, timeout: float = 10) -> Any:
    """A ``distributed.Client`` of ``scheduler`` (an address, a cluster object).

    :raises DaskMissing: without Dask's ``distributed``.
    :raises OSError: where no scheduler answers within ``timeout`` seconds.
    """
    return _distributed().Client(scheduler, set_as_default=False, timeout=timeout)


def _client(scheduler: Any) -> tuple[Any, bool]:
    """A ``distributed.Client`` for ``scheduler`` (an address, a cluster object, or a client), and
    whether it was made here (and is closed here)."""
    if isinstance(scheduler, _distributed().Client):
        return scheduler, False
    return connect(scheduler), True


def _refuse_shared_processes(client: Any, runner: Callable[[Any], Any]) -> None:
    """Refuse runs made in the worker's own process (``run_task``, ``contain=False``) on workers of
    more than one thread: runs side by side in one process share Python's global generators, which
    DEAP's operators draw from, and would no longer be the serial runs."""
    if runner is not run_task:
        return  # each run in a process of its own (contained)
    threads = client.nthreads()
    if any(count > 1 for count in threads.values()):
        raise ValueError(
            f"Dask workers of more than one thread ({max(threads.values())}) with contain=False: runs in one "
            "process share the global random generators DEAP's operators draw from; start the workers with "
            "--nthreads 1, or leave contain at its default (each run in a process of its own)"
        )


def run_on_dask(
    tasks: Iterable[Any],
    scheduler: Any,
    *,
    runner: Callable[[Any], Any],
    window: int = 256,
    hosts: dict[str, HostShare] | None = None,
) -> Iterator[Any]:
    """Results in task order, each of ``runner(task)`` on a worker of the Dask cluster ``scheduler``
    (its address, ``"tcp://host:8786"``, a cluster object such as ``LocalCluster`` or
    ``SLURMCluster``, or a ``Client``), at most ``window`` tasks submitted at a time, each host's
    share counted in ``hosts`` (:mod:`~deap_sudoku.runs.hosts`).  The same results for the same
    seeds as a serial run (``run_task`` itself, uncontained, only on workers of one thread).  Runs
    not yet finished when the caller stops iterating are cancelled.

    :raises ValueError: for ``run_task`` on workers of several threads.
    """
    client, made_here = _client(scheduler)
    pending: collections.deque = collections.deque()
    try:
        _refuse_shared_processes(client, runner)
        for task in tasks:
            pending.append(client.submit(on_host, runner, task, pure=False))
            if len(pending) >= window:
                yield counted(pending.popleft().result(), hosts)
        while pending:
            yield counted(pending.popleft().result(), hosts)
    finally:
        try:
            if pending:
                with contextlib.suppress(Exception):  # a scheduler gone: nothing left to cancel there
                    client.cancel(list(pending))
        finally:
            if made_here:
                client.close()
