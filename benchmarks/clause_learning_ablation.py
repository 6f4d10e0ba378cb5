"""What the target phase and rephasing buy the clause-learning search: the same instances with and
without them.

    python benchmarks/clause_learning_ablation.py SET.txt [--instances 12] [--max-seconds 60]
                                                  [--seed 0] [--json FILE [--force]]

    e.g. python benchmarks/clause_learning_ablation.py ../instance-sets/36x36/inst36x36_45.txt

For each of the first ``--instances`` puzzles of SET, in this process and one after the other,
``exact.solve_learning`` runs compiled as it is (a decision sets its variable as it stood in the
fullest assignment yet, and that assignment is forgotten now and then: rephasing), without
rephasing (the fullest assignment is kept for good), and without the target phase (every decision
sets its variable false, MiniSat's default), seed ``--seed``, at most ``--max-seconds`` each.  The
arms are algorithms of the public API (``runs.registry.from_function``) run by
``experiments.run_experiment``, which verifies every answer and censors one that comes past the
budget, as a user's own ablation would be.  The compiled loop is loaded before the first clock
starts.  Printed: a row per instance, then per arm how many were solved and the median time with
the unsolved counted at the limit.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from deap_sudoku import Puzzle, __version__, read
from deap_sudoku.exact import SearchBudgetExceeded, solve_learning
from deap_sudoku.experiments import run_experiment
from deap_sudoku.io import write_atomic
from deap_sudoku.runs.registry import from_function

ARMS = {
    "as it is": {},
    "no rephasing": {"rephase": False},
    "false phase": {"target_phase": False},
}


def ablated(name: str, switches: dict):
    """The compiled clause-learning search with ``switches``, as an algorithm a run can use."""

    def search(puzzle: Puzzle, *, rng, max_seconds=None):
        try:
            solution = solve_learning(puzzle, max_seconds=max_seconds, rng=rng, compiled=True, **switches)
        except SearchBudgetExceeded:
            return puzzle.cells
        return puzzle.cells if solution is None else solution.cells

    return from_function(search, name=name)


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
    results = run_experiment(
        [ablated(name, switches) for name, switches in ARMS.items()],
        {args.set.name: puzzles},
        runs=1,
        seed=args.seed,
        options={name: {"max_seconds": args.max_seconds} for name in ARMS},
        progress=lambda done, total: print(
            f"{done}/{total} runs", end="\n" if done == total else "\r", file=sys.stderr
        ),
    )
    rows = [
        {r.algorithm: {"solved": r.solved, "seconds": r.seconds} for r in results if r.index == index}
        for index in range(len(puzzles))
    ]
    print(f"| instance | {' | '.join(f'{name} (s)' for name in ARMS)} |")
    print(f"|---:|{'---:|' * len(ARMS)}")
    for index, row in enumerate(rows):
        cells = (f"{r['seconds']:.2f}" if r["solved"] else f"unsolved ({r['seconds']:.0f})" for r in row.values())
        print(f"| {index} | {' | '.join(cells)} |")
    summary = {
        name: {
            "solved": sum(row[name]["solved"] for row in rows),
            "median_seconds": statistics.median(
                row[name]["seconds"] if row[name]["solved"] else args.max_seconds for row in rows
            ),
        }
        for name in ARMS
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
