"""deap-sudoku against OR-Tools CP-SAT on the same instances, side by side in one run, with the ratios.

    pip install ortools         # this script only; the package never imports it
    python benchmarks/cpsat_yardstick.py SET.txt [--instances 12] [--first 0] [--max-seconds 60]
                                          [-a memetic] [--seed 0] [--json FILE [--force]]

    e.g. python benchmarks/cpsat_yardstick.py ../instance-sets/36x36/inst36x36_45.txt --instances 12

For each of ``--instances`` puzzles of SET, from the one numbered ``--first`` (0-based), two
processes start at the same moment, one per core: ``deap-sudoku solve`` on that puzzle alone with
``--max-seconds`` (the algorithm of ``-a``, seed ``--seed``), and a Python process that gives it to
CP-SAT with one worker (one integer variable per cell, the givens fixed, an AllDifferent on every
row, column and box) under the same time limit. deap-sudoku's time is the wall time of its whole
command, start-up included; CP-SAT's is from the puzzle to the checked grid inside its process,
building the model included but not Python's start-up or the import of OR-Tools, so the comparison
leans, if anything, CP-SAT's way. Both answers are read back and checked with ``verify``; a wrong
grid stops the benchmark.

Printed: a row per instance, then per solver how many it solved within the limit and its median
time with the unsolved counted at the limit, and the ratio of the medians (deap-sudoku / CP-SAT;
below 1 is faster).  The per-instance ratio counts an unsolved run at the limit on either side.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deap_sudoku import __version__, read, write
from deap_sudoku.exact import verify
from deap_sudoku.io import write_atomic

SCRIPT = Path(sys.executable).parent / "deap-sudoku"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "deap_sudoku"]


def cpsat(puzzle, max_seconds: float) -> tuple[bool, float]:
    """Whether CP-SAT found a verified solution within ``max_seconds``, and the wall time."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    n = puzzle.n
    model = cp_model.CpModel()
    cells = [
        model.NewConstant(int(v)) if v else model.NewIntVar(1, n, f"c{i}") for i, v in enumerate(puzzle.cells.tolist())
    ]
    for unit in puzzle.shape.units.tolist():
        model.AddAllDifferent([cells[c] for c in unit])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max_seconds
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return False, time.perf_counter() - start
    grid = puzzle.filled([solver.Value(c) for c in cells])
    if not verify(grid, puzzle):
        raise SystemExit(f"CP-SAT returned a wrong grid for {puzzle!r}")
    return True, time.perf_counter() - start


def ours(path: Path, puzzle, args: argparse.Namespace) -> subprocess.Popen:
    """Start ``deap-sudoku solve`` on the one puzzle in ``path``; its answer goes to ``path.out``."""
    command = [
        *COMMAND,
        "solve",
        str(path),
        "-a",
        args.algorithm,
        "--seed",
        str(args.seed),
        "--max-seconds",
        str(args.max_seconds),
        "-q",
        "--out",
        f"{path}.out",
        "--out-format",
        "lloyd",
        "--box",
        f"{puzzle.shape.box_rows}x{puzzle.shape.box_cols}",
    ]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def pair(index: int, puzzle, folder: Path, args: argparse.Namespace) -> dict:
    """One instance, both solvers at once; their results as a row."""
    path = folder / f"instance{index}.txt"
    write(path, [puzzle], format="lloyd")
    start = time.perf_counter()
    mine = ours(path, puzzle, args)
    theirs = subprocess.Popen(
        [sys.executable, __file__, "--one", str(path), "--max-seconds", str(args.max_seconds)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, errors = mine.communicate()
    our_seconds = time.perf_counter() - start
    output, their_errors = theirs.communicate()
    if theirs.returncode != 0:
        raise SystemExit(f"CP-SAT's process failed on instance {index}:\n{their_errors}")
    if mine.returncode not in (0, 1):
        raise SystemExit(f"deap-sudoku solve failed on instance {index} (exit {mine.returncode}):\n{errors}")
    solved = mine.returncode == 0
    if solved and not verify(read(f"{path}.out", format="lloyd")[0], puzzle):
        raise SystemExit(f"deap-sudoku returned a wrong grid for instance {index}")
    their = json.loads(output)
    return {
        "instance": index,
        "deap_sudoku": {"solved": solved, "seconds": our_seconds},
        "cpsat": {"solved": their["solved"], "seconds": their["seconds"]},
    }


def capped(run: dict, limit: float) -> float:
    return run["seconds"] if run["solved"] else limit


def summary(rows: list[dict], limit: float) -> dict:
    """Solved counts, medians with the unsolved at the limit, and the ratios."""
    medians = {side: statistics.median(capped(r[side], limit) for r in rows) for side in ("deap_sudoku", "cpsat")}
    return {
        "solved": {side: sum(r[side]["solved"] for r in rows) for side in medians},
        "median_seconds": medians,
        "ratio_of_medians": medians["deap_sudoku"] / medians["cpsat"],
        "median_ratio": statistics.median(capped(r["deap_sudoku"], limit) / capped(r["cpsat"], limit) for r in rows),
    }


def one(path: Path, max_seconds: float) -> None:
    """The CP-SAT side of a pair, in its own process: the result as JSON on standard output."""
    solved, seconds = cpsat(read(path, format="lloyd")[0], max_seconds)
    print(json.dumps({"solved": solved, "seconds": seconds}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path)
    parser.add_argument("--instances", type=int, default=12)
    parser.add_argument("--first", type=int, default=0, help="the number of the first instance (0-based)")
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("-a", "--algorithm", default="memetic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--force", action="store_true", help="replace an existing --json file")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if importlib.util.find_spec("ortools") is None:
        raise SystemExit("this benchmark needs OR-Tools: pip install ortools")
    if args.one:
        return one(args.set, args.max_seconds)
    if args.instances < 1 or args.first < 0 or not args.max_seconds > 0:
        parser.error("--instances must be at least 1, --first at least 0 and --max-seconds more than 0")
    if args.json is not None and args.json.exists() and not args.force:
        parser.error(f"{args.json} exists; it is not overwritten without --force")
    puzzles = read(args.set)[args.first : args.first + args.instances]
    if not puzzles:
        parser.error(f"{args.set} has no instance numbered {args.first}")
    print(
        f"{args.set}: {len(puzzles)} instances from {args.first}, {args.max_seconds:g} s each, deap-sudoku solve -a "
        f"{args.algorithm} --seed {args.seed} beside CP-SAT (one worker)",
        file=sys.stderr,
    )
    print("| instance | deap-sudoku (s) | CP-SAT (s) | ratio |\n|---:|---:|---:|---:|")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for index, puzzle in enumerate(puzzles, start=args.first):
            row = pair(index, puzzle, Path(folder), args)
            rows.append(row)
            cells = [
                f"{r['seconds']:.1f}" if r["solved"] else f"unsolved ({r['seconds']:.0f})"
                for r in (row["deap_sudoku"], row["cpsat"])
            ]
            ratio = capped(row["deap_sudoku"], args.max_seconds) / capped(row["cpsat"], args.max_seconds)
            print(f"| {index} | {cells[0]} | {cells[1]} | {ratio:.2f} |", flush=True)
    result = summary(rows, args.max_seconds)
    print(
        f"\nsolved within {args.max_seconds:g} s: deap-sudoku {result['solved']['deap_sudoku']}, "
        f"CP-SAT {result['solved']['cpsat']} of {len(rows)}; median {result['median_seconds']['deap_sudoku']:.1f} s "
        f"against {result['median_seconds']['cpsat']:.1f} s (unsolved at the limit): ratio of medians "
        f"{result['ratio_of_medians']:.2f}, median ratio {result['median_ratio']:.2f}"
    )
    if args.json is not None:
        from ortools import __version__ as ortools_version

        commit = (
            subprocess.run(
                ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent
            ).stdout.strip()
            or None
        )
        record = {
            "set": str(args.set),
            "commit": commit,
            "first": args.first,
            "instances": len(rows),
            "max_seconds": args.max_seconds,
            "algorithm": args.algorithm,
            "seed": args.seed,
            "deap_sudoku": __version__,
            "ortools": ortools_version,
            "cpus": os.cpu_count(),
            "summary": result,
            "runs": rows,
        }
        write_atomic(args.json, json.dumps(record, indent=2) + "\n", overwrite=args.force)


if __name__ == "__main__":
    main()
