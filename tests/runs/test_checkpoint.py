"""Checkpoints resume exactly, survive SIGKILL and crashes mid-write, and refuse other runs' files."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from deap_sudoku import read
from deap_sudoku.runs import recipes
from deap_sudoku.runs.checkpoint import Checkpoint, CheckpointError, run_identity

from tests.conftest import REPO, checkpoint_generation, unsolvable

class Crash(Exception):
    """Stands in for the process dying right after a checkpoint."""


class CrashingCheckpoint(Checkpoint):
    """Saves like a checkpoint, then dies once the run reaches ``crash_at``."""

    def __init__(self, path, every, identity, crash_at):
        super().__init__(path, every, identity)
        self.crash_at = crash_at

    def save(self, state):
        super().save(state)
        if state["generation"] == self.crash_at:
            raise Crash


RECIPES = {"memetic": recipes.memetic, "restart-ga": recipes.block_ga_restart}


def _run(algorithm, checkpoint=None, **options):
    return RECIPES[algorithm](unsolvable(), seed=5, checkpoint=checkpoint, **options)


def _same(first, second):
    (pop1, log1, hof1), (pop2, log2, hof2) = first, second
    assert [dict(r) for r in log1] == [dict(r) for r in log2]
    assert log1.stop_reason == log2.stop_reason
    assert all(np.array_equal(a, b) and a.fitness.values == b.fitness.values for a, b in zip(pop1, pop2))
    assert np.array_equal(hof1[0], hof2[0])


@pytest.mark.parametrize("algorithm, options", [("memetic", dict(population_size=2, max_generations=60)),
                                                ("restart-ga", dict(population_size=40, restart_every=5,
                                                                    max_generations=40))])
def test_a_run_resumed_after_a_crash_ends_exactly_like_an_uninterrupted_one(algorithm, options, tmp_path):
    reference = _run(algorithm, **options)
    path = tmp_path / "run.ckpt"
    identity = run_identity(unsolvable(), algorithm, 5, options)
    with pytest.raises(Crash):
        _run(algorithm, CrashingCheckpoint(path, 3, identity, crash_at=9), **options)
    resumed = _run(algorithm, Checkpoint(path, 3, identity), **options)
    assert resumed[1][0]["gen"] == 0 and len(resumed[1]) == len(reference[1])
    _same(reference, resumed)


def test_checkpoints_from_another_run_version_or_no_checkpoint_at_all_are_refused(tmp_path):
    puzzle = unsolvable()
    path = tmp_path / "run.ckpt"
    mine = run_identity(puzzle, "memetic", 5, {"population_size": 2})
    Checkpoint(path, 1, mine).save({"generation": 3})
    other_puzzle = run_identity(read(REPO / "data" / "9x9.txt")[0], "memetic", 5, {"population_size": 2})
    with pytest.raises(CheckpointError, match="belongs to another run: its puzzle is"):
        Checkpoint(path, 1, other_puzzle).load()
    with pytest.raises(CheckpointError, match="its seed is 5, this run's is 6"):
        Checkpoint(path, 1, dict(mine, seed=6)).load()
    with pytest.raises(CheckpointError, match="its version is '0.0.1'"):
        data = pickle.loads(path.read_bytes())
        data["identity"]["version"] = "0.0.1"
        path.write_bytes(pickle.dumps(data))
        Checkpoint(path, 1, mine).load()
    for junk in (b"", b"not a pickle", pickle.dumps({"format": "something else"}), pickle.dumps([1, 2])):
        path.write_bytes(junk)
        with pytest.raises(CheckpointError, match="not a (readable )?deap_sudoku checkpoint"):
            Checkpoint(path, 1, mine).load()


def test_a_crash_while_writing_leaves_the_previous_checkpoint_usable(tmp_path, monkeypatch):
    path = tmp_path / "run.ckpt"
    checkpoint = Checkpoint(path, 1, {"seed": 1})
    checkpoint.save({"generation": 1})

    def dies(*args):
        raise OSError("killed while renaming")

    monkeypatch.setattr(os, "replace", dies)
    with pytest.raises(OSError):
        checkpoint.save({"generation": 2})
    monkeypatch.undo()
    assert Checkpoint(path, 1, {"seed": 1}).load()["generation"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.ckpt"]  # no temporary left behind


# -- the real thing: a subprocess killed mid-run -------------------------------------------

def _solve(*args):
    return [sys.executable, "-m", "deap_sudoku", "solve", *args]



def _grid_and_verdict(stdout: str) -> str:
    """The printed grid and verdict without the time it took."""
    return stdout.rsplit(" in ", 1)[0]


@pytest.mark.slow
@pytest.mark.parametrize("algorithm, budget", [("restart-ga", ["--max-generations", "300", "--population", "100"]),
                                               ("memetic", ["--max-generations", "400", "--population", "2"])])
def test_sigkill_at_a_random_generation_then_resume_gives_the_same_result(algorithm, budget, tmp_path):
    puzzle = tmp_path / "unsolvable.txt"
    puzzle.write_text(unsolvable().format())
    common = [str(puzzle), "-a", algorithm, "--seed", "3", "--checkpoint-every", "1", *budget]
    reference = subprocess.run(_solve(*common, "--checkpoint", str(tmp_path / "reference.ckpt")),
                               capture_output=True, text=True, timeout=300)
    last = checkpoint_generation(tmp_path / "reference.ckpt")
    assert last is not None and last > 20, reference.stderr
    path = tmp_path / "killed.ckpt"
    target = int.from_bytes(os.urandom(2), "big") % (last // 2) + 5  # a random generation in the first half
    victim = subprocess.Popen(_solve(*common, "--checkpoint", str(path)), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while (checkpoint_generation(path) or 0) < target and victim.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    victim.send_signal(signal.SIGKILL)
    assert victim.wait(timeout=30) == -signal.SIGKILL
    killed_at = checkpoint_generation(path)
    assert killed_at is not None and killed_at < last
    resumed = subprocess.run(_solve(*common, "--checkpoint", str(path)), capture_output=True, text=True, timeout=300)
    assert f"resuming from {path} at generation {killed_at}" in resumed.stderr
    assert resumed.returncode == reference.returncode
    assert _grid_and_verdict(resumed.stdout) == _grid_and_verdict(reference.stdout)
    ours, theirs = (pickle.loads(p.read_bytes())["state"] for p in (path, tmp_path / "reference.ckpt"))
    assert [dict(r) for r in ours["logbook"]] == [dict(r) for r in theirs["logbook"]]
    assert all(np.array_equal(a, b) for a, b in zip(ours["population"], theirs["population"]))
