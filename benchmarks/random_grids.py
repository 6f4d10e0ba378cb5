"""How long ``deap-sudoku generate`` takes to draw one random full grid, whole command, seed by seed.

    python benchmarks/random_grids.py [--box 8] [--seeds 10] [--timeout 120] [--json FILE]

Each seed runs ``deap-sudoku generate --box BxB --any --givens 50% --count 1 --seed S`` in its own
process (the ``deap-sudoku`` script beside this Python, numba's kernel cache filled before any
clock starts) and times it; a run still going after ``--timeout`` seconds is stopped and counted
as unfinished.  The grid is drawn by :func:`deap_sudoku.exact.random_solution` (randomised exact
search of the empty grid with restarts); digging the givens out adds little (``--any``: no
uniqueness check).  Issue 34's target for 64x64 (``--box 8``): every grid within 60 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deap_sudoku.io import write_atomic

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SCRIPT = Path(sys.executable).parent / "deap-sudoku"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "deap_sudoku"]


def generate(box: int, seed: int, folder: Path, timeout: float) -> float | None:
    """Wall seconds of one ``generate`` command, or ``None`` when it ran past ``timeout``."""
    out = folder / f"grid{box}_{seed}.txt"
    command = [*COMMAND, "generate", "--box", f"{box}x{box}", "--any", "--givens", "50%", "--count", "1",
               "--seed", str(seed), "--format", "lloyd", "--out", str(out), "--force", "--quiet"]
    start = time.perf_counter()
    try:
        subprocess.run(command, check=True, env=ENV, timeout=timeout, stdout=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--box", type=int, default=8, help="box side: 8 for 64x64 grids")
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0 .. SEEDS-1")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a run counts as unfinished")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        generate(args.box, 0, Path(folder), 600.0)  # fills numba's kernel cache: no clock counts it
        times = {}
        for seed in range(args.seeds):
            times[seed] = generate(args.box, seed, Path(folder), args.timeout)
            shown = "unfinished" if times[seed] is None else f"{times[seed]:.2f} s"
            print(f"{args.box * args.box}x{args.box * args.box}, seed {seed}: {shown}", file=sys.stderr, flush=True)
    done = sorted(t for t in times.values() if t is not None)
    summary = {"side": args.box * args.box, "seeds": args.seeds, "timeout": args.timeout,
               "finished": len(done), "median": statistics.median(done) if done else None,
               "max": max(done) if done else None, "seconds": times, "command": " ".join(sys.argv)}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).parent)
    summary["commit"] = commit.stdout.strip()
    print(json.dumps(summary, indent=1))
    if args.json:
        write_atomic(args.json, json.dumps(summary, indent=1) + "\n", overwrite=True)


if __name__ == "__main__":
    main()
