"""Regenerate docs/reproductions.md: every example, 20 seeded runs per difficulty on data/testdata.

    python benchmarks/reproductions.py [--runs 20] [--workers 2]

Run i of a difficulty uses puzzle i mod 10 of data/testdata/<difficulty>.txt and
seed i. Each example runs with its own defaults (the budgets in its main()).
"""

from __future__ import annotations

import argparse
import multiprocessing
import runpy
import statistics
import time
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.io.fileio import write_atomic
from deap_sudoku.exact import verify

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ("easy", "medium", "hard", "expert")
EXAMPLES = ("block_ga", "block_ga_restart", "cell_ga", "row_permutation_ga", "deap_primitives", "tabu_search",
            "exact_baselines")


def one_run(task: tuple[str, str, int]) -> tuple[str, str, bool, int, int, float]:
    name, level, run = task
    puzzles = read(ROOT / "data" / "testdata" / f"{level}.txt")
    puzzle = puzzles[run % len(puzzles)]
    main = runpy.run_path(str(ROOT / "examples" / f"{name}.py"))["main"]
    options = {} if name == "exact_baselines" else {"seed": run}
    start = time.perf_counter()
    population, logbook, hof = main(puzzle, verbose=False, **options)
    seconds = time.perf_counter() - start
    solved = bool(len(hof)) and verify(hof[0], puzzle)
    if "nevals" in logbook[-1]:
        generations = logbook[-1]["gen"]
        evaluations = sum(logbook.select("nevals"))
    else:  # tabu: steps; exact: search nodes
        generations = logbook[-1].get("steps", logbook[-1].get("nodes", 0))
        evaluations = generations
    return name, level, solved, generations, evaluations, seconds


def quartiles(values: list[float]) -> str:
    if len(values) < 2:
        return "-"
    q = statistics.quantiles(values, n=4, method="inclusive")
    return f"{q[0]:.0f}-{q[2]:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "reproductions.md")
    args = parser.parse_args()
    tasks = [(name, level, run) for name in EXAMPLES for level in LEVELS for run in range(args.runs)]
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(one_run, tasks, chunksize=1)
    total = time.perf_counter() - started
    rows = ["| example | difficulty | solved | generations median (IQR) | evaluations median (IQR) | median s |",
            "|---|---|---:|---:|---:|---:|"]
    for name in EXAMPLES:
        for level in LEVELS:
            mine = [r for r in results if r[0] == name and r[1] == level]
            generations = [r[3] for r in mine]
            evaluations = [r[4] for r in mine]
            rows.append(f"| {name} | {level} | {sum(r[2] for r in mine)}/{len(mine)} | "
                        f"{statistics.median(generations):.0f} ({quartiles(generations)}) | "
                        f"{statistics.median(evaluations):.0f} ({quartiles(evaluations)}) | "
                        f"{statistics.median(r[5] for r in mine):.3f} |")
    text = (ROOT / "benchmarks" / "reproductions_template.md").read_text()
    text = text.replace("{{TABLE}}", "\n".join(rows)).replace("{{RUNS}}", str(args.runs))
    text = text.replace("{{SECONDS}}", f"{total:.0f}").replace("{{WORKERS}}", str(args.workers))
    write_atomic(args.out, text, overwrite=True)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
