"""SCOOP from the command line: ``--workers`` restarts the command under ``python -m scoop``, and the
child knows when its starter has gone."""

from __future__ import annotations

import contextlib
import importlib.util
import ipaddress
import os
import signal
import socket
import subprocess
import sys
import tempfile
import types
from collections.abc import Mapping

import click

from ..io.fileio import process_runs
from ..runs.hosts import HostShare, this_host
from ..runs.record import Algorithm
from .numbers import count
from .errors import terminal


LAUNCH_OPTIONS = ("tunnel", "external_hostname", "python_interpreter", "remote_folder", "prolog", "verbose")
"""The options for SCOOP's launcher alone: the command SCOOP runs gets them no more."""


def scoop_options(workers_help: str):
    """``--workers``, ``--hosts`` and ``--hostfile``, for the commands that spread work over SCOOP,
    and the launcher's options a cluster needs (routing, another interpreter or folder, a prolog)."""

    def decorate(command):
        for option in reversed(_LAUNCH):
            command = option(command)
        command = click.option(
            "--hostfile",
            type=click.Path(exists=True, dir_okay=False),
            default=None,
            help="A SCOOP hostfile, one 'host workers' line per host.",
        )(command)
        command = click.option(
            "--hosts",
            default=None,
            metavar="HOST[,HOST...]",
            help="Hosts to run workers on (password-less ssh; see docs/cluster.md).",
        )(command)
        return click.option("--workers", "-n", type=count(1, MAX_WORKERS), default=None, help=workers_help)(command)

    return decorate


_LAUNCH = (
    click.option(
        "--tunnel",
        is_flag=True,
        default=None,
        help="Workers reach this machine by ssh tunnels (chosen by itself without a route).",
    ),
    click.option(
        "--external-hostname",
        default=None,
        metavar="HOST",
        help="The name other hosts reach this one by (default: its address towards them).",
    ),
    click.option(
        "--python-interpreter",
        default=None,
        metavar="PATH",
        help="The Python on the other hosts (default: this one's path).",
    ),
    click.option(
        "--remote-folder",
        default=None,
        metavar="DIR",
        help="The working folder on the other hosts (default: this one).",
    ),
    click.option(
        "--prolog",
        default=None,
        metavar="SCRIPT",
        help="A script the other hosts source before their workers start (module load, a venv).",
    ),
    click.option(
        "--verbose",
        "-v",
        count=True,
        help="SCOOP's own messages (-vv: its debugging ones); quiet without.",
    ),
)


def check_scoop(workers: int | None, hosts: str | None, hostfile: str | None, scheduler: str | None = None) -> None:
    """Refuse, before any work, hosts or launcher options without workers, both ways of naming
    hosts at once, and SCOOP's workers with a Dask scheduler."""
    if workers is not None and scheduler is not None:
        raise click.UsageError("give --workers (SCOOP) or --scheduler (Dask), not both")
    if (hosts or hostfile) and workers is None:
        raise click.UsageError("--hosts and --hostfile need --workers")
    if hosts and hostfile:
        raise click.UsageError("give --hosts or --hostfile, not both")
    context = click.get_current_context(silent=True)
    given = context.params if context is not None else {}
    for name in LAUNCH_OPTIONS:
        if given.get(name) and workers is None:
            raise click.UsageError(f"--{name.replace('_', '-')} needs --workers")
    if given.get("tunnel") and given.get("external_hostname"):
        raise click.UsageError("give --tunnel or --external-hostname, not both")


COMMAND = "DEAP_SUDOKU_COMMAND"
"""The command line the user typed, for the command SCOOP runs (:func:`started_as`)."""
MAX_WORKERS = 4096
"""The most workers ``--workers`` starts (SCOOP would try to start any number)."""
PARENT_PID = "DEAP_SUDOKU_PARENT_PID"
"""The pid of the command that started SCOOP, for the command it runs there (:func:`starter_gone`)."""
PARENT_HOST = "DEAP_SUDOKU_PARENT_HOST"
"""The machine of that command: its pid means something only there."""
HOSTS = "DEAP_SUDOKU_HOSTS"
"""The hosts SCOOP was given, ``name:workers`` each, for the command it runs (:func:`idle_hosts`)."""


def started_as() -> str:
    """The command line the user typed: this process's, or, in the command SCOOP runs, the one that
    started SCOOP (with its ``--workers``), which experiments record as their provenance."""
    from ..experiments.provenance import command_line

    return os.environ.get(COMMAND) or command_line()


def starter_gone() -> bool:
    """Whether, under SCOOP, the command that started it has died (a SIGKILL, a closed terminal):
    the run there then stops, writes nothing a rerun may already be writing, and SCOOP's launcher
    ends the workers as the run ends.  On another host than the starter's this cannot be known
    (False): there the end of the ssh session ends the run."""
    pid = os.environ.get(PARENT_PID, "")
    if os.environ.get(PARENT_HOST, socket.gethostname()) != socket.gethostname():
        return False
    return pid.isdigit() and not process_runs(int(pid))


def rerun_under_scoop(
    ctx: click.Context, workers: int, hosts: str | None, hostfile: str | None, *, drop: tuple[str, ...]
) -> int:
    """Run this very command again under ``python -m scoop`` (which starts a file, so it is given the
    installed package's ``__main__.py``), without the options in ``drop`` and the launcher's own; its
    exit code.

    The first host SCOOP names runs the command, here or over ssh, whose environment and files do
    not cross: the variables it needs travel in one word of its command line (:mod:`deap_sudoku.__main__`
    reads it), and its standard output comes back framed (:mod:`deap_sudoku.cli.channel`) in SCOOP's,
    where everything else (remote workers' messages, with ``ssh -tt``'s CRLF line ends) is sent to
    standard error."""
    from .channel import Unframer, carried_word

    spec = importlib.util.find_spec("deap_sudoku.__main__")  # found, not imported
    entry = spec.origin if spec is not None else None
    if entry is None:
        raise click.ClickException("cannot find deap_sudoku's __main__ module to start under SCOOP")
    with tempfile.TemporaryDirectory() as folder:
        verbose = bool(ctx.params.get("verbose"))
        listed, hosts, hostfile = _hosts_here_first(folder, hosts, hostfile, workers, verbose=verbose)
        launcher = _launcher(ctx.params, workers, hosts, hostfile)
        exit_file = os.path.join(folder, "exit-code")  # SCOOP's launcher does not pass the code on
        pid_file = os.path.join(folder, "root-pid")
        variables = {
            "DEAP_SUDOKU_EXIT_FILE": exit_file,
            "DEAP_SUDOKU_ROOT_PID_FILE": pid_file,
            PARENT_PID: str(os.getpid()),
            PARENT_HOST: socket.gethostname(),
            COMMAND: started_as(),
            HOSTS: " ".join(f"{name}:{count}" for name, count in listed),
        }
        env = {**os.environ, **variables}
        carried = {k: v for k, v in env.items() if k.startswith("DEAP_SUDOKU_")}
        unframer = Unframer()
        word = carried_word(carried, unframer.token, stdout_tty=terminal(sys.stdout), stderr_tty=terminal(sys.stderr))
        command = [entry, word, *_command_line(ctx, drop=(*drop, *LAUNCH_OPTIONS))]
        # In a session of its own, SCOOP's launcher and workers do not see the terminal's Ctrl-C; this
        # process passes each SIGINT or SIGTERM to the command alone, which ends its runs and writes its
        # outputs as it does serially.
        # Not the terminal as standard input: SCOOP's ssh -tt would put it in raw mode for the run
        # (this command's lines then stair-stepped across the screen).
        stdin = subprocess.DEVNULL if terminal(sys.stdin) else None
        launched = subprocess.Popen(
            launcher + command, env=env, start_new_session=True, stdout=subprocess.PIPE, stdin=stdin
        )
        reading = unframer.start(launched.stdout)
        unreached = _wait_passing_signals(launched, pid_file)
        code = _ended(launched, reading, unframer, exit_file)
        if unreached is None or unframer.exit_code is not None:
            return code
        click.echo(
            f"interrupted by {signal.Signals(unreached).name} before the command had started, or while it "
            "ran on another host (this machine is not among the hosts): SCOOP ended; the runs finished are "
            "in --results, where given, and a rerun with it goes on from them",
            err=True,
        )
        return 128 + unreached


def _hosts_here_first(
    folder: str, hosts: str | None, hostfile: str | None, workers: int, *, verbose: bool
) -> tuple[list[tuple[str, int]], str | None, str | None]:
    """The hosts as SCOOP reads them, and the ``--hosts`` and ``--hostfile`` to give it: a hostfile
    in ``folder`` with this machine's lines first where it is listed but not first (:func:`here_first`)."""
    listed = listed_hosts(hosts.split(",") if hosts else None, hostfile, workers)
    moved = _moved_here_first(listed)
    if moved is None:
        return listed, hosts, hostfile
    hostfile = os.path.join(folder, "hosts")
    with open(hostfile, "w") as handle:
        handle.writelines(f"{name} {count}\n" for name, count in moved)
    if verbose:
        click.echo(f"SCOOP: this machine ({moved[0][0]}) first, to run the command", err=True)
    return moved, None, hostfile


def _wait_passing_signals(launched: subprocess.Popen, pid_file: str) -> int | None:
    """Wait for SCOOP's launcher, passing each SIGINT or SIGTERM on (:func:`_forward`); the last
    signal that could not reach the command, or None."""
    unreached = None
    while True:
        try:
            launched.wait()
            return unreached
        except KeyboardInterrupt as exc:
            signum = getattr(exc, "signum", signal.SIGINT)
            if not _forward(signum, pid_file, launched):
                unreached = signum


def _launcher(params: dict, workers: int, hosts: str | None, hostfile: str | None) -> list[str]:
    """SCOOP's launcher (:mod:`~deap_sudoku.cli.scoop_launch`, which keeps the other hosts' options
    off this machine's workers) with its options: verbosity, hosts, routing, the other hosts'
    interpreter, folder and prolog, and the number of workers."""
    launch = {name: params.get(name) for name in LAUNCH_OPTIONS}
    launcher = [sys.executable, "-m", "deap_sudoku.cli.scoop_launch", *_verbosity(launch["verbose"] or 0)]
    if hosts:
        launcher += ["--hosts", *hosts.split(",")]
    if hostfile:
        launcher += ["--hostfile", hostfile]
    launcher += _routing(launch, hosts, hostfile, verbose=bool(launch["verbose"]))
    for name, flag in (("python_interpreter", "--python-interpreter"), ("remote_folder", "--path")):
        if launch[name]:
            launcher += [flag, str(launch[name])]
    if launch["prolog"]:
        launcher += ["--prolog", os.path.abspath(launch["prolog"])]
    return launcher + ["-n", str(workers)]  # after the hosts, which would take every word up to the next option


def _ended(launched: subprocess.Popen, reading, unframer, exit_file: str) -> int:
    """The command's exit code, once SCOOP's launcher has ended: its last frame, else its exit file."""
    # SCOOP's launcher ends its hosts' launch processes, not always their workers: a worker left
    # (seen once with the first host elsewhere) waits for ever for a broker that has gone, holding
    # the pipe open.  The launcher's session is SCOOP's alone.
    if launched.pid:
        with contextlib.suppress(OSError):
            os.killpg(launched.pid, signal.SIGTERM)
    if reading is not None:
        reading.join(timeout=10)
    if unframer.failed is not None:
        raise unframer.failed  # a StandardOutputError: the guard says so in one line
    if unframer.exit_code is not None:
        return unframer.exit_code
    try:
        with open(exit_file) as handle:
            return int(handle.read())
    except (OSError, ValueError):
        return launched.returncode or 1  # the command never got to say: it did not end well


def _verbosity(verbose: int) -> list[str]:
    """SCOOP's launcher's verbosity: quiet (no INFO lines, no workers' "Launching" lines) unless -v;
    -vv its debugging."""
    return ["--quiet"] if verbose == 0 else ["-v"] * (verbose - 1)


def _routing(launch: dict, hosts: str | None, hostfile: str | None, *, verbose: bool) -> list[str]:
    """``--tunnel`` or ``--external-hostname`` as given, or as chosen (:func:`route`)."""
    if launch["tunnel"]:
        return ["--tunnel"]
    if launch["external_hostname"]:
        return ["--external-hostname", str(launch["external_hostname"])]
    chosen = route(hosts.split(",") if hosts else None, hostfile)
    if chosen and verbose:
        click.echo(f"SCOOP: {' '.join(chosen)} (this machine's name leads to a loopback address)", err=True)
    return chosen


def route(hosts: list[str] | None, hostfile: str | None) -> list[str]:
    """The routing SCOOP needs that it would not find: where the name SCOOP gives the other hosts for
    this machine is a loopback one (``localhost``, or a name that resolves to 127.0.0.1, Debian's
    default), the address this machine reaches the first other host from, else ssh tunnels; where
    the first host, which SCOOP gives its broker, is a name this machine cannot resolve (an ssh
    alias), ssh tunnels.  Nothing for one host or hosts that are all this machine."""
    try:
        from scoop import utils

        listed = utils.getHosts(hostfile, hosts)  # SCOOP's own reading, the batch scheduler's included
        others = [name for name, _ in listed if name not in utils.localHostnames]
        if len(listed) < 2 or not others:
            return []
        if listed[0][0] in others:
            return ["--tunnel"] if _unresolved(listed[0][0]) else []
        try:
            external = utils.externalHostname(listed)
        except Exception:  # noqa: BLE001 - this machine's own name does not resolve: no route SCOOP finds
            external = "localhost"
    except Exception:  # noqa: BLE001 - SCOOP will say what is wrong with the hosts itself
        return []
    if not _loopback(external):
        return []
    address = _address_towards(others[0])
    return ["--external-hostname", address] if address and not _loopback(address) else ["--tunnel"]


def _addresses(name: str) -> set[str]:
    """The addresses ``name`` resolves to here (none where it does not)."""
    try:
        return {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
    except (OSError, UnicodeError):
        return set()


def _unresolved(name: str) -> bool:
    return not _addresses(name)


def _loopback(name: str) -> bool:
    """Whether ``name`` resolves here to loopback addresses only (or not at all)."""
    return all(ipaddress.ip_address(address.split("%")[0]).is_loopback for address in _addresses(name))


def _address_towards(host: str) -> str | None:
    """The address of this machine that the route to ``host`` leaves from (no packet is sent)."""
    try:
        family, _, _, _, where = socket.getaddrinfo(host, 9, type=socket.SOCK_DGRAM)[0]
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(where)
            return str(probe.getsockname()[0])
    except (OSError, UnicodeError, IndexError):
        return None


def _forward(signum: int, pid_file: str, launched: subprocess.Popen) -> bool:
    """Pass ``signum`` to the command SCOOP runs; where it cannot be reached (not started yet, or
    run on another host, which this machine is not among), end SCOOP altogether (False)."""
    try:
        with open(pid_file) as handle:
            os.kill(int(handle.read()), signum)
        return True
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.killpg(launched.pid, signal.SIGTERM)
        return False


def listed_hosts(hosts: list[str] | None, hostfile: str | None, workers: int | None = None) -> list[tuple[str, int]]:
    """SCOOP's reading of the hosts (a hostfile, a list, the batch scheduler's): ``(name, workers)``
    each, and with ``workers`` SCOOP's own division of that many among them (the last hosts dropped
    where fewer are asked, the first given more where more are); none where SCOOP cannot read them
    (it will say why itself)."""
    try:
        from scoop import launcher, utils

        listed = [(str(name), int(count)) for name, count in utils.getHosts(hostfile, hosts)]
        if workers is None:
            return listed
        no_route_check = types.SimpleNamespace(externalHostname=None, tunnel=True)
        return list(launcher.ScoopApp.divideHosts(no_route_check, listed, workers))
    except Exception:  # noqa: BLE001 - SCOOP will say what is wrong with the hosts itself
        return []


def here_first(
    hosts: list[str] | None, hostfile: str | None, workers: int | None = None
) -> list[tuple[str, int]] | None:
    """:func:`listed_hosts`, divided among ``workers`` as SCOOP divides them, with this machine's
    lines moved first, where it has workers but is not first; None where nothing moves.  SCOOP runs
    the command on the first host: here, a Ctrl-C or SIGTERM reaches it, a killed starter is noticed
    and its files and exit code are where the user is (with another host first a Ctrl-C ended SCOOP
    with exit code 241 and no table, and a ``kill -9`` of the starter left a worker here).  Divided
    first, so that moving this machine changes no host's share."""
    return _moved_here_first(listed_hosts(hosts, hostfile, workers))


def _moved_here_first(listed: list[tuple[str, int]]) -> list[tuple[str, int]] | None:
    from scoop import utils

    here = [(name, count) for name, count in listed if name in utils.localHostnames]
    if not here or listed[0][0] in utils.localHostnames:
        return None
    return here + [(name, count) for name, count in listed if name not in utils.localHostnames]


def idle_hosts(shares: Mapping[str, HostShare]) -> list[str]:
    """The hosts the command was started with (:data:`HOSTS`) whose workers made none of the runs
    counted in ``shares`` (by host name, :attr:`Experiment.hosts
    <deap_sudoku.experiments.Experiment.hosts>`), where there were more runs than workers: a listed
    name is a worker's host name (or its first part), one of this machine's names where the worker
    is this machine, or resolves here to an address the worker's host gives its own name (or that
    ssh reached it at).  Empty where the hosts were not carried (SCOOP started by hand)."""
    listed = [word.rpartition(":") for word in os.environ.get(HOSTS, "").split()]
    workers = sum(int(count) for _, _, count in listed if count.isdigit())
    if sum(share.runs for share in shares.values()) <= workers:
        return []  # too few runs to go round: a host may have had none to take
    from scoop import utils

    here = this_host()[0]

    def named(name: str) -> bool:
        here_listed = name in utils.localHostnames
        return any(name.split(".")[0] == worker.split(".")[0] or (here_listed and worker == here) for worker in shares)

    theirs = {address for share in shares.values() for address in share.addresses}
    return [name for name, _, _ in listed if not named(name) and not _addresses(name) & theirs]


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
