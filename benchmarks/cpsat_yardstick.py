"""How hard are the instances for a constraint-programming solver?  A second yardstick for the GA's targets.

    pip install ortools         # this script only; the package never imports it
    python benchmarks/cpsat_yardstick.py SET.txt [--instances 3] [--max-seconds 120] [--json FILE [--force]]

    e.g. python benchmarks/cpsat_yardstick.py ../instance-sets/36x36/inst36x36_50.txt --instances 2

Each of the first ``--instances`` puzzles becomes a CP-SAT model (OR-Tools): one integer
variable per cell, the givens fixed, and an AllDifferent constraint on every row, column and
box.  CP-SAT runs with one worker, so the figure compares with the GA's one core; its answer
is read back into a grid and checked with ``verify``.  The time is wall time from the puzzle to
the checked grid, building the model included; a solve that reaches ``--max-seconds`` is
reported unsolved.  ``benchmarks/cdcl_yardstick.py`` is the clause-learning SAT counterpart.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.exact import verify


def solve(puzzle, max_seconds: float) -> tuple[bool, float]:
    """Whether CP-SAT found a verified solution within ``max_seconds``, and the wall time."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    n, shape = puzzle.n, puzzle.shape
    model = cp_model.CpModel()
    cells = [model.NewConstant(int(v)) if v else model.NewIntVar(1, n, f"c{i}")
             for i, v in enumerate(puzzle.cells.tolist())]
    for unit in shape.units.tolist():
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path)
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--max-seconds", type=float, default=120.0)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--force", action="store_true", help="replace an existing --json file")
    args = parser.parse_args()
    if args.instances < 1 or not args.max_seconds > 0:
        parser.error("--instances must be at least 1 and --max-seconds more than 0")
    if args.json is not None and args.json.exists() and not args.force:
        parser.error(f"{args.json} exists; it is not overwritten without --force")
    if importlib.util.find_spec("ortools") is None:
        raise SystemExit("this benchmark needs OR-Tools: pip install ortools")
    puzzles = read(args.set)[:args.instances]
    print("| instance | solved | seconds |\n|---:|---|---:|")
    rows = []
    for index, puzzle in enumerate(puzzles):
        solved, seconds = solve(puzzle, args.max_seconds)
        rows.append({"instance": index, "solved": solved, "seconds": seconds})
        print(f"| {index} | {'yes' if solved else 'no, stopped'} | {seconds:.1f} |", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps({"set": str(args.set), "max_seconds": args.max_seconds, "runs": rows},
                                        indent=2) + "\n")


if __name__ == "__main__":
    main()
