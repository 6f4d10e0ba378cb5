"""Is ``--max-seconds`` kept on large grids and large populations?  Whole ``deap-sudoku solve``
commands, as a user times them, against the promise of T + start-up + 0.2 s.

    python benchmarks/large_budgets.py [--seconds 2] [--sizes 6 7 8 10] [--json FILE]

For each box size b (36x36 for 6, ... 100x100 for 10) a half-filled puzzle is made from a pattern
solution (value ``(b * (r % b) + r // b + c) % n + 1``, cells kept at random with seed 7: a
puzzle with a solution, not a unique one, as Lloyd & Amos's instances are made), and every
algorithm that takes ``--max-seconds`` runs on it once; then the block GA with a population of
200,000 on a 9x9 and the memetic GA with 5,000 on the 36x36.  Start-up is the median of five
``deap-sudoku solve --help`` (which imports what ``solve`` imports).  Printed: a Markdown row per
command, the wall time and how far past T + start-up it ended.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deap_sudoku import Puzzle, write
from deap_sudoku.io.fileio import write_atomic
from deap_sudoku.runs.registry import takes

COMMAND = [sys.executable, "-m", "deap_sudoku"]


def half_filled(box: int) -> Puzzle:
    n = box * box
    rng = random.Random(7)
    cells = [
        ((box * (r % box) + r // box + c) % n + 1) if rng.random() < 0.5 else 0 for r in range(n) for c in range(n)
    ]
    return Puzzle(cells, box=(box, box))


def wall(*arguments: str) -> float:
    started = time.perf_counter()
    subprocess.run([*COMMAND, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 7, 8, 10])
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    start_up = statistics.median(wall("solve", "--help") for _ in range(5))  # imports what solve imports
    rows = []
    print(f"start-up (deap-sudoku solve --help): {start_up:.2f} s; promise: T + start-up + 0.2 s")
    print("| puzzle | algorithm | options | wall (s) | past T + start-up (s) |")
    print("|---|---|---|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        files = {}
        for box in args.sizes:
            files[box] = Path(folder) / f"half_{box * box}.txt"
            write(files[box], [half_filled(box)], format="lloyd")
        nine = Path(folder) / "hard9.txt"
        nine.write_text("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..\n")
        commands = [
            (f"{b * b}x{b * b}, half filled", str(files[b]), a, ()) for b in args.sizes for a in takes("max_seconds")
        ]
        commands.append(("9x9 hardest", str(nine), "block-ga", ("--population", "200000")))
        if 6 in files:
            commands.append(("36x36, half filled", str(files[6]), "memetic", ("--population", "5000")))
        for puzzle, path, algorithm, options in commands:
            wall("bench", path, "-a", algorithm, "--max-seconds", "0.1", "-q")  # kernels compiled and cached
            took = wall("solve", path, "-a", algorithm, "--max-seconds", f"{args.seconds:g}", *options, "-q")
            past = took - args.seconds - start_up
            rows.append(
                {"puzzle": puzzle, "algorithm": algorithm, "options": " ".join(options), "wall": took, "past": past}
            )
            print(f"| {puzzle} | {algorithm} | {' '.join(options)} | {took:.2f} | {past:+.2f} |", flush=True)
    if args.json is not None:
        write_atomic(
            args.json,
            json.dumps({"start_up": start_up, "seconds": args.seconds, "rows": rows}, indent=1) + "\n",
            overwrite=True,
        )


if __name__ == "__main__":
    main()
