"""A newcomer's first run: commands timed with numba's kernel cache empty, then again with it filled.

    python benchmarks/first_run.py [--rounds 3] [--cases 9x9,16x16,cdcl-36x36] [--json FILE]

Each round, for each case, empties a fresh numba cache folder (``NUMBA_CACHE_DIR``), times the
first-ever command as a whole process, waits for the background process that the first run may
have started to finish filling the cache (how long it went on is reported too), and times the same
command again (paired: the same round, the same machine load).  The cases:

- ``9x9``, ``16x16``: ``deap-sudoku solve data/9x9.txt --max-seconds 5`` (5 puzzles) and the same
  for ``data/16x16.txt`` (2 puzzles).  Issue 40's target: the first at most 3 s above the second.
- ``cdcl-36x36``: ``deap-sudoku solve inst36x36_45.txt -a cdcl --max-seconds 60`` on the first 36x36
  at 45 % givens of ``benchmarks/instance_sets.sh`` (made here by the same ``generate`` command, one
  puzzle).  Issue 52's target: the first at most the compilation's duration above the warm run.
  Also reported, in seconds from the first command's start: when the background process had cached
  the clause-learning loop (its stamp) and the whole warm-up ("loop cached at", "all cached at"),
  and when the run took the kernels up ("taken up at": the seconds its line on standard error
  gives, counted from the run's start on the Python twins, after the command's start-up).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import deap_sudoku
from deap_sudoku.io import write_atomic

REPO = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).parent / "deap-sudoku"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "deap_sudoku"]
MAKE_36 = ["generate", "--box", "6x6", "--any", "--givens", "45%", "--count", "1", "--seed", "0", "--format", "lloyd"]
CASES = {
    "9x9": (["solve", str(REPO / "data" / "9x9.txt"), "--max-seconds", "5"], None),
    "16x16": (["solve", str(REPO / "data" / "16x16.txt"), "--max-seconds", "5"], None),
    "cdcl-36x36": (["solve", "{puzzle}", "-a", "cdcl", "--max-seconds", "60"], MAKE_36),
}


def timed(command: list[str], env: dict[str, str]) -> tuple[float, str, int]:
    """Wall seconds of ``command``, its standard error and its exit code (1: a puzzle unsolved)."""
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return time.perf_counter() - start, done.stderr, done.returncode


def background_seconds(cache: Path) -> float:
    """Seconds until no background compilation holds a lock in ``cache`` (0 when none started)."""
    start = time.perf_counter()
    while list(cache.glob("*.compiling")):
        time.sleep(0.1)
    return time.perf_counter() - start


def stamped(cache: Path, name: str, since: float) -> float | None:
    """Seconds from ``since`` (a :func:`time.time` reading) to the stamp ``name`` (``cdcl``,
    ``cdcl-first``) in ``cache``."""
    prefix = f"deap-sudoku-{name}-"  # "deap-sudoku-cdcl-" begins "deap-sudoku-cdcl-first-" too
    stamps = [p for p in cache.glob(prefix + "*.compiled") if not p.name[len(prefix) :].startswith("first-")]
    return stamps[0].stat().st_mtime - since if stamps else None


def one_round(name: str, folder: Path, env: dict[str, str]) -> dict:
    """The first-ever and the warm command of case ``name``, in the cache folder ``folder``."""
    arguments, make = CASES[name]
    if make is not None:
        puzzle = folder / "inst36x36_45.txt"
        if not puzzle.exists():
            subprocess.run([*COMMAND, *make, "--out", str(puzzle)], env=env, check=True, capture_output=True)
        arguments = [a.replace("{puzzle}", str(puzzle)) for a in arguments]
    cache = folder / "numba-cache"
    env = {**env, "NUMBA_CACHE_DIR": str(cache)}
    since = time.time()
    first, notes, first_code = timed([*COMMAND, *arguments], env)
    background = background_seconds(cache)
    second, second_notes, second_code = timed([*COMMAND, *arguments], env)
    row: dict[str, object] = {
        "first": first,
        "second": second,
        "first solved": first_code == 0,
        "second solved": second_code == 0,
        "background compile after the first": background,
        "notice": "background" in notes,
    }
    if name.startswith("cdcl"):
        taken = re.search(r"taken up after ([0-9.]+) s on the Python twins \(([0-9.]+) s to load\)", notes)
        row["loop cached at (s)"] = stamped(cache, "cdcl-first", since)
        row["all cached at (s)"] = stamped(cache, "cdcl", since)
        row["taken up at (s)"] = float(taken.group(1)) if taken else None
        row["loading (s)"] = float(taken.group(2)) if taken else None
        row["first's status"] = notes.strip().splitlines()[-1]
        row["second's status"] = second_notes.strip().splitlines()[-1]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    cases = args.cases.split(",")
    rows: dict[str, list[dict]] = {name: [] for name in cases}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for round_ in range(args.rounds):
        for name in cases:
            with tempfile.TemporaryDirectory() as folder:
                load = os.getloadavg()[0]
                row = one_round(name, Path(folder), env)
                row["load average before"] = load
            rows[name].append(row)
            print(
                f"round {round_ + 1}, {name}: first {row['first']:.2f} s, second {row['second']:.2f} s, "
                f"background compilation went on {row['background compile after the first']:.1f} s after the first"
                + (
                    f", loop cached at {row['loop cached at (s)']:.1f} s, taken up at {row['taken up at (s)']} s"
                    if name.startswith("cdcl") and row["loop cached at (s)"] is not None
                    else ""
                )
                + f" (load {load:.1f})",
                file=sys.stderr,
                flush=True,
            )
    summary: dict = {}
    for name, runs in rows.items():
        summary[name] = {
            "first median": statistics.median(r["first"] for r in runs),
            "second median": statistics.median(r["second"] for r in runs),
            "first above second (median of rounds)": statistics.median(r["first"] - r["second"] for r in runs),
            "target": "first at most 3 s above second"
            if not name.startswith("cdcl")
            else "first at most the compilation's duration above the warm run",
            "rounds": runs,
        }
        if name.startswith("cdcl"):
            loops = [r["loop cached at (s)"] for r in runs]  # None before the loop had its own stamp
            cached = [x for x in loops if x is not None]
            summary[name]["loop cached median (s)"] = statistics.median(cached) if cached else None
            summary[name]["first above second minus loop cached (each round)"] = [
                r["first"] - r["second"] - x for r, x in zip(runs, loops) if x is not None
            ]
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(deap_sudoku.__file__).parent
    )  # the code measured (PYTHONPATH may choose it)
    summary["commit"] = commit.stdout.strip()
    summary["command"] = " ".join(["python", "benchmarks/first_run.py", *sys.argv[1:]])
    print(json.dumps(summary, indent=1))
    if args.json:
        write_atomic(args.json, json.dumps(summary, indent=1) + "\n", overwrite=True)


if __name__ == "__main__":
    main()
