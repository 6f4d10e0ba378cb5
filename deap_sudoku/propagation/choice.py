"""Which twin of a kernel to run: the compiled one where it pays for loading numba, else Python.

Loading numba and the cached kernels costs a fixed ~0.4 s per process
(``benchmarks/first_answer.py`` measures it), more than a whole 9x9 search or
repair run takes in Python.  So small grids start in Python and every
Python call is charged to a process-wide account; once the account reaches
the loading cost the compiled twin takes over (the "ski rental" rule, never
more than twice the better choice's time).  Grids of :data:`COMPILED_FROM_CELLS`
cells and more, and every grid once numba is loaded, use the compiled twin at
once.  The twins give the same results on the same inputs, so the choice only
changes how long a run takes, never what it finds.

An exact search on a larger grid first *probes* in Python for :data:`PROBE_SECONDS`
before numba is loaded (:func:`probe_seconds`): a 25x25 puzzle at 50 % givens takes tens of
search nodes, milliseconds in Python, against half a second to load numba.  A probe that
does not settle the search is thrown away and the compiled search starts over, so the
answer is the same either way.

Without numba (a Python it has no wheel for yet, an install without it) every kernel runs its
Python twin: :func:`numba_available` says so, and ``compiled=True`` is refused.  While another
process compiles the kernels into numba's cache, :func:`hold_compiled` keeps a run on the Python
twins until they are there, and the run takes them up where it asks its budget
(:func:`take_up_compiled`): the exact searches between nodes or conflicts, the GAs between children.

This module is the one place where the choice is made: :func:`prefer_compiled` for each kernel
call, :func:`compilable` and :func:`compiled_from_the_start` for what a warm-up loads before a run
(:func:`deap_sudoku.runs.kernels.warm_up`) and what the command line says when numba is missing.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NoReturn

__all__ = [
    "numba_available",
    "load_numba",
    "numba_trouble",
    "NumbaUnavailable",
    "COMPILED_FROM_CELLS",
    "MAX_COMPILED_SIDE",
    "LOADING_SECONDS",
    "PROBE_SECONDS",
    "HOLD_POLL_SECONDS",
    "prefer_compiled",
    "compilable",
    "compiled_from_the_start",
    "hold_compiled",
    "take_up_compiled",
    "TAKE_UP_SECONDS",
    "probe_seconds",
    "check_compiled",
    "charged",
    "python_seconds",
    "interrupted_kernel",
]

COMPILED_FROM_CELLS = 82
"""Grids with at least this many cells use the compiled kernels from the start (measured with
``benchmarks/exact_solvers.py --kernel``: on 16x16 the compiled search is 4-7x faster per node)."""
MAX_COMPILED_SIDE = 64
"""The widest grid whose candidate masks fit the compiled kernels' 64-bit words (value 64's bit is
an ``int64``'s sign bit: see :func:`deap_sudoku.propagation.tables.int64_masks`)."""
LOADING_SECONDS = 0.4
"""What importing numba and loading the cached kernels costs (``benchmarks/first_answer.py``)."""

PROBE_SECONDS = 0.1
"""How long an exact search on a grid that starts compiled may first try in Python, while numba
is not loaded (``benchmarks/first_answer.py``: most 25x25 puzzles at 50 % givens are settled
within it; the probe costs at most this much where they are not)."""

HOLD_POLL_SECONDS = 0.25
"""How often a run held on the Python twins (:func:`hold_compiled`) asks whether it may stop."""

TAKE_UP_SECONDS = 3.0
"""The time budget a run must have left to take the compiled kernels up (:func:`take_up_compiled`):
loading numba and an algorithm's cached kernels took 0.65-0.7 s on a 36x36 (cdcl, the memetic GA,
the ant colony), and 1.0-1.8 s in a first ``cdcl`` run while the background process went on
compiling the exact search beside it (``benchmarks/first_run.py``).  A run with less left keeps
the Python twins to its end rather than end late."""

_spent = [0.0]
_held: list = []  # [until, when to ask next, load, budgeted] while compiled kernels are held back


def python_seconds() -> float:
    """Seconds this process has spent in Python kernels that a compiled twin could have run."""
    return _spent[0]


class NumbaUnavailable(ImportError):
    """numba is installed but could not be loaded here: out of memory (``ulimit -v``), a broken
    install.  From then on :func:`numba_available` says no, and every kernel runs its Python twin."""


_TROUBLE: list[str] = []


NUMBA_ADDRESS_SPACE = 1 << 30
"""The address space loading numba and a kernel takes, with a margin: under ``ulimit -v`` below
about 650 MiB, LLVM aborts the process ("Unable to allocate section memory", no exception to
catch); 650 MiB and more loaded every kernel (``bench -a cdcl -a memetic -a backtracking`` on a
25x25).  Under a smaller limit the Python twins run."""


def numba_available() -> bool:
    """Whether numba can be used here: installed (found without importing it: that costs ~0.4 s),
    not found unloadable by :func:`load_numba`, and room for it under ``ulimit -v``."""
    if not _installed() or _TROUBLE:
        return False
    short = _address_space_short()
    if short:
        _TROUBLE.append(short)
        return False
    return True


@functools.cache
def _address_space_short() -> str:
    """Why ``ulimit -v`` leaves no room to load numba (:data:`NUMBA_ADDRESS_SPACE`), or ``""``."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):
        return ""
    if soft == resource.RLIM_INFINITY or soft >= NUMBA_ADDRESS_SPACE:
        return ""
    return f"ulimit -v {soft / 2**20:.0f} MiB is less than the {NUMBA_ADDRESS_SPACE >> 20} MiB it takes to load"


@functools.cache
def _installed() -> bool:
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


def load_numba():
    """Import numba, as the compiled kernels' modules do.

    :raises NumbaUnavailable: when it is there but cannot be loaded (out of memory shows as a
        ``MemoryError``, or as an ``OSError`` of a shared library llvmlite cannot map), saying why;
        :func:`numba_available` is then false for the rest of the process.
    """
    if _installed() and not numba_available():  # room for it under ulimit -v: none
        raise NumbaUnavailable(f"numba could not be loaded ({_TROUBLE[0]})")
    try:
        import numba

        _skip_blas_probe()
    except (ImportError, MemoryError, OSError) as exc:
        first = str(exc).split(". ")[0].splitlines()[0] if str(exc) else ""
        _TROUBLE.append(f"{type(exc).__name__}{': ' + first if first else ''}")
        raise NumbaUnavailable(f"numba could not be loaded ({_TROUBLE[0]})") from None
    return numba


def _skip_blas_probe() -> None:
    """Load numba's array functions without their probe for a BLAS: ``numba.np.arraymath`` imports
    ``scipy.linalg.cython_blas`` when numba's CPU target first loads (0.3-0.7 s of a first kernel
    call from the cache, a third of ``solve -a acs``'s start-up on a 16x16), and no kernel of this
    package calls BLAS.  The probe's answer is set from whether SciPy is installed, so a user's own
    ``np.dot`` in a numba function still imports it, where numba asks for it, when first compiled."""
    if "numba.np.arraymath" in sys.modules:
        return
    probe = "scipy.linalg.cython_blas"
    held = probe in sys.modules
    if not held:
        sys.modules[probe] = None  # type: ignore[assignment]  # an ImportError for the probe alone
    try:
        import numba.np.arraymath as arraymath
    finally:
        if not held:
            del sys.modules[probe]
    arraymath._HAVE_BLAS = importlib.util.find_spec("scipy") is not None


def numba_trouble() -> str:
    """Why numba could not be loaded in this process, or ``""``."""
    return _TROUBLE[0] if _TROUBLE else ""


def prefer_compiled(cells: int, side: int) -> bool:
    """Whether a kernel call on a grid of ``cells`` cells and ``side`` values should be compiled."""
    if not compilable(side) or _holding():
        return False
    return compiled_from_the_start(cells, side) or "numba" in sys.modules or _spent[0] >= LOADING_SECONDS


def compilable(side: int) -> bool:
    """Whether compiled kernels can run a grid of ``side`` values here: numba loads, and the side
    fits their 64-bit masks."""
    return side <= MAX_COMPILED_SIDE and numba_available()


def compiled_from_the_start(cells: int, side: int) -> bool:
    """Whether a grid's kernel calls are compiled from the first one, where numba can run them
    (:data:`COMPILED_FROM_CELLS` cells or more), rather than once Python has cost the loading."""
    return cells >= COMPILED_FROM_CELLS and side <= MAX_COMPILED_SIDE


def hold_compiled(
    until: Callable[[], bool] | None, *, load: Callable[[], None] | None = None, budgeted: bool = False
) -> None:
    """Run the Python twins, even where the compiled ones would pay, until ``until()`` is true (asked
    at most every :data:`HOLD_POLL_SECONDS`); ``None`` lifts the hold.  While another process
    compiles the kernels into numba's cache, a run neither compiles them itself nor waits for them,
    and takes them up, loaded from the cache, once they are there.  The twins give the same answers,
    so a hold changes how long a run takes, never what it finds.

    A run takes the kernels up where it asks its budget (:func:`take_up_compiled`), which calls
    ``load`` (numba and the kernels loaded there, on the run's clock); without ``budgeted`` the first
    kernel call after ``until()`` turns true may take them up too, loading them inside that call.  A
    ``budgeted`` hold (runs under a time budget) waits for :func:`take_up_compiled`: loading numba
    inside a kernel call, where no budget check reaches, made a 0.5 s budget run 0.35 s over."""
    _held[:] = [] if until is None else [until, 0.0, load, budgeted]


def _holding() -> bool:
    if not _held:
        return False
    until, ask_at, _, budgeted = _held
    now = time.perf_counter()
    if budgeted or now < ask_at:
        return True
    if until():
        _held.clear()
        return False
    _held[1] = now + HOLD_POLL_SECONDS
    return True


def take_up_compiled(deadline: float | None = None) -> bool:
    """Where a run asks its budget, between two kernel calls: end a hold (:func:`hold_compiled`)
    whose kernels are now in the cache, loading them here, and say whether it did, so that a search
    that chose its twin when it began can go on with the compiled one.  Nothing happens (False) more
    often than every :data:`HOLD_POLL_SECONDS`, nor with less than :data:`TAKE_UP_SECONDS` left
    before ``deadline`` (a :func:`time.perf_counter` reading): the loading counts in the run's
    budget, and the run still ends in time."""
    if not _held:
        return False
    until, ask_at, load, _ = _held
    now = time.perf_counter()
    if now < ask_at:
        return False
    _held[1] = now + HOLD_POLL_SECONDS
    if (deadline is not None and deadline - now < TAKE_UP_SECONDS) or not until():
        return False
    _held.clear()  # before loading: a load that runs a search must not take them up again
    if load is not None:
        try:
            load()
        except NumbaUnavailable:  # it cannot be loaded here after all: the twins go on
            return False
    return True


def probe_seconds(cells: int, side: int) -> float:
    """Seconds a search that :func:`prefer_compiled` sends to the compiled twin may first spend in
    Python: :data:`PROBE_SECONDS` until numba is loaded or Python has cost that much, else 0."""
    if not compiled_from_the_start(cells, side) or "numba" in sys.modules:
        return 0.0
    return max(0.0, PROBE_SECONDS - _spent[0])


def check_compiled(compiled: bool | None, side: int) -> None:
    """Refuse ``compiled=True`` for a grid of ``side`` values that the compiled kernels cannot hold,
    or where numba is not installed."""
    if compiled and not numba_available():
        raise ValueError("compiled=True needs numba, which is not installed here (pip install numba)")
    if compiled and side > MAX_COMPILED_SIDE:
        raise ValueError(f"the compiled kernels hold sides up to {MAX_COMPILED_SIDE}, not {side}")


@contextmanager
def charged() -> Iterator[None]:
    """Charge the time of the ``with`` block (a Python kernel call) to :func:`python_seconds`."""
    start = time.perf_counter()
    try:
        yield
    finally:
        _spent[0] += time.perf_counter() - start


def interrupted_kernel(error: SystemError) -> NoReturn:
    """Raise what a compiled kernel's ``SystemError`` stands for: when a Ctrl-C (or a SIGTERM made
    one) is handled while numba's dispatcher converts a call's arguments or result, the handler's
    ``KeyboardInterrupt`` comes out as "returned a result with an exception set", which no
    ``except KeyboardInterrupt`` would catch.  Call it in ``except SystemError as error:``
    around a kernel call; any other ``SystemError`` is raised again as it was."""
    if isinstance(error.__cause__, KeyboardInterrupt):
        raise error.__cause__.with_traceback(None) from None
    raise error
