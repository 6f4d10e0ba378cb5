"""numba's on-disk cache of the compiled kernels, sealed so that a damaged file is never loaded.

numba keeps each compiled kernel in an index (``.nbi``) and data files (``.nbc``) of pickled
machine code, and trusts them: a file cut short or with a flipped byte ended a command in an
``UnpicklingError``, a ``UnicodeDecodeError``, a ``ModuleNotFoundError`` or LLVM's "Invalid abbrev
number" (issue 60), and a flip inside the machine code itself would run whatever it became.
:func:`guard` makes the package's kernels write every cache file *sealed*: :data:`SEAL`, the
SHA-256 of the rest, then what numba writes.  A file whose seal does not hold (:func:`sound`, which
needs no numba) is never unpickled: its kernel's files are removed and the kernel compiled again,
as numba does for a cache of other sources.  A cache that cannot be written (a read-only folder, a
full disk) leaves the kernel compiled in memory for this process: :func:`unsaved` says so, and no
stamp claims otherwise (:mod:`deap_sudoku.runs.kernel_cache`).

Only the compiled modules import the part of this module that needs numba (:func:`guard`).
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import pickle
from pathlib import Path
from typing import Any

__all__ = ["SEAL", "sound", "sealed", "guard", "cached_files", "unsaved", "damaged", "discard", "kernel_files"]

SEAL = b"dsnbc\x01\r\n"
"""The first bytes of a sealed cache file (then 32 bytes of SHA-256 over the rest)."""

_DIGEST = 32
_GUARDED: list = []  # the package's dispatchers whose cache is sealed
_UNSAVED: list[str] = []  # why a compiled kernel could not be kept in the cache, in this process
_DAMAGED: list[str] = []  # cache files found damaged while loading, in this process


class DamagedFile(Exception):
    """A cache file whose seal does not hold."""


def sealed(body: bytes) -> bytes:
    """``body`` as a sealed cache file holds it."""
    return SEAL + hashlib.sha256(body).digest() + body


def _opened(raw: bytes, path: str | os.PathLike) -> bytes:
    why = _unsound(raw)
    if why:
        raise DamagedFile(f"{Path(path).name}: {why}")
    return raw[len(SEAL) + _DIGEST :]


def _unsound(raw: bytes) -> str:
    if not raw.startswith(SEAL):
        return "cut short" if SEAL.startswith(raw) else "not sealed (damaged, or written by numba itself)"
    if len(raw) < len(SEAL) + _DIGEST:
        return "cut short"
    if hashlib.sha256(raw[len(SEAL) + _DIGEST :]).digest() != raw[len(SEAL) : len(SEAL) + _DIGEST]:
        return "its digest does not match (cut short or changed)"
    return ""


def sound(path: str | os.PathLike) -> str:
    """Why the cache file ``path`` must not be loaded ("" when its seal holds): missing, cut short,
    changed, or not sealed."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    return _unsound(raw)


def kernel_files(path: str | os.PathLike) -> list[Path]:
    """Every cache file of the kernel that ``path`` (an index or a data file) belongs to."""
    path = Path(path)
    base = path.name.split(".py")[0]  # kernel_compiled.propagate_nb-158 of ...-158.py311.2.nbc
    tag = path.name[len(base) :].split(".")[1]  # py311
    try:
        return sorted(
            p for p in path.parent.iterdir() if p.name.startswith(f"{base}.{tag}.") and p.suffix in (".nbi", ".nbc")
        )
    except OSError:
        return []


def discard(path: str | os.PathLike) -> list[Path]:
    """Remove every cache file of the kernel ``path`` belongs to (a damaged one): numba compiles it
    again; the files removed."""
    gone = []
    for file in kernel_files(path):
        try:
            file.unlink()
            gone.append(file)
        except FileNotFoundError:
            pass
        except OSError:
            continue
    return gone


def unsaved() -> list[str]:
    """Why kernels compiled in this process could not be kept in the cache (read-only, full)."""
    return list(_UNSAVED)


def damaged() -> list[str]:
    """The cache files this process found damaged while loading them (removed, compiled again)."""
    return list(_DAMAGED)


def cached_files() -> list[str]:
    """The cache files of every sealed kernel this process has compiled or loaded: each one's index
    and the data files it names, as they are on disk now."""
    files: list[str] = []
    for dispatcher in _GUARDED:
        if not dispatcher.overloads:
            continue
        cache_file = dispatcher._cache._cache_file
        try:
            names = cache_file._load_index().values()
        except Exception:  # damaged since: listed, so that a check finds it
            names = []
        files.append(cache_file._index_path)
        files += [os.path.join(dispatcher._cache.cache_path, name) for name in names]
    return sorted(set(files))


def guard(namespace: dict) -> None:
    """Seal the cache of every numba dispatcher in ``namespace`` that numba caches on disk
    (``njit(cache=True)``), before any is compiled or loaded: call it where a compiled module has
    made them."""
    checked = _classes()
    if checked is None:
        return
    function_cache, cache_file = checked
    numbas: Any = (function_cache.__base__, cache_file.__base__)  # numba's own classes
    for value in namespace.values():
        cache: Any = getattr(value, "_cache", None)
        if type(cache) is numbas[0] and type(cache._cache_file) is numbas[1]:
            cache.__class__ = function_cache
            cache._cache_file.__class__ = cache_file
            _GUARDED.append(value)


@functools.cache
def _classes() -> tuple[type, type] | None:
    """numba's cache, sealed; None where this numba's cache is not the one these were written for."""
    try:
        from numba.core.caching import FunctionCache, IndexDataCacheFile
    except ImportError:  # pragma: no cover - another numba: its own cache, unsealed
        return None
    if not all(
        hasattr(IndexDataCacheFile, name) for name in ("_load_index", "_save_index", "_load_data", "_save_data")
    ):  # pragma: no cover
        return None
    return _sealed_cache(FunctionCache), _sealed_file(IndexDataCacheFile)


def _sealed_file(IndexDataCacheFile: type) -> type:  # noqa: N803 - numba's class
    """numba's pair of index and data files, each sealed."""

    class SealedFile(IndexDataCacheFile):
        def _save_index(self, overloads):
            body = pickle.dumps(self._version, protocol=-1) + self._dump((self._source_stamp, overloads))
            with self._open_for_write(self._index_path) as handle:
                handle.write(sealed(body))

        def _load_index(self):
            try:
                with open(self._index_path, "rb") as handle:
                    raw = handle.read()
            except FileNotFoundError:
                return {}
            stream = io.BytesIO(_opened(raw, self._index_path))
            if pickle.load(stream) != self._version:
                return {}  # another numba's index: compiled again and replaced, as numba does
            stamp, overloads = pickle.loads(stream.read())
            return overloads if stamp == self._source_stamp else {}

        def _save_data(self, name, data):
            with self._open_for_write(self._data_path(name)) as handle:
                handle.write(sealed(self._dump(data)))

        def _load_data(self, name):
            path = self._data_path(name)
            with open(path, "rb") as handle:
                raw = handle.read()
            return pickle.loads(_opened(raw, path))

    return SealedFile


def _sealed_cache(FunctionCache: type) -> type:  # noqa: N803 - numba's class
    """numba's cache of a function, which compiles again what does not load, and keeps in memory
    what it cannot save."""

    class SealedCache(FunctionCache):
        def load_overload(self, sig, target_context):
            try:
                return super().load_overload(sig, target_context)
            except Exception as exc:  # a damaged file (or one that does not rebuild): compiled again
                index = self._cache_file._index_path
                _DAMAGED.append(str(exc) if isinstance(exc, DamagedFile) else f"{Path(index).name}: {exc}")
                discard(index)
                return None

        def save_overload(self, sig, data):
            for _ in range(2):
                try:
                    super().save_overload(sig, data)
                    return
                except DamagedFile:  # the index, damaged since it was loaded: replaced
                    discard(self._cache_file._index_path)
                except Exception as exc:  # read-only, full disk: the kernel stays compiled in memory
                    _UNSAVED.append(f"{type(exc).__name__}: {exc}")
                    return
            _UNSAVED.append("the index stays damaged")

    return SealedCache
