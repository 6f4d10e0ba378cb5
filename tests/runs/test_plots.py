"""Plots are objects: they draw on the axes they are given and return them, or return a new
matplotlib Figure that a notebook shows as a cell's value, and never touch the backend or pyplot's
state."""

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
    from deap_sudoku.runs.figure import NotebookFigure

    backend, rc_backend = matplotlib.get_backend(), matplotlib.rcParams._get_backend_or_none()
    had_pyplot = "matplotlib.pyplot" in sys.modules
    toolbox, logbook = _logged_run()
    figures = [
        plot_logbook(logbook, toolbox.evaluate, label="9x9-easy"),
        plot_convergence([("a", Objective("collisions", 0.0, True), Trace("step", (0, 1), {"best": (3, 0)}))]),
    ]
    assert all(isinstance(figure, NotebookFigure) and figure.canvas.manager is None for figure in figures)
    assert matplotlib.get_backend() == backend and matplotlib.rcParams._get_backend_or_none() == rc_backend
    assert ("matplotlib.pyplot" in sys.modules) == had_pyplot  # drawing never imports pyplot


def test_a_returned_figure_shows_itself_as_a_notebook_cells_value_in_a_fresh_kernel():
    """In a kernel that has not imported pyplot, IPython knew no way to draw a plain ``Figure`` and
    showed ``<Figure size 700x420 with 1 Axes>``; the figure now gives it a PNG, at its own size."""
    toolbox, logbook = _logged_run()
    figure = plot_logbook(logbook, toolbox.evaluate)
    data, size = figure._repr_png_()
    assert data.startswith(b"\x89PNG") and 600 <= size["width"] <= 720 and 360 <= size["height"] <= 440
    formatters = pytest.importorskip("IPython.core.formatters")
    shown, metadata = formatters.DisplayFormatter().format(figure)  # what a fresh kernel's display does
    assert shown["image/png"] == data and metadata["image/png"] == size


def test_plot_logbook_draws_on_the_callers_axes_the_best_mean_and_target():
    from matplotlib.figure import Figure

    toolbox, logbook = _logged_run()
    figure = Figure()
    left, right = figure.subplots(1, 2)
    assert plot_logbook(logbook, toolbox.evaluate, ax=right, title="run") is right  # as pandas and seaborn do
    assert len(figure.axes) == 2
    assert not left.lines and right.get_title() == "run"
    best, mean = (line.get_ydata().tolist() for line in right.lines[:2])
    assert best == logbook.select("min") and mean == pytest.approx(logbook.select("avg"))
    assert right.lines[0].get_xdata().tolist() == logbook.select("gen")
    assert any(np.allclose(line.get_ydata(), 0) and line.get_linestyle() == ":" for line in right.lines)  # target
    assert "collisions (lower is better)" in right.get_ylabel()


def test_every_line_carries_the_markers_its_legend_entry_shows():
    """Issue 63: a short run's lines had markers and a long one's none, under a legend with markers."""
    objective = Objective("collisions", 0.0, True)
    short = Trace("generation", tuple(range(5)), {"best": (9, 7, 5, 3, 0), "mean": (20, 15, 10, 5, 2)})
    long = Trace("generation", tuple(range(400)), {"best": tuple(range(400, 0, -1)), "mean": tuple(range(800, 0, -2))})
    figure = plot_convergence([("puzzle 1", objective, short), ("puzzle 2", objective, long)])
    axis = figure.axes[0]
    lines = [line for line in axis.get_lines() if line.get_linestyle() != ":"]  # not the target line
    assert len(lines) == 4 and all(line.get_marker() not in ("", "None", None) for line in lines)
    legend = {
        text.get_text(): handle for text, handle in zip(axis.get_legend().get_texts(), axis.get_legend().legend_handles)
    }
    assert legend["best"].get_marker() == "o" and legend["mean"].get_marker() == "x"
    markevery = [line.get_markevery() for line in lines]
    assert markevery[:2] == [1, 1] and markevery[2] * 40 >= 400  # at most 40 markers on the long lines
