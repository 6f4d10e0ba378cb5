"""The SCOOP portfolio's speed-up: time to solution of ``deap-sudoku solve --workers N`` against N = 1.

    python benchmarks/portfolio.py SET.txt [--instances 20] [--workers 2] [--max-seconds 60] [--json FILE]

    e.g. bash benchmarks/instance_sets.sh ../instance-sets 25
         python benchmarks/portfolio.py ../instance-sets/36x36/inst36x36_45.txt --json benchmarks/results/portfolio.json

Each instance is solved once serially (``deap-sudoku solve``, seed 0: the one
chain the portfolio's first worker runs) and once with ``--workers N`` (seeds
0..N-1), each in its own process; the time is the one the command reports
(kernels warmed up off the clock, SCOOP start-up not counted), and every answer
is verified by the command.  An unsolved run counts as its budget.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from deap_sudoku import read, write


def solve_seconds(path: Path, workers: int | None, max_seconds: float) -> tuple[float, bool]:
    command = [sys.executable, "-m", "deap_sudoku", "solve", str(path), "--max-seconds", str(max_seconds), "--quiet"]
    if workers is not None:
        command += ["--workers", str(workers)]
    done = subprocess.run(command, capture_output=True, text=True)
    found = re.search(r"solved in ([0-9.]+) s", done.stderr)
    if found:
        return float(found.group(1)), True
    if "after" not in done.stderr:
        raise SystemExit(f"{path}: no status line\n{done.stderr[-2000:]}")
    return max_seconds, False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("instances_file", type=Path)
    parser.add_argument("--instances", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    puzzles = read(args.instances_file)[:args.instances]
    rows = []
    print(f"| instance | 1 worker s | {args.workers} workers s |\n|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for index, puzzle in enumerate(puzzles):
            path = Path(folder, f"{index}.txt")
            write(path, [puzzle], format="lloyd" if puzzle.n > 35 else "line")
            serial = solve_seconds(path, None, args.max_seconds)
            parallel = solve_seconds(path, args.workers, args.max_seconds)
            rows.append({"instance": index, "serial": serial, "portfolio": parallel})
            print(f"| {index} | {serial[0]:.2f}{'' if serial[1] else ' (unsolved)'} | "
                  f"{parallel[0]:.2f}{'' if parallel[1] else ' (unsolved)'} |", flush=True)
    serial = [r["serial"][0] for r in rows]
    parallel = [r["portfolio"][0] for r in rows]
    print(f"\nmean {statistics.fmean(serial):.2f} s vs {statistics.fmean(parallel):.2f} s: ratio "
          f"{statistics.fmean(parallel) / statistics.fmean(serial):.2f}; median {statistics.median(serial):.2f} s vs "
          f"{statistics.median(parallel):.2f} s; solved {sum(r['serial'][1] for r in rows)} vs "
          f"{sum(r['portfolio'][1] for r in rows)} of {len(rows)}")
    if args.json:
        args.json.write_text(json.dumps({"file": args.instances_file.name, "workers": args.workers,
                                         "max_seconds": args.max_seconds, "runs": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
