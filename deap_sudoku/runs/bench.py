"""Benchmark summaries: success rates with Wilson intervals, medians and IQRs, and their JSON, CSV and
Markdown forms."""

from __future__ import annotations

import collections
import csv
import io
import json
import math
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any
from dataclasses import dataclass, field, fields

from ..grid import Puzzle
from .task import RunResult, Task

__all__ = ["Plan", "summarise", "wilson_interval", "ert", "to_json", "to_csv", "to_markdown"]


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
    """The expected running time in evaluations, as COCO defines it: every evaluation of every run,
    solved or not, over the number of solved runs (infinite when none solved; NaN for an algorithm
    that counts no evaluations, such as the exact solvers)."""
    results = list(results)
    solved = sum(r.solved for r in results)
    if not any(r.evaluations for r in results):
        return math.nan
    return sum(r.evaluations for r in results) / solved if solved else math.inf


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
            "rate": successes / len(mine),
            "rate_low": low,
            "rate_high": high,
            "givens_share": statistics.fmean(r.givens_share for r in mine),
        }
        for name in ("generations", "steps", "evaluations", "seconds"):
            median, q1, q3 = _median_iqr([float(getattr(r, name)) for r in mine])
            row.update({f"{name}_median": median, f"{name}_q1": q1, f"{name}_q3": q3})
        row["ert"] = ert(mine)
        for name in ("evaluations", "seconds"):  # of the solved runs alone: never a mean of censored times
            median, q1, q3 = _median_iqr([float(getattr(r, name)) for r in mine if r.solved])
            row.update({f"{name}_to_solve_median": median, f"{name}_to_solve_q1": q1, f"{name}_to_solve_q3": q3})
        rows.append(row)
    if by == "givens":  # by size, then share of givens, not in the order the files came
        rows.sort(key=lambda r: (r["algorithm"], sides[r["dataset"], r["algorithm"]], r["givens_share"]))
    return rows


def to_json(
    rows: list[dict],
    results: list[RunResult],
    missing: Sequence[str] = (),
    missing_count: int = 0,
    comparison: Sequence[dict] = (),
) -> str:
    """The summary rows, every finished run, the ``comparison`` with a baseline if there is one, and
    (when a run was cut short) the runs still missing: ``missing_count`` of them, described by
    :meth:`Plan.missing`."""
    runs = [
        {f.name: getattr(r, f.name) for f in fields(r) if f.name not in ("grid", "note", "objective", "trace")}
        for r in results
    ]
    document: dict[str, Any] = {"summary": rows, "runs": runs}
    if comparison:
        document["comparison"] = list(comparison)
    if missing:
        document["missing"], document["missing_count"] = list(missing), missing_count
    return json.dumps(document, indent=2, allow_nan=True) + "\n"


@dataclass(frozen=True)
class Plan:
    """A benchmark: every puzzle x every algorithm x ``runs`` seeds (``seed``, ``seed + 1``, ...),
    in that nesting order within each dataset.  The tasks are made as they are taken, so that
    ``--runs 100000000`` costs no memory before its first run; ``len()`` counts them.

    ``datasets`` holds ``(name, puzzles, count)``: ``puzzles()`` gives the dataset's puzzles
    again on each call.  ``options`` holds each algorithm's run options.
    """

    datasets: tuple[tuple[str, Callable[[], Iterable[Puzzle]], int], ...]
    algorithms: tuple[str, ...]
    runs: int
    seed: int = 0
    options: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return sum(count for _, _, count in self.datasets) * len(self.algorithms) * self.runs

    def __iter__(self) -> Iterator[Task]:
        for name, puzzles, _ in self.datasets:
            for algorithm in self.algorithms:
                options = self.options.get(algorithm, {})
                for index, puzzle in enumerate(puzzles()):
                    for run in range(self.runs):
                        yield Task(algorithm, puzzle, seed=self.seed + run, dataset=name, index=index, options=options)

    def missing(self, results: Iterable[RunResult]) -> tuple[list[str], int]:
        """The runs without a result, as lines with ranges of seeds (``hard.txt puzzle 3, tabu, seeds
        5-99``), in plan order, and how many runs they are."""
        done = collections.defaultdict(set)
        for r in results:
            done[r.dataset, r.algorithm, r.index].add(r.seed)
        lines, count = [], 0
        for name, _, puzzles in self.datasets:
            for algorithm in self.algorithms:
                for index in range(puzzles):
                    seeds = done.get((name, algorithm, index), ())
                    if len(seeds) == self.runs:
                        continue
                    for first, last in _gaps(seeds, self.seed, self.seed + self.runs):
                        count += last - first + 1
                        which = f"seed {first}" if first == last else f"seeds {first}-{last}"
                        lines.append(f"{name} puzzle {index + 1}, {algorithm}, {which}")
        return lines, count


def _gaps(done: Iterable[int], low: int, high: int) -> Iterator[tuple[int, int]]:
    """The ranges ``(first, last)`` of ``low..high-1`` not in ``done``."""
    start = low
    for seed in sorted(done):
        if seed > start:
            yield start, seed - 1
        start = max(start, seed + 1)
    if start < high:
        yield start, high - 1


def to_csv(rows: list[dict]) -> str:
    if not rows:
        return ""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def to_markdown(rows: list[dict]) -> str:
    lines = [
        "| dataset | algorithm | solved | rate (95 % CI) | generations median (IQR) | steps median (IQR) | "
        "evaluations median (IQR) | seconds median (IQR) | ERT (evaluations) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        cells = [
            row["dataset"],
            row["algorithm"],
            f"{row['solved']}/{row['runs']}",
            f"{100 * row['rate']:.0f} % ({100 * row['rate_low']:.0f}-{100 * row['rate_high']:.0f})",
        ]
        for key, digits in (("generations", 0), ("steps", 0), ("evaluations", 0), ("seconds", 3)):
            cells.append(
                f"{row[f'{key}_median']:.{digits}f} ({row[f'{key}_q1']:.{digits}f}-{row[f'{key}_q3']:.{digits}f})"
            )
        cells.append("-" if math.isnan(row["ert"]) else "∞" if math.isinf(row["ert"]) else f"{row['ert']:.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
