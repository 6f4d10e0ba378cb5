"""Timing a test against the machine, never against the wall clock alone (issue 61).

A budget test used to assert an absolute bound (``took < 0.6``); two shared cores busy with other
suites stretched such runs past it (the colony's and a signal test failed once each under load and
passed alone).  The work a run does past its budget costs CPU time, and CPU time is what a loaded
machine does not stretch: a process waiting for a core is not charged for the wait.  So a run is
timed in CPU seconds (its own process's, or its finished children's for a command run as one), and
its bound is the budget plus a *calibration* run's CPU time, measured in the same test: the same
call with no time to spend, which pays the start-up, the loading and a first generation.  A run that
ignores its budget, or stops one generation late on a slow generation, costs more than that.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


def cpu_seconds(children: bool = False) -> float:
    """User + system CPU seconds of this process (all its threads), or of its children waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a running process has had so far (Linux: ``/proc/PID/stat``), 0 once it is gone."""
    import os

    try:
        fields = open(f"/proc/{pid}/stat").read().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Spent:
    """What a timed block cost: CPU seconds (see :func:`cpu_seconds`) and wall seconds."""

    cpu: float = 0.0
    wall: float = 0.0


@contextmanager
def spent(children: bool = False) -> Iterator[Spent]:
    """Time the block: ``with spent() as took: ...`` then ``took.cpu``, ``took.wall``."""
    took = Spent()
    cpu, wall = cpu_seconds(children), time.perf_counter()
    try:
        yield took
    finally:
        took.cpu, took.wall = cpu_seconds(children) - cpu, time.perf_counter() - wall


def timed(call: Callable[[], T], children: bool = False) -> tuple[T, Spent]:
    """``call()`` and what it cost."""
    with spent(children) as took:
        value = call()
    return value, took


def kept(took: Spent, budget: float, calibration: Spent) -> bool:
    """Whether a run given ``budget`` seconds of wall time kept it, judged against the machine.

    The run may go past its budget by a step begun just before the deadline; a first step is what the
    calibration (the same call with no time to spend, timed in the same test) pays, start included,
    so the overrun may cost one and a half calibrations of CPU time, plus a quarter of the budget (a
    garbage collection, a burst).  On a shared machine that CPU time takes longer on the wall by the
    run's own share of a core (its CPU time over its wall time), so the overrun allowed in wall
    seconds is divided by that share.  A budget read three times too long fails it while the run's
    share is above 1/8 + 3/4 of the calibration's cost over the budget (a third of a core or more for
    the costliest calibration here); a loaded machine stretches the allowance, never the verdict."""
    share = min(1.0, took.cpu / took.wall) if took.wall > 0 else 1.0
    allowed = 0.25 * budget + 1.5 * calibration.cpu
    # a CPU-bound run that spent no more CPU than its budget and the allowance kept it, however long
    # a crowded machine made it on the wall (load 6 stretched a 1 s memetic run to 2.4 s for 0.56 s of CPU)
    return took.wall - budget <= allowed / max(share, 0.05) or took.cpu <= budget + allowed
