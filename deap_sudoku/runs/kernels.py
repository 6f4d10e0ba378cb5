"""Which kernels a run loads, and when: a run's warm-up (compiled, loaded from numba's cache, or
left to a background process while the run goes on with the Python twins) and that background
process's entry point, :func:`compile_here`."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..grid.puzzle import Puzzle
from ..propagation.choice import LOADING_SECONDS, compilable, hold_compiled, prefer_compiled, python_seconds
from . import kernel_cache
from .kernel_cache import (
    cache_trouble,
    compile_elsewhere,
    compiled_before,
    compiling_elsewhere,
    mark_compiled,
    release,
)
from .record import Algorithm, seeded_globals
from .registry import algorithm

__all__ = ["warm_up", "compile_here"]


_WARM: set[tuple[str, str]] = set()
"""The (algorithm, box shape) pairs whose kernels this process has compiled or loaded."""

_IN_PYTHON: set[tuple[str, str]] = set()
"""The pairs whose runs started on the Python twins here and have not had the compiled ones loaded
for them: a budgeted run of one is held (:func:`_rent`), even after an unbudgeted run warmed it up."""


def warm_up(
    name: str,
    puzzle: Puzzle,
    compiled: bool | None = True,
    *,
    record: Algorithm | None = None,
    budgeted: bool = False,
    taken_up: Callable[[float, float], None] | None = None,
) -> bool:
    """Compile or load the kernels ``name`` needs for ``puzzle``'s shape (its ``record``, where the
    caller has it), once per process; whether a background process compiles them instead (only for a
    bundled algorithm, which that process finds by the name).

    ``compiled=None`` loads only what :mod:`~deap_sudoku.propagation.choice` would use from the
    start, and nothing once this machine has compiled ``name``'s kernels (:func:`compiled_before`):
    one puzzle then never waits for numba unless its run needs the kernels, and loads them on its
    own clock (``deap-sudoku solve``).  On a machine that never compiled them, a background process
    does (:func:`~deap_sudoku.runs.kernel_cache.compile_elsewhere`) while this process's runs use
    the Python twins until the kernels are in the cache, then take them up where they ask their
    budget (:func:`~deap_sudoku.propagation.choice.take_up_compiled`), loading them on their clock;
    ``taken_up(after, loading)`` is then called with the seconds since this warm-up and those the
    loading took.  With ``budgeted`` (runs under a time budget) only there: loading numba inside a
    kernel call, where no budget check reaches, would overrun the budget; for the same reason a
    ``budgeted`` run that starts on the Python twins takes the compiled ones up there too, once Python
    has cost what loading them would (the rule of :mod:`~deap_sudoku.propagation.choice`), and only
    from numba's cache (:func:`_rent`).  ``compiled=True`` (a
    benchmark) compiles or loads everything here, before its first clock starts.  A grid wider than
    :data:`~deap_sudoku.propagation.choice.MAX_COMPILED_SIDE` runs in Python: nothing to load; so
    does every grid where numba is not installed.
    """
    record = record or algorithm(name)
    named = record.source == "bundled"  # a background process finds the record, and so its kernels, by the name
    key = (name, puzzle.shape.name)
    elsewhere = False
    if record.warm_up is not None and key not in _WARM and compilable(puzzle.shape.n):
        ready = compiled is None and compiled_before(name)  # damaged cache files found here are removed
        trouble = cache_trouble() if compiled is None and not ready else ""  # a full cache still loads
        if compiled is None and not _MOVED_SAID and kernel_cache.moved():
            _MOVED_SAID.append(True)
            _say(kernel_cache.moved())
        wanted = compiled is not None or (prefer_compiled(puzzle.shape.cells, puzzle.shape.n) and not ready)
        if compiled is None and trouble and budgeted:
            # numba can keep nothing: compiling here would take the run's budget (10.5 s for a 3 s
            # memetic run on a 36x36), so the whole run goes on with the Python twins
            hold_compiled(lambda: False, budgeted=True)
            _say(f"the kernel cache cannot be used: {trouble}; the run goes on with the Python twins")
        elif wanted:
            if compiled is None and named and not trouble and compile_elsewhere(name, puzzle):
                _hold(name, puzzle, record, budgeted, taken_up)
                elsewhere = True
            else:
                if trouble:
                    _say(f"the kernel cache cannot be used: {trouble}; the kernels are compiled for this run only")
                # the compiled twins, which runs will use: left to choose, a search would try Python first
                compiled = True if compiled is None else compiled
                record.warm_up(puzzle, compiled)
                if compiled:  # a warm-up of the Python twins compiled nothing to remember
                    mark_compiled(name)
        elif compiled is None and not prefer_compiled(puzzle.shape.cells, puzzle.shape.n):
            _IN_PYTHON.add(key)
        _WARM.add(key)
    if compiled is None and budgeted and key in _IN_PYTHON:
        _rent(name, puzzle, record)
    return elsewhere


_MOVED_SAID: list[bool] = []  # not empty once this process has said where the cache went instead


def _say(line: str) -> None:
    """Leave ``line`` for the command line to say (:func:`~deap_sudoku.runs.kernel_cache.notices`)."""
    kernel_cache._NOTICES.append(line)


def _hold(
    name: str, puzzle: Puzzle, record: Algorithm, budgeted: bool, taken_up: Callable[[float, float], None] | None
) -> None:
    """Hold runs on the Python twins while a background process compiles ``name``'s kernels; they
    are taken up, loaded by ``record``'s warm-up, once its stamp is there.  Unbudgeted, also when the
    background process died without one (the kernels are then compiled here, as before it existed);
    ``budgeted``, never compiled on a run's clock, and taken up as soon as the part a run needs from
    its start is cached (``record.warm_up_first``: the background process compiles it first)."""
    load = _loader(name, puzzle, record, taken_up)
    first = record.warm_up_first
    if budgeted:
        ready = (lambda: compiled_before(name)) if first is None else (lambda: compiled_before(name, "first"))
        hold_compiled(ready, load=load, budgeted=True)
    else:
        hold_compiled(lambda: compiled_before(name) or not compiling_elsewhere(name), load=load)


def _rent(name: str, puzzle: Puzzle, record: Algorithm) -> None:
    """Hold a budgeted run that starts on the Python twins there until Python has cost what loading
    the compiled kernels would (:data:`~deap_sudoku.propagation.choice.LOADING_SECONDS`) and they are
    in numba's cache; it then takes them up where it asks its budget, with time left to load them.
    Left to a kernel call, the switch loaded numba and the kernels inside a repair (0.8 s), where no
    budget check reaches: ``solve -a memetic --max-seconds 1`` on a 9x9 ended 0.3-0.5 s late, and on
    a machine that never compiled them it compiled them there (16 s late)."""

    def ready() -> bool:
        return python_seconds() >= LOADING_SECONDS and compiled_before(name)

    load = _loader(name, puzzle, record, None)

    def loaded() -> None:
        load()
        _IN_PYTHON.discard((name, puzzle.shape.name))

    hold_compiled(ready, load=loaded, budgeted=True)


def _loader(
    name: str, puzzle: Puzzle, record: Algorithm, taken_up: Callable[[float, float], None] | None
) -> Callable[[], None]:
    """What takes ``name``'s held kernels up: ``record``'s warm-up, compiled, of the whole (or, not
    cached yet, of the part its runs need first), ``taken_up(after, loading)`` told when done."""
    since = time.perf_counter()
    first = record.warm_up_first
    whole = record.warm_up
    assert whole is not None  # only an algorithm with a warm-up is held

    def load() -> None:
        start = time.perf_counter()
        with seeded_globals(0):  # a warm-up that draws from them leaves the run's draws as they were
            (whole if compiled_before(name) or first is None else first)(puzzle, True)
        if taken_up is not None:
            taken_up(start - since, time.perf_counter() - start)

    return load


def compile_here(name: str, box: str, cells: str, lock: str = "") -> None:
    """The background process of :func:`~deap_sudoku.runs.kernel_cache.compile_elsewhere`: warm
    ``name``'s kernels up compiled on the puzzle of ``box`` (``3x3``) and ``cells``
    (comma-separated), the part its runs need first (``warm_up_first``) first, each part leaving
    its stamp, then drop the lock (``lock``: the descriptor of the lock file it was handed, held
    while it lives)."""
    rows, cols = (int(part) for part in box.split("x"))
    puzzle = Puzzle([int(c) for c in cells.split(",")], box=(rows, cols))
    try:
        first = algorithm(name).warm_up_first
        if first is not None:
            first(puzzle, True)
            mark_compiled(name, "first")
        warm_up(name, puzzle, True)
    finally:
        release(name, int(lock) if lock else None)
