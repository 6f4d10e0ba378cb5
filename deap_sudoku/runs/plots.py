"""Plots of runs: the convergence curve of a solve, and success rate and time against the share of givens.

Matplotlib is imported when a plot is drawn (it is the ``plot`` extra).
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from ..io.fileio import write_atomic

__all__ = ["plot_summary", "plot_convergence"]


def _save(figure, path: str, overwrite: bool) -> None:
    """Render ``figure`` (format from the file name, PNG by default) and write it atomically."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format=Path(path).suffix.lstrip(".").lower() or "png")
    plt.close(figure)
    write_atomic(path, buffer.getvalue(), overwrite=overwrite)


def plot_summary(rows: list[dict], path: str, *, by: str = "givens", overwrite: bool = False) -> None:
    """Success rate (with its interval) and median time, one line per row ``series``, against the
    mean share of givens (the phase-transition picture) or, with ``by="dataset"``, per dataset in order."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (rate_axis, time_axis) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for line in dict.fromkeys(r["series"] for r in rows):
        mine = [r for r in rows if r["series"] == line]
        xs = [100 * r["givens_share"] for r in mine] if by == "givens" else list(range(len(mine)))
        order = np.argsort(xs)
        xs = [xs[i] for i in order]
        mine = [mine[i] for i in order]
        rate = [100 * r["rate"] for r in mine]
        errors = [[100 * (r["rate"] - r["rate_low"]) for r in mine], [100 * (r["rate_high"] - r["rate"]) for r in mine]]
        rate_axis.errorbar(xs, rate, yerr=errors, marker="o", capsize=3, label=line)
        time_axis.plot(xs, [r["seconds_median"] for r in mine], marker="o", label=line)
        if by != "givens":
            time_axis.set_xticks(xs, [r["dataset"] for r in mine], rotation=30, ha="right")
    rate_axis.set_ylabel("solved (%), 95 % Wilson interval")
    rate_axis.set_ylim(-3, 103)
    time_axis.set_ylabel("median seconds per run")
    time_axis.set_yscale("log")
    time_axis.set_xlabel("givens (% of cells)" if by == "givens" else "dataset")
    rate_axis.legend()
    figure.tight_layout()
    _save(figure, path, overwrite)


def plot_convergence(curves: list[list[float]], path: str, *, title: str = "", overwrite: bool = False) -> None:
    """Best fitness per generation, one line per run."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 4))
    for number, minima in enumerate(curves, start=1):
        if minima:
            axis.plot(range(len(minima)), minima, label=f"puzzle {number}" if len(curves) > 1 else None)
    if len(curves) > 1:
        axis.legend()
    axis.set_xlabel("generation")
    axis.set_ylabel("best fitness")
    axis.set_title(title)
    figure.tight_layout()
    _save(figure, path, overwrite)
