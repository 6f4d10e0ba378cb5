"""Ctrl-C and SIGTERM stop a solve cleanly: best grid printed, final checkpoint written, exit code says so."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from deap_sudoku.runs import interrupt, saved_state
from deap_sudoku.runs.recipes import memetic

from tests.conftest import checkpoint_generation, unsolvable



@pytest.mark.slow
@pytest.mark.parametrize("algorithm, signum, code", [("memetic", signal.SIGINT, 130),
                                                     ("restart-ga", signal.SIGTERM, 143)])
def test_signal_stops_a_ga_with_its_best_grid_and_a_final_checkpoint(algorithm, signum, code, tmp_path):
    puzzle, path = tmp_path / "unsolvable.txt", tmp_path / "run.ckpt"
    puzzle.write_text(unsolvable().format())
    command = [sys.executable, "-m", "deap_sudoku", "solve", str(puzzle), "-a", algorithm, "--seed", "1",
               "--max-generations", "1000000", "--checkpoint", str(path), "--checkpoint-every", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while (checkpoint_generation(path) or 0) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == code, stderr
    assert "Traceback" not in stderr
    assert stdout.count("|") >= 18  # the 9-row grid with box borders
    assert "interrupted after" in stderr and "best so far above" in stderr and str(path) in stderr
    state = saved_state(path)
    assert state["stop_reason"] == "interrupted" and state["generation"] >= 5
    again = subprocess.run(command[:-4] + ["--max-generations", str(state["generation"] + 3), "--checkpoint",
                                           str(path)], capture_output=True, text=True, timeout=120)
    assert f"resuming from {path} at generation {state['generation']}" in again.stderr
    assert again.returncode == 1 and "no solution found within the budget" in again.stderr


def test_a_request_stops_the_memetic_ga_at_the_next_generation():
    with interrupt.graceful():
        interrupt._request(signal.SIGINT, None)
        _, logbook, hof = memetic(unsolvable(), seed=0, max_generations=50, requested=interrupt.requested)
    assert logbook.stop_reason == "interrupted" and len(logbook) == 1
    assert hof[0].fitness.valid


def test_a_second_ctrl_c_raises_at_once_and_handlers_are_restored():
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt), interrupt.graceful():
        interrupt._request(signal.SIGINT, None)
        assert interrupt.requested() == signal.SIGINT
        interrupt._request(signal.SIGINT, None)
    assert signal.getsignal(signal.SIGINT) is before and interrupt.requested() is None
    assert interrupt.exit_code(signal.SIGINT) == 130 and interrupt.exit_code(signal.SIGTERM) == 143
