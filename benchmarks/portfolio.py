"""The SCOOP portfolio's speed-up: time to solution of ``deap-sudoku solve --workers N`` against N = 1.

    python benchmarks/portfolio.py SET.txt [--instances 20] [--workers 2] [--seeds 0,2,...]
                                   [--max-seconds 60] [--json FILE]
    python benchmarks/portfolio.py --pool FILE.json [FILE.json ...]

    e.g. bash benchmarks/instance_sets.sh ../instance-sets 25
         python benchmarks/portfolio.py ../instance-sets/36x36/inst36x36_45.txt --json benchmarks/results/portfolio.json

For every first seed S in ``--seeds`` each instance is solved once serially
(``deap-sudoku solve --seed S``: the one chain the portfolio's first worker
runs) and once with ``--workers N`` (seeds S..S+N-1), each in its own process;
the time is the one the command reports (kernels warmed up off the clock, SCOOP
start-up not counted), and every answer is verified by the command.  An
unsolved run counts as its budget.  One chain's time varies widely with its
seed, so one pair per instance says little; ``--pool`` reads the JSON files of
several runs (different first seeds) and reports the ratio over all their pairs,
with a bootstrap interval over the instances.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from deap_sudoku import read, write


def solve_seconds(path: Path, workers: int | None, seed: int, max_seconds: float) -> tuple[float, bool]:
    command = [
        sys.executable,
        "-m",
        "deap_sudoku",
        "solve",
        str(path),
        "--max-seconds",
        str(max_seconds),
        "--seed",
        str(seed),
        "--quiet",
    ]
    if workers is not None:
        command += ["--workers", str(workers)]
    done = subprocess.run(command, capture_output=True, text=True)
    found = re.search(r"solved in ([0-9.]+) s", done.stderr)
    if found:
        return float(found.group(1)), True
    if "after" not in done.stderr:
        raise SystemExit(f"{path}: no status line\n{done.stderr[-2000:]}")
    return max_seconds, False


def first_seeds(text: str) -> list[int]:
    try:
        seeds = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--seeds takes whole numbers separated by commas, not {text!r}") from None
    if len(set(seeds)) != len(seeds) or min(seeds) < 0:
        raise argparse.ArgumentTypeError(f"--seeds must be distinct and not negative: {text!r}")
    return seeds


def summary(rows: list[dict], *, resamples: int = 2000) -> str:
    """Means, medians, solved counts and the ratio of mean times, with a 95 % bootstrap over instances."""
    serial = [r["serial"][0] for r in rows]
    parallel = [r["portfolio"][0] for r in rows]
    by_instance: dict[int, list[dict]] = {}
    for row in rows:
        by_instance.setdefault(row["instance"], []).append(row)
    groups = list(by_instance.values())
    rng = random.Random(0)
    ratios = []
    for _ in range(resamples):
        drawn = [row for _ in groups for row in rng.choice(groups)]
        ratios.append(sum(r["portfolio"][0] for r in drawn) / sum(r["serial"][0] for r in drawn))
    ratios.sort()
    low, high = ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1]
    return (
        f"{len(rows)} pairs on {len(groups)} instances: mean {statistics.fmean(serial):.2f} s vs "
        f"{statistics.fmean(parallel):.2f} s, ratio {statistics.fmean(parallel) / statistics.fmean(serial):.2f} "
        f"(95 % bootstrap over instances {low:.2f}-{high:.2f}); median {statistics.median(serial):.2f} s vs "
        f"{statistics.median(parallel):.2f} s; solved {sum(r['serial'][1] for r in rows)} vs "
        f"{sum(r['portfolio'][1] for r in rows)} of {len(rows)}"
    )


def pooled(paths: list[Path]) -> list[dict]:
    """The pairs of several result files of the same set, workers and budget (an old file's seed is 0)."""
    rows, settings = [], None
    for path in paths:
        data = json.loads(path.read_text())
        these = (data["file"], data["workers"], data["max_seconds"])
        if settings is not None and these != settings:
            raise SystemExit(f"{path}: set, workers and budget {these} differ from {settings} of {paths[0]}")
        settings = these
        rows += [{**row, "seed": row.get("seed", 0)} for row in data["runs"]]
    keys = [(row["instance"], row["seed"]) for row in rows]
    if len(set(keys)) != len(keys):
        raise SystemExit("the files repeat an (instance, first seed) pair; pool runs with different --seeds")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("instances_file", type=Path, nargs="?")
    parser.add_argument("--instances", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--seeds",
        type=first_seeds,
        default=[0],
        help="first seeds, comma-separated: one serial run and one portfolio per seed and instance",
    )
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--pool",
        type=Path,
        nargs="+",
        default=None,
        metavar="JSON",
        help="report the pairs of these result files together instead of running",
    )
    args = parser.parse_args()
    if args.pool is not None:
        if args.instances_file is not None:
            parser.error("--pool reads result files; give it no instances file")
        print(summary(pooled(args.pool)))
        return
    if args.instances_file is None:
        parser.error("an instances file is required (or --pool)")
    if args.workers > 1 and any(b - a < args.workers for a, b in zip(sorted(args.seeds), sorted(args.seeds)[1:])):
        parser.error(f"--seeds {args.seeds}: with {args.workers} workers the portfolios' seeds would overlap")
    puzzles = read(args.instances_file)[: args.instances]
    rows = []
    print(f"| instance | seed | 1 worker s | {args.workers} workers s |\n|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for index, puzzle in enumerate(puzzles):
            path = Path(folder, f"{index}.txt")
            write(path, [puzzle], format="lloyd" if puzzle.n > 35 else "line")
            for seed in args.seeds:
                serial = solve_seconds(path, None, seed, args.max_seconds)
                parallel = solve_seconds(path, args.workers, seed, args.max_seconds)
                rows.append({"instance": index, "seed": seed, "serial": serial, "portfolio": parallel})
                print(
                    f"| {index} | {seed} | {serial[0]:.2f}{'' if serial[1] else ' (unsolved)'} | "
                    f"{parallel[0]:.2f}{'' if parallel[1] else ' (unsolved)'} |",
                    flush=True,
                )
    print("\n" + summary(rows))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "file": args.instances_file.name,
                    "workers": args.workers,
                    "max_seconds": args.max_seconds,
                    "runs": rows,
                },
                indent=2,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
