"""Time the exact solver on the public benchmark sets: median and maximum seconds per set.

    python benchmarks/exact_solvers.py [--data ../shared/data] [--quick] [--json FILE]
                                       [--kernel auto|python|compiled] [--only forum]

Every solution is checked with ``verify``; a wrong or missing one aborts the run.
The table it prints is the one in docs/guide.md (Exact solvers).
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import statistics
import time
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.exact import solve, verify


def sets(data: Path) -> dict[str, list[Path]]:
    general = data / "lloyd_amos_aco" / "general"
    chosen = {
        "norvig easy50": [data / "norvig_pytudes/easy50.txt"],
        "norvig top95": [data / "norvig_pytudes/top95.txt"],
        "norvig hardest": [data / "norvig_pytudes/hardest.txt"],
        "forum hardest 1106": [data / "tdoku_data/forum_hardest_1106.txt"],
    }
    for size in (16, 25):
        for low, high in ((50, 50), (55, 55), (60, 100)):
            files = [Path(f) for fraction in range(low, high + 1, 5)
                     for f in glob.glob(str(general / f"inst{size}x{size}_{fraction}_*.txt"))]
            label = f"{low} %" if low == high else f"{low}-{high} %"
            chosen[f"{size}x{size} {label} givens"] = sorted(files)
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    parser.add_argument("--quick", action="store_true", help="every tenth puzzle only")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--only", default=None, help="only the sets whose name contains this text")
    parser.add_argument("--kernel", choices=["auto", "python", "compiled"], default="auto",
                        help="propagation kernel of the search (auto: compiled above 9x9 or once numba is loaded)")
    args = parser.parse_args()
    compiled = {"auto": None, "python": False, "compiled": True}[args.kernel]
    rows = []
    print("| set | puzzles | solved | median s | max s | total s |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, files in sets(args.data).items():
        if args.only and args.only not in name:
            continue
        puzzles = [p for f in files for p in read(f)]
        if args.quick:
            puzzles = puzzles[::10]
        times = []
        for puzzle in puzzles:
            start = time.perf_counter()
            solution = solve(puzzle, rng=random.Random(args.seed), compiled=compiled)
            times.append(time.perf_counter() - start)
            if solution is None or not verify(solution, puzzle):
                raise SystemExit(f"{name}: wrong answer for {puzzle!r}")
        print(f"| {name} | {len(puzzles)} | {len(times)} | {statistics.median(times):.4f} | {max(times):.3f} |"
              f" {sum(times):.2f} |", flush=True)
        rows.append({"set": name, "puzzles": len(puzzles), "seconds": times})
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
