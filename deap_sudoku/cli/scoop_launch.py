"""SCOOP's launcher with the options meant for the other hosts kept off this one (issue 62, item 2).

SCOOP gives ``--prolog``, ``--python-interpreter`` and ``--path`` (the command line's
``--remote-folder``) to every host's workers, this machine's too, and starts this machine's
workers without a shell: a prolog became a program named ``source`` (exit 255), an interpreter
that exists only on the other hosts was not found here (exit 127), and this machine's worker ran
in the other hosts' folder, where the command's relative inputs are not (exit 2) and its outputs
landed, or failed where that folder does not exist here.  Here this machine's workers run as the
command itself does: its interpreter, its folder and its environment, which a prolog prepares on
the other hosts.  ``--workers`` starts SCOOP as ``python -m deap_sudoku.cli.scoop_launch ARGS``,
ARGS being SCOOP's own.
"""

from __future__ import annotations

import os
import runpy
import sys

from scoop.launch import workerLaunch

__all__ = ["local_worker_command", "launch"]

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


def launch() -> None:
    """Run SCOOP's launcher (``python -m scoop``) on this process's arguments, with
    :func:`local_worker_command` in place."""
    workerLaunch.Host._getWorkerCommandList = local_worker_command
    runpy.run_module("scoop", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    launch()
