"""``python -m deap_sudoku`` and the ``deap-sudoku`` command run the command line (:func:`launch`).

``deap-sudoku bench --workers N`` starts SCOOP on this file (SCOOP starts a file, not a module), so
it imports absolutely and runs the command line only as the main program (SCOOP workers import
it too).  SCOOP catches a ``SystemExit`` of the program it runs and prints it as a traceback,
and its launcher exits 0 whatever the program's code.  So under SCOOP a run returns quietly and
writes its exit code to the file that ``$DEAP_SUDOKU_EXIT_FILE`` names (set by the command that
started SCOOP, :func:`deap_sudoku.cli.scoop.rerun_under_scoop`, which exits with it); an
unsuccessful run then ends its process with the same code.  It writes its pid to the file that
``$DEAP_SUDOKU_ROOT_PID_FILE`` names, so that the starting command can pass it a Ctrl-C.

A command that loaded numba ends without the interpreter's object-by-object teardown
(:func:`_end`), which then takes 0.2-0.3 s: a ``--max-seconds`` budget is the wall time a user sees.
So does a command stopped by SIGINT or SIGTERM: under ``python -m``, a ``KeyboardInterrupt`` raised
inside an ``exec`` of a string (a dataclass or named tuple being made while a module loads) marks
the interpreter as ended by Ctrl-C even once caught, and at its exit CPython kills itself with
SIGINT, whatever the exit code (1 in about 40 Ctrl-Cs of ``bench`` with plug-ins).
"""

import atexit
import contextlib
import io
import os
import signal
import sys
import threading

EXIT_FILE = "DEAP_SUDOKU_EXIT_FILE"
ROOT_PID_FILE = "DEAP_SUDOKU_ROOT_PID_FILE"


def _stopped_while_starting(signum: int, frame) -> None:
    """Until the command's guard takes over nothing is written: end at once.  Raising would be
    caught up in whatever import is running (inside a dataclass's ``__set_name__`` Python wraps it
    in a ``RuntimeError`` and prints a traceback)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(f"interrupted by {signal.Signals(signum).name}\n")
        sys.stderr.flush()
    os._exit(128 + signum)


def _end(code: int) -> None:
    """End the process as the interpreter would, but for the teardown of its objects: wait for its
    other threads, run the exit handlers (lock files are removed there), flush the standard streams
    (a failed flush exits 120, as Python's own does) and leave.  Every output file is closed by
    then; what the teardown adds is releasing numba's compiled code one object at a time."""
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: the stream was closed when the command started
                stream.flush()
        except (OSError, ValueError):
            code = code or 120
    os._exit(code)


def _one_blas_thread() -> None:
    """Ask OpenBLAS (numpy's and scipy's) for one thread, before either loads.  The package does no
    linear algebra, and the threads OpenBLAS starts at import spin for a moment: 0.1 s of CPU in
    every command on a two-core machine, and once again in each process of ``--workers``.  Under
    ``ulimit -v`` each thread also maps a buffer, and where the address space ran out its start-up
    retried the mapping for ever (a ``bench --baseline`` hung so under 450 MiB).  A value set in the
    user's own environment stays theirs."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def launch() -> None:
    """Run the command line.  Until the command's own guard takes over, SIGINT and SIGTERM end the
    process with one line and exit 130 or 143: loading numpy and DEAP takes a noticeable moment, and a
    Ctrl-C then would otherwise print an import traceback."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _stopped_while_starting)
    _one_blas_thread()
    from deap_sudoku.cli import main

    frames = _from_the_starter() if scoop_is_running() else None
    if scoop_is_running() and os.environ.get(ROOT_PID_FILE) and _starters_host():  # where a Ctrl-C is sent
        with contextlib.suppress(OSError), open(os.environ[ROOT_PID_FILE], "w") as handle:
            handle.write(f"{os.getpid()}\n")
    try:
        _run_under_scoop(main) if scoop_is_running() else main()
    except SystemExit as exc:
        # The command has ended and written what it writes: a signal now would only kill the
        # interpreter as it shuts down and change the exit code.  Ignored, not just blocked in this
        # thread: the interpreter resets its own handlers to the default as it shuts down, in every
        # thread, but leaves an ignored signal ignored.
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_IGN)
        if scoop_is_running():
            _end_under_scoop(exc, frames)
        stopped = exc.code in (128 + signal.SIGINT, 128 + signal.SIGTERM)
        if ("numba" in sys.modules or stopped) and (exc.code is None or isinstance(exc.code, int)):
            _end(exc.code or 0)
        raise


def scoop_is_running() -> bool:
    """True inside ``python -m scoop ...``, as :func:`deap_sudoku.runs.task.scoop_is_running` says,
    without importing :mod:`deap_sudoku.runs` (DEAP and the algorithms) for every command: SCOOP's
    launcher has imported ``scoop`` and set ``IS_RUNNING`` before it starts this file, and a
    ``scoop`` imported now would say False."""
    return bool(getattr(sys.modules.get("scoop"), "IS_RUNNING", False))


def _run_under_scoop(main) -> None:
    """The command, under SCOOP: an unexpected error's traceback goes to standard error and the
    command exits 1 (SCOOP would print it on standard output, the data's)."""
    try:
        main()
    except Exception:
        import traceback

        traceback.print_exc()
        sys.exit(1)


def _end_under_scoop(exc: SystemExit, frames) -> None:
    """End the command SCOOP runs: its exit code to the starter (the exit file on its machine, the
    last frame on any), then the process, whatever the code: SCOOP would print the SystemExit of the
    deap-sudoku script (``python -m scoop $(command -v deap-sudoku) ...``) as a traceback on its
    standard output."""
    code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    if os.environ.get(EXIT_FILE) and _starters_host():
        with contextlib.suppress(OSError), open(os.environ[EXIT_FILE], "w") as handle:
            handle.write(f"{code}\n")
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    if frames is not None:
        frames.exit(code)
    atexit._run_exitfuncs()
    os._exit(code)


def _from_the_starter():
    """Under SCOOP, started by ``--workers``: the starter's variables put back into the environment
    (they do not cross ssh), standard output and error sent as frames on standard output, in the
    order written, each a terminal if the starter's is (and this is its machine: no progress bar is
    drawn through ssh); the output's frames writer, or None when SCOOP was started by hand."""
    from deap_sudoku.cli.channel import FramedOutput, read_carried

    carried = read_carried(sys.argv)
    if carried is None:
        return None
    os.environ.update({k: v for k, v in carried["env"].items() if k.startswith("DEAP_SUDOKU_")})
    fd, token = sys.stdout.fileno(), carried["token"]
    framed = FramedOutput(fd, token, tty=bool(carried["stdout_tty"]))
    # Line by line for a terminal, as Python's own standard output; in blocks for a file or a pipe.
    lines = bool(carried["stdout_tty"])
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(framed), encoding="utf-8", line_buffering=lines)
    errors = FramedOutput(fd, token, tty=bool(carried["stderr_tty"]) and _starters_host(), kind=b"e")
    sys.stderr = io.TextIOWrapper(
        io.BufferedWriter(errors), encoding="utf-8", errors="backslashreplace", line_buffering=True, write_through=True
    )
    return framed


def _starters_host() -> bool:
    """Whether this is the machine of the command that started SCOOP (its files are here)."""
    import socket

    return os.environ.get("DEAP_SUDOKU_PARENT_HOST", socket.gethostname()) == socket.gethostname()


if __name__ == "__main__":
    launch()
