"""Checkpoints resume exactly, survive SIGKILL, crashes mid-write and failed saves, refuse other runs'
files, and are data: a damaged or crafted file is refused with one line, never run or trusted."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import random
import signal
import struct
import subprocess
import sys
import time
import warnings

import numpy as np
import pytest
from click.testing import CliRunner

from deap_sudoku import Puzzle, Shape, read
from deap_sudoku.algorithms import Stop
from deap_sudoku.cli import main
from deap_sudoku.runs.catalogue import colony, ga_recipes
from deap_sudoku.runs import checkpoint as checkpoint_module
from deap_sudoku.runs.checkpoint import MAGIC, Checkpoint, CheckpointError, run_identity, saved_state

from tests import forked_cli
from tests.conftest import REPO, checkpoint_generation, recipe_options, unsolvable


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


RECIPES = {"memetic": ga_recipes.memetic, "restart-ga": ga_recipes.block_ga_restart, "acs": colony.ant_colony}
SHORT = dict(population_size=2, max_generations=30)


def _run(algorithm, checkpoint=None, **options):
    recipe = RECIPES[algorithm]
    return recipe(unsolvable(), seed=5, checkpoint=checkpoint, **recipe_options(recipe, **options))


def _same(first, second):
    (pop1, log1, hof1), (pop2, log2, hof2) = first, second
    assert [dict(r) for r in log1] == [dict(r) for r in log2]
    assert log1.stop_reason == log2.stop_reason
    assert all(np.array_equal(a, b) and a.fitness.values == b.fitness.values for a, b in zip(pop1, pop2))
    assert np.array_equal(hof1[0], hof2[0])


def _frames(path):
    """The payloads of a checkpoint file, read independently of the module under test."""
    data, offset, payloads = path.read_bytes(), len(MAGIC), []
    while offset < len(data):
        _, length, _ = struct.unpack_from(">cQ32s", data, offset)
        payloads.append(json.loads(data[offset + 41 : offset + 41 + length]))
        offset += 41 + length
    return payloads


def _forge(path, change):
    """Rewrite the checkpoint at ``path`` as one frame whose state ``change`` edits, with a valid
    checksum: what a crafted (not a damaged) file looks like."""
    frames = _frames(path)
    payload = {
        "identity": frames[0]["identity"],
        "log": [r for f in frames for r in f["log"]],
        "state": frames[-1]["state"],
    }
    change(payload)
    data = json.dumps(payload).encode()
    path.write_bytes(MAGIC + struct.pack(">cQ32s", b"S", len(data), hashlib.sha256(data).digest()) + data)


@pytest.mark.parametrize(
    "algorithm, options",
    [
        ("memetic", dict(population_size=2, max_generations=60)),
        ("restart-ga", dict(population_size=40, restart_every=5, max_generations=40)),
        ("acs", dict(population_size=4, max_generations=30)),
    ],
)
def test_a_run_resumed_after_a_crash_ends_exactly_like_an_uninterrupted_one(algorithm, options, tmp_path):
    reference = _run(algorithm, **options)
    path = tmp_path / "run.ckpt"
    identity = run_identity(unsolvable(), algorithm, 5, options)
    with pytest.raises(Crash):
        _run(algorithm, CrashingCheckpoint(path, 3, identity, crash_at=9), **options)
    resumed = _run(algorithm, Checkpoint(path, 3, identity, puzzle=unsolvable()), **options)
    assert resumed[1][0]["gen"] == 0 and len(resumed[1]) == len(reference[1])
    _same(reference, resumed)


def test_checkpoints_from_another_run_version_or_no_checkpoint_at_all_are_refused(tmp_path):
    puzzle = unsolvable()
    path = tmp_path / "run.ckpt"
    mine = run_identity(puzzle, "memetic", 5, SHORT)
    _run("memetic", Checkpoint(path, 1, mine), **SHORT)
    other_puzzle = run_identity(read(REPO / "data" / "9x9.txt")[0], "memetic", 5, SHORT)
    with pytest.raises(
        CheckpointError,
        match=r"belongs to another run: its puzzle is '9x9 \(3x3 boxes\) puzzle "
        r"[0-9a-f]{16}', this run's is '9x9 \(3x3 boxes\) puzzle [0-9a-f]{16}'",
    ):
        Checkpoint(path, 1, other_puzzle).load()
    with pytest.raises(CheckpointError, match="its seed is 5, this run's is 6"):
        Checkpoint(path, 1, dict(mine, seed=6)).load()
    _forge(path, lambda payload: payload["identity"].update(version="0.0.1"))
    with pytest.raises(CheckpointError, match="its version is '0.0.1'"):
        Checkpoint(path, 1, mine).load()
    for junk in (b"", b"not a checkpoint", pickle.dumps([1, 2])):
        path.write_bytes(junk)
        with pytest.raises(CheckpointError, match="not a deap_sudoku checkpoint|older deap_sudoku"):
            Checkpoint(path, 1, mine).load()


def test_a_crash_while_writing_leaves_the_previous_checkpoint_usable(tmp_path, monkeypatch):
    path = tmp_path / "run.ckpt"
    checkpoint = Checkpoint(path, 1, run_identity(unsolvable(), "memetic", 5, SHORT))
    _run("memetic", checkpoint, **SHORT)
    monkeypatch.setattr(checkpoint, "_end", None)  # the next save writes the whole file anew

    def dies(*args):
        raise KeyboardInterrupt  # killed while renaming

    monkeypatch.setattr(os, "replace", dies)
    with pytest.raises(KeyboardInterrupt):
        checkpoint.save(dict(saved_state(path), generation=99))
    monkeypatch.undo()
    assert saved_state(path)["generation"] == 30
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.ckpt"]  # no temporary left behind


# -- issue 16, point 1: a checkpoint is never unpickled -------------------------------------


class _Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def test_a_malicious_pickle_at_the_checkpoint_path_is_refused_without_running(tmp_path):
    marker, path = tmp_path / "it-ran", tmp_path / "run.ckpt"
    path.write_bytes(pickle.dumps({"format": "deap_sudoku checkpoint 2", "state": _Payload(marker)}))
    puzzle = tmp_path / "one.txt"
    puzzle.write_text(unsolvable().format())
    result = CliRunner().invoke(
        main, ["solve", str(puzzle), "-a", "memetic", "--checkpoint", str(path), "--max-generations", "2"]
    )
    assert result.exit_code == 2
    assert "a checkpoint of an older deap_sudoku (a pickle); it is never loaded" in result.output
    assert not marker.exists()


# -- point 2: damaged and crafted files are checked field by field ---------------------------


def _crafted(change):
    return lambda payload: change(payload["state"])


def _set(key, value):
    return _crafted(lambda state: state.__setitem__(key, value))


def _cells(values):
    import base64

    return base64.b64encode(np.asarray(values, dtype="<u2").tobytes()).decode()


CRAFTED = {
    "out-of-range values": (
        _crafted(lambda s: s["population"][0].update(cells=_cells([99] * 81))),
        "population individual 1 holds 99, out of range 0..9",
    ),
    "a changed given": (
        _crafted(lambda s: s["population"][0].update(cells=_cells([(v % 9) + 1 for v in unsolvable().cells]))),
        "changes the given at",
    ),
    "too few cells": (
        _crafted(lambda s: s["population"][0].update(cells=_cells([1] * 80))),
        "population individual 1 has 80 cells, not 81",
    ),
    "no generation": (_crafted(lambda s: s.pop("generation")), "the state lacks generation"),
    "an empty population": (_set("population", []), "population is not a list of individuals"),
    "a negative counter": (_set("evaluations", -4), "evaluations is -4, not a whole number"),
    "a short generator state": (_crafted(lambda s: s["rng_state"][1].pop()), "rng_state is not the state"),
    "a generator position past the end": (
        _crafted(lambda s: s["rng_state"][1].__setitem__(-1, 10**6)),
        "rng_state holds a value",
    ),
    "a logbook with a generation missing": (lambda p: p["log"].pop(3), "its logbook does not hold generations"),
    "a fitness of two objectives": (
        _crafted(lambda s: s["population"][1].update(fitness=[-1.0, -2.0])),
        "has 2 objectives, not 1",
    ),
    "a non-dict identity": (lambda p: p.update(identity=[1, 2]), "its first save has no run identity"),
    "a state that is a list": (lambda p: p.update(state=[1]), "the state is not a record"),
}


@pytest.mark.parametrize("name", CRAFTED)
def test_a_crafted_checkpoint_is_refused_with_one_line_naming_the_field(name, tmp_path):
    change, message = CRAFTED[name]
    path = tmp_path / "run.ckpt"
    identity = run_identity(unsolvable(), "memetic", 5, SHORT)
    _run("memetic", Checkpoint(path, 1, identity), **SHORT)
    _forge(path, change)
    with pytest.raises(CheckpointError, match=message) as refused:
        Checkpoint(path, 1, identity, puzzle=unsolvable()).load()
    assert str(refused.value).startswith(f"{path}: ") and "\n" not in str(refused.value)


def test_a_crafted_checkpoint_that_fits_no_run_is_refused_by_the_cli_not_run(tmp_path):
    """Out-of-range values used to reach the compiled repair and segfault (exit 139)."""
    puzzle, path = tmp_path / "one.txt", tmp_path / "run.ckpt"
    puzzle.write_text(unsolvable().format())
    args = [
        "solve",
        str(puzzle),
        "-a",
        "memetic",
        "--checkpoint",
        str(path),
        "--max-generations",
        "3",
        "--population",
        "2",
    ]
    assert CliRunner().invoke(main, args).exit_code == 1
    good = path.read_bytes()
    _forge(path, CRAFTED["out-of-range values"][0])
    done = forked_cli.run([sys.executable, "-m", "deap_sudoku", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "population individual 1 holds 99, out of range 0..9\n" in done.stderr
    path.write_bytes(good)
    _forge(path, _crafted(lambda s: s["extra"].update(waiting=[0] * 7)))
    done = forked_cli.run([sys.executable, "-m", "deap_sudoku", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "the saved waiting is not one whole number per individual" in done.stderr


def test_byte_flips_are_refused_or_resume_to_the_same_run(tmp_path):
    """A small version of ``scripts/fuzz_readers.py --checkpoints``: every damaged copy is refused with
    a CheckpointError or, when only a cut-short last save is dropped, gives the identical run."""
    path = tmp_path / "run.ckpt"
    options = dict(population_size=2, max_generations=12)
    identity = run_identity(unsolvable(), "memetic", 5, options)
    with pytest.raises(Crash):
        _run("memetic", CrashingCheckpoint(path, 2, identity, crash_at=8), **options)
    reference = _run("memetic", **options)
    good = path.read_bytes()
    rng = random.Random(16)
    outcomes = {"refused": 0, "same": 0}
    for _ in range(30):
        damaged = bytearray(good)
        where = rng.randrange(len(damaged))
        damaged[where] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(damaged))
        try:
            resumed = _run("memetic", Checkpoint(path, 2, identity, puzzle=unsolvable()), **options)
        except CheckpointError:
            outcomes["refused"] += 1
            continue
        _same(reference, resumed)
        outcomes["same"] += 1
    assert outcomes["refused"] >= 25


# -- point 4: any grid size ------------------------------------------------------------------


def test_checkpoints_work_for_grids_wider_than_the_line_format(tmp_path):
    from deap_sudoku.exact import random_solution

    solution = random_solution(Shape(6, 6), random.Random(1))
    cells = solution.cells.copy()
    cells[random.Random(2).sample(range(cells.size), cells.size // 2)] = 0
    puzzle = Puzzle(cells, box=(6, 6))
    identity = run_identity(puzzle, "memetic", 0, {"population_size": 2})
    assert identity["puzzle"].startswith("36x36 (6x6 boxes) puzzle ")
    path = tmp_path / "run.ckpt"
    ga_recipes.memetic(
        puzzle, seed=0, population_size=2, stop=Stop(max_generations=2), checkpoint=Checkpoint(path, 1, identity)
    )
    assert Checkpoint(path, 1, identity, puzzle=puzzle).load()["generation"] >= 1


# -- point 5: a failed save warns once and the run goes on; no temporary outlives its process -


def test_a_failed_save_warns_once_and_the_run_still_returns_its_result(tmp_path):
    said = []
    reference = _run("memetic", **SHORT)
    gone = Checkpoint(tmp_path / "gone" / "run.ckpt", 1, {}, warn=said.append)
    _same(reference, _run("memetic", gone, **SHORT))
    assert len(said) == 1 and said[0].startswith(f"could not save the checkpoint {tmp_path / 'gone' / 'run.ckpt'}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _run("memetic", Checkpoint(tmp_path / "gone" / "run.ckpt", 1, {}), **SHORT)
    assert [w.category.__name__ for w in caught] == ["CheckpointWarning"]


def test_a_full_disk_mid_run_is_a_warning_on_stderr_and_the_result_is_still_written(tmp_path, monkeypatch):
    puzzle, path, out = tmp_path / "one.txt", tmp_path / "run.ckpt", tmp_path / "out.txt"
    puzzle.write_text(read(REPO / "data" / "9x9.txt")[0].format())

    def full(self, records, body):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(checkpoint_module.Checkpoint, "_append", full)
    monkeypatch.setattr(checkpoint_module, "write_atomic", lambda *a, **k: full(None, None, None))
    result = CliRunner().invoke(
        main,
        [
            "solve",
            str(puzzle),
            "-a",
            "memetic",
            "--checkpoint",
            str(path),
            "--checkpoint-every",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0
    assert result.stderr.count("warning: could not save the checkpoint") == 1
    assert "No space left on device" in result.stderr and len(out.read_text().split()) == 1


def test_temporaries_of_killed_writers_are_removed_when_the_checkpoint_is_opened(tmp_path):
    path = tmp_path / "run.ckpt"
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    stale = tmp_path / f".run.ckpt.{dead}.x1y2.tmp"
    live = tmp_path / f".run.ckpt.{os.getpid()}.x3y4.tmp"
    stale.write_bytes(b"half")
    live.write_bytes(b"being written")
    old = time.time() - 10  # older than STALE_AFTER: past the moment between a file's creation and its lock
    for leftover in (stale, live):
        os.utime(leftover, (old, old))
    assert Checkpoint(path, 1, {}).read() is None
    assert not stale.exists() and live.exists()


# -- point 8: a save's cost does not grow with the logbook -------------------------------------


def _state(generation):
    return {
        "generation": generation,
        "evaluations": 2 * generation,
        "restarts": 0,
        "since_improvement": 0,
        "elapsed": 0.5,
        "population": [{"cells": unsolvable().cells, "fitness": [-3.0]}] * 2,
        "hall_of_fame": [],
        "best_ever": [-3.0],
        "rng_state": random.Random(1).getstate(),
        "extra": {},
        "stop_reason": None,
        "logbook": [
            {"gen": g, "nevals": 2, "restarts": 0, "min": 3.0, "avg": 4.5, "max": 6.0} for g in range(generation + 1)
        ],
    }


def test_saves_append_so_their_cost_does_not_grow_with_the_logbook(tmp_path, monkeypatch):
    written = []
    real = checkpoint_module.write_atomic
    monkeypatch.setattr(
        checkpoint_module, "write_atomic", lambda path, data, **k: (written.append(len(data)), real(path, data, **k))
    )
    checkpoint = Checkpoint(tmp_path / "run.ckpt", 1, {"seed": 1})
    start, saves = 20_000, 300
    for generation in range(start, start + saves):
        checkpoint.save(_state(generation))
    size = (tmp_path / "run.ckpt").stat().st_size
    rewritten = sum(written)
    # Rewriting the logbook at every save would write about 300 x 1.2 MB; appending writes each
    # save's frame once, plus a whole rewrite whenever the appended frames outweigh the file.
    assert len(written) <= 3 and rewritten < 4 * written[0]
    assert size < 2 * written[0] + (1 << 20) + 20_000
    state = Checkpoint(tmp_path / "run.ckpt", 1, {"seed": 1}).load()
    assert state["generation"] == start + saves - 1 and len(state["logbook"]) == start + saves


def test_a_save_cut_short_is_dropped_and_the_run_resumes_from_the_one_before(tmp_path):
    path = tmp_path / "run.ckpt"
    checkpoint = Checkpoint(path, 1, {"seed": 1})
    checkpoint.save(_state(5))
    checkpoint.save(_state(6))
    whole = path.read_bytes()
    path.write_bytes(whole[:-7])  # killed while appending generation 6
    again = Checkpoint(path, 1, {"seed": 1})
    assert again.read()["generation"] == 5 and again.dropped > 0
    again.save(_state(6))  # the next save replaces the cut-short one
    assert path.read_bytes() == whole


# -- the real thing: a subprocess killed mid-run -------------------------------------------


def _solve(*args):
    return [sys.executable, "-m", "deap_sudoku", "solve", *args]


def _grid_and_verdict(stdout: str) -> str:
    """The printed grid and verdict without the time it took."""
    return stdout.rsplit(" in ", 1)[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    "algorithm, budget",
    [
        ("restart-ga", ["--max-generations", "120", "--population", "60"]),
        ("memetic", ["--max-generations", "100", "--population", "2"]),
    ],
)
def test_sigkill_at_a_random_generation_then_resume_gives_the_same_result(algorithm, budget, tmp_path):
    puzzle = tmp_path / "unsolvable.txt"
    puzzle.write_text(unsolvable().format())
    common = [str(puzzle), "-a", algorithm, "--seed", "3", "--checkpoint-every", "1", *budget]
    reference = subprocess.run(
        _solve(*common, "--checkpoint", str(tmp_path / "reference.ckpt")), capture_output=True, text=True, timeout=300
    )
    last = checkpoint_generation(tmp_path / "reference.ckpt")
    assert last is not None and last > 20, reference.stderr
    path = tmp_path / "killed.ckpt"
    target = int.from_bytes(os.urandom(2), "big") % (last // 2) + 5  # a random generation in the first half
    victim = forked_cli.Popen(
        _solve(*common, "--checkpoint", str(path)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 120
    while (checkpoint_generation(path) or 0) < target and victim.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    victim.send_signal(signal.SIGKILL)
    assert victim.wait(timeout=30) == -signal.SIGKILL
    killed_at = checkpoint_generation(path)
    assert killed_at is not None and killed_at < last
    resumed = forked_cli.run(_solve(*common, "--checkpoint", str(path)), capture_output=True, text=True, timeout=300)
    assert f"resuming from {path} at generation {killed_at}" in resumed.stderr
    assert resumed.returncode == reference.returncode
    assert _grid_and_verdict(resumed.stdout) == _grid_and_verdict(reference.stdout)
    ours, theirs = (saved_state(p) for p in (path, tmp_path / "reference.ckpt"))
    assert ours["logbook"] == theirs["logbook"]
    assert all(np.array_equal(a["cells"], b["cells"]) for a, b in zip(ours["population"], theirs["population"]))
