"""Why the memetic GA stalls on 36x36: do the clash-free cells of its best grid lead to a solution?

    python benchmarks/near_misses.py SET.txt [--instances 4] [--max-seconds 30] [--orders 3] [--json FILE]

    e.g. python benchmarks/near_misses.py ../instance-sets/36x36/inst36x36_45.txt \
             --json benchmarks/results/near_misses.json

Each of the first ``--instances`` puzzles gets one memetic run (seed 0, ``--max-seconds``).  When
its best grid is not a solution, the grid's open cells that clash with nothing in their row
and column (its boxes are permutations) are fixed to their values one at a time under
propagation, in ``--orders`` seeded random orders, keeping each cell that propagation accepts;
exact search (``--max-nodes``) then says whether the kept cells extend to a solution.  A
destroy-and-rebuild move keeps a subset of these cells, so when they do not extend, the move
has to undo cells the fitness counts as right.  When the run solves a puzzle, the same check runs
on its solution with two open cells of one box swapped, a control whose cells must extend.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np

from deap_sudoku import Puzzle, read
from deap_sudoku.algorithms.repair import PropagationRepair
from deap_sudoku.exact import SearchBudgetExceeded, search
from deap_sudoku.propagation import propagate_masks, tables
from deap_sudoku.algorithms import Stop
from deap_sudoku.runs.catalogue.ga_recipes import memetic
from deap_sudoku.tools.fitness import eval_collisions


def kept_together(repair: PropagationRepair, values: np.ndarray, cells: list[int]) -> list[int]:
    """The ``cells`` that propagation accepts one after the other, each fixed to its value."""
    rules = tables(repair.puzzle.shape)
    cands, kept = repair.candidates(), []
    for c in cells:
        bit = 1 << (int(values[c]) - 1)
        trial = cands.copy()
        trial[c] = bit
        if cands[c] & bit and propagate_masks(trial, [c], rules, hidden=True, locked=True):
            cands = trial
            kept.append(c)
    return kept


def extends(puzzle: Puzzle, values: np.ndarray, kept: list[int], max_nodes: int) -> tuple[str, int, float]:
    """Whether exact search completes the givens plus the ``kept`` cells: its answer, nodes and time."""
    cells = np.array(puzzle.cells, dtype=np.int64)
    cells[kept] = values[kept]
    started = time.perf_counter()
    try:
        result = search(Puzzle(cells, box=puzzle.shape), limit=1, max_nodes=max_nodes)
    except SearchBudgetExceeded:
        return "undecided", max_nodes, time.perf_counter() - started
    return ("extends" if result.solutions else "refuted"), result.nodes, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("instances_file", type=Path)
    parser.add_argument("--instances", type=int, default=4)
    parser.add_argument("--max-seconds", type=float, default=30.0)
    parser.add_argument("--orders", type=int, default=3)
    parser.add_argument("--max-nodes", type=int, default=100_000)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    print(
        "| instance | collisions | open cells | clash-free | kept together | exact search |\n"
        "|---:|---:|---:|---:|---:|---|"
    )
    for index, puzzle in enumerate(read(args.instances_file)[: args.instances]):
        _, _, hall = memetic(puzzle, seed=0, stop=Stop(max_seconds=args.max_seconds))
        values, collisions = np.asarray(hall[0], dtype=np.int64), int(hall[0].fitness.values[0])
        repair = PropagationRepair(puzzle, compiled=False)
        control = not collisions
        if control:  # the solution with two open cells of a box swapped
            a, b = next(
                pair
                for box in puzzle.shape.boxes.tolist()
                if len(pair := [c for c in box if not puzzle.givens[c]][:2]) == 2
            )
            values[[a, b]] = values[[b, a]]
            collisions = int(eval_collisions(values, puzzle=puzzle)[0])
        clash = set(repair.clashing(values).tolist())
        open_cells = [c for c, m in enumerate(repair.candidates()) if m & (m - 1)]
        free = [c for c in open_cells if c not in clash]
        row = {
            "instance": index,
            "control": control,
            "collisions": collisions,
            "open": len(open_cells),
            "clash_free": len(free),
            "orders": [],
        }
        for seed in range(args.orders):  # a solved run became its control, so there are always collisions
            kept = kept_together(repair, values, random.Random(seed).sample(free, len(free)))
            answer, nodes, seconds = extends(puzzle, values, kept, args.max_nodes)
            row["orders"].append({"kept": len(kept), "answer": answer, "nodes": nodes, "seconds": seconds})
        rows.append(row)
        kept = ", ".join(str(o["kept"]) for o in row["orders"])
        answers = ", ".join(f"{o['answer']} ({o['nodes']} nodes)" for o in row["orders"])
        name = f"{index} (control)" if control else index
        print(f"| {name} | {collisions} | {len(open_cells)} | {len(free)} | {kept} | {answers} |", flush=True)
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "file": args.instances_file.name,
                    "max_seconds": args.max_seconds,
                    "max_nodes": args.max_nodes,
                    "rows": rows,
                },
                indent=2,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
