"""Summaries of an experiment's runs: solve rates with Wilson intervals, ERT, medians and IQRs, and
their tables (Markdown, CSV) and JSON report."""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import Any

from ..runs.task import RunResult

__all__ = ["summarise", "wilson_interval", "ert", "summary_table", "summary_csv", "report_json", "applies"]


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a success rate (95 % by default); (0, 1) with no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    low = 0.0 if successes == 0 else max(0.0, min(p, centre - half))
    high = 1.0 if successes == trials else min(1.0, max(p, centre + half))
    return low, high


def ert(results: Iterable[RunResult]) -> float:
    """The expected running time in evaluations, as COCO defines it: the evaluations of every run
    until it solved (:attr:`~deap_sudoku.runs.task.RunResult.evaluations_to_solve`) or ended unsolved,
    over the number of solved runs (infinite when none solved; NaN for an algorithm that counts no
    evaluations, such as the exact solvers)."""
    results = list(results)
    solved = sum(r.solved for r in results)
    if not any(r.evaluations for r in results):
        return math.nan
    spent = sum(r.evaluations if r.evaluations_to_solve is None else r.evaluations_to_solve for r in results)
    return spent / solved if solved else math.inf


def _median_iqr(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return math.nan, math.nan, math.nan
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q2, q1, q3


def summarise(results: Iterable[RunResult], *, by: str = "dataset") -> list[dict]:
    """One row per (dataset, algorithm): runs, successes, rate with its 95 % Wilson interval,
    median and IQR of generations (GAs), steps (tabu), evaluations and seconds, and the mean share of givens.

    With ``by="givens"`` the runs are grouped by grid size and share of givens (rounded to a
    per cent) instead of by file, e.g. one row for all 25x25 puzzles with 45 % givens; the row's
    ``series`` (algorithm and size) is what the phase-transition plot draws as one line.
    """
    if by not in ("dataset", "givens"):
        raise ValueError(f"group by 'dataset' or 'givens', not {by!r}")
    groups: dict[tuple[str, str], list[RunResult]] = {}
    series: dict[tuple[str, str], str] = {}
    sides: dict[tuple[str, str], int] = {}
    for result in results:
        key = (result.dataset, result.algorithm)
        series[key] = result.algorithm
        if by == "givens":
            side = math.isqrt(len(result.grid))
            key = (f"{side}x{side} {100 * result.givens_share:.0f} %", result.algorithm)
            series[key], sides[key] = f"{result.algorithm}, {side}x{side}", side
        groups.setdefault(key, []).append(result)
    rows = []
    for (dataset, algorithm), mine in groups.items():
        successes = sum(r.solved for r in mine)
        low, high = wilson_interval(successes, len(mine))
        row: dict[str, Any] = {
            "dataset": dataset,
            "algorithm": algorithm,
            "series": series[dataset, algorithm],
            "runs": len(mine),
            "solved": successes,
            "failed": sum(bool(r.error) for r in mine),
            "censored": sum(bool(r.censored) for r in mine),
            "rate": successes / len(mine),
            "rate_low": low,
            "rate_high": high,
            "givens_share": statistics.fmean(r.givens_share for r in mine),
        }
        for name in ("generations", "steps", "evaluations", "seconds"):
            median, q1, q3 = _median_iqr([float(getattr(r, name)) for r in mine])
            row.update({f"{name}_median": median, f"{name}_q1": q1, f"{name}_q3": q3})
        row["ert"] = ert(mine)
        # of the solved runs alone: never a mean of censored times
        for name, values in (
            ("evaluations", [float(r.evaluations_to_solve) for r in mine if r.evaluations_to_solve is not None]),
            ("seconds", [r.seconds for r in mine if r.solved]),
        ):
            median, q1, q3 = _median_iqr(values)
            row.update({f"{name}_to_solve_median": median, f"{name}_to_solve_q1": q1, f"{name}_to_solve_q3": q3})
        rows.append(row)
    if by == "givens":  # by size, then share of givens, not in the order the files came
        rows.sort(key=lambda r: (r["algorithm"], sides[r["dataset"], r["algorithm"]], r["givens_share"]))
    return rows


def summary_csv(rows: list[dict]) -> str:
    """The summary rows as CSV, one column per key."""
    if not rows:
        return ""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def summary_table(rows: list[dict], *, seconds: bool = True) -> str:
    """The summary rows as a Markdown table; ``seconds=False`` leaves the wall-time column out, so
    that the table is a function of the seeds alone, the same on every machine and every rerun."""
    columns = ("generations", "steps", "evaluations") + (("seconds",) if seconds else ())
    lines = [
        "| dataset | algorithm | solved | rate (95 % CI) | "
        + "".join(f"{name} median (IQR) | " for name in columns)
        + "ERT (evaluations) |",
        "|---|---|---:|---:|" + "---:|" * len(columns) + "---:|",
    ]
    for row in rows:
        cells = [
            row["dataset"],
            row["algorithm"],
            f"{row['solved']}/{row['runs']}" + (f" ({row['censored']} censored)" if row.get("censored") else ""),
            f"{100 * row['rate']:.0f} % ({100 * row['rate_low']:.0f}-{100 * row['rate_high']:.0f})",
        ]
        for key in columns:
            digits = 3 if key == "seconds" else 0
            cells.append(
                f"{row[f'{key}_median']:.{digits}f} ({row[f'{key}_q1']:.{digits}f}-{row[f'{key}_q3']:.{digits}f})"
                if applies(row, key)
                else "-"
            )
        cells.append("-" if math.isnan(row["ert"]) else "∞" if math.isinf(row["ert"]) else f"{row['ert']:.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


COUNTED_BY = {"generations": "max_generations", "steps": "max_steps"}
"""The counts an algorithm keeps where it takes their budget (a GA's generations, a local search's steps)."""


def applies(row: dict, column: str) -> bool:
    """Whether a summary ``row``'s count ``column`` means something for its algorithm: generations
    for one that takes ``--max-generations``, steps for ``--max-steps``, evaluations where a run
    counted any (as for ERT); a count that is not zero always does.  Where it does not, the tables
    print ``-``, not ``0 (0-0)``."""
    if column == "evaluations":
        return not math.isnan(row["ert"])
    if column not in COUNTED_BY or row[f"{column}_q3"] or row[f"{column}_median"]:
        return True
    from ..runs import registry

    record = registry.ALGORITHMS.get(row["algorithm"])
    if record is None:
        try:
            record = registry.algorithm(row["algorithm"])
        except ValueError:
            return False
    return COUNTED_BY[column] in record.options


def report_json(
    rows: list[dict],
    results: list[RunResult],
    missing: Sequence[str] = (),
    missing_count: int = 0,
    comparison: Sequence[dict] = (),
    provenance: dict | None = None,
) -> str:
    """Where the experiment came from (``provenance``, :func:`~deap_sudoku.experiments.provenance.provenance`),
    the summary rows, every finished run (its note, and what was ``censored``, included), the
    ``comparison`` with a baseline if there is one, and (when a run was cut short) the runs still
    missing: ``missing_count`` of them, described by :meth:`~deap_sudoku.experiments.plan.Plan.missing`."""
    runs = [
        {f.name: getattr(r, f.name) for f in fields(r) if f.name not in ("grid", "objective", "trace")} for r in results
    ]
    document: dict[str, Any] = {"provenance": provenance} if provenance else {}
    document.update(summary=rows, runs=runs)
    if comparison:
        document["comparison"] = list(comparison)
    if missing:
        document["missing"], document["missing_count"] = list(missing), missing_count
    return json.dumps(document, indent=2, allow_nan=True) + "\n"
