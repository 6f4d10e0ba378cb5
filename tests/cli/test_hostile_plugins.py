"""A user's algorithm cannot take the experiment down: whatever it does (return NaN or text, exit,
end its process, print, change folder, hang past its budget) its run fails, saying why, and every
other run, the table and ``--json -`` are whole."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from tests.conftest import HOSTILE, REPO, messages, run_lines

pytestmark = pytest.mark.slow  # whole commands, as a user runs them

ARMS = ("nan", "text", "exits", "ends", "prints", "moves", "hangs")


def test_every_hostile_plugin_fails_alone_beside_a_bundled_algorithm(tmp_path):
    (tmp_path / "hostile.py").write_text(HOSTILE)
    command = [sys.executable, "-m", "deap_sudoku", "bench", str(REPO / "data" / "testdata" / "easy.txt")]
    command += ["--limit", "1", "-a", "backtracking", *(w for arm in ARMS for w in ("-a", f"hostile:{arm}"))]
    command += ["--max-seconds", "0.3", "--results", "runs.jsonl", "--json", "-", "-q"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(REPO))), "DEAP_SUDOKU_GRACE": "0.5"}
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    took = time.monotonic() - started
    assert done.returncode == 3, done.stderr  # runs failed with errors, every output whole
    report = json.loads(done.stdout)  # standard output holds the JSON and nothing else
    runs = {r["algorithm"].removeprefix("hostile:"): r for r in report["runs"]}
    assert runs["backtracking"]["solved"] and runs["prints"]["solved"] and runs["moves"]["solved"]
    assert runs["nan"]["error"].startswith("ValueError: the algorithm returned a grid that is no grid of whole")
    assert runs["text"]["error"].startswith("ValueError: the algorithm returned a grid that is no grid of whole")
    assert runs["exits"]["error"] == "SystemExit: 0"
    assert runs["ends"]["error"] == "Ended: the algorithm ended its process (exit code 0) without returning a result"
    assert runs["hangs"]["error"].startswith("Stopped: no result ") and "a budget of 0.3 s" in runs["hangs"]["error"]
    assert "and 0.5 s" in runs["hangs"]["error"]  # DEAP_SUDOKU_GRACE
    assert all(not runs[arm]["solved"] for arm in ("nan", "text", "exits", "ends", "hangs"))
    assert "hello from a plug-in" in done.stderr and "and from C" in done.stderr
    assert (tmp_path / "runs.jsonl").exists() and not (tmp_path.parent / "runs.jsonl").exists()
    assert run_lines(tmp_path / "runs.jsonl") == 8
    assert "5 runs failed, counted as unsolved" in done.stderr
    assert took < 30  # the hung run was stopped 0.8 s after its start, not left to sleep


@pytest.mark.parametrize("stderr", ["closed", "full"])
def test_a_plugin_that_prints_is_not_failed_by_a_full_or_closed_standard_error(tmp_path, stderr):
    """What a plug-in writes to file descriptor 1 went to standard error, where a full device failed
    the plug-in's own write (and a closed one made its run write to standard output)."""
    (tmp_path / "hostile.py").write_text(HOSTILE)
    command = [sys.executable, "-m", "deap_sudoku", "bench", str(REPO / "data" / "testdata" / "easy.txt")]
    command += ["--limit", "1", "-a", "hostile:prints", "--json", "-", "-q"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(REPO)))}
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            command,
            stdout=subprocess.PIPE,
            stderr=full if stderr == "full" else subprocess.DEVNULL,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=120,
            pass_fds=(),
            **({"preexec_fn": lambda: os.close(2)} if stderr == "closed" else {}),
        )
    assert done.returncode == 0
    [run] = json.loads(done.stdout)["runs"]  # standard output holds the JSON alone
    assert run["solved"] and run["error"] == ""


def test_the_file_that_catches_a_plugins_prints_is_closed_with_the_process(tmp_path):
    """It was left open, and every process that ran a printing plug-in in its own process ended on
    "ResourceWarning: unclosed file" under ``python -X dev``."""
    (tmp_path / "hostile.py").write_text(HOSTILE)
    program = (
        "from deap_sudoku import load_sample\n"
        "from deap_sudoku.runs.task import Task, run_task\n"
        "result = run_task(Task('hostile:prints', load_sample('testdata/easy.txt')))\n"
        "assert result.solved, result\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(REPO)))}
    done = subprocess.run(
        [sys.executable, "-X", "dev", "-c", program], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert "hello from a plug-in" in done.stderr and "ResourceWarning" not in done.stderr


CHAOS = """
import os
import signal
import time

import numpy as np

from deap_sudoku.exact import solve

print("printed at import")  # must not land among the answers of --out -


def _count():
    with open("calls", "a+") as calls:
        calls.write("x")
        calls.seek(0)
        return len(calls.read())


def chaos(puzzle, *, rng, max_seconds=None):
    call = _count()
    if call == 1:
        os._exit(0)
    if call == 2:
        os.kill(os.getpid(), signal.SIGSEGV)
    if call == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    if call == 4:
        while True:
            pass
    if call == 5:
        return [10**30] * puzzle.shape.cells
    if call == 6:
        return np.full(puzzle.shape.cells, -5)
    if call == 7:
        raise type("Boom", (BaseException,), {})("a BaseException of its own")
    child = os.fork()
    if child == 0:  # call 8: a child left behind, and the answer
        time.sleep(300)
        os._exit(0)
    with open(f"child.{child}", "w"):  # by the parent: a child not yet scheduled when it is ended is named too
        pass
    return solve(puzzle, rng=rng).cells
"""
"""A plug-in that does one wrong thing per call (a counter on disk: contained calls share no memory),
and prints at import."""

CHAOS_ERRORS = (
    "Ended: the algorithm ended its process (exit code 0) without returning a result",
    "Ended: the algorithm ended its process (signal 11) without returning a result",
    "Ended: the algorithm ended its process (signal 9) without returning a result",
    "Stopped: no result",
    f"ValueError: the algorithm returned a grid that is no grid of this puzzle: it holds {10**30}, outside 0-9",
    "ValueError: the algorithm returned a grid that is no grid of this puzzle: it holds -5, outside 0-9",
    "Boom: a BaseException of its own",
)


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs a second after it was sent SIGKILL (delivered asynchronously)."""
    for _ in range(100):
        try:
            with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone but for its parent's wait
                if stat.read().split(")")[-1].split()[0] == "Z":
                    return False
        except FileNotFoundError:
            return False
        time.sleep(0.01)
    return True


def test_solve_contains_a_plugin_that_ends_crashes_spins_or_returns_no_grid(tmp_path):
    """Each of eight runs of one puzzle: the first seven fail alone, each saying why, the last
    solves; --out is written whole with no journal or lock left, the child the plug-in left is
    ended, and the exit code (3) says runs failed."""
    (tmp_path / "chaos.py").write_text(CHAOS)
    puzzle = (REPO / "data" / "testdata" / "easy.txt").read_text().splitlines()[0]
    (tmp_path / "eight.txt").write_text((puzzle + "\n") * 8)
    command = [sys.executable, "-m", "deap_sudoku", "solve", "eight.txt", "-a", "chaos:chaos", "--out", "answers.txt"]
    command += ["--max-seconds", "0.2", "-q"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(REPO))), "DEAP_SUDOKU_GRACE": "0.2"}
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 3, done.stderr
    lines = [line for line in messages(done.stderr) if line.startswith("puzzle ") and ": " in line]
    for number, error in enumerate(CHAOS_ERRORS, start=1):
        assert any(line.startswith(f"puzzle {number} of 8: failed after") and error in line for line in lines), (
            number,
            done.stderr,
        )
    assert any(line.startswith("puzzle 8 of 8: solved") for line in lines), done.stderr
    assert "printed at import" in done.stderr and "Traceback" not in done.stderr
    answers = (tmp_path / "answers.txt").read_text()
    assert len(answers.split()) == 8 and "printed" not in answers
    assert not [name for name in os.listdir(tmp_path) if "journal" in name or name.endswith(".lock")]
    [child] = [int(name.split(".")[1]) for name in os.listdir(tmp_path) if name.startswith("child.")]
    assert not _alive(child)


LEAVES = """
import os
import time

from deap_sudoku.exact import solve

print("printed at import")  # must not land in --json -


def leaves(puzzle, *, rng):
    child = os.fork()
    if child == 0:
        time.sleep(300)
        os._exit(0)
    with open(f"child.{child}", "w"):  # by the parent: a child not yet scheduled when it is ended is named too
        pass
    return solve(puzzle, rng=rng).cells


def ends(puzzle, *, rng):
    os._exit(0)
"""


def test_bench_keeps_a_plugins_import_prints_off_the_data_ends_its_children_and_says_runs_failed(tmp_path):
    """--json - holds the JSON alone although the plug-in printed when imported; the child it forked
    and left is ended with the command; a run that failed makes the exit code 3."""
    (tmp_path / "leaves.py").write_text(LEAVES)
    command = [sys.executable, "-m", "deap_sudoku", "bench", str(REPO / "data" / "testdata" / "easy.txt")]
    command += ["--limit", "1", "-a", "leaves:leaves", "-a", "leaves:ends", "--json", "-", "-q"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(REPO)))}
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 3, done.stderr
    runs = {r["algorithm"]: r for r in json.loads(done.stdout)["runs"]}
    assert runs["leaves:leaves"]["solved"] and runs["leaves:ends"]["error"].startswith("Ended:")
    assert "printed at import" in done.stderr
    [child] = [int(name.split(".")[1]) for name in os.listdir(tmp_path) if name.startswith("child.")]
    assert not _alive(child)


def test_a_plugin_that_ends_its_process_when_imported_is_reported(tmp_path):
    """It ended bench with exit code 0 and not a word."""
    (tmp_path / "quits.py").write_text("import os\nos._exit(0)\n")
    command = [sys.executable, "-m", "deap_sudoku", "bench", str(REPO / "data" / "testdata" / "easy.txt")]
    command += ["--limit", "1", "-a", "quits:run", "-q"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(REPO)))}
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    said = "algorithm 'quits:run': module 'quits' ends its process when imported (os._exit(0))"
    assert said in messages(done.stderr.strip())[-1]


def test_bench_on_a_disk_that_fills_writes_the_runs_that_finished_and_says_what_failed(tmp_path):
    """The results file meets a file-size limit (EFBIG, as a full disk's ENOSPC) at its fourth line:
    the command stops there, --json - holds the three runs that finished, the message says what
    could not be kept, and the exit code is 1.  It was a traceback-free exit 2 with nothing on
    standard output."""
    import resource
    import signal

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead of the process
        resource.setrlimit(resource.RLIMIT_FSIZE, (2600, 2600))  # a header and two runs fit

    command = [sys.executable, "-m", "deap_sudoku", "bench", str(REPO / "data" / "testdata" / "easy.txt")]
    command += ["--limit", "1", "-a", "backtracking", "--runs", "4", "--results", "runs.jsonl", "--json", "-", "-q"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120, preexec_fn=small_files)
    assert done.returncode == 1, done.stderr
    assert len(json.loads(done.stdout)["runs"]) == 3
    assert "--results runs.jsonl: the run could not be kept: File too large" in done.stderr
    assert "Traceback" not in done.stderr and "3 of 4 runs finished" in done.stderr


def test_solve_on_scoop_workers_fails_the_chain_of_a_plugin_that_ends_its_worker(tmp_path):
    """A chain that ended its SCOOP worker: SCOOP lost track of it and the command ended with exit 1
    and no word of why; now the chain runs contained, fails saying so, and the exit code is 3."""
    (tmp_path / "ender.py").write_text(
        "import os\nfrom deap_sudoku.runs.user import from_toolbox\n\n\n"
        "def make(puzzle, rng):\n    os._exit(0)\n\n\nga = from_toolbox(make, name='ender')\n"
    )
    puzzle = (REPO / "data" / "testdata" / "easy.txt").read_text().splitlines()[0]
    (tmp_path / "one.txt").write_text(puzzle + "\n")
    command = [sys.executable, "-m", "deap_sudoku", "solve", "one.txt", "-a", "ender:ga", "--workers", "2"]
    command += ["--max-seconds", "1", "-q"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(REPO))), "DEAP_SUDOKU_GRACE": "0.2"}
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 3, done.stderr
    assert "failed after" in done.stderr and "Ended: the algorithm ended its process (exit code 0)" in done.stderr
