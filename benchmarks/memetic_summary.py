"""Issue 6's target check from the JSON that benchmarks/memetic_targets.sh writes.

    python benchmarks/memetic_summary.py benchmarks/results/memetic_9x9.json benchmarks/results/memetic_general.json

Prints, per target set, the runs solved within the time limit, the median and
maximum seconds, the target and whether it is met; then the ratio of the
memetic GA's median time to the exact solver's on the same 9x9 puzzles.
"""

from __future__ import annotations

import json
import statistics
import sys

LIMIT = 10.0


def _line(name: str, runs: list[dict], target: float, median_below: float | None = None) -> str:
    ok = [r for r in runs if r["solved"] and r["seconds"] <= LIMIT]
    seconds = [r["seconds"] for r in runs]
    rate = len(ok) / len(runs)
    median = statistics.median(seconds)
    met = rate >= target and (median_below is None or median < median_below)
    goal = f"{100 * target:.0f} %" + (f", median < {median_below:g} s" if median_below else "")
    return (
        f"| {name} | {len(ok)}/{len(runs)} | {median:.3f} | {max(seconds):.2f} | {goal} | "
        f"{'met' if met else 'MISSED'} |"
    )


def main(nine_path: str, general_path: str) -> None:
    nine = json.load(open(nine_path))["runs"]
    general = json.load(open(general_path))["runs"]
    print(f"| set | solved within {LIMIT:g} s | median (s) | max (s) | target | |")
    print("|---|---:|---:|---:|---|---|")
    memetic = [r for r in nine if r["algorithm"] == "memetic"]
    for dataset in dict.fromkeys(r["dataset"] for r in memetic):
        print(_line(f"9x9 {dataset}", [r for r in memetic if r["dataset"] == dataset], 1.0, 1.0))

    def share(r):
        return round(100 * r["givens_share"])

    sixteen = [r for r in general if r["algorithm"] == "memetic" and r["dataset"].startswith("inst16x16")]
    print(_line("16x16, every share of givens", sixteen, 1.0))
    for fraction, target in ((40, 1.0), (45, 0.9), (50, 1.0)):
        runs = [r for r in general if r["dataset"].startswith("inst25x25") and share(r) == fraction]
        print(_line(f"25x25 at {fraction} %", runs, target))
    exact = {(r["dataset"], r["index"]): r["seconds"] for r in nine if r["algorithm"] == "backtracking"}
    ga = {(r["dataset"], r["index"]): r["seconds"] for r in memetic}
    pairs = [(ga[k], exact[k]) for k in ga if k in exact]
    print(
        f"\nmemetic / exact solver, median seconds on the same {len(pairs)} 9x9 puzzles: "
        f"{statistics.median(g for g, _ in pairs):.4f} / {statistics.median(e for _, e in pairs):.4f} = "
        f"{statistics.median(g for g, _ in pairs) / statistics.median(e for _, e in pairs):.1f}x"
    )


if __name__ == "__main__":
    main(*sys.argv[1:3])
