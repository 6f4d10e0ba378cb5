"""The way back from the command SCOOP runs to the command that started SCOOP, on whatever host.

SCOOP runs the command on its first host, over ``ssh -tt`` when that host is another machine, and
every remote worker's output arrives on SCOOP's standard output too (a terminal's: stdout and stderr
merged, CRLF line ends).  So the command's standard output travels framed, one line per chunk of at
most :data:`CHUNK` bytes (``@@<token> o <base64>``; a line that short is written whole even when
other processes write to the same pipe), its standard error beside it (``e``), its exit code as
``@@<token> x <code>``; the starter (:class:`Unframer`) puts the frames' bytes on its standard output
and error, and everything else, line ends mended, on standard error.  What the command needs from
its starter's environment travels in one word of its command line (:func:`carried_word`,
:func:`read_carried`): the environment does not cross ssh.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import os
import secrets
import sys
import threading

CARRIED = "deap-sudoku-scoop:"
"""The start of the word that carries the starter's variables (no dash: SCOOP's parsers would take
it for one of their options; base64url: SCOOP quotes words for the remote shell with ``"``)."""
CHUNK = 2048
"""Bytes of standard output per frame: its line stays under the pipe's atomic write (4096)."""


def carried_word(variables: dict[str, str], token: str, *, stdout_tty: bool, stderr_tty: bool) -> str:
    """The word for the command's line: ``variables``, the frames' token, and whether the starter's
    standard streams are terminals (the command's own are SCOOP's, or a remote pseudo-terminal)."""
    data = {"env": variables, "token": token, "stdout_tty": stdout_tty, "stderr_tty": stderr_tty}
    return CARRIED + base64.urlsafe_b64encode(json.dumps(data).encode()).decode()


def read_carried(argv: list[str]) -> dict | None:
    """What :func:`carried_word` put first in ``argv[1:]``, taken out of ``argv``; None without it."""
    if len(argv) < 2 or not argv[1].startswith(CARRIED):
        return None
    word = argv.pop(1)
    try:
        return json.loads(base64.urlsafe_b64decode(word[len(CARRIED) :]))
    except (ValueError, binascii.Error):
        return None


class FramedOutput(io.RawIOBase):
    """The command's standard output (``kind`` ``o``) or error (``e``) as frames on file descriptor
    ``fd``: both on the same one keep the order the command wrote them in (a grid, then the progress
    bar drawn again below it)."""

    def __init__(self, fd: int, token: str, *, tty: bool, kind: bytes = b"o") -> None:
        self.fd, self.prefix, self.tty, self.kind = fd, f"@@{token} ".encode(), tty, kind + b" "

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.tty

    def fileno(self) -> int:
        return self.fd

    def write(self, data) -> int:
        data = bytes(data)
        for start in range(0, len(data), CHUNK):
            self._line(self.kind + base64.b64encode(data[start : start + CHUNK]))
        return len(data)

    def exit(self, code: int) -> None:
        """Say the command's exit code, the last frame."""
        self._line(b"x %d" % code)

    def _line(self, body: bytes) -> None:
        line = self.prefix + body + b"\n"
        while line:
            line = line[os.write(self.fd, line) :]


class Unframer:
    """The starter's side: reads SCOOP's standard output, the frames' bytes to standard output,
    everything else to standard error, and keeps the exit code."""

    def __init__(self) -> None:
        self.token = secrets.token_hex(8)
        self.prefix = f"@@{self.token} ".encode()
        self.exit_code: int | None = None
        self.failed: OSError | None = None  # standard output failed: the rest is dropped

    def start(self, pipe) -> threading.Thread | None:
        if pipe is None:
            return None
        thread = threading.Thread(target=self.read, args=(pipe,), daemon=True)
        thread.start()
        return thread

    def read(self, pipe) -> None:
        for line in iter(pipe.readline, b""):
            self.take(line)

    def take(self, line: bytes) -> None:
        """One line of SCOOP's standard output: a frame (maybe after a message without its line end)
        or a message."""
        at = line.find(self.prefix)
        text, frame = (line, b"") if at < 0 else (line[:at], line[at + len(self.prefix) :].rstrip(b"\r\n"))
        if text.strip(b"\r\n"):
            self.message(text.replace(b"\r\n", b"\n") + (b"" if text.endswith(b"\n") else b"\n"))
        if frame.startswith(b"o "):
            self.data(base64.b64decode(frame[2:]))
        elif frame.startswith(b"e "):
            self.message(base64.b64decode(frame[2:]))
        elif frame.startswith(b"x "):
            self.exit_code = int(frame[2:])

    def data(self, chunk: bytes) -> None:
        if self.failed is None:
            try:
                sys.stdout.buffer.write(chunk)
                sys.stdout.flush()
            except OSError as exc:
                self.failed = exc

    @staticmethod
    def message(text: bytes) -> None:
        sys.stderr.write(text.decode(errors="replace"))
        sys.stderr.flush()
