"""Every bundled algorithm's outputs, seed for seed, to check that a refactoring changed none of them.

Each algorithm of the catalogue runs on two 9x9 puzzles (an easy one and the forum's hardest) with two
seeds each, under budgets in evaluations, steps, nodes or generations (never seconds, so that the
machine's load cannot change a result); the record of every run (note, fitness, generations, steps,
evaluations, the best grid, who found it) is written or compared.

    python benchmarks/same_outputs.py --save before.json       # before the change
    python benchmarks/same_outputs.py --compare before.json    # after it: lists every difference, exit 1 if any

About 30 s on a 2-core machine (the kernels cached).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from deap_sudoku.grid.puzzle import Puzzle
from deap_sudoku.runs.registry import ALGORITHMS

PUZZLES = (
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "..1..4.......6.3.5...9.....8.....7.3.......285...7.6..3...8...6..92......4...1...",
)
SEEDS = (0, 1)


def budgets(options: tuple[str, ...]) -> dict[str, int]:
    """Small budgets in work, never in seconds, for an algorithm that takes ``options``."""
    chosen = {}
    if "max_evaluations" in options:
        chosen["max_evaluations"] = 3000
    elif "max_steps" in options:
        chosen["max_steps"] = 3000
    if "max_nodes" in options:
        chosen["max_nodes"] = 3000
    if "max_generations" in options and "max_evaluations" not in options:
        chosen["max_generations"] = 20
    return chosen


def outputs() -> dict[str, dict]:
    """``name/puzzle/seed`` -> what that run returned."""
    found = {}
    for name, record in ALGORITHMS.items():
        for number, text in enumerate(PUZZLES):
            for seed in SEEDS:
                outcome = record.run(Puzzle.parse(text), seed=seed, **budgets(record.options))
                found[f"{name}/{number}/{seed}"] = {
                    "note": outcome.note,
                    "fitness": None if outcome.fitness is None or math.isnan(outcome.fitness) else outcome.fitness,
                    "generations": outcome.generations,
                    "steps": outcome.steps,
                    "evaluations": outcome.evaluations,
                    "grid": "".join(map(str, np.asarray(outcome.grid).tolist())),
                    "found_by": outcome.found_by,
                }
                print(f"{name} puzzle {number} seed {seed}: {outcome.note}", file=sys.stderr)
    return found


def differences(before: dict[str, dict], after: dict[str, dict]) -> list[str]:
    """One line per run that differs, or that only one side has."""
    lines = []
    for key in sorted(before.keys() | after.keys()):
        if key not in after or key not in before:
            lines.append(f"{key}: only {'before' if key in before else 'after'}")
            continue
        for field in sorted(before[key].keys() | after[key].keys()):
            if before[key].get(field) != after[key].get(field):
                lines.append(f"{key} {field}: {before[key].get(field)!r} -> {after[key].get(field)!r}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write the outputs to this JSON file")
    group.add_argument("--compare", type=Path, help="compare the outputs with this JSON file")
    arguments = parser.parse_args()
    found = outputs()
    if arguments.save:
        arguments.save.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"{len(found)} runs written to {arguments.save}")
        return 0
    lines = differences(json.loads(arguments.compare.read_text()), found)
    print("\n".join(lines) if lines else f"{len(found)} runs, none differs from {arguments.compare}")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
