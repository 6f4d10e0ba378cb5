"""SCOOP from the command line: ``--workers`` restarts the command under ``python -m scoop``, and the
child knows when its starter has gone."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import subprocess
import sys
import tempfile

import click

from ..io.fileio import process_runs
from ..runs.record import Algorithm


def scoop_options(workers_help: str):
    """``--workers``, ``--hosts`` and ``--hostfile``, for the commands that spread work over SCOOP."""

    def decorate(command):
        command = click.option(
            "--hostfile",
            type=click.Path(exists=True, dir_okay=False),
            default=None,
            help="With --workers: a SCOOP hostfile, one 'host workers' line per host.",
        )(command)
        command = click.option(
            "--hosts",
            default=None,
            metavar="HOST[,HOST...]",
            help="With --workers: the hosts SCOOP starts workers on (password-less ssh; the "
            "package installed on each); 127.0.0.1 runs the multi-host code path "
            "locally.",
        )(command)
        return click.option(
            "--workers", "-n", type=click.IntRange(min=1, max=MAX_WORKERS), default=None, help=workers_help
        )(command)

    return decorate


def check_scoop(workers: int | None, hosts: str | None, hostfile: str | None) -> None:
    """Refuse, before any work, hosts without workers and both ways of naming hosts at once."""
    if (hosts or hostfile) and workers is None:
        raise click.UsageError("--hosts and --hostfile need --workers")
    if hosts and hostfile:
        raise click.UsageError("give --hosts or --hostfile, not both")


COMMAND = "DEAP_SUDOKU_COMMAND"
"""The command line the user typed, for the command SCOOP runs (:func:`started_as`)."""
MAX_WORKERS = 4096
"""The most workers ``--workers`` starts (SCOOP would try to start any number)."""
PARENT_PID = "DEAP_SUDOKU_PARENT_PID"
"""The pid of the command that started SCOOP, for the command it runs there (:func:`starter_gone`)."""


def started_as() -> str:
    """The command line the user typed: this process's, or, in the command SCOOP runs, the one that
    started SCOOP (with its ``--workers``), which experiments record as their provenance."""
    from ..experiments.provenance import command_line

    return os.environ.get(COMMAND) or command_line()


def starter_gone() -> bool:
    """Whether, under SCOOP, the command that started it has died (a SIGKILL, a closed terminal):
    the run there then stops, writes nothing a rerun may already be writing, and SCOOP's launcher
    ends the workers as the run ends."""
    pid = os.environ.get(PARENT_PID, "")
    return pid.isdigit() and not process_runs(int(pid))


def rerun_under_scoop(
    ctx: click.Context, workers: int, hosts: str | None, hostfile: str | None, *, drop: tuple[str, ...]
) -> int:
    """Run this very command again under ``python -m scoop`` (which starts a file, so it is given the
    installed package's ``__main__.py``), without the options in ``drop``; its exit code."""
    spec = importlib.util.find_spec("deap_sudoku.__main__")  # found, not imported
    entry = spec.origin if spec is not None else None
    if entry is None:
        raise click.ClickException("cannot find deap_sudoku's __main__ module to start under SCOOP")
    launcher = [sys.executable, "-m", "scoop"]
    if hosts:
        launcher += ["--hosts", *hosts.split(",")]
    if hostfile:
        launcher += ["--hostfile", hostfile]
    launcher += ["-n", str(workers)]  # after the hosts, which would take every word up to the next option
    command = [entry, *_command_line(ctx, drop=drop)]
    with tempfile.TemporaryDirectory() as folder:
        exit_file = os.path.join(folder, "exit-code")  # SCOOP's launcher does not pass the code on
        pid_file = os.path.join(folder, "root-pid")
        env = {
            **os.environ,
            "DEAP_SUDOKU_EXIT_FILE": exit_file,
            "DEAP_SUDOKU_ROOT_PID_FILE": pid_file,
            PARENT_PID: str(os.getpid()),
            COMMAND: started_as(),
        }
        # In a session of its own, SCOOP's launcher and workers do not see the terminal's Ctrl-C; this
        # process passes each SIGINT or SIGTERM to the command alone, which ends its runs and writes its
        # outputs as it does serially.
        launched = subprocess.Popen(launcher + command, env=env, start_new_session=True)
        while True:
            try:
                launched.wait()
                break
            except KeyboardInterrupt as exc:
                _forward(getattr(exc, "signum", signal.SIGINT), pid_file, launched)
        try:
            with open(exit_file) as handle:
                return int(handle.read())
        except (OSError, ValueError):
            return launched.returncode or 1  # the command never got to say: it did not end well


def _forward(signum: int, pid_file: str, launched: subprocess.Popen) -> None:
    """Pass ``signum`` to the command SCOOP runs; before it has started, end SCOOP altogether."""
    try:
        with open(pid_file) as handle:
            os.kill(int(handle.read()), signum)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.killpg(launched.pid, signal.SIGTERM)


def _command_line(ctx: click.Context, *, drop: tuple[str, ...]) -> list[str]:
    """The arguments that give ``ctx``'s parameters again (``bench a.txt -a tabu --runs 2 ...``)."""
    words = [ctx.info_name or "deap-sudoku"]
    arguments: list[str] = []
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if param.name in drop or value is None:
            continue
        if isinstance(param, click.Argument):
            arguments += [str(v) for v in (value if param.nargs != 1 else [value])]
        elif isinstance(param, click.Option) and param.is_flag:
            if value:
                words.append(param.opts[0])
        elif isinstance(param, click.Option) and param.multiple:
            for item in value:
                words += [param.opts[0], _word(item)]
        else:
            words += [param.opts[0], _word(value)]
    return words + ["--"] + arguments


def _word(value: object) -> str:
    """An option's value as the command line gives it: an algorithm by its name (``-a``)."""
    return value.name if isinstance(value, Algorithm) else str(value)
