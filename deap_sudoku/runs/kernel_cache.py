"""What this machine has compiled into numba's cache, and compiling it in a background process.

A first-ever compilation of an algorithm's kernels takes 10-25 CPU seconds (``benchmarks/compile_time.py``).
``deap-sudoku solve`` does not make a user wait for it: :func:`compile_elsewhere` starts a
background process that compiles the kernels and then leaves a stamp (:func:`compiled_before`;
first one for the part a run needs from its start, where the algorithm names it), while the run
goes on with the kernels' Python twins (:func:`~deap_sudoku.propagation.choice.hold_compiled`) and
takes the compiled ones up once the stamp is there.  The background process is
:func:`deap_sudoku.runs.kernels.compile_here`.  The exact searches' warm-ups (:func:`warm_up_search`,
:func:`warm_up_learning`), which compile or load their kernels before a timed run, are here too.

A fault never leaves the cache broken for good (issue 60).  The background process holds an
``flock`` on its ``.compiling`` lock file as long as it lives, so a compiler killed half-way, a lock
file that names another program's process (or a zombie's), or one without a process id counts
for nothing, and the next run starts the compile again.  A stamp lists the cache files, sealed
(:mod:`~deap_sudoku.propagation.numba_cache`), it stands for, and is believed only while each of
them is whole: a damaged file is removed with its kernel's other files and the stamps that list
them, said in one line (:func:`notices`), and compiled again in the background while the run
goes on with the Python twins.  Where no folder can hold the cache (:func:`cache_trouble`: read-only,
not a folder, a full disk, ``ulimit -f``), a run under a time budget keeps the Python twins rather
than compile on its clock; a ``NUMBA_CACHE_DIR`` numba cannot write is passed over, as numba itself
does, for the package's ``__pycache__`` or the user's cache (:func:`moved`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..exact import SearchBudgetExceeded, solve, solve_learning
from ..grid.puzzle import Puzzle
from ..io.fileio import fcntl, process_runs
from ..propagation import numba_cache

__all__ = [
    "compiled_before",
    "mark_compiled",
    "compile_elsewhere",
    "compiling_elsewhere",
    "release",
    "cache_folder",
    "cache_trouble",
    "moved",
    "notices",
    "warm_up_search",
    "warm_up_learning",
    "warm_up_clause_learning",
]

STALE_SECONDS = 5.0
"""Where locks cannot be taken (a file system without ``flock``): a lock file without a process id
this old is a leftover (its writer died before writing one)."""

ROOM_BYTES = 16 << 20
"""The room the cache needs to be usable: free space in its folder, and the size a file may have
under ``ulimit -f`` (the kernels' files take 3 MiB; compiling writes them whole)."""

FORMAT = "sealed-1"
"""The stamps' and cache files' format (:mod:`~deap_sudoku.propagation.numba_cache`): stamps of an
earlier one name files that were never sealed, and are not believed."""

_NOTICES: list[str] = []


def notices() -> list[str]:
    """What this process found wrong with the cache since the last call (a line each), for the
    command line to say: damaged files removed, a folder that cannot be written."""
    said = list(dict.fromkeys(_NOTICES))
    _NOTICES.clear()
    return said


def cache_folder() -> Path:
    """Where numba caches the package's kernels, and where the stamps and locks of this module go:
    ``NUMBA_CACHE_DIR`` when set, else the ``__pycache__`` folders beside the package's modules, or,
    where those cannot be written, numba's folder in the user's cache (``~/.cache/numba``): the
    first of them that can be written, as numba itself chooses (:func:`moved` says when
    ``NUMBA_CACHE_DIR`` is passed over); the first of them where none can."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    folders = ([Path(configured)] if configured else []) + _fallbacks()
    return next((folder for folder in folders if not _unwritable(folder)), folders[0])


def _fallbacks() -> list[Path]:
    """Where numba caches the kernels when ``NUMBA_CACHE_DIR`` is not set or cannot be written."""
    in_tree = Path(__file__).resolve().parents[1] / "propagation" / "__pycache__"
    return [in_tree, Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"]


def moved() -> str:
    """Why numba keeps the kernels elsewhere than the ``NUMBA_CACHE_DIR`` it was given, in a line,
    or "" (not set, or usable)."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    why = _unwritable(Path(configured)) if configured else ""
    folder = cache_folder()
    if not why or _unwritable(folder):
        return ""
    return f"NUMBA_CACHE_DIR cannot be used ({why}): numba keeps the kernels in {folder} instead"


def _unwritable(folder: Path) -> str:
    """Why nothing can be written in ``folder`` (made where missing), or ""."""
    if folder.exists() and not folder.is_dir():
        return f"{folder} is not a folder"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        return f"{folder} cannot be written ({exc.strerror or type(exc).__name__})"
    return ""


def cache_trouble() -> str:
    """Why numba cannot keep the kernels in :func:`cache_folder` ("" when it can): not a folder,
    read-only, less than :data:`ROOM_BYTES` free, or files limited below it (``ulimit -f``).  numba
    would not read a cache it cannot write there either (it looks elsewhere), so a stamp there
    counts for nothing then."""
    folder = cache_folder()
    why = _unwritable(folder)
    if why:
        return why
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = ROOM_BYTES
    if free < ROOM_BYTES:
        return f"{folder} has {free >> 10} KiB free"
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    except (ImportError, OSError, ValueError):  # pragma: no cover - not on POSIX
        return ""
    if soft != resource.RLIM_INFINITY and soft < ROOM_BYTES:
        return f"files are limited to {soft >> 10} KiB (ulimit -f)"
    return ""


@functools.cache
def _facts() -> str | None:
    """What a compiled kernel depends on: numba's version, Python's, the kernels' sources, the
    cache's :data:`FORMAT`, and where the package lies (numba files a kernel under its source's path:
    a copy of the package elsewhere, its times kept, finds none of them and compiles in its run)."""
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
        facts = [importlib.metadata.version("numba"), sys.version, FORMAT, str(package)]
        facts += [f"{path.stat().st_mtime_ns}:{path.stat().st_size}" for path in sources]
    except (OSError, importlib.metadata.PackageNotFoundError):
        return None
    return hashlib.sha256("\n".join(facts).encode()).hexdigest()[:16]


def _stamp(name: str, part: str = "") -> Path | None:
    """The file whose presence says that ``name``'s kernels (its ``part`` of them, where given) are
    in numba's cache for this numba, this Python and the kernels' sources as they are; ``None``
    where it cannot be kept.  It lives in :func:`cache_folder`, so clearing that cache clears it
    too, and lists the cache files the kernels were compiled or loaded from (:func:`mark_compiled`)."""
    digest = _facts()
    if digest is None:
        return None
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name + (f"-{part}" if part else ""))
    return cache_folder() / f"deap-sudoku-{safe}-{digest}.compiled"


_SOUND: dict[str, tuple] = {}  # stamp -> the stats of it and its files when last found sound


def _listed(stamp: Path) -> list[str] | None:
    """The cache files ``stamp`` lists, or None for a stamp that does not read (cut short, of an
    earlier format)."""
    try:
        manifest = json.loads(stamp.read_text())
        files = manifest["files"] if manifest.get("format") == FORMAT else None
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return [str(stamp.parent / f) for f in files]  # relative to the cache folder, where in it


def _stats(paths: list[str]) -> tuple:
    stats: list[tuple] = []
    for path in paths:
        try:
            stat = os.stat(path)
            stats.append((path, stat.st_mtime_ns, stat.st_size, stat.st_ino))
        except OSError:
            stats.append((path, None))
    return tuple(stats)


def compiled_before(name: str, part: str = "") -> bool:
    """Whether this machine has compiled ``name``'s kernels before (into numba's cache, which a
    run then loads in well under a second), so that a first run need not compile them, which
    takes many seconds, on its own clock; with ``part`` (``"first"``), that part of them.

    Only where numba reads the cache (a folder it can write: a full one is read), and only while every file the stamp
    lists is there and whole (its seal holds: :func:`~deap_sudoku.propagation.numba_cache.sound`).
    A damaged file is removed with the rest of its kernel's files and every stamp that lists it, and
    :func:`notices` says so: the kernels are compiled again, as on a first run, never loaded."""
    stamp = _stamp(name, part)
    if stamp is None or not stamp.exists() or _unwritable(stamp.parent):  # numba would not read it
        return False
    files = _listed(stamp)
    if files is None:  # cut short (a full disk, a kill), or an earlier format: not believed
        with contextlib.suppress(OSError):
            stamp.unlink()
        return False
    stats = _stats([str(stamp), *files])
    if _SOUND.get(str(stamp)) == stats:
        return True
    for file in files:
        why = numba_cache.sound(file)
        if why:
            _damaged(file, why)
            return False
    _SOUND[str(stamp)] = stats
    return True


def _damaged(file: str, why: str) -> None:
    """Remove the damaged cache file ``file``'s kernel (all its files) and every stamp that lists
    one of them, and say so."""
    gone = {str(path) for path in numba_cache.discard(file)} | {file}
    digest = _facts()
    for stamp in cache_folder().glob(f"deap-sudoku-*-{digest}.compiled"):
        listed = _listed(stamp)
        if listed is None or gone & set(listed):
            with contextlib.suppress(OSError):
                stamp.unlink()
    _NOTICES.append(f"a damaged file in the kernel cache ({Path(file).name}: {why}) was removed")


def mark_compiled(name: str, part: str = "") -> bool:
    """Leave the stamp of :func:`compiled_before`, listing the cache files of every kernel this
    process has compiled or loaded; whether it did.  Nothing where the cache folder cannot be
    written, or where a kernel could not be kept in it (a full disk): runs would then compile on
    their own clock what the stamp claimed was cached."""
    stamp = _stamp(name, part)
    files = numba_cache.cached_files()
    if stamp is None or numba_cache.unsaved() or any(numba_cache.sound(f) for f in files):
        return False
    folder = os.path.abspath(stamp.parent)
    files = [os.path.relpath(f, folder) if f.startswith(folder + os.sep) else f for f in files]
    temporary = stamp.with_name(f".{stamp.name}.{os.getpid()}.tmp")
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps({"format": FORMAT, "files": files}) + "\n")
        os.replace(temporary, stamp)  # whole or absent: a kill or a full disk never leaves a part
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        return False  # a read-only installation: every first run warms up, as before
    return True


def _lock(name: str) -> Path | None:
    stamp = _stamp(name)
    return None if stamp is None else stamp.with_suffix(".compiling")


def _locked(fd: int) -> bool | None:
    """Whether another process holds the ``flock`` of the open lock file ``fd`` (None: the file
    system takes no locks)."""
    if fcntl is None:  # pragma: no cover - not on POSIX
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return None
    fcntl.flock(fd, fcntl.LOCK_UN)
    return False


def _a_compiler(lock: Path) -> bool:
    """Where no lock can be taken: whether the process the lock file names is a background compiler
    (its command line runs :func:`~deap_sudoku.runs.kernels.compile_here`), or the file is younger than
    :data:`STALE_SECONDS` and names none yet."""
    try:
        text = lock.read_text().strip()
        age = time.time() - lock.stat().st_mtime
    except (OSError, UnicodeDecodeError):
        return False
    if not text.isdigit():
        return age < STALE_SECONDS
    try:
        return b"compile_here" in Path(f"/proc/{int(text)}/cmdline").read_bytes()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc here: whether it runs at all
        return process_runs(int(text))


def compiling_elsewhere(name: str) -> bool:
    """Whether a background process is compiling ``name``'s kernels: it holds the lock (``flock``)
    on the lock file, which the kernel drops however it ends, so that a compiler killed half-way, a
    lock file left by an earlier version, or one that names another program's process count for
    nothing and the next run starts the compile again."""
    lock = _lock(name)
    if lock is None:
        return False
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return False
    try:
        held = _locked(fd)
    finally:
        os.close(fd)
    return _a_compiler(lock) if held is None else held


def compile_elsewhere(name: str, puzzle: Puzzle) -> bool:
    """Start a background process that compiles the kernels of the registered algorithm ``name`` for
    ``puzzle``'s shape and leaves the stamp; whether ``name``'s kernels are now being compiled
    elsewhere (by this process's child or one already running).  False where the stamp cannot be
    kept (:func:`cache_trouble`), or no process can be started.

    The child holds the lock file's ``flock`` (its descriptor passed on) until it ends; a lock file
    nobody holds is taken over, whatever it says."""
    lock = _lock(name)
    if lock is None or cache_trouble():
        return False
    for _ in range(3):
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock, os.O_CREAT | os.O_RDWR, 0o644)
        except OSError:
            return False
        taken = _take(fd, lock)
        if taken is not None:
            break
    else:
        return True  # the lock keeps changing hands: others are at it
    if not taken:
        os.close(fd)
        return True
    return _start(name, puzzle, lock, fd)


def _take(fd: int, lock: Path) -> bool | None:
    """Take the lock of the open lock file ``fd``: True (this process holds it, or, where the file
    system takes no locks, no compiler names it), False (a compiler holds it; ``fd`` left open for
    the caller to close), None (the file was replaced meanwhile: ``fd`` closed, try again)."""
    if fcntl is None:  # pragma: no cover - not on POSIX
        return not _a_compiler(lock)
    for attempt in range(3):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:  # a compiler, or a process asking for a moment
            if attempt == 2:
                return False
            time.sleep(0.02)
        except OSError:  # no locks on this file system: the lock file's process, then
            return not _a_compiler(lock)
    try:
        same = os.fstat(fd).st_ino == os.stat(lock).st_ino
    except OSError:
        same = False
    if not same:  # a compiler that just finished removed it: take the new one
        os.close(fd)
        return None
    return True


def _start(name: str, puzzle: Puzzle, lock: Path, fd: int) -> bool:
    """Start the background compiler, handing it the lock ``fd`` holds."""
    box = f"{puzzle.shape.box_rows}x{puzzle.shape.box_cols}"
    cells = ",".join(map(str, puzzle.cells.tolist()))
    code = "import sys; from deap_sudoku.runs.kernels import compile_here; compile_here(*sys.argv[1:])"
    home = str(Path(__file__).resolve().parents[2])  # this copy of the package, wherever it is
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [home, os.environ.get("PYTHONPATH")]))}
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", code, name, box, cells, str(fd)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            pass_fds=(fd,),
        )
    except OSError:
        with contextlib.suppress(OSError):
            lock.unlink()
        os.close(fd)
        return False
    with contextlib.suppress(OSError):  # who holds it, for people (a full disk may refuse the bytes)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{child.pid}\n".encode(), 0)
    os.close(fd)  # the child's copy keeps the lock
    return True


def release(name: str, fd: int | None = None) -> None:
    """Drop the lock of :func:`compile_elsewhere` if this process holds it (the background process,
    once it has compiled ``name``'s kernels or failed to): ``fd``, the lock file's descriptor it
    was handed, where it was."""
    lock = _lock(name)
    try:
        if fd is not None:
            if lock is not None and os.fstat(fd).st_ino == os.stat(lock).st_ino:
                lock.unlink()  # while holding it: a waiting process then takes a new file
        elif lock is not None and lock.read_text().strip() == str(os.getpid()):
            lock.unlink()
    except OSError:
        pass
    finally:
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


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
