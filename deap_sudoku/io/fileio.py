"""Writing files atomically and without overwriting what the user did not ask to replace."""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = ["write_atomic", "remove_stale_temporaries", "read_limited"]


def write_atomic(path: str | os.PathLike, data: str | bytes | Iterable[str | bytes], *,
                 overwrite: bool = False) -> None:
    """Write ``data`` (text, bytes, or an iterable of either, written as it comes) to ``path`` so
    that readers see the old file or the whole new one; an exception while the iterable runs
    leaves no file behind.

    The data goes to a temporary file in the same folder, is flushed to disk,
    and is then moved into place.  Without ``overwrite`` the move is a hard
    link, which fails if ``path`` exists, so an existing file is never
    replaced even by a race.

    :raises FileExistsError: if ``path`` exists and ``overwrite`` is false.
    """
    target = Path(path)
    if not overwrite and target.exists():
        raise FileExistsError(f"{target} exists; refusing to overwrite it")
    if target.exists() and not target.is_file():
        raise FileExistsError(f"{target} is not a regular file (a device, pipe or socket); refusing to replace it")
    chunks = [data] if isinstance(data, (str, bytes, bytearray)) else data
    remove_stale_temporaries(target)
    fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes it private; give it a normal file's mode
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)
            except FileExistsError:
                raise FileExistsError(f"{target} exists; refusing to overwrite it") from None
            except OSError:  # a file system without hard links: check, then move
                if target.exists():
                    raise FileExistsError(f"{target} exists; refusing to overwrite it") from None
                os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def read_limited(handle, limit: int) -> bytearray:
    """All of ``handle``, read 1 MiB at a time, or its first bytes past ``limit`` (check the
    length): a device or pipe, whose size says nothing, is never read much beyond ``limit``, and
    no buffer of ``limit`` bytes is set aside for a small file."""
    data = bytearray()
    while len(data) <= limit and (chunk := handle.read(1 << 20)):
        data += chunk
    return data


def remove_stale_temporaries(path: str | os.PathLike) -> list[Path]:
    """Delete the temporary files that writes of ``path`` left behind when their process was killed
    (its id is in the name and it no longer runs); return them.  A live process's are kept."""
    target = Path(path)
    removed = []
    for leftover in target.parent.glob(glob.escape(f".{target.name}.") + "*.tmp"):
        writer = leftover.name[len(target.name) + 2:].split(".", 1)[0]
        if writer.isdigit() and not _running(int(writer)):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
                removed.append(leftover)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
