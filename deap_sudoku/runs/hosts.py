"""Which host made which run, when runs go to SCOOP's workers: each run comes back with its worker's
host name and addresses and the CPU seconds it cost there, so that a command can say how the work
was shared and name a host that did none (its workers never started, or could not reach the
broker: SCOOP itself says nothing)."""

from __future__ import annotations

import functools
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["HostShare", "on_host", "this_host", "counted"]


@dataclass
class HostShare:
    """One host's share of the runs: how many its workers made and the CPU seconds they cost (a
    contained run's child included), with the addresses the host gives its own name."""

    runs: int = 0
    cpu_seconds: float = 0.0
    addresses: tuple[str, ...] = ()


@functools.lru_cache(maxsize=1)
def this_host() -> tuple[str, tuple[str, ...]]:
    """This machine's host name and its addresses: those its name resolves to here (none where it
    does not; Debian's 127.0.1.1 where it is a loopback one) and, in a process started over ssh, the
    one ssh reached it at (``SSH_CONNECTION``'s third field), which is what the starter's host list
    named."""
    name = socket.gethostname()
    try:
        addresses = list(socket.gethostbyname_ex(name)[2])
    except OSError:
        addresses = []
    connection = os.environ.get("SSH_CONNECTION", "").split()
    if len(connection) == 4:
        addresses.append(connection[2])
    return name, tuple(addresses)


def _cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def on_host(runner: Callable[[Any], Any], task: Any) -> tuple[Any, str, tuple[str, ...], float]:
    """``runner(task)`` on a worker, with the worker's host name and addresses and the CPU seconds
    the run cost there (a module-level function: SCOOP sends it by name)."""
    before = _cpu_seconds()
    result = runner(task)
    name, addresses = this_host()
    return result, name, addresses, _cpu_seconds() - before


def counted(answer: tuple[Any, str, tuple[str, ...], float], hosts: dict[str, HostShare] | None) -> Any:
    """The run's result of an :func:`on_host` answer, its host's share counted in ``hosts``."""
    result, name, addresses, cpu = answer
    if hosts is not None:
        share = hosts.setdefault(name, HostShare(addresses=addresses))
        share.runs += 1
        share.cpu_seconds += cpu
    return result
