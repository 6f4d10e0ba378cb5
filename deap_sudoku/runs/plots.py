"""Plots of runs: the course of a solve (fitness per generation, or tabu's score per step), and the
drawing helpers :mod:`deap_sudoku.experiments.plots` draws an experiment's views with.

Matplotlib is the ``plot`` extra; it is imported when a plot is drawn, and only its object
interface is used (``matplotlib.figure.Figure``, no ``pyplot``), so drawing never changes the
backend or the figures of a notebook or an application.  Each function behaves as pandas' and
seaborn's plotting functions do: given ``ax=`` (a notebook's or an application's axes, pyplot's
included) it draws there and returns those axes, and the figure they belong to shows the way it
always does, once; without, it draws a new figure and returns it, a
:class:`~deap_sudoku.runs.figure.NotebookFigure` that a notebook shows as a cell's value even in a
fresh kernel (as seaborn's objects interface does, without pyplot).  With ``path`` the figure is
also written there (format from the extension, atomically); saving is otherwise the caller's:
``figure.savefig(...)``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..io.fileio import write_atomic
from .record import Objective, Trace

if TYPE_CHECKING:  # matplotlib is imported only when drawing
    from matplotlib.axes import Axes

__all__ = [
    "plot_logbook",
    "plot_convergence",
    "require_matplotlib",
    "image_formats",
    "new_figure",
    "save_figure",
    "LINE_STYLES",
    "INSTALL",
]

INSTALL = 'pip install "deap_sudoku[plot]"'
"""How to get what plots need."""

FEW_POINTS = 40
"""The most markers a line carries: every point of a short series (one point still shows), every
n-th of a longer one, so that every line carries the markers its legend entry shows."""

LINE_STYLES = [("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"), ("v", "-"), ("P", "--"), ("X", "-.")]
"""(marker, line style) pairs, one per line of a plot, told apart in black and white too."""


def require_matplotlib() -> None:
    """Raise ``ImportError`` with the install command when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ImportError(f"plots need matplotlib, which is not installed; install it with: {INSTALL}") from None


def image_formats() -> tuple[str, ...]:
    """The file extensions matplotlib can write (``png``, ``svg``, ``pdf``, ...)."""
    require_matplotlib()
    from matplotlib.backend_bases import FigureCanvasBase

    return tuple(sorted(FigureCanvasBase.get_supported_filetypes()))


def new_figure(**options):
    """A matplotlib ``Figure`` (constrained layout) that shows itself as a notebook cell's value
    (:class:`~deap_sudoku.runs.figure.NotebookFigure`), never pyplot's: drawing changes no global state."""
    require_matplotlib()
    from .figure import NotebookFigure

    return NotebookFigure(layout="constrained", **options)


def save_figure(figure, path: str | None, overwrite: bool):
    """Write ``figure`` to ``path`` (format from its extension) atomically, if a path is given; return it."""
    if path is not None:
        buffer = io.BytesIO()
        figure.savefig(buffer, format=Path(path).suffix.lstrip(".").lower() or "png", dpi=110)
        write_atomic(path, buffer.getvalue(), overwrite=overwrite)
    return figure


def _fitness_label(objective: Objective) -> str:
    direction = "lower" if objective.lower_is_better else "higher"
    return f"fitness: {objective.name} ({direction} is better)"


def plot_logbook(
    logbook,
    evaluate,
    *,
    label: str = "",
    title: str = "",
    ax: Axes | None = None,
    path: str | None = None,
    overwrite: bool = False,
):
    """The course of DEAP runs whose logbooks hold ``gen``, ``min``, ``avg`` and ``max``
    (``stats=fitness_statistics()``): best and mean fitness per generation against the target.

    ``logbook`` is one logbook (named ``label``) or a dict of label to logbook, drawn in one
    colour each.  ``evaluate`` is the runs' ``toolbox.evaluate`` (or an ``eval_*`` function
    registered with ``puzzle=``): it names the fitness and gives its direction and target.
    Returns ``ax`` when given, else the new figure (which a notebook shows as a cell's value).
    """
    objective = Objective.of(evaluate)
    logbooks = logbook if isinstance(logbook, dict) else {label: logbook}
    runs = [(name, objective, Trace.from_logbook(book, objective.lower_is_better)) for name, book in logbooks.items()]
    return plot_convergence(runs, path, title=title, ax=ax, overwrite=overwrite)


def plot_convergence(
    runs: Sequence[tuple[str, Objective, Trace]],
    path: str | None = None,
    *,
    title: str = "",
    ax: Axes | None = None,
    overwrite: bool = False,
):
    """The course of each run: for a GA the best (solid) and mean (dashed) fitness of the population
    per generation, for tabu search the best and current score per step; the target (a solved
    grid's value) is a dotted line.  ``runs`` holds ``(label, objective, trace)``, one per puzzle.
    Returns ``ax`` when given, else the new figure."""
    from matplotlib.lines import Line2D

    axis = ax if ax is not None else new_figure(figsize=(7, 4.2)).add_subplot()
    figure = axis.figure
    handles: list = []
    styles: dict[str, tuple[Any, str]] = {}  # line style (a matplotlib literal) and marker
    targets: dict[float, Objective] = {}
    for number, (label, objective, trace) in enumerate(runs):
        colour = f"C{number % 10}"
        every = max(1, -(-len(trace.x) // FEW_POINTS))  # at most FEW_POINTS markers on the line
        for name, values in trace.series.items():
            best = name == "best"
            styles[name] = ("-", "o") if best else ("--", "x")
            axis.plot(
                trace.x,
                values,
                styles[name][0],
                color=colour,
                alpha=1.0 if best else 0.55,
                linewidth=1.8 if best else 1.0,
                marker=styles[name][1],
                markevery=every,
                markersize=5,
            )
        if label:
            handles.append(Line2D([], [], color=colour, linewidth=1.8, label=label))
        targets.setdefault(objective.target, objective)
    for target in targets:
        axis.axhline(target, color="black", linestyle=":", linewidth=1.2)
    handles += [
        Line2D([], [], color="black", linestyle=style, marker=marker, label=name)
        for name, (style, marker) in styles.items()
    ]
    handles.append(
        Line2D([], [], color="black", linestyle=":", label=f"target {', '.join(f'{t:g}' for t in targets)} (solved)")
    )
    first = runs[0][1] if runs else None
    unit = runs[0][2].unit if runs else "generation"
    axis.set_xlabel(f"{unit} (count)")
    axis.set_ylabel(_fitness_label(first) if first else "fitness")
    axis.margins(x=0.02, y=0.08)
    _readable_ranges(axis, runs, list(targets))
    axis.legend(handles=handles, fontsize=8, ncols=2 if len(handles) > 8 else 1)
    axis.set_title(title)
    save_figure(figure, path, overwrite)
    return figure if ax is None else ax


def _readable_ranges(axis, runs, targets: list[float]) -> None:
    """Whole-number ticks for counts, and a range of at least one unit each way, so that a run solved
    in generation 0 (one point, at the target) is drawn as a point on plain axes."""
    from matplotlib.ticker import MaxNLocator

    xs = [x for _, _, trace in runs for x in trace.x]
    ys = [y for _, _, trace in runs for values in trace.series.values() for y in values] + targets
    axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    if all(float(y).is_integer() for y in ys):
        axis.yaxis.set_major_locator(MaxNLocator(integer=True))
    if xs and max(xs) - min(xs) < 2:
        axis.set_xlim(min(xs) - 1, max(xs) + 1)
    if ys and max(ys) - min(ys) < 2:
        axis.set_ylim(min(ys) - 1, max(ys) + 1)
