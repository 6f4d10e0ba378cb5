"""Writing files atomically and without overwriting what the user did not ask to replace."""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import IO

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: nothing is locked, process ids tell what runs
    fcntl = None

__all__ = [
    "write_atomic",
    "AtomicFile",
    "remove_stale_temporaries",
    "read_limited",
    "name_problem",
    "lock_for_writing",
    "release",
    "FileInUse",
    "process_runs",
    "forget_locks",
]


def write_atomic(path: str | os.PathLike, data: str | bytes, *, overwrite: bool = False) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one
    (:class:`AtomicFile`, for data that comes in pieces).

    :raises FileExistsError: if ``path`` exists and ``overwrite`` is false.
    """
    with AtomicFile(path, overwrite=overwrite) as out:
        out.write(data)


class AtomicFile:
    """A file written in pieces that appears at ``path`` whole on :meth:`commit`, or not at all.

    The pieces go to a temporary file in the same folder (named with the writer's pid, so that
    :func:`remove_stale_temporaries` can tell a dead writer's), which is flushed to disk and then
    moved into place.  Without ``overwrite`` the move is a hard link, which fails if ``path``
    exists, so an existing file is never replaced even by a race.  As a context manager it
    commits when the block ends normally and discards on an exception.

    :raises FileExistsError: if ``path`` exists and ``overwrite`` is false, or is not a regular file.
    """

    def __init__(self, path: str | os.PathLike, *, overwrite: bool = False) -> None:
        self.target, self.overwrite = Path(path), overwrite
        if not overwrite and self.target.exists():
            raise FileExistsError(f"{self.target} exists; refusing to overwrite it")
        if self.target.exists() and not self.target.is_file():
            raise FileExistsError(
                f"{self.target} is not a regular file (a device, pipe or socket); refusing to replace it"
            )
        swept = os.path.abspath(self.target.parent)
        if swept not in _SWEPT:
            _SWEPT.add(swept)
            remove_stale_temporaries(self.target)
        fd, self.temporary = tempfile.mkstemp(
            dir=self.target.parent or ".", prefix=f".{self.target.name}.{os.getpid()}.", suffix=TEMPORARY
        )
        _hold(fd)  # a live writer's temporary is locked: another writer never takes it for a dead one's
        try:
            os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes it private; give it a normal file's mode
            self.handle = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            os.unlink(self.temporary)
            raise

    def write(self, data: str | bytes) -> None:
        self.handle.write(data.encode("utf-8") if isinstance(data, str) else data)

    def commit(self, *, to: str | os.PathLike | None = None) -> None:
        """Move the whole file into place: at the target, or, ``to`` given, at that other path,
        which it never replaces (an interrupted run's part, beside a file it must not replace)."""
        if to is not None:
            self.target, self.overwrite = Path(to), False
        target = self.target
        try:
            self.handle.flush()
            os.fsync(self.handle.fileno())
            self.handle.close()
            if self.overwrite:
                os.replace(self.temporary, target)
            else:
                try:
                    os.link(self.temporary, target)
                except FileExistsError:
                    raise FileExistsError(f"{target} exists; refusing to overwrite it") from None
                except OSError:  # a file system without hard links: check, then move
                    if target.exists():
                        raise FileExistsError(f"{target} exists; refusing to overwrite it") from None
                    os.replace(self.temporary, target)
        finally:
            self.discard()
        _look_again(target)

    def discard(self) -> None:
        """Drop what was written (after :meth:`commit`, remove the temporary name only)."""
        with contextlib.suppress(OSError):
            self.handle.close()
        if os.path.exists(self.temporary):
            os.unlink(self.temporary)

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


TEMPORARY = ".deap-sudoku.tmp"
"""How the name of :class:`AtomicFile`'s temporary file ends: ``.NAME.PID.RANDOM.deap-sudoku.tmp``,
so that the next run anywhere in the folder knows it for one of this package's (and no other program's)."""

TEMPORARY_EXTRA = len(".{name}.{pid}.XXXXXXXX" + TEMPORARY) - len("{name}") - len("{pid}") + 10
"""What :class:`AtomicFile`'s temporary name adds to the target's (dots, a pid of up to 10 digits, the
random part, :data:`TEMPORARY`)."""


def name_problem(path: str | os.PathLike) -> str | None:
    """Why ``path`` cannot be written atomically, before anything is written: a name whose temporary
    twin (:class:`AtomicFile`) is longer than the folder allows, or a symbolic link to nothing; None
    when it can."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    length = len(os.fsencode(target.name))
    if length + TEMPORARY_EXTRA > limit:
        return (
            f"the name is {length} bytes; with the temporary name written beside it first, that is over this "
            f"folder's limit of {limit}: give a name of at most {limit - TEMPORARY_EXTRA} bytes"
        )
    if target.is_symlink() and not target.exists():
        return f"is a symbolic link to {os.readlink(target)}, which does not exist; give another name"
    return None


class FileInUse(OSError):
    """Another process holds the lock of a file this one would write (:func:`lock_for_writing`)."""


_LOCKS: dict[str, IO] = {}  # lock path -> the open file holding this process's lock


def lock_for_writing(path: str | os.PathLike) -> None:
    """Make this process the one writer of ``path`` until it ends: an advisory lock (``flock``) on
    ``PATH.lock``, which also names the holder.  The kernel drops the lock when the process ends,
    however it ends, so a killed run never leaves a stale one; the lock file is removed at a normal
    exit.  Taking it twice in one process is a no-op; where ``fcntl`` does not exist, nothing is locked.

    :raises FileInUse: naming the process that holds it.
    """
    lock = str(Path(path)) + ".lock"
    if fcntl is None or lock in _LOCKS:
        return
    handle = open(lock, "a+")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise FileInUse(f"{path} is in use by {holder}; wait for it to end, or give this run another file") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"process {os.getpid()} on {os.uname().nodename}\n")
    handle.flush()
    _LOCKS[lock] = handle
    if len(_LOCKS) == 1:
        atexit.register(_release_all)


def release(path: str | os.PathLike) -> None:
    """Give up this process's lock of ``path`` (:func:`lock_for_writing`), removing the lock file."""
    lock = str(Path(path)) + ".lock"
    handle = _LOCKS.pop(lock, None)
    if handle is not None:
        with contextlib.suppress(OSError):
            os.unlink(lock)  # while still holding it: no other process has it to lose
        handle.close()


def forget_locks() -> None:
    """In a process forked from one that holds locks: close this process's copies of the lock files
    (the locks stay the forking process's, and end with it, not with this one)."""
    for handle in _LOCKS.values():
        handle.close()
    _LOCKS.clear()


def _release_all() -> None:
    for lock in list(_LOCKS):
        release(lock.removesuffix(".lock"))


def read_limited(handle, limit: int) -> bytearray:
    """All of ``handle``, read 1 MiB at a time, or its first bytes past ``limit`` (check the
    length): a device or pipe, whose size says nothing, is never read much beyond ``limit``, and
    no buffer of ``limit`` bytes is set aside for a small file."""
    data = bytearray()
    while len(data) <= limit and (chunk := handle.read(1 << 20)):
        data += chunk
    return data


STALE_AFTER = 1.0
"""Seconds a temporary file must be old before it can be taken for a dead writer's (the moment
between its creation and its writer's lock)."""


def remove_stale_temporaries(path: str | os.PathLike) -> list[Path]:
    """Delete the temporary files that writes in ``path``'s folder left behind when their writer was
    killed (this package's, of any target, and the unmarked ones of ``path`` that earlier versions
    wrote), and return them.  A live writer holds an advisory lock on its temporary file, which a
    writer in another PID namespace (a container sharing the folder, whose process ids this one
    cannot see) holds too, so a file is stale only when the process id in its name does not run here,
    nobody holds its lock, and it is older than :data:`STALE_AFTER`; a younger one is looked at again
    when a write of its target commits."""
    target = Path(path)
    folder = target.parent
    candidates = set(folder.glob(".*" + TEMPORARY)) | set(folder.glob(glob.escape(f".{target.name}.") + "*.tmp"))
    removed = []
    for leftover in sorted(candidates):
        writer = _writer(leftover.name)
        try:
            if writer is None:
                continue
            if time.time() - leftover.stat().st_mtime < STALE_AFTER:
                _YOUNG.setdefault(str(folder / _target_name(leftover.name)), []).append(leftover)
            elif _unlocked_unlink(leftover, writer):
                removed.append(leftover)
        except FileNotFoundError:
            continue
    return removed


def _target_name(name: str) -> str:
    """The target a temporary file's name (``.NAME.PID.RANDOM[.deap-sudoku].tmp``) was written for."""
    stem = name.removesuffix(TEMPORARY) if name.endswith(TEMPORARY) else name.removesuffix(".tmp")
    return stem.rsplit(".", 2)[0][1:]


_YOUNG: dict[str, list[Path]] = {}
"""Temporaries too young to judge when a write of their target began (a writer killed a moment
before): looked at again when that write commits."""


def _look_again(target: Path) -> None:
    """Remove the temporaries of ``target`` that were too young to judge when this write began and
    whose writer is gone (a rerun started right after a kill): waiting, if need be, until they are
    :data:`STALE_AFTER` old, which happens only after a crash."""
    for leftover in _YOUNG.pop(str(target), ()):
        writer = _writer(leftover.name)
        if writer is None or process_runs(writer):
            continue  # a live writer in this PID namespace: not ours to judge
        with contextlib.suppress(FileNotFoundError):
            wait = STALE_AFTER - (time.time() - leftover.stat().st_mtime)
            if 0 < wait <= STALE_AFTER:
                time.sleep(wait)
            _unlocked_unlink(leftover, writer)


_SWEPT: set[str] = set()
"""The folders in which this process has removed stale temporaries: once each, when it first writes
there, so that writing thousands of files into one folder stays linear."""


def _writer(name: str) -> int | None:
    """The process id in a temporary file's name (``.NAME.PID.RANDOM.deap-sudoku.tmp``, or the
    ``.NAME.PID.RANDOM.tmp`` of earlier versions), or None for a name of another form."""
    stem = name.removesuffix(TEMPORARY) if name.endswith(TEMPORARY) else name.removesuffix(".tmp")
    parts = stem.rsplit(".", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def _hold(fd: int) -> None:
    if fcntl is not None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _unlocked_unlink(leftover: Path, writer: int) -> bool:
    """Delete ``leftover`` if its writer is gone: the process id in its name does not run here and
    nobody holds its lock; whether it was deleted."""
    if process_runs(writer):
        return False
    if fcntl is None:  # pragma: no cover - not on POSIX: the process id is all there is
        leftover.unlink()
        return True
    with open(leftover, "rb") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # a live writer, in this PID namespace or another
        leftover.unlink()  # while holding the lock: no writer can hold it now
    return True


def process_runs(pid: int) -> bool:
    """Whether process ``pid`` runs (in this PID namespace); another user's counts as running, a
    zombie (dead, its parent yet to collect its exit code: a driver script blocked reading the pipes
    the dead process shared with its children) does not."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"  # the state follows the name
    except (OSError, IndexError):
        return True  # no /proc: a process that takes signals runs


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
