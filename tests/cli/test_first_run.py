"""A newcomer's first run does not wait for numba's compiler (issue 40): a background process fills
the kernel cache while the run goes on with the Python twins, and later runs load what it left."""

import os
import subprocess
import sys
import time

import pytest

from tests.conftest import REPO


def _solve(env: dict[str, str]) -> tuple[subprocess.CompletedProcess, float]:
    start = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "deap_sudoku",
            "solve",
            str(REPO / "data" / "16x16.txt"),
            "-a",
            "backtracking",
            "--max-seconds",
            "5",
        ],  # its kernels compile in half the time
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    return done, time.perf_counter() - start


@pytest.mark.slow
def test_a_first_ever_run_leaves_compiling_to_a_background_process_that_fills_the_cache(tmp_path):
    cache = tmp_path / "numba-cache"  # empty: a machine that never compiled the kernels
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    first, first_seconds = _solve(env)
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("|") >= 2 * 32  # both puzzles solved and printed
    assert [line for line in first.stderr.splitlines() if "compiling" in line] == [
        "compiling the propagation kernels (first run only; later runs load them from numba's cache): in a background "
        "process, while the run goes on with their Python twins"
    ]  # both puzzles settled in Python before the kernels were cached: nothing taken up
    deadline = time.monotonic() + 240
    while not (list(cache.glob("deap-sudoku-backtracking-*.compiled")) and not list(cache.glob("*.compiling"))):
        assert time.monotonic() < deadline, sorted(p.name for p in cache.iterdir())
        time.sleep(0.5)
    assert list(cache.rglob("*.nbi"))  # numba's own cache files, written by the background process
    second, second_seconds = _solve(env)
    assert second.returncode == 0 and "compiling" not in second.stderr, second.stderr
    # the word kept: compiling in the foreground made the first run 11-16 s longer than the second
    assert first_seconds <= second_seconds + 3.0, (first_seconds, second_seconds)
