"""What this machine has compiled into numba's cache, and compiling it in a background process.

A first-ever compilation of an algorithm's kernels takes 15-70 s (``benchmarks/first_run.py``).
``deap-sudoku solve`` does not make a user wait for it: :func:`compile_elsewhere` starts a
background process that compiles the kernels and then leaves a stamp (:func:`compiled_before`;
first one for the part a run needs from its start, where the algorithm names it), while the run
goes on with the kernels' Python twins (:func:`~deap_sudoku.propagation.choice.hold_compiled`) and
takes the compiled ones up once the stamp is there.  The background process is
:func:`deap_sudoku.runs.task.compile_here`.  The exact searches' warm-ups (:func:`warm_up_search`,
:func:`warm_up_learning`), which compile or load their kernels before a timed run, are here too.
"""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

from ..exact import SearchBudgetExceeded, solve, solve_learning
from ..grid.puzzle import Puzzle
from ..io.fileio import process_runs

__all__ = [
    "compiled_before",
    "mark_compiled",
    "compile_elsewhere",
    "compiling_elsewhere",
    "release",
    "cache_folder",
    "warm_up_search",
    "warm_up_learning",
    "warm_up_clause_learning",
]

STALE_SECONDS = 60.0
"""A lock file without a process id this old is a leftover (its writer died before writing one)."""


def cache_folder() -> Path:
    """Where numba caches the package's kernels: ``NUMBA_CACHE_DIR`` when set, else the
    ``__pycache__`` folders beside the package's modules (numba falls back to a per-user folder
    where those cannot be written)."""
    package = Path(__file__).resolve().parents[1]
    return Path(os.environ.get("NUMBA_CACHE_DIR") or package / "propagation" / "__pycache__")


@functools.cache
def _facts() -> str | None:
    """What a compiled kernel depends on: numba's version, Python's, and the kernels' sources."""
    import importlib.metadata

    package = Path(__file__).resolve().parents[1]
    sources = [
        package / "propagation" / "kernel_compiled.py",
        package / "algorithms" / "repair_kernel_compiled.py",
        package / "exact" / "backtracking_compiled.py",
        package / "exact" / "clause_learning_kernel.py",
        package / "exact" / "clause_learning_state.py",
        package / "tools" / "ant_colony_kernel.py",
    ]
    try:
        facts = [importlib.metadata.version("numba"), sys.version]
        facts += [f"{path.stat().st_mtime_ns}:{path.stat().st_size}" for path in sources]
    except (OSError, importlib.metadata.PackageNotFoundError):
        return None
    return hashlib.sha256("\n".join(facts).encode()).hexdigest()[:16]


def _stamp(name: str, part: str = "") -> Path | None:
    """The file whose presence says that ``name``'s kernels (its ``part`` of them, where given) are
    in numba's cache for this numba, this Python and the kernels' sources as they are; ``None``
    where it cannot be kept.  It lives in :func:`cache_folder`, so clearing that cache clears it
    too."""
    digest = _facts()
    if digest is None:
        return None
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name + (f"-{part}" if part else ""))
    return cache_folder() / f"deap-sudoku-{safe}-{digest}.compiled"


def compiled_before(name: str, part: str = "") -> bool:
    """Whether this machine has compiled ``name``'s kernels before (into numba's cache, which a
    run then loads in well under a second), so that a first run need not compile them, which
    takes many seconds, on its own clock; with ``part`` (``"first"``), that part of them."""
    stamp = _stamp(name, part)
    return stamp is not None and stamp.exists()


def mark_compiled(name: str, part: str = "") -> None:
    """Leave the stamp of :func:`compiled_before` (nothing where the cache folder is read-only)."""
    stamp = _stamp(name, part)
    if stamp is not None:
        try:
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.touch()
        except OSError:
            pass  # a read-only installation: every first run warms up, as before


def _lock(name: str) -> Path | None:
    stamp = _stamp(name)
    return None if stamp is None else stamp.with_suffix(".compiling")


def compiling_elsewhere(name: str) -> bool:
    """Whether a live background process is compiling ``name``'s kernels (its lock file names it)."""
    lock = _lock(name)
    if lock is None:
        return False
    try:
        text = lock.read_text().strip()
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return False
    if not text.isdigit():
        return age < STALE_SECONDS  # just made: its process id is being written
    return process_runs(int(text))


def compile_elsewhere(name: str, puzzle: Puzzle) -> bool:
    """Start a background process that compiles the kernels of the registered algorithm ``name`` for
    ``puzzle``'s shape and leaves the stamp; whether ``name``'s kernels are now being compiled
    elsewhere (by this process's child or one already running).  False where the stamp cannot be
    kept (a read-only cache folder): the caller compiles in the foreground, as before."""
    lock = _lock(name)
    if lock is None:
        return False
    for _ in range(2):
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            break
        except FileExistsError:
            if compiling_elsewhere(name):
                return True
            lock.unlink(missing_ok=True)  # its process died before it finished
        except OSError:
            return False
    else:
        return False
    box = f"{puzzle.shape.box_rows}x{puzzle.shape.box_cols}"
    cells = ",".join(map(str, puzzle.cells.tolist()))
    code = "import sys; from deap_sudoku.runs.task import compile_here; compile_here(*sys.argv[1:])"
    home = str(Path(__file__).resolve().parents[2])  # this copy of the package, wherever it is
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [home, os.environ.get("PYTHONPATH")]))}
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", code, name, box, cells],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    except OSError:
        os.close(descriptor)
        lock.unlink(missing_ok=True)
        return False
    with os.fdopen(descriptor, "w") as handle:
        handle.write(str(child.pid))
    return True


def release(name: str) -> None:
    """Drop the lock of :func:`compile_elsewhere` if this process holds it (the background process,
    once it has compiled ``name``'s kernels or failed to)."""
    lock = _lock(name)
    try:
        if lock is not None and lock.read_text().strip() == str(os.getpid()):
            lock.unlink()
    except OSError:
        pass


def warm_up_search(puzzle: Puzzle, compiled: bool | None) -> None:
    """Compile or load the exact search's kernels for ``puzzle``'s shape (a one-node search)."""
    try:
        solve(puzzle, max_nodes=1, compiled=compiled)
    except SearchBudgetExceeded:
        pass


def warm_up_learning(puzzle: Puzzle, compiled: bool | None) -> None:
    """Compile or load the clause-learning search's kernel (:func:`warm_up_clause_learning`), and
    the exact search's: ``solve --unique`` asks it whether a puzzle ``cdcl`` solved has another
    solution.  (It never asks whether one ``cdcl`` left unsolved has a solution: the run proved
    there is none, or its time budget is spent.)"""
    warm_up_clause_learning(puzzle, compiled)
    warm_up_search(puzzle, compiled)


def warm_up_clause_learning(puzzle: Puzzle, compiled: bool | None) -> None:
    """Compile or load the clause-learning search's kernel alone (a search of one conflict at most):
    what a ``cdcl`` run needs from its start (compiling it took 25 s of the 59 s the whole
    warm-up took, a machine busy with other work)."""
    try:
        solve_learning(puzzle, max_conflicts=1, compiled=compiled)
    except SearchBudgetExceeded:
        pass
