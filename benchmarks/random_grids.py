"""How long ``deap-sudoku generate`` takes to draw one random full grid, whole command, seed by seed.

    python benchmarks/random_grids.py [--box 8] [--seeds 10] [--timeout 120] [--json FILE]
    python benchmarks/random_grids.py --tries 300 [--try-nodes 10000] [--box 8] [--seeds 10] [--json FILE]

Each seed runs ``deap-sudoku generate --box BxB --any --givens 50% --count 1 --seed S`` in its own
process (the ``deap-sudoku`` script beside this Python, numba's kernel cache filled before any
clock starts) and times it; a run still going after ``--timeout`` seconds is stopped and counted
as unfinished.  The grid is drawn by :func:`deap_sudoku.exact.random_solution` (randomised exact
search of the empty grid with restarts); digging the givens out adds little (``--any``: no
uniqueness check).  Issue 34's target for 64x64 (``--box 8``): every grid within 60 s.

With ``--tries`` it looks at the tries themselves, in this process: for each seed, the first
``--tries`` randomised searches of the empty grid that ``random_solution`` would make with that
seed (the same draws), each given ``--try-nodes`` nodes, and how many nodes each successful one
took: what the cap on a try's budget (``TRY_NODES_PER_CELL``) was chosen from.
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

import deap_sudoku
from deap_sudoku.io import write_atomic

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SCRIPT = Path(sys.executable).parent / "deap-sudoku"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "deap_sudoku"]


def generate(box: int, seed: int, folder: Path, timeout: float) -> float | None:
    """Wall seconds of one ``generate`` command, or ``None`` when it ran past ``timeout``."""
    out = folder / f"grid{box}_{seed}.txt"
    command = [
        *COMMAND,
        "generate",
        "--box",
        f"{box}x{box}",
        "--any",
        "--givens",
        "50%",
        "--count",
        "1",
        "--seed",
        str(seed),
        "--format",
        "lloyd",
        "--out",
        str(out),
        "--force",
        "--quiet",
    ]
    start = time.perf_counter()
    try:
        subprocess.run(command, check=True, env=ENV, timeout=timeout, stdout=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - start


def look_at_tries(box: int, seeds: int, tries: int, try_nodes: int) -> dict:
    """Nodes each successful try took (of ``tries`` per seed, ``try_nodes`` each), per seed."""
    import random

    from deap_sudoku import Puzzle, Shape
    from deap_sudoku.exact import SearchBudgetExceeded, search

    shape = Shape(box, box)
    empty = Puzzle([0] * shape.cells, box=shape)
    found: dict[int, list[int]] = {}
    for seed in range(seeds):
        rng, found[seed] = random.Random(seed), []
        for _ in range(tries):
            try:
                found[seed].append(search(empty, max_nodes=try_nodes, rng=rng, compiled=True).nodes)
            except SearchBudgetExceeded:
                pass
        print(
            f"{shape.name}, seed {seed}: {len(found[seed])} of {tries} tries finished within {try_nodes} nodes",
            file=sys.stderr,
            flush=True,
        )
    nodes = sorted(n for runs in found.values() for n in runs)
    return {
        "side": shape.n,
        "tries per seed": tries,
        "nodes per try": try_nodes,
        "seeds": seeds,
        "finished": len(nodes),
        "tries": tries * seeds,
        "fewest nodes": nodes[0] if nodes else None,
        "most nodes": nodes[-1] if nodes else None,
        "nodes per cell": [round(nodes[0] / shape.cells, 2), round(nodes[-1] / shape.cells, 2)] if nodes else None,
        "successes per seed": {seed: runs for seed, runs in found.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--box", type=int, default=8, help="box side: 8 for 64x64 grids")
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0 .. SEEDS-1")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a run counts as unfinished")
    parser.add_argument("--tries", type=int, help="look at this many tries per seed instead")
    parser.add_argument("--try-nodes", type=int, default=10_000, help="the node budget of each try (--tries)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    if args.tries:
        summary = look_at_tries(args.box, args.seeds, args.tries, args.try_nodes)
        _report(summary, args.json)
        return
    with tempfile.TemporaryDirectory() as folder:
        generate(args.box, 0, Path(folder), 600.0)  # fills numba's kernel cache: no clock counts it
        times = {}
        for seed in range(args.seeds):
            times[seed] = generate(args.box, seed, Path(folder), args.timeout)
            shown = "unfinished" if times[seed] is None else f"{times[seed]:.2f} s"
            print(f"{args.box * args.box}x{args.box * args.box}, seed {seed}: {shown}", file=sys.stderr, flush=True)
    done = sorted(t for t in times.values() if t is not None)
    summary = {
        "side": args.box * args.box,
        "seeds": args.seeds,
        "timeout": args.timeout,
        "finished": len(done),
        "median": statistics.median(done) if done else None,
        "max": max(done) if done else None,
        "seconds": times,
    }
    _report(summary, args.json)


def _report(summary: dict, json_path: Path | None) -> None:
    """``summary`` with the measured code's commit and the command, on stdout and in ``json_path``."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(deap_sudoku.__file__).parent
    )  # the code measured (PYTHONPATH may choose it)
    summary["commit"] = commit.stdout.strip()
    summary["command"] = " ".join(["python", "benchmarks/random_grids.py", *sys.argv[1:]])
    print(json.dumps(summary, indent=1))
    if json_path:
        write_atomic(json_path, json.dumps(summary, indent=1) + "\n", overwrite=True)


if __name__ == "__main__":
    main()
