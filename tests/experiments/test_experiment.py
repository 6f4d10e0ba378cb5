"""run_experiment from Python: records made in the session, variants of a bundled algorithm, forked
workers with the serial results, and results kept for a rerun (issue 33)."""

import pytest

from deap_sudoku.experiments import run_experiment
from deap_sudoku.io.samples import load_samples
from deap_sudoku.runs.user import variant

HARD = load_samples("testdata/hard.txt")[:3]


def _view(results):
    return [(r.dataset, r.index, r.algorithm, r.seed, r.solved, r.generations, r.evaluations) for r in results]


def test_a_variant_fixes_its_settings_and_leaves_the_other_options():
    one = variant("memetic", name="population of one", population_size=1)
    assert "population_size" not in one.options and "max_evaluations" in one.options
    assert one.run(HARD[0], seed=0, max_generations=3).trace.evaluations[0] == 1  # one slot made at the start
    no_crossover = variant("memetic", name="no crossover", cxpb=0.0)
    assert "cxpb" not in no_crossover.options and no_crossover.description.endswith("cxpb=0.0")
    with pytest.raises(ValueError, match="needs at least one setting"):
        variant("memetic", name="same")


def test_forked_workers_run_records_with_the_serial_results(tmp_path):
    arms = [variant("memetic", name="no crossover", cxpb=0.0), "row-ga"]
    options = {"no crossover": {"max_generations": 8}, "row-ga": {"max_generations": 8}}
    serial = run_experiment(arms, {"hard": HARD}, runs=2, options=options)
    forked = run_experiment(arms, {"hard": HARD}, runs=2, options=options, workers=2, results=tmp_path / "runs.jsonl")
    assert _view(forked) == _view(serial) and len(serial) == 12
    seen = []
    again = run_experiment(
        arms,
        {"hard": HARD},
        runs=3,
        options=options,
        results=tmp_path / "runs.jsonl",
        progress=lambda done, total: seen.append((done, total)),
    )
    assert _view(again[:12]) == _view(serial) and len(again) == 18 and seen[0] == (13, 18) and seen[-1] == (18, 18)


def test_options_an_algorithm_does_not_take_and_records_over_scoop_are_refused():
    with pytest.raises(ValueError, match="backtracking takes max_nodes, max_seconds, not max_generations"):
        run_experiment(["backtracking"], {"hard": HARD}, runs=1, options={"backtracking": {"max_generations": 3}})
    for engine in ({"parallel": True}, {"scheduler": "tcp://127.0.0.1:1"}):  # refused before Dask connects
        with pytest.raises(ValueError, match="parallel runs need algorithms by name"):
            run_experiment([variant("memetic", name="v", cxpb=0.0)], {"hard": HARD}, runs=1, **engine)
    for two in ({"parallel": True, "workers": 2}, {"workers": 2, "scheduler": "tcp://127.0.0.1:1"}):
        with pytest.raises(ValueError, match="not two"):
            run_experiment(["memetic"], {"hard": HARD}, runs=1, **two)
    with pytest.raises(RuntimeError, match="start it with `python -m scoop SCRIPT`"):  # was SCOOP's traceback
        run_experiment(["memetic"], {"hard": HARD}, runs=1, parallel=True)


def test_a_records_kernels_are_warmed_up_off_the_clock_once_per_shape():
    import dataclasses

    calls = []
    record = dataclasses.replace(
        variant("memetic", name="warm me", cxpb=0.0), warm_up=lambda puzzle, compiled: calls.append(puzzle.shape.name)
    )
    run_experiment([record], {"hard": HARD}, runs=2, options={"warm me": {"max_generations": 2}})
    assert calls == ["9x9 (3x3 boxes)"]


def test_contained_a_users_algorithm_that_hangs_or_ends_its_process_fails_its_run_only():
    import os
    import time

    from deap_sudoku.runs.registry import from_function
    from tests.timing import timed
    from deap_sudoku.runs.sandbox import GRACE

    def hangs(puzzle, *, rng, max_seconds=None):
        time.sleep(60)

    def ends(puzzle, *, rng):
        os._exit(3)

    def experiment(*hang):
        arms = [*hang, from_function(ends, name="ends"), "backtracking"]
        return run_experiment(arms, {"hard": HARD[:1]}, runs=1, options={"hangs": {"max_seconds": 0.1}}, contain=True)

    _, calibration = timed(experiment)  # against the machine: the same experiment without the hanging arm
    results, took = timed(lambda: experiment(from_function(hangs, name="hangs")))
    by_name = {r.algorithm: r for r in results}
    assert by_name["hangs"].error.startswith("Stopped: no result") and not by_name["hangs"].solved
    assert by_name["ends"].error == "Ended: the algorithm ended its process (exit code 3) without returning a result"
    # stopped 0.1 s * 1.1 + GRACE after its start (a timer, so load adds only the calibration's cost and
    # a second of scheduling), not left to sleep its 60 s
    assert by_name["backtracking"].solved and took.wall < 0.11 + GRACE + 1 + 4 * calibration.wall, (took, calibration)
