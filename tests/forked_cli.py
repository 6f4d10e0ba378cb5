"""``python -m deap_sudoku`` for the tests, forked from a process that has imported the package.

The suite starts about a hundred ``deap-sudoku`` processes whose start-up is not what it tests, on
a suite that is CPU-bound on two cores: each spent about 0.45 s of CPU more importing numpy, DEAP,
click and the package than one forked so.  :func:`run` and :class:`Popen` take the arguments of
their :mod:`subprocess` namesakes.  A command ``[sys.executable, "-m", "deap_sudoku", ...]`` is
forked from a server (one per pytest worker, started on first use) that has imported the command
line, its commands and the algorithm catalogue, and is otherwise a new process: its own pid and
session when asked, its standard streams (the file descriptors given, as :mod:`subprocess` makes
them), its working folder, environment and arguments, ``deap_sudoku/__main__.py`` run as
``python -m`` runs it (or ``launch()`` as the console script calls it, for :func:`shim_folder`),
and its exit code or signal reported as :mod:`subprocess` reports a child's.

Anything else starts as a real process: another program, a shell, a ``preexec_fn``, and an
environment that differs in what a module reads as it loads (numba's, Python's and OpenBLAS's
variables, the sandbox's grace, the locale).  The server does not import numba, so a command
decides as a fresh one does whether to load it.  Tests of start-up itself (budgets that count the
imports, first runs, signals while loading) and of runs compared across processes (a forked
command shares the server's hash seed) use :mod:`subprocess`.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "deap_sudoku"]
READ_AT_IMPORT = ("NUMBA_", "PYTHON", "OPENBLAS_", "OMP_", "MKL_", "LD_", "LC_", "LANG", "DEAP_SUDOKU_GRACE")
_ENVIRONMENT = dict(os.environ)  # the server's: as it was when the tests started
_server: list = []  # [(process, socket path)] once started
SERVER = "FORKED_CLI_SERVER"  # where a shim (:func:`shim_folder`) finds its worker's server
REFUSED = b"refused"  # the server's answer to a command it must not fork


def _read_at_import(env: dict) -> dict:
    return {key: value for key, value in env.items() if key.startswith(READ_AT_IMPORT)}


def _forkable(args, kwargs: dict) -> dict | None:
    """The request for the server, or None when the command must start as a real process."""
    if kwargs["shell"] or kwargs["executable"] or kwargs["preexec_fn"] or kwargs["pass_fds"]:
        return None
    if any(kwargs[name] not in (None, -1) for name in ("gid", "gids", "uid", "umask", "process_group")):
        return None
    if isinstance(args, (str, bytes, os.PathLike)) or list(map(str, args[:3])) != COMMAND:
        return None
    env = dict(os.environ if kwargs["env"] is None else kwargs["env"])  # judged by the server (:func:`_serve`)
    cwd = os.path.abspath(kwargs["cwd"] if kwargs["cwd"] is not None else os.getcwd())
    main = str(REPO / "deap_sudoku" / "__main__.py")
    script = kwargs.get("script")  # started as the console script, not with python -m
    return {
        "argv": [script or main, *map(str, args[3:])],
        "script": bool(script),
        "env": env,
        "cwd": cwd,
        "session": bool(kwargs["start_new_session"]),
    }


def server() -> str:
    """The address of this worker's server, started on first use."""
    if not _server or _server[0][0].poll() is not None:
        folder = tempfile.mkdtemp(prefix="forked-cli-")
        path = os.path.join(folder, "server")
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.forked_cli", path],
            stdin=subprocess.PIPE,  # its end of file tells the server that this worker has gone
            stdout=subprocess.PIPE,
            cwd=REPO,
            env=_ENVIRONMENT,
        )
        if process.stdout.readline() != b"ready\n":
            raise RuntimeError("the forking server did not start")
        _server[:] = [(process, path)]
        atexit.register(process.stdin.close)
    return _server[0][1]


def _connect() -> socket.socket:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(os.environ.get(SERVER) or server())
    return connection


class Popen(subprocess.Popen):
    """:class:`subprocess.Popen`, forked from the server where the command allows (see the module)."""

    _connection: socket.socket | None = None

    def __init__(self, *args, script: str | None = None, **kwargs):
        self._script = script
        super().__init__(*args, **kwargs)

    def _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, cwd, env, *rest):
        names = ("startupinfo", "creationflags", "shell", "p2cread", "p2cwrite", "c2pread", "c2pwrite")
        names += ("errread", "errwrite", "restore_signals", "gid", "gids", "uid", "umask", "start_new_session")
        named = dict(zip(names + ("process_group",), rest))
        named.setdefault("process_group", None)
        kwargs = {"executable": executable, "preexec_fn": preexec_fn, "pass_fds": pass_fds, "cwd": cwd, "env": env}
        kwargs["script"] = self._script
        request = _forkable(args, {**kwargs, **named})
        if request is None:
            return super()._execute_child(args, executable, preexec_fn, close_fds, pass_fds, cwd, env, *rest)
        streams = [named["p2cread"], named["c2pwrite"], named["errwrite"]]
        fds = [given if given != -1 else standard for given, standard in zip(streams, (0, 1, 2))]
        self._connection = connection = _connect()
        try:
            socket.send_fds(connection, [b"F"], fds)
            connection.sendall(json.dumps(request).encode() + b"\n")
            self._received = b""
            answer = self._line(None)
        except BaseException:
            connection.close()
            raise
        if answer == REFUSED:  # the environment differs in what a module reads as it loads
            connection.close()
            self._connection = None
            started = [self._script, *args[3:]] if self._script else args
            return super()._execute_child(started, executable, preexec_fn, close_fds, pass_fds, cwd, env, *rest)
        self.pid = int(answer)
        self._child_created = True
        self._close_pipe_fds(
            *(named[name] for name in ("p2cread", "p2cwrite", "c2pread", "c2pwrite")),
            named["errread"],
            named["errwrite"],
        )

    def _line(self, timeout: float | None) -> bytes | None:
        """The server's next line about this child, or None if none came within ``timeout``."""
        while b"\n" not in self._received:
            if timeout is not None and not select.select([self._connection], [], [], timeout)[0]:
                return None
            data = self._connection.recv(64) if self._connection else b""
            if not data:
                raise RuntimeError(f"the forking server lost track of process {self.pid}")
            self._received += data
        line, self._received = self._received.split(b"\n", 1)
        return line

    def _status(self, timeout: float | None) -> int | None:
        if self.returncode is None:
            line = self._line(timeout)
            if line is not None:
                self.returncode = os.waitstatus_to_exitcode(int(line))
                self._connection.close()
        return self.returncode

    def _internal_poll(self, *args, **kwargs):
        if self._connection is None:
            return super()._internal_poll(*args, **kwargs)
        return self._status(0)

    def _wait(self, timeout):
        if self._connection is None:
            return super()._wait(timeout)
        if self._status(timeout) is None:
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode


def run(*popenargs, input=None, capture_output=False, timeout=None, check=False, **kwargs):
    """:func:`subprocess.run` on :class:`Popen`."""
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    if capture_output:
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    with Popen(*popenargs, **kwargs) as process:
        try:
            stdout, stderr = process.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            process.kill()
            exc.stdout, exc.stderr = process.communicate()
            raise
        except BaseException:
            process.kill()
            raise
        code = process.poll()
        if check and code:
            raise subprocess.CalledProcessError(code, process.args, output=stdout, stderr=stderr)
    return subprocess.CompletedProcess(process.args, code, stdout, stderr)


def shim_folder(folder: Path, path: str) -> dict[str, str]:
    """A ``deap-sudoku`` in ``folder`` that forks the command from this worker's server where it
    can (and runs the real one where it cannot), and the variables that put it first on ``path``:
    for the shell lines of the docs (tests/test_docs_shell.py).  It passes its own standard streams,
    passes on SIGINT, SIGTERM and SIGHUP, and ends as the command ended.  Started by SCOOP as the
    program its workers run, it is the real script."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deap-sudoku").write_text(
        f"#!{sys.executable} -S\nimport sys\n\n"
        "if 'scoop' in sys.modules:  # SCOOP's program, as in python -m scoop \"$(command -v deap-sudoku)\"\n"
        "    from deap_sudoku.__main__ import launch\n\n    sys.exit(launch())\n"
        f"sys.path.insert(0, {str(REPO)!r})\nfrom tests.forked_cli import _shim\n\n_shim()\n"
    )
    (folder / "deap-sudoku").chmod(0o755)
    return {"PATH": os.pathsep.join([str(folder), path]), SERVER: server()}


def _shim() -> None:
    real = str(Path(sys.executable).parent / "deap-sudoku")
    args = [*COMMAND, *sys.argv[1:]]
    process = Popen(args, script=real)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda signum, frame: process.send_signal(signum))
    code = process.wait()
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    sys.exit(code)


# -- the server --------------------------------------------------------------------------------


def _serve(path: str) -> None:
    """Import what every command imports, then answer each request (:func:`_answer`) until this
    worker's end of standard input closes."""
    import click

    from deap_sudoku.cli import main
    from deap_sudoku.runs import registry

    context = click.Context(main)
    for name in main.list_commands(context):
        main.get_command(context, name)
    registry.names()
    assert "numba" not in sys.modules and len(os.listdir("/proc/self/task")) == 1, "fork from one thread"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the waiters are reaped by the kernel
    # Python's own Ctrl-C, whatever this worker's: a command starts as a Python started with SIGINT's
    # default disposition (not a shell's background job, which ignores it)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.write(1, b"ready\n")
    while True:
        ready = select.select([listener, 0], [], [])[0]
        if 0 in ready and not os.read(0, 1):
            os._exit(0)
        if listener not in ready:
            continue
        connection, _ = listener.accept()
        _answer(connection, listener)


def _answer(connection: socket.socket, listener: socket.socket) -> None:
    """One request: refused (the client then starts a real process) where its environment differs
    from this server's in what a module reads as it loads, else a waiter process that forks the
    command, says its pid, waits for it and says its wait status."""
    _, fds, _, _ = socket.recv_fds(connection, 1, 3)
    request = b""
    while not request.endswith(b"\n"):
        received = connection.recv(1 << 16)
        if not received:  # the client went away
            break
        request += received
    if not request.endswith(b"\n") or _read_at_import(json.loads(request)["env"]) != _read_at_import(os.environ):
        with contextlib.suppress(OSError):
            connection.sendall(REFUSED + b"\n")
    elif os.fork() == 0:
        listener.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        started, set_up = os.pipe()
        child = os.fork()
        if child == 0:
            connection.close()
            os.close(started)
            _become(json.loads(request), fds, set_up)
        os.close(set_up)
        for fd in fds:
            os.close(fd)
        os.read(started, 1)  # its session and streams are set, as a started one's are when Popen returns
        connection.sendall(f"{child}\n".encode())
        _, status = os.waitpid(child, 0)
        connection.sendall(f"{status}\n".encode())
        os._exit(0)
    connection.close()
    for fd in fds:
        os.close(fd)


def _become(request: dict, fds: list[int], ready: int) -> None:
    """Be ``python -m deap_sudoku ARGS`` in the request's folder, environment and streams; closing
    ``ready`` (with the others above 2) says the session and streams are set."""
    import random

    import numpy as np

    if request["session"]:
        os.setsid()
    for standard, fd in enumerate(fds):
        os.dup2(fd, standard)
    os.closerange(3, 1 << 16)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = request["argv"]
    sys.path[0] = request["cwd"]
    random.seed()  # as a new process's, not the server's
    np.random.seed()
    _standard_streams()
    os._exit(_run(request["script"]))


def _run(script: bool) -> int:
    """Run the command as Python runs a program, and end it as Python ends: its exit code."""
    import runpy
    import traceback

    code: object = 0
    try:
        if script:  # as pip's console script runs it: a script (no module spec) as __main__
            import types

            from deap_sudoku.__main__ import launch

            sys.modules["__main__"] = types.ModuleType("__main__")
            sys.exit(launch())
        runpy.run_module("deap_sudoku", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code
    except KeyboardInterrupt:
        traceback.print_exc()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    except BaseException:
        traceback.print_exc()
        code = 1
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for standard in (sys.stdout, sys.stderr):
        try:
            if standard is not None:
                standard.flush()
        except (OSError, ValueError):
            code = code or 120
    return code or 0


def _standard_streams() -> None:
    """``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` on descriptors 0, 1 and 2, as Python makes
    them at start-up (None for one that is closed, as in ``2>&-``)."""
    import io

    made = sys.__stdin__, sys.__stdout__  # the server's, made by Python from the same variables and locale
    unbuffered = made[1].write_through  # python -u, or PYTHONUNBUFFERED

    def stream(fd: int, write: bool, errors: str, lines: bool):
        try:
            raw = io.FileIO(fd, "wb" if write else "rb", closefd=False)
        except OSError:
            return None
        buffered = raw if unbuffered and write else (io.BufferedWriter if write else io.BufferedReader)(raw)
        lines = lines or (write and fd == 1 and raw.isatty())
        return io.TextIOWrapper(
            buffered, encoding=made[1].encoding, errors=errors, line_buffering=lines, write_through=unbuffered
        )

    sys.stdin = sys.__stdin__ = stream(0, False, made[0].errors, False)
    sys.stdout = sys.__stdout__ = stream(1, True, made[1].errors, False)
    sys.stderr = sys.__stderr__ = stream(2, True, "backslashreplace", True)


if __name__ == "__main__":
    _serve(sys.argv[1])
