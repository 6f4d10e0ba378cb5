"""Running algorithms by name, many seeded runs at once (serially or over SCOOP), and summarising them.

A run is one puzzle x one algorithm x one seed: the unit SCOOP distributes,
because single evaluations are far too cheap to ship to another process.
"""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from . import recipes
from .fileio import write_atomic
from .puzzle import Puzzle
from .solvers import SearchBudgetExceeded, propagate, solve, verify

__all__ = ["ALGORITHMS", "GA_ALGORITHMS", "Task", "RunResult", "run", "run_all", "missing_runs", "describe",
           "summarise", "wilson_interval",
           "to_json", "to_csv", "to_markdown"]

GA_ALGORITHMS = {
    "memetic": recipes.memetic,
    "block-ga": recipes.block_ga,
    "restart-ga": recipes.block_ga_restart,
    "cell-ga": recipes.cell_ga,
    "row-ga": recipes.row_permutation_ga,
}
ALGORITHMS = (*GA_ALGORITHMS, "tabu", "backtracking", "propagation")


@dataclass(frozen=True)
class Task:
    """One run to do: which algorithm on which puzzle with which seed and options."""

    algorithm: str
    puzzle: Puzzle
    seed: int = 0
    dataset: str = ""
    index: int = 0
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class RunResult:
    """What one run gave: the best grid (flat list), whether it solves the puzzle, and its cost."""

    algorithm: str
    dataset: str
    index: int
    seed: int
    givens_share: float
    solved: bool
    fitness: float
    generations: int
    evaluations: int
    seconds: float
    grid: list[int]
    minima: list[float]
    note: str = ""


def run(task: Task) -> RunResult:
    """Do one run.  For the GAs "generations" and "evaluations" are what the logbook counts and
    ``minima`` is the best fitness per generation; for tabu both are steps; the exact solvers
    report 0 for both."""
    puzzle, options = task.puzzle, dict(task.options)
    start = time.perf_counter()
    minima: list[float] = []
    note = ""
    if task.algorithm in GA_ALGORITHMS:
        _, logbook, hof = GA_ALGORITHMS[task.algorithm](puzzle, seed=task.seed, **{"verbose": False, **options})
        best = np.asarray(hof[0])
        fitness = hof[0].fitness.values[0]
        generations, evaluations = logbook[-1]["gen"], sum(logbook.select("nevals"))
        minima = _best_per_generation(logbook, hof[0].fitness.weights[0])
        note = logbook.stop_reason
    elif task.algorithm == "tabu":
        _, logbook, hof = recipes.tabu(puzzle, seed=task.seed, **{"verbose": False, **options})
        best, fitness = np.asarray(hof[0]), hof[0].fitness.values[0]
        generations = evaluations = logbook[-1]["steps"]
        note = logbook.stop_reason
    elif task.algorithm == "backtracking":
        try:
            solution = solve(puzzle, seed=task.seed, **options)
            note = "exhausted" if solution is None else ""
        except SearchBudgetExceeded as exc:
            solution, note = None, str(exc)
        best = puzzle.cells if solution is None else solution.cells
        fitness, generations, evaluations = (0.0 if solution is not None else math.nan), 0, 0
    elif task.algorithm == "propagation":
        result = propagate(puzzle)
        best = result.values
        note = "propagation found a contradiction" if result.contradiction else \
            f"propagation filled {result.filled} cells"
        fitness, generations, evaluations = (0.0 if result.solved else math.nan), 0, 0
    else:
        raise ValueError(f"unknown algorithm {task.algorithm!r}; choose from {', '.join(ALGORITHMS)}")
    seconds = time.perf_counter() - start
    return RunResult(task.algorithm, task.dataset, task.index, task.seed, puzzle.num_givens / puzzle.shape.cells,
                     bool(verify(best, puzzle)), float(fitness), int(generations), int(evaluations), seconds,
                     [int(v) for v in np.asarray(best).tolist()], minima, note)


def _best_per_generation(logbook, weight: float) -> list[float]:
    key = "min" if weight < 0 else "max"
    if key in logbook.header:
        return [float(v) for v in logbook.select(key)]
    return []


def run_all(tasks: list[Task], *, parallel: bool = False) -> Iterator[RunResult]:
    """Results in task order; with ``parallel``, the runs go to SCOOP workers (run under
    ``python -m scoop``), which gives the same results for the same seeds, only faster.  SCOOP
    notices a worker that dies and sends its run to another one, so no result is lost."""
    if parallel:
        from scoop import futures
        yield from futures.map(run, tasks)
    else:
        yield from map(run, tasks)


def scoop_is_running() -> bool:
    """True inside ``python -m scoop ...``."""
    try:
        import scoop
    except ImportError:  # pragma: no cover - scoop is a dependency
        return False
    return bool(getattr(scoop, "IS_RUNNING", False))


# -- summaries ---------------------------------------------------------------------------

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


def _median_iqr(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return math.nan, math.nan, math.nan
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q2, q1, q3


def summarise(results: Iterable[RunResult], *, by: str = "dataset") -> list[dict]:
    """One row per (dataset, algorithm): runs, successes, rate with its 95 % Wilson interval,
    median and IQR of generations, evaluations and seconds, and the mean share of givens.

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
        row = {"dataset": dataset, "algorithm": algorithm, "series": series[dataset, algorithm],
               "runs": len(mine), "solved": successes,
               "rate": successes / len(mine), "rate_low": low, "rate_high": high,
               "givens_share": statistics.fmean(r.givens_share for r in mine)}
        for key in ("generations", "evaluations", "seconds"):
            median, q1, q3 = _median_iqr([float(getattr(r, key)) for r in mine])
            row.update({f"{key}_median": median, f"{key}_q1": q1, f"{key}_q3": q3})
        rows.append(row)
    if by == "givens":  # by size, then share of givens, not in the order the files came
        rows.sort(key=lambda r: (r["algorithm"], sides[r["dataset"], r["algorithm"]], r["givens_share"]))
    return rows


def to_json(rows: list[dict], results: list[RunResult], missing: list[Task] = ()) -> str:
    """The summary rows, every finished run, and (when a run was cut short) the runs still missing."""
    runs = [{k: v for k, v in asdict(r).items() if k not in ("grid", "minima", "note")} for r in results]
    document = {"summary": rows, "runs": runs}
    if missing:
        document["missing"] = [describe(task) for task in missing]
    return json.dumps(document, indent=2, allow_nan=True) + "\n"


def missing_runs(tasks: list[Task], results: list[RunResult]) -> list[Task]:
    """The tasks without a result, in task order."""
    done = {(r.algorithm, r.dataset, r.index, r.seed) for r in results}
    return [t for t in tasks if (t.algorithm, t.dataset, t.index, t.seed) not in done]


def describe(task: Task) -> str:
    """A run as a person would name it: ``hard.txt puzzle 3, tabu, seed 1``."""
    return f"{task.dataset} puzzle {task.index + 1}, {task.algorithm}, seed {task.seed}"


def to_csv(rows: list[dict]) -> str:
    if not rows:
        return ""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def to_markdown(rows: list[dict]) -> str:
    lines = ["| dataset | algorithm | solved | rate (95 % CI) | generations median (IQR) | "
             "evaluations median (IQR) | seconds median (IQR) |", "|---|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        cells = [row["dataset"], row["algorithm"], f"{row['solved']}/{row['runs']}",
                 f"{100 * row['rate']:.0f} % ({100 * row['rate_low']:.0f}-{100 * row['rate_high']:.0f})"]
        for key, digits in (("generations", 0), ("evaluations", 0), ("seconds", 3)):
            cells.append(f"{row[f'{key}_median']:.{digits}f} ({row[f'{key}_q1']:.{digits}f}-"
                         f"{row[f'{key}_q3']:.{digits}f})")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


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

