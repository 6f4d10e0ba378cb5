"""Plots are objects: they return a matplotlib Figure, draw on the axes they are given, and never
touch the backend or pyplot's state."""

import random
import sys

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

from deap_sudoku import load_sample, make_toolbox  # noqa: E402
from deap_sudoku.algorithms import Stop, ea_simple  # noqa: E402
from deap_sudoku.runs.plots import plot_convergence, plot_logbook  # noqa: E402
from deap_sudoku.runs.registry import Objective, Trace  # noqa: E402
from deap_sudoku.tools import fitness_statistics, optimum  # noqa: E402


def _logged_run():
    puzzle = load_sample()
    toolbox = make_toolbox(puzzle, mutate="conflict_swap_in_box", rng=random.Random(2))
    _, logbook = ea_simple(
        toolbox.population(n=100),
        toolbox,
        0.3,
        0.8,
        60,
        stats=fitness_statistics(),
        stop=Stop(solved=optimum(toolbox.evaluate)),
    )
    return toolbox, logbook


def test_plots_return_figures_and_leave_the_backend_and_pyplot_alone():
    from matplotlib.figure import Figure

    backend, rc_backend = matplotlib.get_backend(), matplotlib.rcParams._get_backend_or_none()
    had_pyplot = "matplotlib.pyplot" in sys.modules
    toolbox, logbook = _logged_run()
    figures = [
        plot_logbook(logbook, toolbox.evaluate, label="9x9-easy"),
        plot_convergence([("a", Objective("collisions", 0.0, True), Trace("step", (0, 1), {"best": (3, 0)}))]),
    ]
    assert all(type(figure) is Figure for figure in figures)
    assert matplotlib.get_backend() == backend and matplotlib.rcParams._get_backend_or_none() == rc_backend
    assert ("matplotlib.pyplot" in sys.modules) == had_pyplot  # drawing never imports pyplot


def test_plot_logbook_draws_on_the_callers_axes_the_best_mean_and_target():
    from matplotlib.figure import Figure

    toolbox, logbook = _logged_run()
    figure = Figure()
    left, right = figure.subplots(1, 2)
    assert plot_logbook(logbook, toolbox.evaluate, ax=right, title="run") is figure
    assert not left.lines and right.get_title() == "run"
    best, mean = (line.get_ydata().tolist() for line in right.lines[:2])
    assert best == logbook.select("min") and mean == pytest.approx(logbook.select("avg"))
    assert right.lines[0].get_xdata().tolist() == logbook.select("gen")
    assert any(np.allclose(line.get_ydata(), 0) and line.get_linestyle() == ":" for line in right.lines)  # target
    assert "collisions (lower is better)" in right.get_ylabel()
