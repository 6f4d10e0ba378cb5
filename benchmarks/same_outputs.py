"""Every bundled algorithm's outcome, seed for seed, so that a refactoring can show it changed none (issue 61).

    python benchmarks/same_outputs.py --save FILE      # record the outcomes (about 10 s; 75 s compiling kernels)
    python benchmarks/same_outputs.py --compare FILE   # rerun, list every difference, exit 1 if any

Each algorithm of :data:`deap_sudoku.runs.registry.ALGORITHMS` runs through
:func:`~deap_sudoku.experiments.run_experiment` (the API ``deap-sudoku bench`` uses) on three bundled
puzzles (a 45-given 9x9, a 26-given 9x9 and a 6x6) with two seeds each, under small budgets counted
in generations, evaluations, steps and nodes, never in seconds (``max_seconds`` is set far beyond the
run), so that the machine's load cannot change an outcome.  Each run is kept as: solved, best
fitness, evaluations, generations, steps, a digest of the best grid, and found_by.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from deap_sudoku.experiments import run_experiment
from deap_sudoku.io.samples import load_samples
from deap_sudoku.runs.registry import ALGORITHMS

PUZZLES = {"9x9-easy": ("9x9-easy.txt", 0), "9x9-hard": ("9x9.txt", 0), "6x6": ("6x6.txt", 0)}
"""The puzzles: name -> (bundled file, index)."""
RUNS = 2
"""Seeds per algorithm and puzzle."""
BUDGETS = {
    "population_size": 20,
    "max_generations": 25,
    "max_evaluations": 1500,
    "max_steps": 1500,
    "max_nodes": 2000,
    "max_seconds": 3600.0,
}
"""The budget each algorithm gets of those it takes; seconds only as a bound no run reaches."""


def outcomes() -> dict[str, dict]:
    """Every run's outcome, by ``algorithm/puzzle/seed``."""
    datasets = {name: [load_samples(file)[index]] for name, (file, index) in PUZZLES.items()}
    options = {
        name: {key: value for key, value in BUDGETS.items() if key in record.options}
        for name, record in ALGORITHMS.items()
    }
    results = run_experiment(list(ALGORITHMS), datasets, runs=RUNS, seed=0, options=options, contain=False)
    table = {}
    for result in results:
        table[f"{result.algorithm}/{result.dataset}/{result.seed}"] = {
            "solved": result.solved,
            "fitness": result.fitness,
            "evaluations": result.evaluations,
            "generations": result.generations,
            "steps": result.steps,
            "grid": hashlib.sha256(json.dumps(list(result.grid)).encode()).hexdigest()[:16],
            "found_by": result.found_by,
            "error": result.error,
        }
    return dict(sorted(table.items()))


def differences(old: dict[str, dict], new: dict[str, dict]) -> list[str]:
    """One line per run or field that differs between ``old`` and ``new``."""
    lines = []
    for key in sorted(old.keys() | new.keys()):
        if key not in new:
            lines.append(f"{key}: missing now")
        elif key not in old:
            lines.append(f"{key}: new run")
        else:
            for field in sorted(old[key].keys() | new[key].keys()):
                if json.dumps(old[key].get(field)) != json.dumps(new[key].get(field)):  # NaN equals NaN
                    lines.append(f"{key}: {field} {old[key].get(field)!r} -> {new[key].get(field)!r}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write the outcomes to this JSON file")
    group.add_argument("--compare", type=Path, help="rerun and list every difference from this JSON file")
    args = parser.parse_args(argv)
    table = outcomes()
    if args.save:
        args.save.write_text(json.dumps(table, indent=1) + "\n")
        print(f"{len(table)} runs written to {args.save}", file=sys.stderr)
        return 0
    lines = differences(json.loads(args.compare.read_text()), table)
    for line in lines:
        print(line)
    print(f"{len(table)} runs, {len(lines)} differences from {args.compare}", file=sys.stderr)
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
