"""Standard output for the commands' data: made blocking before each write, its failures a
:class:`StandardOutputError` that the command's guard turns into one line and exit 2.

A module of its own, light to import: every command's guard wraps standard output with it.
"""

from __future__ import annotations

import fcntl
import io
import os

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
        return _on_stdout(self.stream.write, text)

    def flush(self) -> None:
        _on_stdout(self.stream.flush)

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

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
        return _on_stdout(self._buffer.write, data)

    def flush(self) -> None:
        _on_stdout(self._buffer.flush)

    def __getattr__(self, name: str):
        return getattr(self._buffer, name)
