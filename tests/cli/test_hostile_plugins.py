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

from tests.conftest import HOSTILE, REPO, run_lines

pytestmark = pytest.mark.slow  # whole commands, as a user runs them

ARMS = ("nan", "text", "exits", "ends", "prints", "moves", "hangs")


def test_every_hostile_plugin_fails_alone_beside_a_bundled_algorithm(tmp_path):
    (tmp_path / "hostile.py").write_text(HOSTILE)
    command = [sys.executable, "-m", "deap_sudoku", "bench", str(REPO / "data" / "testdata" / "easy.txt")]
    command += ["--limit", "1", "-a", "backtracking", *(w for arm in ARMS for w in ("-a", f"hostile:{arm}"))]
    command += ["--max-seconds", "0.3", "--results", "runs.jsonl", "--json", "-", "-q"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(REPO)))}
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)  # standard output holds the JSON and nothing else
    runs = {r["algorithm"].removeprefix("hostile:"): r for r in report["runs"]}
    assert runs["backtracking"]["solved"] and runs["prints"]["solved"] and runs["moves"]["solved"]
    assert runs["nan"]["error"].startswith("ValueError: the algorithm returned a grid that is no grid of whole")
    assert runs["text"]["error"].startswith("ValueError: the algorithm returned a grid that is no grid of whole")
    assert runs["exits"]["error"] == "SystemExit: 0"
    assert runs["ends"]["error"] == "Ended: the algorithm ended its process (exit code 0) without returning a result"
    assert runs["hangs"]["error"].startswith("Stopped: no result ") and "a budget of 0.3 s" in runs["hangs"]["error"]
    assert all(not runs[arm]["solved"] for arm in ("nan", "text", "exits", "ends", "hangs"))
    assert "hello from a plug-in" in done.stderr and "and from C" in done.stderr
    assert (tmp_path / "runs.jsonl").exists() and not (tmp_path.parent / "runs.jsonl").exists()
    assert run_lines(tmp_path / "runs.jsonl") == 8
    assert "5 runs failed, counted as unsolved" in done.stderr
    assert took < 30  # the hung run was stopped 2.3 s after its start, not left to sleep


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
