"""Where an experiment's results came from: the package, its revision and its dependencies, the
command or call that ran it, the host, the start date and the seed.  Every results file, ``--json``
report and IOHprofiler export carries it, so that a file found beside a paper's table can be traced
to the code and the machine that made it."""

from __future__ import annotations

import datetime
import functools
import platform
import shlex
import socket
import subprocess
import sys
from pathlib import Path

from .._version import __version__

__all__ = ["provenance", "provenance_clock", "revision", "command_line", "DEPENDENCIES"]

DEPENDENCIES = ("deap", "numpy", "numba", "scipy", "ioh")
"""The distributions whose versions a provenance records (None for one not installed)."""


def provenance_clock() -> str:
    """Now, as a provenance's ``started`` holds it: UTC, to the second, ISO 8601."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def provenance(*, seed: int, call: str = "", command: str | None = None, started: str | None = None) -> dict:
    """The provenance of an experiment started at ``started`` (by default now,
    :func:`provenance_clock`): ``call`` is how the library was asked (a ``run_experiment(...)``
    summary), ``command`` the command line (by default this process's, :func:`command_line`)."""
    return {
        "deap_sudoku": __version__,
        "revision": revision(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        **{name: _version(name) for name in DEPENDENCIES},
        "platform": platform.platform(),
        "host": socket.gethostname(),
        "started": started or provenance_clock(),
        "command": command_line() if command is None else command,
        "call": call,
        "seed": seed,
    }


def command_line() -> str:
    """This process's command line as a shell would take it again (``python script.py --runs 3``,
    or ``deap-sudoku bench ...`` for the command line's own process)."""
    program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if program is None:
        return "(interactive)"
    if program.name == "deap-sudoku" or program.resolve() == Path(__file__).resolve().parents[1] / "__main__.py":
        return shlex.join(["deap-sudoku", *sys.argv[1:]])
    return shlex.join([Path(sys.executable).name, *sys.argv])


@functools.lru_cache(maxsize=1)
def revision() -> str | None:
    """The git commit the package runs from, ``+ changes`` when its files differ from it, for a
    package run from a checkout; None for an installed wheel (its version says what it is)."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        commit = _git(root, "rev-parse", "HEAD")
        changed = _git(root, "status", "--porcelain", "--untracked-files=no", "--", "deap_sudoku")
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{commit} + changes" if changed else commit


def _git(root: Path, *arguments: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *arguments], capture_output=True, text=True, timeout=5, check=True)
    return done.stdout.strip()


def _version(distribution: str) -> str | None:
    import importlib.metadata  # here, not at import: it brings the email and socket modules along

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None
