"""What the target phase and rephasing buy the clause-learning search: the same instances with and
without them.

    python benchmarks/clause_learning_ablation.py SET.txt [--instances 12] [--max-seconds 60]
                                                  [--seed 0] [--json FILE [--force]]

    e.g. python benchmarks/clause_learning_ablation.py ../instance-sets/36x36/inst36x36_45.txt

For each of the first ``--instances`` puzzles of SET, in this process and one after the other,
``exact.solve_learning`` runs compiled as it is (a decision sets its variable as it stood in the
fullest assignment yet, and that assignment is forgotten now and then: rephasing), without
rephasing (the fullest assignment is kept for good), and without the target phase (every decision
sets its variable false, MiniSat's default), seed ``--seed``, at most ``--max-seconds`` each; every
answer is verified.  The compiled loop is loaded before the first clock starts.  Printed: a row per
instance, then per arm how many were solved and the median time with the unsolved counted at the
limit.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import time
from pathlib import Path

from deap_sudoku import Puzzle, __version__, read
from deap_sudoku.exact import SearchBudgetExceeded, solve_learning, verify
from deap_sudoku.io import write_atomic

ARMS = {
    "as it is": {},
    "no rephasing": {"rephase": False},
    "false phase": {"target_phase": False},
}


def timed(puzzle: Puzzle, switches: dict, max_seconds: float, seed: int) -> dict:
    start = time.perf_counter()
    try:
        solution = solve_learning(puzzle, max_seconds=max_seconds, rng=random.Random(seed), compiled=True, **switches)
    except SearchBudgetExceeded:
        return {"solved": False, "seconds": time.perf_counter() - start}
    seconds = time.perf_counter() - start
    if solution is None or not verify(solution, puzzle):
        raise SystemExit(f"wrong answer: {solution!r}")
    return {"solved": True, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path)
    parser.add_argument("--instances", type=int, default=12)
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--force", action="store_true", help="replace an existing --json file")
    args = parser.parse_args()
    if args.json is not None and args.json.exists() and not args.force:
        parser.error(f"{args.json} exists; it is not overwritten without --force")
    puzzles = read(args.set)[: args.instances]
    solve_learning(Puzzle([0] * 16), compiled=True)  # load (or compile) the loop off the clock
    print(f"| instance | {' | '.join(f'{arm} (s)' for arm in ARMS)} |")
    print(f"|---:|{'---:|' * len(ARMS)}")
    rows = []
    for index, puzzle in enumerate(puzzles):
        row = {arm: timed(puzzle, switches, args.max_seconds, args.seed) for arm, switches in ARMS.items()}
        rows.append(row)
        cells = (f"{r['seconds']:.2f}" if r["solved"] else f"unsolved ({r['seconds']:.0f})" for r in row.values())
        print(f"| {index} | {' | '.join(cells)} |", flush=True)
    summary = {
        arm: {
            "solved": sum(row[arm]["solved"] for row in rows),
            "median_seconds": statistics.median(
                row[arm]["seconds"] if row[arm]["solved"] else args.max_seconds for row in rows
            ),
        }
        for arm in ARMS
    }
    for arm, line in summary.items():
        print(f"{arm}: {line['solved']} of {len(rows)} solved, median {line['median_seconds']:.2f} s")
    if args.json is not None:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent
        ).stdout.strip()
        record = {"set": str(args.set), "commit": commit, "max_seconds": args.max_seconds, "seed": args.seed}
        record.update(deap_sudoku=__version__, summary=summary, runs=rows)
        write_atomic(args.json, json.dumps(record, indent=1) + "\n", overwrite=args.force)


if __name__ == "__main__":
    main()
