"""An experiment's plots draw what the runs hold: the summary against givens or per dataset, the
run-time ECDF and the fixed-budget curve (issue 33)."""

import math

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("matplotlib")

from deap_sudoku.cli import main
from deap_sudoku.experiments.plots import best_so_far, plot_ecdf, plot_fixed_budget, plot_summary
from deap_sudoku.runs.registry import Objective, Trace
from deap_sudoku.runs.task import RunResult

from tests.conftest import REPO

COLLISIONS = Objective("collisions", 0.0, True)


def _run(algorithm, solved, evaluations, trace=None, objective=COLLISIONS, seed=0):
    return RunResult(
        algorithm,
        "d",
        0,
        seed,
        0.4,
        solved,
        0.0 if solved else 3.0,
        3,
        0,
        evaluations,
        1.0,
        [0] * 81,
        objective=objective,
        trace=trace,
    )


def _trace(spent, best):
    return Trace("generation", tuple(range(len(spent))), {"best": tuple(best), "mean": tuple(best)}, tuple(spent))


def test_the_ecdf_steps_up_at_each_solved_run_and_counts_the_unsolved_ones():
    runs = [_run("a", True, 20, seed=1), _run("a", True, 10, seed=2), _run("a", False, 50, seed=3)]
    figure = plot_ecdf(runs)
    [axis] = figure.axes
    step = axis.get_lines()[0]
    assert list(step.get_xdata()) == [10, 10, 20, 50]
    assert np.allclose(step.get_ydata(), [0, 100 / 3, 200 / 3, 200 / 3])
    assert axis.get_xscale() == "log" and "(2/3 solved)" in axis.get_legend().get_texts()[0].get_text()


def test_the_run_time_ecdf_draws_every_algorithm_against_seconds_counted_or_not():
    runs = [_run("ga", True, 20, seed=1), _run("exact", True, 0, seed=2)]
    assert [line.get_label() for line in plot_ecdf(runs).axes[0].get_lines()][:1] == ["ga (1/1 solved)"]
    [axis] = plot_ecdf(runs, measure="seconds").axes
    labels = [line.get_label() for line in axis.get_lines() if not line.get_label().startswith("_")]
    assert labels == ["ga (1/1 solved)", "exact (1/1 solved)"] and axis.get_xlabel() == "seconds (log scale)"
    with pytest.raises(ValueError, match="measure is"):
        plot_ecdf(runs, measure="generations")


def test_the_views_draw_on_the_axes_they_are_given_and_return_them_as_pandas_and_seaborn_do():
    """Returning the caller's figure made a notebook show it twice: as the cell's value, and as
    pyplot's figure at the cell's end."""
    from matplotlib.figure import Figure

    runs = [_run("a", True, 30, _trace([10, 20, 30], [5, 3, 0]))]
    for plot in (plot_ecdf, plot_fixed_budget):
        figure = Figure()
        axis = figure.add_subplot()
        assert plot(runs, ax=axis, title="mine") is axis and axis.lines and axis.get_title() == "mine"
        assert len(figure.axes) == 1 and not figure.get_suptitle()


def test_best_so_far_is_the_running_best_within_each_budget():
    run = _run("a", False, 30, _trace([10, 20, 30], [5, 3, 4]))
    values = best_so_far(run, np.array([5, 10, 25, 100]))
    assert math.isnan(values[0]) and list(values[1:]) == [5, 3, 3]
    higher = _run("b", False, 30, _trace([10, 20, 30], [5, 3, 7]), Objective("distinct", 243.0, False))
    assert list(best_so_far(higher, np.array([30]))) == [7]


def test_the_fixed_budget_curve_is_the_median_with_its_quartiles_and_one_panel_per_fitness():
    runs = [_run("a", False, 30, _trace([10, 20, 30], [9 - k, 6 - k, 4 - k]), seed=k) for k in range(3)]
    figure = plot_fixed_budget(runs, points=5)
    [axis] = figure.axes
    median = axis.get_lines()[0]
    at_30 = list(median.get_xdata()).index(30)
    assert median.get_ydata()[at_30] == 3  # the runs end at 4, 3 and 2
    other = [_run("c", False, 30, _trace([10, 30], [60, 40]), Objective("cell_collisions", 0.0, True))]
    assert len(plot_fixed_budget(runs + other).axes) == 2
    with pytest.raises(ValueError, match="2 different fitnesses"):
        plot_fixed_budget(runs + other, ax=figure.axes[0])
    with pytest.raises(ValueError, match="no run traces its fitness against evaluations"):
        plot_fixed_budget([_run("exact", True, 0)])


def test_bench_draws_both_from_its_runs(tmp_path):
    data = str(REPO / "data" / "testdata" / "easy.txt")
    result = CliRunner().invoke(
        main,
        [
            "bench",
            data,
            "-a",
            "block-ga",
            "-a",
            "row-ga",
            "--runs",
            "2",
            "--limit",
            "1",
            "--max-generations",
            "10",
            "-q",
            "--ecdf",
            str(tmp_path / "e.png"),
            "--fixed-budget",
            str(tmp_path / "f.png"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "e.png").stat().st_size > 10_000 and (tmp_path / "f.png").stat().st_size > 10_000
    refused = CliRunner().invoke(main, ["bench", data, "--ecdf", str(tmp_path / "e.xyz")])
    assert refused.exit_code == 2 and "unknown image extension" in refused.output


ROWS = [
    {
        "series": "memetic",
        "dataset": "easy",
        "givens_share": 0.4,
        "rate": 1.0,
        "rate_low": 0.8,
        "rate_high": 1.0,
        "seconds_median": 0.5,
        "solved": 10,
        "runs": 10,
    },
    {
        "series": "memetic",
        "dataset": "hard",
        "givens_share": 0.3,
        "rate": 0.5,
        "rate_low": 0.2,
        "rate_high": 0.8,
        "seconds_median": 2.0,
        "solved": 5,
        "runs": 10,
    },
]


def test_plot_summary_returns_figures_by_givens_and_by_dataset_that_a_notebook_shows():
    from deap_sudoku.runs.figure import NotebookFigure

    for by in ("givens", "dataset"):
        figure = plot_summary(ROWS, by=by)
        assert isinstance(figure, NotebookFigure) and figure._repr_png_()[0].startswith(b"\x89PNG")


def test_plot_summary_draws_on_a_pair_of_axes_and_returns_them():
    from matplotlib.figure import Figure

    figure = Figure()
    pair = rates, times = figure.subplots(2, 1, sharex=True)
    assert plot_summary(ROWS, ax=pair, title="bench") is pair
    assert rates.get_title() == "bench" and not figure.get_suptitle()
    assert [line.get_ydata().tolist() for line in times.lines] == [[2.0, 0.5]]  # sorted by share of givens
