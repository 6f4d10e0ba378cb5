"""Each algorithm against a baseline, per dataset: Fisher's exact test on the solve rates and the
log-rank test on the time to solve, unsolved runs censored at what they spent.

A time is the runs' fitness evaluations where both algorithms count them (the machine-independent
unit COCO and IOHprofiler compare in), and wall seconds otherwise.  The statistics are
``scipy.stats``' own (``fisher_exact``, ``logrank`` on ``CensoredData``); scipy comes with the
``experiments`` extra.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..runs.task import RunResult

__all__ = ["compare", "comparison_table", "INSTALL"]

INSTALL = 'pip install "deap_sudoku[experiments]"'
ALPHA = 0.05
"""The significance level at which a row names the better side."""


def _scipy_stats():
    try:
        from scipy import stats
    except ImportError:
        raise ImportError(f"comparing algorithms needs scipy: {INSTALL}") from None
    return stats


def compare(results: Iterable[RunResult], baseline: str, *, alpha: float = ALPHA) -> list[dict]:
    """One row per dataset and algorithm other than ``baseline``: both solve counts, Fisher's exact
    test on them, the log-rank test on the time to solve (``measure``: evaluations or seconds), and
    which side is better where a test says so at ``alpha`` (``"neither"`` otherwise).

    :raises ValueError: when ``baseline`` has no runs on a dataset another algorithm ran on.
    :raises ImportError: without scipy, naming the extra to install.
    """
    stats = _scipy_stats()
    groups: dict[tuple[str, str], list[RunResult]] = {}
    for result in results:
        groups.setdefault((result.dataset, result.algorithm), []).append(result)
    rows = []
    for (dataset, name), mine in groups.items():
        if name == baseline:
            continue
        theirs = groups.get((dataset, baseline))
        if not theirs:
            raise ValueError(f"the baseline {baseline} has no runs on {dataset}")
        measure = "evaluations" if all(r.evaluations > 0 for r in mine + theirs) else "seconds"
        solved, other = sum(r.solved for r in mine), sum(r.solved for r in theirs)
        rate_p = float(stats.fisher_exact([[solved, len(mine) - solved], [other, len(theirs) - other]]).pvalue)
        time_p, statistic = math.nan, 0.0
        if solved + other:
            test = stats.logrank(_censored(stats, mine, measure), _censored(stats, theirs, measure))
            time_p, statistic = float(test.pvalue), float(test.statistic)
        rate_better = (name if solved / len(mine) > other / len(theirs) else baseline) if rate_p < alpha else "neither"
        time_better = (name if statistic > 0 else baseline) if time_p < alpha else "neither"  # Z > 0: solves sooner
        rows.append(
            {
                "dataset": dataset,
                "algorithm": name,
                "baseline": baseline,
                "runs": len(mine),
                "solved": solved,
                "baseline_runs": len(theirs),
                "baseline_solved": other,
                "rate_p": rate_p,
                "rate_better": rate_better,
                "measure": measure,
                "time_p": time_p,
                "time_better": time_better,
            }
        )
    return rows


def _censored(stats, results: list[RunResult], measure: str):
    """Times to solve (in evaluations, the one that solved where it is recorded), an unsolved run
    censored at what it spent, a run censored at its budget at the budget."""
    solved = [r.evaluations_to_solve if measure == "evaluations" else r.seconds for r in results if r.solved]
    return stats.CensoredData(uncensored=solved, right=[getattr(r, measure) for r in results if not r.solved])


def comparison_table(rows: list[dict]) -> str:
    """The comparison as a Markdown table."""
    lines = [
        "| dataset | algorithm | solved | baseline | baseline solved | rates: p (Fisher) | better rate | "
        "time to solve: p (log-rank) | sooner |",
        "|---|---|---:|---|---:|---:|---|---:|---|",
    ]
    for row in rows:
        time_p = "-" if math.isnan(row["time_p"]) else f"{row['time_p']:.3g}"
        lines.append(
            f"| {row['dataset']} | {row['algorithm']} | {row['solved']}/{row['runs']} | {row['baseline']} | "
            f"{row['baseline_solved']}/{row['baseline_runs']} | {row['rate_p']:.3g} | {row['rate_better']} | "
            f"{time_p} ({row['measure']}) | {row['time_better']} |"
        )
    return "\n".join(lines) + "\n"
