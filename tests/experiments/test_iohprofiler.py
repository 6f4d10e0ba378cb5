"""IOHprofiler exports of separate commands merge: a problem's id and name are what the problem is,
and every export says where it came from."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from deap_sudoku.experiments.iohprofiler import problem_id, problem_name
from deap_sudoku.runs.record import Trace
from tests import forked_cli
from tests.conftest import REPO

DATA = str(REPO / "data" / "testdata" / "easy.txt")


def _export(folder: Path, *algorithms: str) -> subprocess.CompletedProcess:
    """``bench --iohprofiler`` in a process of its own."""
    command = [sys.executable, "-m", "deap_sudoku", "bench", DATA, "--limit", "2", "--max-evaluations", "400"]
    command += [word for name in algorithms for word in ("-a", name)] + ["-q", "--iohprofiler", str(folder)]
    done = forked_cli.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def _problems(folder: Path) -> dict[int, set[str]]:
    """Every function id of an export with the names its files give it."""
    found: dict[int, set[str]] = {}
    for info in folder.rglob("IOHprofiler_*.json"):
        data = json.loads(info.read_text())
        found.setdefault(data["function_id"], set()).add(data["function_name"])
    return found


@pytest.mark.slow
def test_two_exports_of_separate_commands_read_together_name_the_same_problems(tmp_path):
    first, second = tmp_path / "A", tmp_path / "B"
    _export(first, "block-ga", "memetic")
    _export(second, "memetic", "row-ga")
    expected = {
        problem_id("easy.txt", fitness, True): {problem_name("easy.txt", fitness)}
        for fitness in ("cell_collisions", "collisions", "column_box_collisions")
    }
    together = _problems(first)
    for number, named in _problems(second).items():
        together.setdefault(number, set()).update(named)
    assert together == expected  # one name per id across both exports, the ids those of the problems
    # imported here, not at collection: iohinspector imports scikit-learn (6 s of every worker's start)
    inspector = pytest.importorskip("iohinspector", reason="the [test] extra installs IOHprofiler's reader")
    manager = inspector.DataManager()
    for folder in (first, second):
        for algorithm in sorted(p.name for p in folder.iterdir()):
            manager.add_folder(str(folder / algorithm))
    overview = manager.overview
    pairs = set(zip(overview["function_id"].to_list(), overview["function_name"].to_list()))
    assert pairs == {(number, name) for number, (name,) in ((k, tuple(v)) for k, v in expected.items())}
    memetic = overview.filter(overview["algorithm_name"] == "memetic")
    assert set(memetic["function_id"].to_list()) == {problem_id("easy.txt", "collisions", True)}
    assert memetic.height == 4  # both exports' memetic runs, on the one problem, instances 1 and 2
    assert set(overview["instance"].to_list()) == {1, 2}


def test_ids_are_a_function_of_the_problem_alone():
    assert problem_id("easy.txt", "collisions", True) == problem_id("easy.txt", "collisions", True)
    assert len({problem_id(d, f, low) for d in ("a", "b") for f in ("x", "y") for low in (True, False)}) == 8
    assert all(1 <= problem_id(str(i), "collisions", True) <= 65_535 for i in range(200))
    assert problem_name("testdata/easy", "cell collisions") == "testdata_easy__cell_collisions"


def test_an_export_records_its_provenance_and_refuses_two_problems_of_one_id(tmp_path, monkeypatch):
    from deap_sudoku.experiments import iohprofiler, run_experiment
    from deap_sudoku.io.samples import load_samples

    results = run_experiment(
        ["block-ga"],
        {"easy": load_samples("testdata/easy.txt")[:1]},
        runs=1,
        options={"block-ga": {"max_generations": 2}},
    )
    iohprofiler.export_iohprofiler(results, tmp_path / "out", provenance={"deap_sudoku": "9.9", "seed": 0})
    [info] = (tmp_path / "out").rglob("IOHprofiler_*.json")
    attributes = json.loads(info.read_text())["experiment_attributes"]
    assert {"deap_sudoku": "9.9"} in attributes and {"seed": "0"} in attributes
    renamed = [r.__class__(**{**vars(r), "dataset": "other"}) for r in results]
    monkeypatch.setattr(iohprofiler, "problem_id", lambda *problem: 7)  # every problem one id: a collision
    with pytest.raises(ValueError, match="easy__cell_collisions and other__cell_collisions get the same id, 7"):
        iohprofiler.export_iohprofiler(results + renamed, tmp_path / "clash")
    assert not (tmp_path / "clash").exists()  # refused before anything was written


def test_the_local_searches_that_count_evaluations_are_exported_evaluation_by_evaluation(tmp_path):
    from deap_sudoku.experiments import iohprofiler, run_experiment
    from deap_sudoku.io.samples import load_samples

    counted = ["sa-lewis", "sa-lewis-cp", "cp-ils"]
    options = {name: {"max_evaluations": 300} for name in counted} | {"tabu": {"max_steps": 20}}
    results = run_experiment(
        [*counted, "tabu"], {"hard": load_samples("testdata/hard.txt")[:1]}, runs=1, options=options
    )
    unspent = dataclasses.replace(  # solved before any evaluation counted: nothing to replay, and said so
        results[1], seed=9, trace=Trace("step", (0,), {"current": (0.0,), "best": (0.0,)}, (0,))
    )
    assert iohprofiler.export_iohprofiler([*results, unspent], tmp_path / "out") == [
        "tabu: left out: it traces no fitness against evaluations",  # steps only, and no evaluation budget
        "sa-lewis-cp: 1 run left out: it spent no evaluation",
    ]
    for result in results[:3]:
        info = json.loads(next((tmp_path / "out" / result.algorithm.replace("-", "_")).rglob("*.json")).read_text())
        [[run]] = [scenario["runs"] for scenario in info["scenarios"]]
        assert run["evals"] == result.evaluations == 300 and run["best"]["y"] == result.fitness, result.algorithm
        [dat] = (tmp_path / "out" / result.algorithm.replace("-", "_")).rglob("*.dat")
        rows = [line.split() for line in dat.read_text().splitlines()[1:]]
        assert int(rows[-1][0]) == 300 and float(rows[-1][1]) == result.fitness  # the course to the last evaluation
        assert [int(row[0]) for row in rows] == sorted({int(row[0]) for row in rows})
