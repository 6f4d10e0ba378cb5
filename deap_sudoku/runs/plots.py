"""Plots of runs: the course of a solve (fitness per generation, or tabu's score per step), and a
benchmark's success rate and time against the share of givens or per dataset.

Matplotlib is the ``plot`` extra; it is imported when a plot is drawn, and only its object
interface is used (``matplotlib.figure.Figure``, no ``pyplot``), so drawing never changes the
backend or the figures of a notebook or an application.  Each function draws on the ``ax=`` it is
given (a notebook's or an application's axes) or on a new ``Figure``, and returns the figure;
with ``path`` it is also written there (format from the extension, atomically).  Saving is
otherwise the caller's: ``figure.savefig(...)``, or just the figure as a notebook cell's value.
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

__all__ = ["plot_logbook", "plot_summary", "plot_convergence", "require_matplotlib", "image_formats", "INSTALL"]

INSTALL = 'pip install "deap_sudoku[plot]"'
"""How to get what plots need."""

FEW_POINTS = 40
"""A series with at most this many points is drawn with markers, so that one point still shows."""

_STYLES = [("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"), ("v", "-"), ("P", "--"), ("X", "-.")]


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


def _figure(**options):
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(layout="constrained", **options)


def _save(figure, path: str | None, overwrite: bool):
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
    grid's value) is a dotted line.  ``runs`` holds ``(label, objective, trace)``, one per puzzle."""
    from matplotlib.lines import Line2D

    axis = ax if ax is not None else _figure(figsize=(7, 4.2)).add_subplot()
    figure = axis.figure
    handles: list = []
    styles: dict[str, tuple[Any, str]] = {}  # line style (a matplotlib literal) and marker
    targets: dict[float, Objective] = {}
    for number, (label, objective, trace) in enumerate(runs):
        colour = f"C{number % 10}"
        few = len(trace.x) <= FEW_POINTS
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
                marker=styles[name][1] if few else None,
                markersize=5,
            )
        if label:
            handles.append(Line2D([], [], color=colour, linewidth=1.8, label=label))
        targets.setdefault(objective.target, objective)
    for target in targets:
        axis.axhline(target, color="black", linestyle=":", linewidth=1.2)
    marked = any(len(trace.x) <= FEW_POINTS for _, _, trace in runs)
    handles += [
        Line2D([], [], color="black", linestyle=style, marker=marker if marked else None, label=name)
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
    return _save(figure, path, overwrite)


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


def _log_seconds(axis, seconds: list[float]) -> None:
    """A log time axis labelled with plain numbers: at 1-2-5 steps over up to two decades (so that
    more than one tick is labelled), at the powers of ten over more."""
    import math

    from matplotlib.ticker import FuncFormatter, LogLocator

    axis.set_yscale("log")
    positive = [value for value in seconds if value > 0]
    decades = math.log10(max(positive) / min(positive)) if positive else 0
    axis.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 2 else (1.0,)))
    if positive and decades <= 2:  # times close together: reach out to a 1-2-5 tick on either side
        steps = [
            m * 10.0**e
            for e in range(math.floor(math.log10(min(positive))) - 1, math.ceil(math.log10(max(positive))) + 2)
            for m in (1, 2, 5)
        ]
        low = max(step for step in steps if step <= min(positive) * 1.0001)
        high = min(step for step in steps if step >= max(positive) * 0.9999 and step > low)
        axis.set_ylim(low / 1.15, high * 1.15)
    axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.yaxis.set_minor_formatter(FuncFormatter(lambda value, _: ""))


def plot_summary(
    rows: list[dict],
    path: str | None = None,
    *,
    by: str = "givens",
    title: str = "",
    ax: tuple[Axes, Axes] | None = None,
    overwrite: bool = False,
):
    """Success rate (with its 95 % interval) and median seconds per run of each row ``series``.

    ``by="givens"``: lines against the mean share of givens (the phase-transition picture), each
    series with its own marker and line style and nudged sideways so that equal values stay
    visible.  ``by="dataset"``: the datasets are categories, so the rates are grouped bars and the
    times points, one per series.  ``ax`` is a pair of axes, for the rates and the times, that
    share their x axis.
    """
    if by not in ("givens", "dataset"):
        raise ValueError(f"plot by 'givens' or 'dataset', not {by!r}")
    rate_axis, time_axis = ax if ax is not None else _figure(figsize=(7.5, 6)).subplots(2, 1, sharex=True)
    figure = rate_axis.figure
    series = list(dict.fromkeys(r["series"] for r in rows))
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    width = 0.8 / max(len(series), 1)
    every_second: list[float] = []
    for number, line in enumerate(series):
        marker, style = _STYLES[number % len(_STYLES)]
        mine = [r for r in rows if r["series"] == line]
        if by == "givens":
            mine.sort(key=lambda r: r["givens_share"])
            nudge = (number - (len(series) - 1) / 2) * 0.25
            xs = [100 * r["givens_share"] + nudge for r in mine]
        else:
            xs = [datasets.index(r["dataset"]) + (number - (len(series) - 1) / 2) * width for r in mine]
        rate = [100 * r["rate"] for r in mine]
        errors = [[100 * (r["rate"] - r["rate_low"]) for r in mine], [100 * (r["rate_high"] - r["rate"]) for r in mine]]
        seconds = [r["seconds_median"] for r in mine]
        colour = f"C{number % 10}"
        if by == "givens":
            rate_axis.errorbar(
                xs,
                rate,
                yerr=errors,
                marker=marker,
                linestyle=style,
                capsize=2,
                elinewidth=0.8,
                color=colour,
                label=line,
            )
            time_axis.plot(xs, seconds, marker=marker, linestyle=style, color=colour, label=line)
        else:
            rate_axis.bar(
                xs,
                rate,
                width=width,
                yerr=errors,
                capsize=3,
                color=colour,
                alpha=0.85,
                error_kw={"elinewidth": 0.8},
                label=line,
            )
            for x, r in zip(xs, mine):  # the count at the foot of each bar, readable even at 0 %
                rate_axis.text(x, 1.5, f"{r['solved']}/{r['runs']}", ha="center", va="bottom", fontsize=7)
            time_axis.plot(xs, seconds, marker=marker, linestyle="none", markersize=7, color=colour, label=line)
        every_second += seconds
    rate_axis.set_ylabel("solved (%), 95 % Wilson interval")
    rate_axis.set_ylim(0, 105)
    time_axis.set_ylabel("median wall time per run (s)")
    _log_seconds(time_axis, every_second)
    if by == "givens":
        time_axis.set_xlabel("givens (% of cells)")
    else:
        time_axis.set_xticks(range(len(datasets)), datasets, rotation=20, ha="right")
        time_axis.set_xlabel("dataset")
    rate_axis.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.01), ncols=min(len(series), 4), frameon=False)
    if title and ax is None:
        figure.suptitle(title)
    elif title:
        rate_axis.set_title(title, pad=24)  # above the legend; the caller's figure keeps its own title
    return _save(figure, path, overwrite)
