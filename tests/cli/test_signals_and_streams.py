"""Every command ends on SIGINT/SIGTERM with 130/143 and one line, outputs whole; closed or failing
standard streams end it with exit 2 and one line; an empty input is an error (issue 16, point 9)."""

from __future__ import annotations

import contextlib
import io
import re
import ctypes
import json
import os
import pathlib
import signal
import subprocess
import sys
import time
import tracemalloc

import pytest
from click.testing import CliRunner

from deap_sudoku import read
from deap_sudoku.cli import main, solve as solve_module
from deap_sudoku.runs import interrupt

from tests import forked_cli
from tests.conftest import REPO, sitecustomize_env, wait_for_runs

NINE = str(REPO / "data" / "9x9.txt")
SLOW_GENERATE = ["generate", "--box", "5x5", "--count", "50", "--givens", "40%"]


def _command(*args):
    return [sys.executable, "-m", "deap_sudoku", *args]


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a child of a shell's background job would ignore it


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_generate_with_the_shells_code_and_one_line(signum, code):
    """generate used to say "Aborted!" and exit 1 on Ctrl-C, and die by SIGTERM (-15)."""
    process = forked_cli.Popen(_command(*SLOW_GENERATE), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == code
    assert stderr == f"interrupted by {signal.Signals(signum).name}\n"


INTERRUPTED_INSIDE_EXEC = """
def interrupted(puzzle, *, rng):
    # the Ctrl-C comes while code made from a string runs, as a dataclass's methods are made
    exec("import os, signal\\nos.kill(os.getpid(), signal.SIGINT)\\nfor _ in range(10**7): pass")
"""


def test_a_ctrl_c_met_inside_an_exec_still_ends_with_exit_130(tmp_path):
    """Under ``python -m``, a KeyboardInterrupt raised inside ``exec`` of a string marks the
    interpreter as ended by Ctrl-C even once caught, and CPython then killed itself with SIGINT at
    exit (-2, not 130): 1 in about 40 Ctrl-Cs of bench with plug-ins."""
    (tmp_path / "plugin.py").write_text(INTERRUPTED_INSIDE_EXEC)
    puzzle = str(REPO / "data" / "9x9-easy.txt")
    done = subprocess.run(
        _command("solve", puzzle, "-a", "plugin:interrupted", "-q"),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_default_sigint,
    )
    assert done.returncode == 130 and done.stderr == "interrupted: 0 of 3 puzzles done\n", done


def test_a_ctrl_c_python_drops_inside_a_c_callback_is_delivered_again():
    """A KeyboardInterrupt raised while C code calls back into Python (llvmlite's object cache, as
    numba compiles) is printed as "Exception ignored" and dropped, and the Ctrl-C with it: 2 of 50
    Ctrl-Cs of bench with plug-ins.  Here libc's qsort calls back, and the first call is the Ctrl-C."""
    from deap_sudoku.cli.commands import redelivering

    compare_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))
    calls = []

    def compare(a, b):
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return a[0] - b[0]

    values = (ctypes.c_int * 5)(5, 3, 1, 4, 2)
    handler, hook = signal.signal(signal.SIGINT, signal.default_int_handler), sys.unraisablehook
    sys.unraisablehook = redelivering(hook)
    try:
        with pytest.raises(KeyboardInterrupt):
            ctypes.CDLL(None).qsort(values, 5, ctypes.sizeof(ctypes.c_int), compare_type(compare))
            time.sleep(2)  # the Ctrl-C comes again within this
    finally:
        signal.signal(signal.SIGINT, handler)
        sys.unraisablehook = hook
    assert len(calls) > 1  # the sort went on (C cannot be stopped), then the Ctrl-C came again


def test_signals_while_outputs_are_written_are_held_then_honoured(tmp_path, monkeypatch):
    """A signal during solve's output write used to be swallowed (exit 0), and a fast second Ctrl-C
    used to cut the write short."""
    real = solve_module.write_puzzles

    def interrupted_write(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)  # a burst: both arrive before the write
        real(*args, **kwargs)

    monkeypatch.setattr(solve_module, "write_puzzles", interrupted_write)
    out = tmp_path / "out.txt"
    result = CliRunner().invoke(main, ["solve", NINE, "--out", str(out), "-q"])
    assert result.exit_code == 130
    assert len(out.read_text().splitlines()) == 5  # every solved puzzle written, whole


def test_hold_records_every_signal_and_raises_none():
    with interrupt.graceful(hold=True):
        for _ in range(5):
            os.kill(os.getpid(), signal.SIGINT)
        assert interrupt.requested() == signal.SIGINT


@pytest.mark.parametrize(
    "shell, message",
    [
        ("{cmd} > /dev/full", "error: cannot write to standard output: No space left on device"),
        ("{cmd} >&-", "error: standard output is closed"),
        ("{cmd} - <&-", "standard input is closed"),
    ],
)
def test_closed_or_full_standard_streams_end_with_exit_2_and_one_line(shell, message):
    if "/dev/full" in shell and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    command = " ".join(_command("solve")) + ("" if " - " in shell else f" {NINE}")
    done = subprocess.run(["bash", "-c", shell.format(cmd=command)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()  # solve goes on without its pictures: the status lines, then the error
    assert message in lines[-1] and sum("rror" in line for line in lines) == 1, done.stderr


def test_check_refuses_an_empty_input(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    for source in (str(empty), "/dev/null"):
        result = CliRunner().invoke(main, ["check", source])
        assert result.exit_code == 2 and "no puzzle found" in result.output


@pytest.mark.slow
def test_under_scoop_the_commands_exit_code_comes_back_without_a_traceback(tmp_path):
    """SCOOP's launcher exits 0 whatever its program does, and printed every exit as a SystemExit
    traceback (issue 16, point 7)."""
    from tests.conftest import unsolvable

    puzzle = tmp_path / "unsolvable.txt"
    puzzle.write_text(unsolvable().format())
    unsolved = subprocess.run(
        _command("solve", str(puzzle), "-a", "memetic", "--workers", "1", "--max-generations", "3"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert unsolved.returncode == 1 and "Traceback" not in unsolved.stderr, unsolved.stderr
    solved = subprocess.run(
        _command("solve", NINE, "-a", "memetic", "--workers", "1"), capture_output=True, text=True, timeout=300
    )
    assert solved.returncode == 0 and "Traceback" not in solved.stderr, solved.stderr


_SLOW_START = """
import pathlib, sys, time
class SlowClick:  # loading click (after the launcher's first lines) takes 5 s: time to be interrupted
    def find_spec(self, name, path=None, target=None):
        if name == "click":
            pathlib.Path(marker).write_text("loading")
            time.sleep(5)
sys.meta_path.insert(0, SlowClick())
marker, sys.argv = sys.argv[1], ["deap-sudoku", "convert", "-", "-", "--to", "grid"]
from deap_sudoku.__main__ import launch
launch()
"""


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_while_the_command_line_loads_ends_it_with_one_line(signum, code, tmp_path):
    """A Ctrl-C while numpy, DEAP and click load used to print an import traceback."""
    marker = tmp_path / "loading"
    process = subprocess.Popen(
        [sys.executable, "-c", _SLOW_START, str(marker)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=60)
    assert marker.exists() and process.returncode == code
    assert stderr == f"interrupted by {signal.Signals(signum).name}\n"


def _lines(path) -> int:
    """The whole lines in ``path`` so far (0 while it does not exist)."""
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_bench_starts_a_hundred_million_runs_at_once_and_stops_on_ctrl_c(tmp_path):
    """bench --runs 100000000 used to build every task before the first run (3.6 GiB, minutes), and
    with --results walked all 300 million tasks to find those the file held, before the first run."""
    out, kept = tmp_path / "runs.json", tmp_path / "runs.jsonl"
    command = _command("bench", str(REPO / "data" / "4x4.txt"), "-a", "backtracking", "--json", str(out), "-q")
    process = forked_cli.Popen(
        [*command, "--runs", "100000000", "--results", str(kept)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # interrupted once a first run is kept after the header line (however loaded the machine: a fixed
    # sleep, then a share of CPU time, were each eaten by load once), or it ended
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline and _lines(kept) < 2:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    finished = int(stderr.split("interrupted: ")[1].split(" of ")[0])
    document = json.loads(out.read_text())
    assert finished > 0 and len(document["runs"]) == finished
    assert document["missing_count"] == 3 * 100_000_000 - finished and len(document["missing"]) == 3  # 3 puzzles


def test_generate_writes_the_puzzles_made_before_a_ctrl_c(tmp_path):
    """generate used to keep every puzzle until the end, and a Ctrl-C lost them all."""
    out = tmp_path / "made.txt"
    command = _command("generate", "--count", "100000", "--givens", "40%", "--format", "grid", "--out", str(out))
    process = forked_cli.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60  # the first puzzles written (beside the file, until it is whole)
    while not any(part.stat().st_size for part in tmp_path.glob(".made.txt.*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130 and stderr == "interrupted by SIGINT\n"
    made = read(out)  # every puzzle whole: a cut one would not read
    assert 1 <= len(made) < 100000 and all(p.shape.n == 9 and p.num_givens == 32 for p in made)


def test_generate_streams_its_puzzles(tmp_path, monkeypatch):
    """--count 1500 holds one puzzle at a time (about 65 KB traced in all), not 1500 of them (issue 16,
    point 10; kept, they take 330 KB)."""
    from deap_sudoku.propagation import choice

    # the warm-up ends on the compiled kernels, as a lasting run does: on a fast machine it ended
    # before Python had cost the loading, and the traced run, slower, loaded numba (33 MB traced)
    monkeypatch.setattr(choice, "_spent", [max(choice._spent[0], choice.LOADING_SECONDS)])
    command = ["generate", "--box", "2x2", "--givens", "8", "--any", "-q", "--out"]
    warm = CliRunner().invoke(main, [*command, str(tmp_path / "warm.txt"), "--count", "1500"])
    assert warm.exit_code == 0  # imports, caches, and the compiled solver that a lasting run switches to
    out = tmp_path / "made.txt"
    tracemalloc.start()
    try:
        result = CliRunner().invoke(main, [*command, str(out), "--count", "1500"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0 and len(read(out)) == 1500
    assert peak < 192 << 10


# Saves that take 1 s: sitecustomize is imported by every Python process started with its folder on
# PYTHONPATH, so the program SCOOP runs writes its table and JSON slowly.
SLOW_SAVES = """
import os, time
if os.environ.get("DEAP_SUDOKU_TEST_SLOW_SAVES"):
    _fsync = os.fsync

    def fsync(*args):
        time.sleep(1)
        return _fsync(*args)

    os.fsync = fsync
"""


@pytest.mark.slow
def test_ctrl_c_under_scoop_keeps_the_finished_runs(tmp_path):
    """A Ctrl-C reaches the whole foreground process group: SCOOP's launcher used to take it too and
    tear down the program it runs, so the table and JSON were lost in 1 of 4 trials (issue 16,
    point 7), and always when the save takes a while, as it does here.  Now SCOOP runs in its own
    session, and the command passes the signal on to the program SCOOP runs, which finishes its
    saves and exits like the serial path; no SCOOP process outlives the command."""
    out = tmp_path / "partial.json"
    data = REPO / "data" / "testdata"
    env = sitecustomize_env(tmp_path, SLOW_SAVES, DEAP_SUDOKU_TEST_SLOW_SAVES="1")
    process = subprocess.Popen(
        _command(
            "bench",
            str(data / "easy.txt"),
            str(data / "expert.txt"),
            "-a",
            "tabu-swap",
            "--runs",
            "3",
            "--max-seconds",
            "2",
            "--workers",
            "2",
            "--json",
            str(out),
            "--results",
            str(tmp_path / "runs.jsonl"),
            "-q",
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
        env=env,
        cwd=REPO,
    )
    wait_for_runs(tmp_path / "runs.jsonl", 1, process)  # SCOOP started; runs last up to 2 s each
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    stdout, stderr = process.communicate(
        timeout=60
    )  # it answers at its next finished run (2 s), then saves (1 s a file)
    assert process.returncode == 130 and "Traceback" not in stderr, stderr
    document = json.loads(out.read_text())
    finished = len(document["runs"])
    assert 1 <= finished < 60 and finished + document["missing_count"] == 60
    assert f"interrupted: {finished} of 60 runs finished" in stderr and re.search(
        r"^easy\.txt +tabu-swap ", stdout, re.M
    )
    deadline = time.monotonic() + 2
    while _processes_with(str(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _processes_with(str(tmp_path)), "SCOOP processes outlived the command"


def _processes_with(marker: str) -> list[int]:
    """The processes whose environment holds ``marker`` (Linux's /proc; none elsewhere)."""
    found = []
    for entry in pathlib.Path("/proc").glob("[0-9]*"):
        try:
            if marker.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            pass
    return found


def test_an_interrupted_generate_never_replaces_an_old_file_with_a_part(tmp_path):
    """generate --force, interrupted, used to close its file with the puzzles made so far in place of
    the user's old one; now the old one stays and the part goes beside it, and the message says where."""
    out = tmp_path / "made.txt"
    out.write_text("my old puzzles\n")
    command = _command(
        "generate", "--box", "2x2", "--givens", "8", "--any", "--count", "1000000", "--out", str(out), "--force", "-q"
    )
    process = forked_cli.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not list(tmp_path.glob(".made.txt.*")) and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in stderr
    assert out.read_text() == "my old puzzles\n"
    part = tmp_path / "made.txt.partial"
    made = read(part)
    assert f"{out} is left as it was; the {len(made):,} puzzles made before the interrupt are in {part}" in stderr
    assert len(made) >= 1 and all(p.num_givens == 8 for p in made)


class _Stingy(io.RawIOBase):
    """A raw file that takes at most 3 bytes a write, and once says it would block (None), as a
    pipe interrupted by a signal or made non-blocking does."""

    def __init__(self):
        self.taken, self.blocked = b"", False

    def writable(self):
        return True

    def fileno(self):
        return 1 << 20  # no such descriptor: making it blocking finds none, and select is stubbed

    def write(self, data):
        if not self.blocked:
            self.blocked = True
            return None
        self.taken += bytes(data[:3])
        return min(3, len(data))


def test_unbuffered_standard_output_writes_all_of_a_text_and_of_bytes(monkeypatch):
    """Python's text layer over a raw file (python -u) writes once and drops the rest; ours writes all."""
    import select

    from deap_sudoku.cli.stdout import StandardOutput

    monkeypatch.setattr(select, "select", lambda *a: None)  # "writable now"
    raw = _Stingy()
    text = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
    out = StandardOutput(text)
    assert out.write("héllo, world\n") == 13 and raw.taken == "héllo, world\n".encode()
    raw.taken, raw.blocked = b"", False
    assert out.buffer.write(b"0123456789") == 10 and raw.taken == b"0123456789"


@pytest.mark.slow
def test_a_large_json_document_is_written_whole_to_a_pipe_another_process_made_non_blocking():
    """Issue 62, item 1: across hosts, ssh sets ``O_NONBLOCK`` on the pipe it shares with the command
    as its standard output, and ``--json -`` was cut where the pipe was full (32 or 64 KiB of a
    41 KB-171 KB document), exit 0.  Here the pipe is made non-blocking by hand and read only once the
    command waits on it (or has ended): the 120 KB document comes whole.  Unbuffered (python -u,
    PYTHONUNBUFFERED, as in many containers), Python wrote the document once and dropped what a
    write interrupted by a signal did not take: a stop and a continue while the command waits (as
    Ctrl-Z and fg, a profiler, or a suspended SLURM job make) cut it at 64 KiB, exit 0."""
    import fcntl

    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETFL, fcntl.fcntl(write_end, fcntl.F_GETFL) | os.O_NONBLOCK)
    command = _command("bench", str(REPO / "data" / "4x4.txt"), "-a", "backtracking", "--runs", "100")
    process = forked_cli.Popen(
        [*command, "--json", "-", "-q"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    os.close(write_end)
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError):  # a full pipe: the command waits in the kernel's pipe_write
            if "pipe" in pathlib.Path(f"/proc/{process.pid}/wchan").read_text():
                for _ in range(3):
                    process.send_signal(signal.SIGSTOP)
                    time.sleep(0.01)
                    process.send_signal(signal.SIGCONT)
                break
        time.sleep(0.05)
    with os.fdopen(read_end, "rb") as pipe:
        document = pipe.read()
    stderr = process.communicate(timeout=60)[1].decode()
    assert process.returncode == 0, stderr
    assert len(document) > 1 << 16 and len(json.loads(document)["runs"]) == 300
