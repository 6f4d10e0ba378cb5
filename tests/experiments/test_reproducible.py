"""Every arm reproducible: a run of any kind of arm is a function of its seed alone, in one process
twice, after another arm, in two processes, with forked workers and SCOOP's, and after a resume."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from deap_sudoku.experiments import run_experiment
from deap_sudoku.io.samples import load_samples
from tests.conftest import REPO

ARMS = textwrap.dedent(
    '''
    """Every kind of arm, each drawing from the random module or numpy's global generator somewhere."""
    import random

    import numpy as np

    from deap_sudoku import make_toolbox
    from deap_sudoku.runs.user import from_function, from_toolbox, variant, with_operators
    from deap_sudoku.tools import mut_swap_in_box


    def mut_swap_in_box_row(individual, *, puzzle, rng=None):
        """The worked mutation of docs/extending.md: draws from rng, else the random module."""
        rng = rng or random
        n = puzzle.n
        free = [c for c in range(n * n) if not puzzle.givens[c]]
        row = rng.choice(free) // n
        cells = [c for c in free if c // n == row]
        if len(cells) >= 2:
            a, b = rng.sample(cells, 2)
            individual[a], individual[b] = individual[b], individual[a]
        return (individual,)


    def mut_from_the_module(individual, *, puzzle):
        """Takes no rng at all: the random module it is."""
        return mut_swap_in_box(individual, puzzle=puzzle)


    def toolbox(puzzle, rng):
        return make_toolbox(puzzle, fitness="collisions", mutate="conflict_swap_in_box", rng=rng)


    def guess(puzzle, *, rng, max_evaluations=None):
        """A user's search: numpy's global generator and the random module, not its rng."""
        cells = puzzle.cells.copy()
        free = np.flatnonzero(cells == 0)
        cells[free] = np.random.randint(1, puzzle.n + 1, size=free.size)
        return cells, random.randint(1, 100)


    ROW = with_operators("block-ga", mutate=mut_swap_in_box_row, name="row swap")
    MODULE_DRAWN = with_operators("block-ga", mutate=mut_from_the_module, name="module drawn")
    TOOLBOX = from_toolbox(toolbox, name="toolbox", population_size=30, cxpb=0.3, mutpb=0.8)
    KEEP = variant("block-ga", name="keep 0.3", keep=0.3)
    GUESS = from_function(guess, name="guess")
    '''
)
BUDGET = {"max_generations": 4}


@pytest.fixture()
def arms(tmp_path, monkeypatch):
    (tmp_path / "arms_for_reproduction.py").write_text(ARMS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    import arms_for_reproduction

    yield arms_for_reproduction
    sys.modules.pop("arms_for_reproduction", None)


def _options(names):
    return {name: {} if name == "guess" else BUDGET for name in names}


def _datasets():
    return {"easy": load_samples("testdata/easy.txt")[:1]}


def _key(result) -> tuple:
    """Everything a run gives but its wall time."""
    trace = None if result.trace is None else (result.trace.x, result.trace.series, result.trace.evaluations)
    return (
        result.algorithm,
        result.dataset,
        result.index,
        result.seed,
        result.solved,
        repr(result.fitness),  # a NaN is no NaN's equal
        result.generations,
        result.evaluations,
        result.first_hit,
        tuple(result.grid),
        result.note,
        repr(trace),
    )


def _by_arm(results) -> dict:
    grouped: dict = {}
    for result in results:
        grouped.setdefault(result.algorithm, []).append(_key(result))
    return grouped


def _all_arms(module) -> list:
    return ["block-ga", module.ROW, module.MODULE_DRAWN, module.TOOLBOX, module.KEEP, module.GUESS]


def test_every_kind_of_arm_gives_the_same_runs_twice_and_after_another_arm(arms):
    names = ["block-ga", "row swap", "module drawn", "toolbox", "keep 0.3", "guess"]
    first = _by_arm(run_experiment(_all_arms(arms), _datasets(), runs=2, options=_options(names)))
    again = _by_arm(run_experiment(list(reversed(_all_arms(arms))), _datasets(), runs=2, options=_options(names)))
    assert set(first) == set(names) and first == again
    for arm in _all_arms(arms):  # each alone, after the others ran in this process
        name = arm if isinstance(arm, str) else arm.name
        alone = _by_arm(run_experiment([arm], _datasets(), runs=2, options=_options([name])))
        assert alone[name] == first[name]
    assert len({runs[0][9] for runs in first.values()}) > 1  # the arms do differ from one another


def test_arms_by_import_path_give_the_same_runs_in_another_process_and_in_forked_workers(arms, tmp_path):
    names = [f"arms_for_reproduction:{attribute}" for attribute in ("ROW", "MODULE_DRAWN", "TOOLBOX", "GUESS")]
    options = {name: {} if name.endswith("GUESS") else BUDGET for name in names}
    here = _by_arm(run_experiment(names, _datasets(), runs=2, options=options))
    forked = _by_arm(run_experiment(names, _datasets(), runs=2, options=options, workers=2))
    script = tmp_path / "elsewhere.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json
            from deap_sudoku.experiments import run_experiment
            from deap_sudoku.io.samples import load_samples
            results = run_experiment({names!r}, {{"easy": load_samples("testdata/easy.txt")[:1]}}, runs=2,
                                     options={options!r})
            print(json.dumps([[r.algorithm, r.index, r.seed, r.evaluations, repr(r.fitness), r.grid] for r in results]))
            """
        )
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    elsewhere = json.loads(done.stdout)
    assert forked == here
    assert elsewhere == [
        [key[0], key[2], key[3], key[7], key[5], list(key[9])] for runs in here.values() for key in runs
    ]


def test_a_resumed_experiment_equals_an_uninterrupted_one(arms, tmp_path):
    names = ["row swap", "module drawn", "toolbox", "guess"]
    arms_ = [arms.ROW, arms.MODULE_DRAWN, arms.TOOLBOX, arms.GUESS]
    whole = _by_arm(run_experiment(arms_, _datasets(), runs=2, options=_options(names)))
    kept = tmp_path / "runs.jsonl"
    stopped = run_experiment(
        arms_, _datasets(), runs=2, options=_options(names), results=kept, requested=lambda: len(kept.read_text()) > 0
    )
    assert len(stopped) == 1  # stopped after its first run, which the file keeps
    resumed = run_experiment(arms_, _datasets(), runs=2, options=_options(names), results=kept)
    assert _by_arm(resumed) == whole


@pytest.mark.slow
def test_bench_under_scoop_gives_the_serial_runs_of_every_kind_of_arm(arms, tmp_path):
    data = str(REPO / "data" / "testdata" / "easy.txt")
    names = ["block-ga", *(f"arms_for_reproduction:{a}" for a in ("ROW", "MODULE_DRAWN", "TOOLBOX", "KEEP"))]
    command = [sys.executable, "-m", "deap_sudoku", "bench", data, "--limit", "1", "--runs", "2", "-q"]
    command += [word for name in names for word in ("-a", name)] + ["--max-generations", "4", "--json", "-"]
    env = {"PYTHONPATH": str(tmp_path), **{k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}}
    serial = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    scoop = subprocess.run(
        [*command, "--workers", "2"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300
    )
    assert serial.returncode == 0 and scoop.returncode == 0, serial.stderr + scoop.stderr

    def runs(done):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in json.loads(done.stdout)["runs"]]

    assert runs(scoop) == runs(serial) and len(runs(serial)) == 10
