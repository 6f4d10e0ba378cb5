"""SCOOP's launcher with the options meant for the other hosts kept off this one (issue 62, item 2).

SCOOP gives ``--prolog``, ``--python-interpreter`` and ``--path`` (the command line's
``--remote-folder``) to every host's workers, this machine's too, and starts this machine's
workers without a shell: a prolog became a program named ``source`` (exit 255), an interpreter
that exists only on the other hosts was not found here (exit 127), and this machine's worker ran
in the other hosts' folder, where the command's relative inputs are not (exit 2) and its outputs
landed, or failed where that folder does not exist here.  Here this machine's workers run as the
command itself does: its interpreter, its folder and its environment, which a prolog prepares on
the other hosts.  ``--workers`` starts SCOOP as ``python -m deap_sudoku.cli.scoop_launch ARGS``,
ARGS being SCOOP's own.  Where SCOOP cannot start at all (the first host down), one line says why.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import os
import runpy
import sys
from collections.abc import Callable

from scoop import launcher
from scoop.launch import workerLaunch

from .errors import wrap

__all__ = ["local_worker_command", "launch", "said_why", "why"]

_worker_command = workerLaunch.Host._getWorkerCommandList


def local_worker_command(host: workerLaunch.Host) -> list[str]:
    """``host``'s worker command as SCOOP builds it, without the other hosts' prolog, interpreter
    and folder when ``host`` is this machine."""
    if not host.isLocal():
        return _worker_command(host)
    arguments = host.workersArguments
    host.workersArguments = arguments._replace(prolog=None, pythonExecutable=sys.executable, path=os.getcwd())
    try:
        return _worker_command(host)
    finally:
        host.workersArguments = arguments


def said_why(run: Callable[[launcher.ScoopApp], object]) -> Callable[[launcher.ScoopApp], object]:
    """``ScoopApp.run`` that, where SCOOP cannot start (the first host down or unreachable over
    ssh), says why in one message on standard error (wrapped to a terminal's width) and returns 1,
    where SCOOP printed its traceback and exited with 255."""

    @functools.wraps(run)
    def run_or_say(app: launcher.ScoopApp) -> object:
        try:
            return run(app)
        except Exception as exc:  # noqa: BLE001 - SCOOP raises Exception itself
            print(wrap(f"error: SCOOP could not start: {why(exc)}"), file=sys.stderr, flush=True)
            return 1

    return run_or_say


def why(exc: Exception) -> str:
    """SCOOP's error in a line: its first line, and the last line ssh wrote where it has one."""
    text = str(exc)
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    ssh_said = ""
    if "SSH process stderr:\n" in text:
        written = text.split("SSH process stderr:\n", 1)[1].strip()
        with contextlib.suppress(ValueError, SyntaxError):
            written = ast.literal_eval(written).decode(errors="replace")
        lines = [line.strip() for line in str(written).splitlines() if line.strip()]
        ssh_said = lines[-1] if lines else ""
    return f"{first.rstrip('.')} ({ssh_said})" if ssh_said else first


def launch() -> None:
    """Run SCOOP's launcher (``python -m scoop``) on this process's arguments, with
    :func:`local_worker_command` and :func:`said_why` in place."""
    workerLaunch.Host._getWorkerCommandList = local_worker_command
    launcher.ScoopApp.run = said_why(launcher.ScoopApp.run)
    runpy.run_module("scoop", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    launch()
