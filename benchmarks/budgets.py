"""How well ``--max-seconds`` is kept: requested against observed stop times, per algorithm.

Every algorithm that takes ``max_seconds`` runs on a puzzle it cannot finish in time: the
GAs and tabu search on a 9x9 puzzle with no solution that propagation cannot expose (so
they always run to the budget), backtracking on the one of Lloyd & Amos's first 40 25x25
instances with 40-49 % givens (the hardest shares for exact search) that it cannot solve in a
second, ``inst25x25_40_4``, with a new seed per run.  The observed time is the run's own wall time as
``deap-sudoku solve`` reports it, the kernels' warm-up excluded.  The promise: within 5 % or
0.1 s of the request, whichever is larger.  Run from the repository root::

    python benchmarks/budgets.py --seconds 0.5 2 5 --runs 2
"""

from __future__ import annotations

import argparse
import random
import statistics

import numpy as np

from deap_sudoku import Puzzle, Shape
from deap_sudoku.exact import count_solutions, generate_puzzle, solve
from deap_sudoku.grid import find_conflicts
from deap_sudoku.propagation import propagate
from deap_sudoku.runs import Task, run_task
from deap_sudoku.runs.registry import takes

HARDEST = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def no_solution() -> Puzzle:
    """A hard 9x9 puzzle with one more given, wrong: no conflict, no solution, and propagation does
    not find that out, so a GA or tabu search on it runs until its budget ends."""
    puzzle = Puzzle.parse(HARDEST)
    solved = solve(puzzle)
    for cell in np.flatnonzero(~puzzle.givens):
        for value in range(1, 10):
            cells = puzzle.cells.copy()
            cells[cell] = value
            if value == solved.cells[cell] or find_conflicts(puzzle.shape, cells):
                continue
            candidate = Puzzle(cells, box=puzzle.shape)
            if not propagate(candidate).contradiction and count_solutions(candidate) == 0:
                return candidate
    raise AssertionError("no such puzzle")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, nargs="+", default=[0.5, 2.0, 5.0])
    parser.add_argument("--runs", type=int, default=2, help="seeded runs per algorithm and request")
    args = parser.parse_args()
    stuck = no_solution()
    hard = [generate_puzzle(Shape(6, 6), 583, random.Random(0), unique=False)] * args.runs
    print("| algorithm | requested (s) | observed median (s) | observed max (s) | over by, worst | stopped by |")
    print("|---|---:|---:|---:|---:|---|")
    for algorithm in takes("max_seconds"):
        for seconds in args.seconds:
            puzzles = hard if algorithm == "backtracking" else [stuck] * args.runs
            options = {"max_seconds": seconds}
            if algorithm not in ("tabu", "tabu-swap", "backtracking"):
                options["max_generations"] = 10**9
            elif algorithm != "backtracking":
                options["max_steps"] = 10**9
            results = [
                run_task(Task(algorithm, puzzle, seed=seed, options=options)) for seed, puzzle in enumerate(puzzles)
            ]
            observed = [r.seconds for r in results]
            worst = max(observed) - seconds
            reasons = sorted({"solved" if r.solved else r.note.split(" (")[0] for r in results})
            print(
                f"| {algorithm} | {seconds:g} | {statistics.median(observed):.3f} | {max(observed):.3f} | "
                f"{worst:+.3f} s ({100 * worst / seconds:+.1f} %) | {'; '.join(reasons)} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
