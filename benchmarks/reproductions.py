"""Regenerate docs/reproductions.md: each documented implementation as documented and with our switches.

    python benchmarks/reproductions.py [--runs 20] [--sensitivity-runs 10] [--workers 2]
    python benchmarks/reproductions.py --render   # rewrite the page from the saved results
    python benchmarks/reproductions.py --only cell_ga   # rerun one example's rows, keep the others saved

Run i of a row uses puzzle i mod 10 of its data set (the bundled
``data/testdata/<level>.txt``; a source's own puzzle is one puzzle) and seed i.
Each example's ``main`` runs with its defaults (as documented) or with the
options the row names; "solved" is checked with ``verify``.  The rule tables
and the text live in ``benchmarks/reproductions_template.md``; this script
fills in the measured tables and writes ``benchmarks/results/reproductions.json``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import runpy
import statistics
import time
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.exact import verify
from deap_sudoku.io.fileio import write_atomic
from deap_sudoku.runs.bench import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
DATA = {level: f"testdata/{level}.txt" for level in ("easy", "medium", "hard", "expert")}
DATA |= {"report's puzzle": "sources/report-example.txt", "analyzer's puzzle": "sources/analyzer-example.txt"}
TESTDATA = ("easy", "medium", "hard", "expert")
TABU_STEPS = 30_000  # the examples' default is 100,000; failed documented runs would take 20 s each

# (source, example, mode, options, data sets): the documented mode runs main()'s defaults
COMPARISON = [
    ("000 C++ block GA", "block_ga", "documented", {}, TESTDATA),
    ("000 C++ block GA", "block_ga", "ours", dict(mutation_threshold=0, in_box_pairs=True, init="smart"), TESTDATA),
    ("003 Python block GA", "block_ga_restart", "documented", {}, TESTDATA[:3]),
    ("003 Python block GA", "block_ga_restart", "ours", dict(normalised_roulette=True, restart_on_stall=100),
     TESTDATA[:3]),
    ("001 Implementation 1", "cell_ga", "documented", {}, ("report's puzzle",)),
    ("001 Implementation 1", "cell_ga", "ours", dict(free_cells_only=True), ("report's puzzle",)),
    ("001 Implementation 2", "row_permutation_ga", "documented", {}, ("report's puzzle", "easy")),
    ("001 Implementation 2", "row_permutation_ga", "ours", dict(restrict=True), ("report's puzzle", "easy")),
    ("004 tabu search", "tabu_search", "documented", dict(max_steps=TABU_STEPS), ("analyzer's puzzle",) + TESTDATA),
    ("004 tabu search", "tabu_search", "ours", dict(max_steps=TABU_STEPS, moves="swap", memory="cells", restrict=True),
     ("analyzer's puzzle",) + TESTDATA),
    ("002/004 exact", "exact_baselines", "documented", {}, ("analyzer's puzzle", "report's puzzle") + TESTDATA),
    ("002/004 exact", "exact_baselines", "ours", dict(propagation=True), ("analyzer's puzzle", "report's puzzle")
     + TESTDATA),
    ("reference", "memetic", "ours", {}, ("analyzer's puzzle", "report's puzzle") + TESTDATA),
]

# (example, data set, parameter the source leaves open, values tried beside the default)
SENSITIVITY = [
    ("block_ga", "easy", "population_size", (50, 800)),
    ("block_ga", "easy", "keeping_percentage", (0.2, 0.8)),
    ("block_ga", "easy", "mutpb", (0.1, 1.0)),
    ("block_ga", "easy", "init", ("smart",)),
    ("block_ga_restart", "easy", "population_size", (100, 400)),
    ("block_ga_restart", "easy", "restart_every", (100, 2000)),
    ("block_ga_restart", "easy", "mutpb", (0.5,)),
    ("cell_ga", "report's puzzle", "population_size", (50, 400)),
    ("cell_ga", "report's puzzle", "mutation_amount", (1, 5)),
    ("row_permutation_ga", "report's puzzle", "population_size", (50, 800)),
    ("row_permutation_ga", "report's puzzle", "elites_size", (0, 50)),
    ("row_permutation_ga", "report's puzzle", "k", (2, 5)),
    ("row_permutation_ga", "report's puzzle", "mutation_rate", (0.05, 0.3)),
    ("tabu_search", "hard", "candidates", (20, 500)),
]
SENSITIVITY_BASE = {"tabu_search": dict(max_steps=TABU_STEPS)}


def one_run(task: tuple[str, str, dict, int]) -> dict:
    example, data, options, run = task
    puzzles = read(ROOT / "data" / DATA[data])
    puzzle = puzzles[run % len(puzzles)]
    main = runpy.run_path(str(ROOT / "examples" / f"{example}.py"))["main"]
    seeded = dict(options) if example == "exact_baselines" else dict(options, seed=run)
    start = time.perf_counter()
    population, logbook, hof = main(puzzle, verbose=False, **seeded)
    seconds = time.perf_counter() - start
    last = logbook[-1]
    steps = last.get("gen", last.get("steps", last.get("nodes", 0)))  # generations, tabu steps or search nodes
    return dict(example=example, data=data, options=options, run=run, seconds=seconds, steps=int(steps),
                solved=bool(len(hof)) and verify(hof[0], puzzle), stop=getattr(logbook, "stop_reason", ""))


def _rate(results: list[dict]) -> str:
    solved = sum(r["solved"] for r in results)
    low, high = wilson_interval(solved, len(results))
    return f"{solved}/{len(results)} | {100 * low:.0f}-{100 * high:.0f} %"


def _median(values: list[float], digits: int = 0) -> str:
    return f"{statistics.median(values):.{digits}f}" if values else "-"


def _unit(example: str) -> str:
    return {"tabu_search": "steps", "exact_baselines": "nodes"}.get(example, "gen.")


def comparison_table(results: list[dict]) -> str:
    rows = ["| source | example | mode | data | solved | 95 % interval | median to solve | median s |",
            "|---|---|---|---|---:|---:|---:|---:|"]
    for source, example, mode, options, datasets in COMPARISON:
        for data in datasets:
            mine = [r for r in results if r["example"] == example and r["options"] == options and r["data"] == data]
            solved = [r["steps"] for r in mine if r["solved"]]
            rows.append(f"| {source} | `{example}` | {mode} | {data} | {_rate(mine)} | "
                        f"{_to_solve(example, solved)} | {_median([r['seconds'] for r in mine], 3)} |")
    return "\n".join(rows)


def _to_solve(example: str, solved: list[int]) -> str:
    return f"{_median(solved)} {_unit(example)}" if solved else "-"


def sensitivity_table(results: list[dict], runs: int) -> str:
    """Each value tried beside the default; the default's row is the first ``runs`` runs of the comparison."""
    rows = ["| example | data | parameter | value | solved | 95 % interval | median to solve | median s |",
            "|---|---|---|---|---:|---:|---:|---:|"]
    for example, data, name, values in SENSITIVITY:
        base = SENSITIVITY_BASE.get(example, {})
        default = runpy.run_path(str(ROOT / "examples" / f"{example}.py"))["main"].__kwdefaults__[name]
        for value in (default, *values):
            options = base if value == default else dict(base, **{name: value})
            mine = [r for r in results if r["example"] == example and r["options"] == options and r["data"] == data
                    and r["run"] < runs]
            solved = [r["steps"] for r in mine if r["solved"]]
            label = f"{value} (default)" if value == default else str(value)
            rows.append(f"| `{example}` | {data} | `{name}` | {label} | {_rate(mine)} | "
                        f"{_to_solve(example, solved)} | {_median([r['seconds'] for r in mine], 3)} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--sensitivity-runs", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "reproductions.md")
    parser.add_argument("--render", action="store_true", help="Write the page from the saved results, run nothing.")
    parser.add_argument("--only", metavar="EXAMPLE", help="Rerun this example's rows; keep the saved others.")
    args = parser.parse_args()
    saved = ROOT / "benchmarks" / "results" / "reproductions.json"
    if args.render:
        document = json.loads(saved.read_text())
        render(args.out, document)
        return
    tasks = [(example, data, options, run) for _, example, _, options, datasets in COMPARISON
             for data in datasets for run in range(args.runs)]
    tweaks = [(example, data, dict(SENSITIVITY_BASE.get(example, {}), **{name: value}), run)
              for example, data, name, values in SENSITIVITY for value in values
              for run in range(args.sensitivity_runs)]
    if args.only:
        tasks = [task for task in tasks + tweaks if task[0] == args.only]
        tweaks = []
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(one_run, tasks + tweaks, chunksize=1)
    seconds = round(time.perf_counter() - started)
    document = dict(runs=args.runs, sensitivity_runs=args.sensitivity_runs, workers=args.workers, seconds=seconds,
                    reruns={}, results=results)
    if args.only:
        document = json.loads(saved.read_text())
        document["results"] = [r for r in document["results"] if r["example"] != args.only] + results
        document.setdefault("reruns", {})[args.only] = seconds
    write_atomic(saved, json.dumps(document, indent=1) + "\n", overwrite=True)
    render(args.out, document)
    print(comparison_table(document["results"]))
    print(sensitivity_table(document["results"], document["sensitivity_runs"]))


def render(out: Path, document: dict) -> None:
    """Fill the template's placeholders with the tables and the run's facts and write the page."""
    results = document["results"]
    reruns = "".join(f" The rows of `{example}` were rerun alone afterwards ({seconds} s)."
                     for example, seconds in document.get("reruns", {}).items())
    text = (ROOT / "benchmarks" / "reproductions_template.md").read_text()
    for key, value in (("COMPARISON", comparison_table(results)),
                       ("SENSITIVITY", sensitivity_table(results, document["sensitivity_runs"])),
                       ("RUNS", str(document["runs"])), ("SENSITIVITY_RUNS", str(document["sensitivity_runs"])),
                       ("WORKERS", str(document["workers"])), ("SECONDS", str(document["seconds"])),
                       ("RERUNS", reruns), ("TABU_STEPS", f"{TABU_STEPS:,}")):
        text = text.replace("{{" + key + "}}", value)
    write_atomic(out, text, overwrite=True)


if __name__ == "__main__":
    main()
