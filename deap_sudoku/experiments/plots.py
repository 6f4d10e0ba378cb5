"""The views of an experiment, one line per algorithm: the success rate and time against the share
of givens or per dataset (:func:`plot_summary`), the run-time ECDF (the share of runs solved within
a number of evaluations, log axis, as IOHprofiler and COCO draw it) and the fixed-budget curve (the
median best-so-far fitness at each number of evaluations, with its interquartile band), which still
tells algorithms apart where none solves.

Like :mod:`deap_sudoku.runs.plots`, these draw with matplotlib's object interface on the ``ax`` given
(and return it) or on a new figure (and return that: a notebook shows it as a cell's value), and
write the figure to ``path`` atomically when one is given.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from ..runs.plots import LINE_STYLES, new_figure, save_figure
from ..runs.task import RunResult

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_summary", "plot_ecdf", "plot_fixed_budget", "best_so_far"]


def _by_algorithm(results: Iterable[RunResult]) -> dict[str, list[RunResult]]:
    groups: dict[str, list[RunResult]] = {}
    for result in results:
        groups.setdefault(result.algorithm, []).append(result)
    return groups


def plot_ecdf(
    results: Iterable[RunResult],
    path: str | None = None,
    *,
    title: str = "",
    ax: Axes | None = None,
    overwrite: bool = False,
    measure: str | None = None,
):
    """The share of runs solved (of all runs, unsolved ones included) against the evaluations it took,
    one step line per algorithm; algorithms that count no evaluations are drawn against seconds on
    a figure of their own only if no algorithm counts any (a note in the legend says which).
    ``measure="seconds"`` draws every algorithm against its wall time (the run-time ECDF), so that
    algorithms that count evaluations differently, or not at all, share one figure.  Returns ``ax``
    when given, else the new figure.

    :raises ValueError: for a ``measure`` other than ``"evaluations"``, ``"seconds"`` or None."""
    if measure not in (None, "evaluations", "seconds"):
        raise ValueError(f"measure is 'evaluations', 'seconds' or None, not {measure!r}")
    groups = _by_algorithm(results)
    counted = {name: runs for name, runs in groups.items() if any(r.evaluations for r in runs)}
    if measure == "seconds":
        counted = {}
    measure = "evaluations" if counted else "seconds"
    figure = ax.figure if ax is not None else new_figure(figsize=(9, 4.2))
    axis = ax if ax is not None else figure.add_subplot()
    drawn = counted or groups
    colours = _colours(len(drawn))
    for (name, runs), (marker, line), colour in zip(drawn.items(), LINE_STYLES * 10, colours):
        times = np.sort([_to_solve(r, measure) for r in runs if r.solved]).astype(float)
        spent = max([getattr(r, measure) for r in runs] + [1e-9])
        shares = np.arange(1, len(times) + 1) / len(runs)
        xs = np.concatenate(([times[0] if len(times) else spent], times, [spent]))
        ys = np.concatenate(([0.0], shares, [shares[-1] if len(shares) else 0.0]))
        label = f"{name} ({len(times)}/{len(runs)} solved)"
        axis.step(xs, 100 * ys, where="post", linestyle=line, color=colour, label=label)
        if len(times):
            axis.plot(times, 100 * shares, marker, markersize=3, linestyle="none", color=axis.lines[-1].get_color())
    left_out = sorted(set(groups) - set(counted)) if counted else []
    axis.set_xscale("log")
    axis.set_xlabel(f"{measure} (log scale)")
    axis.set_ylabel("runs solved (%)")
    axis.set_ylim(-2, 102)
    axis.grid(True, which="major", alpha=0.3)
    axis.legend(
        fontsize=8,
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        frameon=False,
        title=("left out, no evaluations counted:\n" + ", ".join(left_out)) if left_out else None,
        title_fontsize=7,
    )
    if title:
        (figure.suptitle if ax is None else axis.set_title)(title)
    save_figure(figure, path, overwrite)
    return figure if ax is None else ax


def _colours(count: int) -> list:
    """A colour per line: matplotlib's ten by default, twenty (tab20) for more lines, so that no two of
    up to twenty algorithms share a colour (with the line styles, none share both up to 70)."""
    from matplotlib import colormaps, rcParams

    if count <= 10:
        return [entry["color"] for entry in rcParams["axes.prop_cycle"]][:10] * 7
    tab20 = colormaps["tab20"]
    return [tab20(i) for i in range(20)] * 4


def _to_solve(result: RunResult, measure: str) -> float:
    """What a solved run took to solve: the evaluation that solved it (where recorded), or its seconds."""
    return float(result.evaluations_to_solve if measure == "evaluations" else result.seconds)  # type: ignore[arg-type]


def best_so_far(result: RunResult, budgets: np.ndarray) -> np.ndarray:
    """The best fitness ``result`` had found within each of ``budgets`` evaluations (NaN before its
    first evaluated generation); after its run ended, what it ended with."""
    objective, trace = result.course()
    spent = np.asarray(trace.evaluations, dtype=float)
    best = np.asarray(trace.series["best"], dtype=float)
    lower = objective.lower_is_better
    running = np.minimum.accumulate(best) if lower else np.maximum.accumulate(best)
    index = np.searchsorted(spent, budgets, side="right") - 1
    values = running[np.clip(index, 0, None)]
    values[index < 0] = np.nan
    return values


def plot_fixed_budget(
    results: Iterable[RunResult],
    path: str | None = None,
    *,
    title: str = "",
    ax: Axes | None = None,
    overwrite: bool = False,
    points: int = 60,
):
    """The median best-so-far fitness against evaluations (log axis), with the band from the first to
    the third quartile, one line per algorithm whose runs trace fitness against evaluations (GAs).
    Algorithms that optimise different fitnesses (the block GA's cell collisions, the memetic GA's
    collisions) are never drawn on one axis: each fitness gets a panel of its own.  Returns ``ax``
    when given, else the new figure.

    :raises ValueError: when no run traces fitness against evaluations, or several fitnesses are to
        be drawn on the one ``ax`` given.
    """
    groups = {
        name: [r for r in runs if r.trace is not None and r.trace.evaluations and r.objective is not None]
        for name, runs in _by_algorithm(results).items()
    }
    groups = {name: runs for name, runs in groups.items() if runs}
    if not groups:
        raise ValueError("no run traces its fitness against evaluations (the GAs do; tabu and exact solvers do not)")
    panels: dict = {}
    for name, runs in groups.items():
        panels.setdefault(runs[0].objective, {})[name] = runs
    if ax is not None and len(panels) > 1:
        raise ValueError(
            f"these algorithms optimise {len(panels)} different fitnesses, which one axis cannot show; "
            "leave ax= out for a panel each"
        )
    figure = ax.figure if ax is not None else new_figure(figsize=(7.5, 1.2 + 3.2 * len(panels)))
    axes = [ax] if ax is not None else figure.subplots(len(panels), 1, squeeze=False, sharex=True)[:, 0]
    spent = [r.course()[1].evaluations or (0,) for runs in groups.values() for r in runs]
    low, high = min(e[0] for e in spent), max(e[-1] for e in spent)
    budgets = np.unique(np.geomspace(max(low, 1), max(high, low + 1, 2), points).round())
    styles = iter(LINE_STYLES * 10)
    for axis, (objective, members) in zip(axes, panels.items()):
        _draw_fixed_budget_panel(axis, objective, members, budgets, styles)
    axes[-1].set_xlabel("evaluations (log scale)")
    if title:
        (figure.suptitle if ax is None else axes[0].set_title)(title)
    save_figure(figure, path, overwrite)
    return figure if ax is None else ax


def _draw_fixed_budget_panel(axis: Axes, objective, members: dict, budgets, styles) -> None:
    """One fitness's panel of :func:`plot_fixed_budget`: each algorithm's median best-so-far with its
    quartile band, the target, a log axis of evaluations."""
    for name, runs in members.items():
        marker, line = next(styles)
        curves = np.array([best_so_far(r, budgets) for r in runs])
        with warnings.catch_warnings():  # budgets before any run's first generation: NaN, not drawn
            warnings.simplefilter("ignore", RuntimeWarning)
            q1, median, q3 = np.nanpercentile(curves, [25, 50, 75], axis=0)
        drawn = axis.plot(
            budgets,
            median,
            linestyle=line,
            marker=marker,
            markersize=3,
            markevery=max(len(budgets) // 12, 1),
            label=f"{name} ({len(runs)} runs)",
        )
        axis.fill_between(budgets, q1, q3, alpha=0.2, color=drawn[0].get_color(), linewidth=0)
    axis.axhline(
        objective.target, color="0.4", linestyle=":", linewidth=1, label=f"target {objective.target:g} (solved)"
    )
    axis.set_xscale("log")
    direction = "lower" if objective.lower_is_better else "higher"
    axis.set_ylabel(f"best-so-far {objective.name}\n({direction} is better),\nmedian and quartiles")
    axis.grid(True, which="major", alpha=0.3)
    axis.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)


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
    share their x axis; it is returned when given, else the new figure.
    """
    if by not in ("givens", "dataset"):
        raise ValueError(f"plot by 'givens' or 'dataset', not {by!r}")
    rate_axis, time_axis = ax if ax is not None else new_figure(figsize=(7.5, 6)).subplots(2, 1, sharex=True)
    figure = rate_axis.figure
    series = list(dict.fromkeys(r["series"] for r in rows))
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    width = 0.8 / max(len(series), 1)
    every_second: list[float] = []
    for number, line in enumerate(series):
        mine = [r for r in rows if r["series"] == line]
        if by == "givens":
            mine.sort(key=lambda r: r["givens_share"])
            nudge = (number - (len(series) - 1) / 2) * 0.25
            xs = [100 * r["givens_share"] + nudge for r in mine]
        else:
            xs = [datasets.index(r["dataset"]) + (number - (len(series) - 1) / 2) * width for r in mine]
        _draw_summary_series(rate_axis, time_axis, number, line, mine, xs, bars=by == "dataset", width=width)
        every_second += [r["seconds_median"] for r in mine]
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
    save_figure(figure, path, overwrite)
    return figure if ax is None else ax


def _draw_summary_series(
    rate_axis: Axes,
    time_axis: Axes,
    number: int,
    line: str,
    mine: list[dict],
    xs: list[float],
    *,
    bars: bool,
    width: float,
) -> None:
    """One series of :func:`plot_summary`: its rates with their intervals (a line, or bars with the
    counts at their feet) and its median seconds."""
    marker, style = LINE_STYLES[number % len(LINE_STYLES)]
    rate = [100 * r["rate"] for r in mine]
    errors = [[100 * (r["rate"] - r["rate_low"]) for r in mine], [100 * (r["rate_high"] - r["rate"]) for r in mine]]
    seconds = [r["seconds_median"] for r in mine]
    colour = f"C{number % 10}"
    if not bars:
        rate_axis.errorbar(
            xs, rate, yerr=errors, marker=marker, linestyle=style, capsize=2, elinewidth=0.8, color=colour, label=line
        )
        time_axis.plot(xs, seconds, marker=marker, linestyle=style, color=colour, label=line)
        return
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
