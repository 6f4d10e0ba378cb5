"""Graceful stops: SIGINT and SIGTERM become a request that long runs honour at a safe point.

Inside :func:`graceful`, the first Ctrl-C (or SIGTERM) only records the request;
the GAs ask :func:`requested` between their children, at most every
:data:`~deap_sudoku.algorithms.stop.POLL_SECONDS` (passed to them as
``Stop(requested=requested)``; tabu search every 256 steps), drop the
generation in progress, stop with ``logbook.stop_reason == "interrupted"``,
write their final checkpoint and return the best grid so far.  A second
signal (SIGINT or SIGTERM) raises ``KeyboardInterrupt`` at once.  With ``cooperative=False`` (for code that never
checks, such as the exact search) the first signal raises ``KeyboardInterrupt``
and :func:`requested` still tells which signal it was.  Outside
:func:`graceful` nothing changes.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

from ..algorithms.stop import INTERRUPTED

__all__ = ["graceful", "requested", "exit_code", "INTERRUPTED"]
_received: list[int] = []


def requested() -> int | None:
    """The signal number of a pending stop request, or None."""
    return _received[0] if _received else None


def exit_code(signum: int | None) -> int:
    """The shell's code for a process stopped by ``signum``: 130 for SIGINT, 143 for SIGTERM."""
    return 128 + int(signum or signal.SIGINT)


def _request(signum: int, frame) -> None:
    again = bool(_received)
    _received.append(signum)
    if again:  # a second SIGINT or SIGTERM: stop at once (container runtimes send SIGTERM twice too)
        raise KeyboardInterrupt


def _hold(signum: int, frame) -> None:
    _received.append(signum)


def _raise(signum: int, frame) -> None:
    _received.append(signum)
    raise KeyboardInterrupt


@contextmanager
def graceful(
    *, cooperative: bool = True, hold: bool = False, signals: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)
) -> Iterator[None]:
    """Turn ``signals`` into stop requests (or, not ``cooperative``, into ``KeyboardInterrupt``)
    for the duration of the block; main thread only.  Read :func:`requested` inside the block.
    ``hold``: every signal, however many and however fast, is only recorded (for writing outputs
    that must come out whole)."""
    handler = _hold if hold else _request if cooperative else _raise
    previous = {s: signal.signal(s, handler) for s in signals}
    _received.clear()
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old)
        _received.clear()
