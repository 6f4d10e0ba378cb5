"""Claims checked and budgets enforced: a run counts as solved only when verification says so and
within its budgets; what was censored or refuted says so in the record."""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest
from click.testing import CliRunner

from deap_sudoku import load_sample, make_toolbox
from deap_sudoku.algorithms import Stop, ea_simple
from deap_sudoku.cli import main
from deap_sudoku.exact import solve
from deap_sudoku.experiments import compare, ert, read_results, run_experiment, summarise, summary_table
from deap_sudoku.io.samples import load_samples
from deap_sudoku.runs.record import Objective, Outcome, Trace
from deap_sudoku.runs.registry import from_function
from deap_sudoku.runs.task import TIME_TOLERANCE
from deap_sudoku.runs.user import from_toolbox
from deap_sudoku.tools import optimum
from deap_sudoku.tools.fitness import unit_duplicates
from tests.conftest import REPO

EASY = load_samples("testdata/easy.txt")[:1]


def slow(puzzle, *, rng, max_seconds=None):
    """Solves, but takes three times its budget."""
    time.sleep(3 * max_seconds)
    return solve(puzzle, rng=rng).cells


def liar(puzzle, *, rng):
    """Claims a solution it does not have."""
    grid = solve(puzzle, rng=rng).cells.copy()
    free = np.flatnonzero(puzzle.cells == 0)
    grid[free[0]], grid[free[1]] = grid[free[1]], grid[free[0]]  # two free cells of row 1 swapped: columns clash
    return Outcome(grid, 0.0, 3, 0, 30, "solved", Objective("collisions", 0.0, True))


def spendthrift(puzzle, *, rng, max_evaluations=None):
    """Solves, after spending five times its budget, and says so."""
    return solve(puzzle, rng=rng).cells, 5 * max_evaluations


def test_a_run_three_times_over_its_time_budget_is_censored_at_it_and_marked():
    record = from_function(slow, name="slow")
    [result] = run_experiment([record], {"easy": EASY}, runs=1, options={"slow": {"max_seconds": 0.3}})
    assert not result.solved and result.seconds == 0.3
    assert result.censored.startswith("returned after 0.9") and "past its budget of 0.3 s" in result.censored
    assert "with a solution" in result.censored and f"tolerance {TIME_TOLERANCE:g} s" in result.censored
    [row] = summarise([result])
    assert row["solved"] == 0 and row["censored"] == 1 and "0/1 (1 censored)" in summary_table([row])


def test_a_run_within_the_tolerance_keeps_its_solution():
    def prompt(puzzle, *, rng, max_seconds=None):
        time.sleep(max_seconds)
        return solve(puzzle, rng=rng).cells

    [result] = run_experiment(
        [from_function(prompt, name="prompt")], {"easy": EASY}, runs=1, options={"prompt": {"max_seconds": 0.2}}
    )
    assert result.solved and not result.censored


def test_a_lying_algorithm_is_unsolved_and_its_record_says_why(tmp_path):
    kept = tmp_path / "runs.jsonl"
    [result] = run_experiment([from_function(liar, name="liar")], {"easy": EASY}, runs=1, results=kept)
    assert not result.solved
    assert result.note.startswith("claimed solved (solved) but verification failed: column 1 has")
    assert result.note.endswith("; counted unsolved")
    [kept_result] = read_results(kept)
    assert kept_result.note == result.note and not kept_result.solved


def test_a_solution_found_past_the_evaluation_budget_is_censored_at_the_budget():
    [result] = run_experiment(
        [from_function(spendthrift, name="spend")], {"easy": EASY}, runs=1, options={"spend": {"max_evaluations": 100}}
    )
    assert not result.solved and result.evaluations == 100
    assert result.censored.startswith("solved with 500 evaluations (when, it does not say), past its budget of 100")


def _traced(first_hit: int, evaluations: int):
    def found(puzzle, *, rng, max_evaluations=None):
        trace = Trace(
            "generation", (0, 1, 2), {"best": (5.0, 2.0, 0.0), "mean": (9.0, 5.0, 3.0)}, (40, 80, evaluations)
        )
        return Outcome(
            solve(puzzle, rng=rng).cells,
            0.0,
            2,
            0,
            evaluations,
            "solved",
            Objective("collisions", 0.0, True),
            trace,
            first_hit,
        )

    return from_function(found, name="found")


def test_the_evaluation_that_solved_decides_not_the_generation_it_ended():
    budget = {"found": {"max_evaluations": 100}}
    [within] = run_experiment([_traced(95, 120)], {"easy": EASY}, runs=1, options=budget)
    assert within.solved and within.first_hit == 95 and within.evaluations == 120 and not within.censored
    assert within.evaluations_to_solve == 95 and ert([within]) == 95
    [past] = run_experiment([_traced(105, 120)], {"easy": EASY}, runs=1, options=budget)
    assert not past.solved and past.evaluations == 100 and past.censored.startswith("solved at evaluation 105")
    assert past.trace.evaluations == (40, 80) and past.fitness == 2.0  # its course up to the budget


def test_censored_runs_are_never_credited_by_the_comparison():
    pytest.importorskip("scipy")
    honest = from_function(lambda puzzle, *, rng, max_seconds=None: solve(puzzle, rng=rng).cells, name="honest")
    results = run_experiment(
        [from_function(slow, name="slow"), honest],
        {"easy": EASY},
        runs=3,
        options={"slow": {"max_seconds": 0.1}, "honest": {"max_seconds": 0.1}},
    )
    [row] = compare(results, "honest")
    assert row["solved"] == 0 and row["baseline_solved"] == 3


def test_bench_json_reports_the_note_and_what_was_censored(tmp_path, monkeypatch):
    (tmp_path / "claims.py").write_text("from tests.experiments.test_claims import liar, slow\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(REPO))
    data = str(REPO / "data" / "testdata" / "easy.txt")
    done = CliRunner().invoke(
        main,
        [
            "bench",
            data,
            "--limit",
            "1",
            "-a",
            "claims:liar",
            "-a",
            "claims:slow",
            "--max-seconds",
            "0.1",
            "--json",
            "-",
            "-q",
        ],
    )
    assert done.exit_code == 0, done.output
    runs = {r["algorithm"]: r for r in json.loads(done.stdout)["runs"]}
    assert "verification failed" in runs["claims:liar"]["note"] and not runs["claims:liar"]["solved"]
    assert runs["claims:slow"]["censored"].startswith("returned after") and not runs["claims:slow"]["solved"]
    assert "went past a budget, counted as unsolved at the budget" in done.stderr


# -- fitnesses of several objectives ---------------------------------------------------------


def eval_units(individual, *, puzzle):
    """Duplicates in rows, in columns and in boxes: three objectives, all minimised."""
    duplicates = unit_duplicates(np.asarray(individual), puzzle.shape)[0]
    n = puzzle.n
    return (int(duplicates[:n].sum()), int(duplicates[n : 2 * n].sum()), int(duplicates[2 * n :].sum()))


def _three_objective_toolbox(puzzle, **options):
    from deap import base, creator  # noqa: F401  (creator is how a user would make the types)

    toolbox = make_toolbox(puzzle, representation="row", **options)
    fitness = type("UnitsFitness", (base.Fitness,), {"weights": (-1.0, -1.0, -1.0)})
    individual = type("UnitsIndividual", (np.ndarray,), {})
    row_permutation = toolbox.individual

    def make():
        grid = row_permutation()
        child = np.asarray(grid).view(individual)
        child.fitness = fitness()
        return child

    toolbox.register("individual", make)
    toolbox.register("population", lambda n: [make() for _ in range(n)])
    toolbox.register("evaluate", eval_units, puzzle=puzzle)
    toolbox.register("clone", lambda ind: _copy(ind, individual, fitness))
    return toolbox


def _copy(ind, individual, fitness):
    child = np.array(ind).view(individual)
    child.fitness = fitness()
    if ind.fitness.valid:
        child.fitness.values = ind.fitness.values
    return child


def test_stop_with_one_number_refuses_a_fitness_of_three_objectives():
    puzzle = load_sample("testdata/easy.txt")
    toolbox = _three_objective_toolbox(puzzle, rng=__import__("random").Random(0))
    assert optimum(toolbox.evaluate) == 0  # no weights on the function: taken as one minimised objective
    with pytest.raises(
        ValueError, match=r"Stop\(solved=0\) judges one objective, but this fitness has 3 \(\(0.0, [\d.]+, [\d.]+\)\)"
    ):
        ea_simple(toolbox.population(n=10), toolbox, 0.5, 0.5, 5, stop=Stop(solved=0))


def test_optimum_refuses_a_weighted_fitness_of_three_objectives_without_a_target():
    eval_units.weights = (-1.0, -1.0, -1.0)
    try:
        with pytest.raises(TypeError, match="cannot judge eval_units, a fitness of 3 objectives without a target"):
            optimum(eval_units, load_sample("testdata/easy.txt"))
        eval_units.target = lambda puzzle: (0, 0, 0)
        assert optimum(eval_units, load_sample("testdata/easy.txt")) == (0, 0, 0)
    finally:
        del eval_units.weights
        vars(eval_units).pop("target", None)


def test_a_three_objective_fitness_is_solved_only_with_no_clash_in_any_unit():
    puzzle = load_sample("testdata/easy.txt")
    for seed in range(3):
        toolbox = _three_objective_toolbox(puzzle, rng=__import__("random").Random(seed))
        population, logbook = ea_simple(toolbox.population(n=30), toolbox, 0.5, 0.5, 40, stop=Stop(solved=(0, 0, 0)))
        best = min(population, key=lambda ind: sum(ind.fitness.values))
        solved = logbook.stop_reason == "solved"
        assert solved == (eval_units(best, puzzle=puzzle) == (0, 0, 0))
        if not solved:
            assert all(ind.fitness.values != (0, 0, 0) for ind in population)


def test_a_from_toolbox_arm_with_a_fitness_of_three_objectives_is_refused_with_its_reason():
    eval_units.weights = (-1.0, -1.0, -1.0)
    eval_units.target = lambda puzzle: (0, 0, 0)
    try:
        arm = from_toolbox(lambda puzzle, rng: _three_objective_toolbox(puzzle, rng=rng), name="units")
        [result] = run_experiment([arm], {"easy": EASY}, runs=1, options={"units": {"max_generations": 3}})
    finally:
        del eval_units.weights, eval_units.target
    assert not result.solved and result.error.startswith("ValueError: units has 3 objectives")
    assert math.isnan(result.fitness)
