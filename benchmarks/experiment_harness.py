"""What the experiment harness costs, and what SCOOP workers buy an experiment (issue 33).

    python benchmarks/experiment_harness.py [--runs 2000] [--memetic 1000] [--rounds 3]

1. Harness cost per run: ``run_experiment`` over a trivial algorithm (a function that returns the
   puzzle's cells), with and without a ``--results`` file (each run appended and fsynced), minus the
   algorithm's own time, measured in the same process.
2. SCOOP: ``deap-sudoku bench``, N runs on forum-hardest 9x9 puzzles of ../shared/data
   (tdoku's forum_hardest_1106: 280 puzzles, so 1,000 runs are 250 puzzles x 4 seeds), memetic with a
   200-generation budget, ``--workers 1`` against ``--workers 2``,
   whole processes, alternating, median of ``--rounds``; the results are checked equal run for run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deap_sudoku.experiments import run_experiment
from deap_sudoku.io.samples import load_samples
from deap_sudoku.runs.user import from_function

FORUM = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "tdoku_data" / "forum_hardest_1106.txt"


def trivial(puzzle, *, rng):
    """Returns the puzzle as it is: the algorithm's own time is next to nothing."""
    return puzzle.cells


def harness_cost(runs: int) -> dict[str, float]:
    puzzles = load_samples("9x9.txt")
    algorithm = from_function(trivial, name="trivial")
    seeds = max(runs // len(puzzles), 1)
    start = time.perf_counter()
    for puzzle in puzzles:
        for _seed in range(seeds):
            trivial(puzzle, rng=None)
    own = (time.perf_counter() - start) / (seeds * len(puzzles))
    costs = {}
    for label, keep in (("in memory", False), ("with --results (fsync per run)", True)):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            results = run_experiment(
                [algorithm], {"9x9.txt": puzzles}, runs=seeds, results=Path(folder) / "runs.jsonl" if keep else None
            )
            costs[label] = (time.perf_counter() - start) / len(results) - own
    return costs


def scoop_speedup(count: int, rounds: int) -> tuple[float, float, bool]:
    with tempfile.TemporaryDirectory() as folder:
        puzzles = Path(folder) / "forum.txt"
        lines = [ln for ln in FORUM.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
        runs = -(-count // len(lines))  # the file has 280 puzzles: 1,000 runs are 250 puzzles x 4 seeds
        puzzles.write_text("\n".join(lines[: count // runs]) + "\n")
        times: dict[int, list[float]] = {1: [], 2: []}
        outputs = {}
        for _ in range(rounds):
            for workers in (1, 2):
                out = Path(folder) / f"w{workers}.json"
                start = time.perf_counter()
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "deap_sudoku",
                        "bench",
                        str(puzzles),
                        "-a",
                        "memetic",
                        "-q",
                        "--runs",
                        str(runs),
                        "--max-generations",
                        "200",
                        "--workers",
                        str(workers),
                        "--json",
                        str(out),
                        "--force",
                    ],
                    check=True,
                    capture_output=True,
                )
                times[workers].append(time.perf_counter() - start)
                outputs[workers] = [
                    (r["index"], r["seed"], r["solved"], r["generations"], r["evaluations"])
                    for r in json.loads(out.read_text())["runs"]
                ]
        one, two = statistics.median(times[1]), statistics.median(times[2])
        return one, two, outputs[1] == outputs[2] and len(outputs[1]) == count // runs * runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2000, help="trivial runs for the harness cost")
    parser.add_argument("--memetic", type=int, default=1000, help="forum-hardest puzzles for the SCOOP speed-up")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of 1 and 2 workers")
    options = parser.parse_args()
    for label, cost in harness_cost(options.runs).items():
        print(f"harness cost per run, {label}: {1000 * cost:.3f} ms ({options.runs} trivial runs)")
    if not FORUM.is_file():
        sys.exit(f"{FORUM} not found: the SCOOP part needs ../shared/data")
    one, two, same = scoop_speedup(options.memetic, options.rounds)
    print(
        f"{options.memetic} memetic runs on forum-hardest 9x9, whole command, median of {options.rounds}: "
        f"1 worker {one:.1f} s, 2 workers {two:.1f} s, speed-up {one / two:.2f}x, same results: {same}"
    )


if __name__ == "__main__":
    main()
