"""Standard output for the commands' data: made blocking before each write, its failures a
:class:`StandardOutputError` that the command's guard turns into one line and exit 2.

A module of its own, light to import: every command's guard wraps standard output with it.
"""

from __future__ import annotations

import fcntl
import io
import os
import select

from .errors import StandardOutputError


def _on_stdout(action, *args):
    """``action(*args)``, a write or flush of standard output, its failure a :class:`StandardOutputError`.
    Standard output is made blocking first: ssh, under SCOOP's launcher, sets ``O_NONBLOCK`` on the
    pipe it shares with this process, and a write the pipe could not take at once was dropped (a
    ``--json -`` document cut at 32 or 64 KiB, exit 0)."""
    _blocking(getattr(action, "__self__", None))  # the stream the write or flush is a method of
    try:
        return action(*args)
    except OSError as exc:
        raise StandardOutputError(exc.errno, exc.strerror) from None


def _blocking(stream) -> None:
    """Clear ``O_NONBLOCK`` on ``stream``'s file (shared with whoever set it: it asks for blocking
    writes, which every writer of a pipe can take)."""
    try:
        fd = stream.fileno()
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        if flags & os.O_NONBLOCK:
            fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
    except (AttributeError, OSError, ValueError):  # no file behind it (a test's capture), or closed
        pass


class StandardOutput(io.TextIOBase):
    """Standard output, whose failures are :class:`StandardOutputError`."""

    def __init__(self, stream) -> None:
        self.stream = stream

    @classmethod
    def around(cls, stream) -> StandardOutput:
        return stream if isinstance(stream, cls) else cls(stream)

    def write(self, text: str) -> int:
        return _on_stdout(self._write, text)

    def _write(self, text: str) -> int:
        raw = getattr(self.stream, "buffer", None)
        if not isinstance(raw, io.RawIOBase) or os.linesep != "\n":
            return self.stream.write(text)
        # Unbuffered (python -u, PYTHONUNBUFFERED, as in many containers): the text layer writes each
        # text to the file once and drops what a write interrupted by a signal did not take (a stop and
        # a continue while the pipe is full: a --json - document cut at 64 KiB, exit 0).
        self.stream.flush()
        _write_all(raw, text.encode(self.encoding, self.errors))
        return len(text)

    def fileno(self) -> int:
        return self.stream.fileno()

    def flush(self) -> None:
        _on_stdout(self.stream.flush)

    def isatty(self) -> bool:
        return self.stream.isatty()

    def writable(self) -> bool:
        return True

    @property
    def buffer(self):
        return _BinaryOutput(self.stream.buffer)

    @property
    def encoding(self) -> str:  # type: ignore[override]  # TextIOBase declares it a plain attribute
        return getattr(self.stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "errors", None) or "strict"


class _BinaryOutput:
    """Standard output's binary side, whose failures are :class:`StandardOutputError` too."""

    def __init__(self, buffer) -> None:
        self._buffer = buffer

    def write(self, data: bytes) -> int:
        if isinstance(self._buffer, io.RawIOBase):  # unbuffered: one write may take only a part
            return _on_stdout(self._write_all, data)
        return _on_stdout(self._buffer.write, data)

    def _write_all(self, data: bytes) -> int:
        _write_all(self._buffer, data)
        return len(data)

    def fileno(self) -> int:
        return self._buffer.fileno()

    def flush(self) -> None:
        _on_stdout(self._buffer.flush)

    def __getattr__(self, name: str):
        return getattr(self._buffer, name)


def _write_all(raw, data: bytes) -> None:
    """Write all of ``data`` to the raw file ``raw``, a part at a time as the file takes it; a file
    another process made non-blocking again meanwhile is waited on until it can take more."""
    view = memoryview(data)
    while view:
        written = raw.write(view)
        if written is None:  # it would block: wait until the reader has taken some
            select.select([], [raw.fileno()], [])
            continue
        view = view[written:]
