"""Does numba earn its place?  The memetic GA end to end with the compiled and the pure-Python kernel.

    python benchmarks/repair_kernel.py [--per-fraction 10] [--json benchmarks/results/repair_kernel.json]

Both kernels take the same random draws and return the same grids, so a run
with the same seed follows the same trajectory with either one (checked here:
same generations and the same final grid).  The time ratio is therefore the
speed-up of the whole solver, not of a kernel alone.  Data: the first
puzzles (by instance number) of the shared Lloyd & Amos 25x25 sets at 40, 45 and 50 % givens (the
issue's 25x25 targets), seed 0, no time limit.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

from deap_sudoku import read
from deap_sudoku.runs.catalogue import ga_recipes

GENERAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "lloyd_amos_aco" / "general"


def timed(puzzle, compiled: bool) -> tuple[float, int, np.ndarray]:
    start = time.perf_counter()
    _, logbook, hof = ga_recipes.memetic(puzzle, seed=0, compiled=compiled)
    return time.perf_counter() - start, logbook[-1]["gen"], np.asarray(hof[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-fraction", type=int, default=10)
    parser.add_argument("--data", type=Path, default=GENERAL)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    timed(read(Path(__file__).resolve().parents[1] / "data" / "9x9.txt")[0], True)  # compile (or load the cache)
    rows = []
    print("| givens | puzzles | compiled total (s) | Python total (s) | speed-up | median per-puzzle speed-up |")
    print("|---:|---:|---:|---:|---:|---:|")
    for fraction in (40, 45, 50):
        runs = []
        files = sorted(args.data.glob(f"inst25x25_{fraction}_*.txt"), key=lambda p: int(p.stem.rsplit("_", 1)[1]))
        for path in files[: args.per_fraction]:
            index = int(path.stem.rsplit("_", 1)[1])
            puzzle = read(path)[0]
            fast, fast_gens, fast_grid = timed(puzzle, True)
            slow, slow_gens, slow_grid = timed(puzzle, False)
            if fast_gens != slow_gens or not np.array_equal(fast_grid, slow_grid):
                raise SystemExit(f"kernels disagree on inst25x25_{fraction}_{index}")
            runs.append({"index": index, "compiled_s": fast, "python_s": slow, "generations": fast_gens})
        fast_total = sum(r["compiled_s"] for r in runs)
        slow_total = sum(r["python_s"] for r in runs)
        median = statistics.median(r["python_s"] / r["compiled_s"] for r in runs)
        rows.append(
            {
                "givens": fraction,
                "runs": runs,
                "compiled_total_s": fast_total,
                "python_total_s": slow_total,
                "speedup": slow_total / fast_total,
                "median_speedup": median,
            }
        )
        print(
            f"| {fraction} % | {len(runs)} | {fast_total:.2f} | {slow_total:.2f} | {slow_total / fast_total:.1f}x "
            f"| {median:.1f}x |",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
