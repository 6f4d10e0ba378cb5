"""What each part of the memetic GA buys: the solver with one part switched off at a time.

    python benchmarks/memetic_ablation.py [--seeds 3] [--workers 2] [--json benchmarks/results/memetic_ablation.json]

Variants: the default (4 slots, cxpb 0.2, stall 20); no crossover (cxpb 0:
every child is a local-search move); crossover only (cxpb 1: no
destroy-and-rebuild move, children are repaired crossovers); no restarts (a
slot never restarts); a population of one (a single local-search chain with
restarts); a population of ten.  Data: the shared forum_hardest_1106 (9x9)
and the Lloyd & Amos 25x25 set at 45 % givens, every puzzle, --seeds seeded
runs each, 10 s per run and no generation budget (so a population of one is not
cut short by generations), one process per run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.runs import recipes

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
LIMIT = 10.0
VARIANTS = {
    "default": {},
    "no crossover": {"cxpb": 0.0},
    "crossover only": {"cxpb": 1.0},
    "no restarts": {"stall": 10**9},
    "population of one": {"population_size": 1},
    "population of ten": {"population_size": 10},
}


def one(job: tuple[str, object, int]) -> tuple[bool, float]:
    variant, puzzle, seed = job
    start = time.perf_counter()
    _, _, hof = recipes.memetic(puzzle, seed=seed, max_seconds=LIMIT, max_generations=10**9,
                                **VARIANTS[variant])
    seconds = time.perf_counter() - start
    return hof[0].fitness.values[0] == 0 and seconds <= LIMIT, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--puzzles", type=int, default=None, help="only the first N of each set")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    files = sorted((SHARED / "lloyd_amos_aco" / "general").glob("inst25x25_45_*.txt"),
                   key=lambda p: int(p.stem.rsplit("_", 1)[1]))
    sets = {"forum_hardest_1106": read(SHARED / "tdoku_data" / "forum_hardest_1106.txt"),
            "25x25 at 45 %": [read(f)[0] for f in files]}
    rows = []
    print(f"| set | variant | solved within {LIMIT:g} s | median (s) | mean (s) | max (s) |")
    print("|---|---|---:|---:|---:|---:|")
    with ProcessPoolExecutor(args.workers) as pool:
        for name, puzzles in sets.items():
            puzzles = puzzles[:args.puzzles]
            for variant in VARIANTS:
                results = list(pool.map(one, [(variant, p, seed) for p in puzzles for seed in range(args.seeds)],
                                         chunksize=8))
                seconds = [s for _, s in results]
                row = {"set": name, "variant": variant, "solved": sum(ok for ok, _ in results), "runs": len(results),
                       "median_s": statistics.median(seconds), "mean_s": statistics.fmean(seconds),
                       "max_s": max(seconds)}
                rows.append(row)
                print(f"| {name} | {variant} | {row['solved']}/{row['runs']} | {row['median_s']:.3f} | "
                      f"{row['mean_s']:.2f} | {row['max_s']:.2f} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
