"""ERT, times to solve of the solved runs, and the pairwise tests against a baseline (issue 33)."""

import math
import sys

import pytest
from click.testing import CliRunner

from deap_sudoku.cli import main
from deap_sudoku.experiments import compare, comparison_table, ert, summarise
from deap_sudoku.runs.task import RunResult

from tests.conftest import REPO


def _run(algorithm, solved, evaluations, seconds=1.0, dataset="d", seed=0):
    return RunResult(
        algorithm, dataset, 0, seed, 0.4, solved, 0.0 if solved else 3.0, 1, 0, evaluations, seconds, [0] * 81
    )


def test_ert_is_every_evaluation_over_the_solved_runs_as_coco_defines_it():
    runs = [_run("a", True, 10), _run("a", False, 20), _run("a", True, 30)]
    assert ert(runs) == 30.0
    assert math.isinf(ert([_run("a", False, 20)])) and math.isnan(ert([_run("x", True, 0)]))


def test_the_summary_gives_ert_and_times_to_solve_of_the_solved_runs_only():
    [row] = summarise([_run("a", True, 10, 1.0), _run("a", False, 1000, 9.0), _run("a", True, 30, 3.0)])
    assert row["ert"] == 520.0
    assert (row["evaluations_to_solve_median"], row["seconds_to_solve_median"]) == (20.0, 2.0)
    assert row["evaluations_median"] == 30.0  # all runs: the censored one included


def test_a_clearly_better_algorithm_is_named_by_both_tests():
    runs = [_run("good", True, 100 + i, seed=i) for i in range(10)] + [
        _run("base", i < 2, 1000 + i, seed=i) for i in range(10)
    ]
    [row] = compare(runs, "base")
    assert (row["solved"], row["baseline_solved"], row["measure"]) == (10, 2, "evaluations")
    assert row["rate_p"] == pytest.approx(132 / 184756)  # two tables as extreme: 2 * C(12,10) / C(20,10)
    assert row["rate_better"] == "good" and row["time_p"] < 0.001 and row["time_better"] == "good"
    [reverse] = compare(runs, "good")
    assert reverse["rate_better"] == "good" and reverse["time_better"] == "good" and reverse["algorithm"] == "base"
    assert "| d | good | 10/10 | base | 2/10 |" in comparison_table([row])


def test_equal_algorithms_are_neither_and_exact_solvers_compare_in_seconds():
    same = [_run(name, i % 2 == 0, 100 + i, seed=i) for name in ("a", "b") for i in range(10)]
    [row] = compare(same, "a")
    assert row["rate_p"] == 1.0 and row["rate_better"] == row["time_better"] == "neither"
    exact = [_run("exact", True, 0, seconds=0.01, seed=i) for i in range(5)] + [
        _run("a", True, 50, seconds=1.0, seed=i) for i in range(5)
    ]
    [row] = compare(exact, "a")
    assert row["measure"] == "seconds" and row["time_better"] == "exact"


def test_a_baseline_missing_from_a_dataset_is_named():
    with pytest.raises(ValueError, match="the baseline base has no runs on other"):
        compare([_run("base", True, 1), _run("a", True, 1, dataset="other")], "base")


def test_bench_compares_with_the_baseline_and_checks_it_before_any_work(monkeypatch):
    data = str(REPO / "data" / "testdata" / "easy.txt")
    result = CliRunner().invoke(
        main,
        [
            "bench",
            data,
            "-a",
            "backtracking",
            "-a",
            "block-ga",
            "--baseline",
            "block-ga",
            "--runs",
            "3",
            "--limit",
            "1",
            "--max-generations",
            "5",
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Against block-ga:" in result.stdout and "| easy.txt | backtracking | 3/3 | block-ga |" in result.stdout
    refused = CliRunner().invoke(main, ["bench", data, "-a", "backtracking", "--baseline", "tabu"])
    assert refused.exit_code == 2 and "--baseline tabu is not one of the -a algorithms" in refused.output
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    no_scipy = CliRunner().invoke(main, ["bench", data, "-a", "backtracking", "-a", "tabu", "--baseline", "tabu"])
    assert no_scipy.exit_code == 2 and 'pip install "deap_sudoku[experiments]"' in no_scipy.output
