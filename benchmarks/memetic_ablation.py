"""What each part of the memetic GA buys: the solver with one part switched off at a time, as an
experiment of the public API (``deap_sudoku.experiments.run_experiment``), so it is rerun or
extended with the same code a user compares their own ideas with.

    python benchmarks/memetic_ablation.py [--seeds 3] [--workers 2] [--results runs.jsonl]
                                          [--json benchmarks/results/memetic_ablation.json] [--only VARIANT]

Variants (``deap_sudoku.runs.user.variant`` of ``memetic``), the GA without its exact-search seed
unless said: the default GA (4 slots, cxpb 0.2, restart after 20); no crossover (cxpb 0: every child is a
local-search move); crossover only (cxpb 1: no destroy-and-rebuild move, children are repaired
crossovers); no restarts (a slot never restarts); a population of one (a single local-search chain
with restarts); a population of ten; and the bundled default, whose first individual is seeded by a
1,000-node exact search. Data: the shared forum_hardest_1106 (9x9) and the Lloyd & Amos 25x25 set at
45 % givens, every puzzle, --seeds seeded runs each, 10 s and no generation budget per run (so a
population of one is not cut short by generations), in --workers processes. With --results the runs
are kept as they finish, and a rerun does only what is missing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.experiments import run_experiment
from deap_sudoku.runs.user import variant

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
LIMIT = 10.0
GA = {"seed_nodes": None}  # the GA alone: the table's rows predate the seed (issue 34)
VARIANTS = {
    "default GA (no seed)": GA,
    "no crossover": {**GA, "cxpb": 0.0},
    "crossover only": {**GA, "cxpb": 1.0},
    "no restarts": {**GA, "restart_after": 10**9},
    "population of one": {**GA, "population_size": 1},
    "population of ten": {**GA, "population_size": 10},
    "with the seed (the default)": None,
}


def arms(variants: dict = VARIANTS) -> list:
    """The experiment's algorithms: the bundled memetic GA and its variants."""
    return [
        "memetic" if settings is None else variant("memetic", name=name, **settings)
        for name, settings in variants.items()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--puzzles", type=int, default=None, help="only the first N of each set")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--results", type=Path, default=None, help="keep the runs here; a rerun does what is missing")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--only",
        action="append",
        choices=list(VARIANTS),
        default=None,
        metavar="VARIANT",
        help="run only this variant (repeatable); default: all",
    )
    args = parser.parse_args()
    variants = {label: VARIANTS[label] for label in args.only} if args.only else VARIANTS
    files = sorted(
        (SHARED / "lloyd_amos_aco" / "general").glob("inst25x25_45_*.txt"), key=lambda p: int(p.stem.rsplit("_", 1)[1])
    )
    sets = {
        "forum_hardest_1106": read(SHARED / "tdoku_data" / "forum_hardest_1106.txt")[: args.puzzles],
        "25x25 at 45 %": [read(f)[0] for f in files][: args.puzzles],
    }
    budget = {"max_seconds": LIMIT, "max_generations": 10**9}
    names = ["memetic" if settings is None else name for name, settings in variants.items()]
    results = run_experiment(
        arms(variants),
        sets,
        runs=args.seeds,
        options={name: budget for name in names},
        results=args.results,
        workers=args.workers,
        progress=lambda done, total: print(f"\r{done}/{total} runs", end="", file=sys.stderr),
    )
    print(file=sys.stderr)
    rows = []
    print(f"| set | variant | solved within {LIMIT:g} s | median (s) | mean (s) | max (s) |")
    print("|---|---|---:|---:|---:|---:|")
    for dataset in sets:
        for label, name in zip(variants, names):
            mine = [r for r in results if r.dataset == dataset and r.algorithm == name]
            seconds = [r.seconds for r in mine]
            row = {
                "set": dataset,
                "variant": label,
                "solved": sum(r.solved and r.seconds <= LIMIT for r in mine),
                "runs": len(mine),
                "median_s": statistics.median(seconds),
                "mean_s": statistics.fmean(seconds),
                "max_s": max(seconds),
            }
            rows.append(row)
            print(
                f"| {dataset} | {label} | {row['solved']}/{row['runs']} | {row['median_s']:.3f} | "
                f"{row['mean_s']:.2f} | {row['max_s']:.2f} |",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
