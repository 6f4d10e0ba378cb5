"""Regenerate docs/reproductions.md: each documented implementation as documented and with our switches,
as experiments of the public API (``deap_sudoku.experiments.run_experiment``), so a user reruns or
extends them with the same code they compare their own algorithms with.

    python benchmarks/reproductions.py [--runs 20] [--sensitivity-runs 10] [--workers 2]
    python benchmarks/reproductions.py --render   # rewrite the page from the saved summary

Each row is an algorithm record: a bundled name (``block-ga``, ``tabu-swap``, ...) as documented, a
``variant`` of it with our switches or one open parameter changed, or, for the documented exact
baseline, a function made a record with ``from_function``.  A data set of ten puzzles (the bundled
``data/testdata/<level>.txt``) gets runs / 10 seeds per puzzle, a source's own puzzle all the runs.
Runs are kept in ``--results`` as they finish (a killed run of this script, started again, does only
what is missing; delete the file to start over); the page is rendered from
``benchmarks/results/reproductions.json``, one line of facts per run, which this script writes.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import statistics
import sys
import time
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.exact import search
from deap_sudoku.experiments import run_experiment, wilson_interval
from deap_sudoku.io.fileio import write_atomic
from deap_sudoku.propagation import analyze
from deap_sudoku.runs.catalogue import ga_recipes, local_search
from deap_sudoku.runs.registry import Outcome, from_function
from deap_sudoku.runs.user import variant

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = ROOT / "benchmarks" / "results" / "reproductions.json"
DATA = {level: f"testdata/{level}.txt" for level in ("easy", "medium", "hard", "expert")}
DATA |= {"report's puzzle": "sources/report-example.txt", "analyzer's puzzle": "sources/analyzer-example.txt"}
TESTDATA = ("easy", "medium", "hard", "expert")
TABU_STEPS = 30_000  # the documented default is 100,000; failed documented runs would take 20 s each
RECIPES = {
    "block-ga": ga_recipes.block_ga,
    "restart-ga": ga_recipes.block_ga_restart,
    "cell-ga": ga_recipes.cell_ga,
    "row-ga": ga_recipes.row_permutation_ga,
    "tabu": local_search.tabu,
}
EXAMPLES = {
    "block-ga": "block_ga",
    "restart-ga": "block_ga_restart",
    "cell-ga": "cell_ga",
    "row-ga": "row_permutation_ga",
    "tabu": "tabu_search",
    "tabu-swap": "tabu_search",
    "exact": "exact_baselines",
    "exact+propagation": "exact_baselines",
    "memetic": "memetic",
}
"""The example script that writes each row's composition out in full."""


def exact_baseline(puzzle, *, rng, propagation: bool = False) -> Outcome:
    """Sources 002 and 004 as ``examples/exact_baselines.py`` runs them: the constraint analyzer, then
    MRV backtracking for up to two solutions (a uniqueness check), with hidden singles and box-line
    reduction at every node when ``propagation``; ``steps`` counts search nodes."""
    analyze(puzzle)
    result = search(puzzle, limit=2, hidden_singles=propagation, locked_candidates=propagation)
    grid = result.solutions[0].cells if result.solutions else puzzle.cells
    return Outcome(grid, 0.0 if result.solutions else float("nan"), 0, result.nodes, 0, f"{result.count} solutions")


def _exact_ours(puzzle, *, rng) -> Outcome:
    return exact_baseline(puzzle, rng=rng, propagation=True)


TABU = {"max_steps": TABU_STEPS}
# (source, mode, algorithm: a name or a record, its options, data sets)
COMPARISON = [
    ("C++ block GA", "documented", "block-ga", {}, TESTDATA),
    (
        "C++ block GA",
        "ours",
        variant("block-ga", name="block-ga ours", mutation_threshold=0, in_box_pairs=True, init="smart"),
        {},
        TESTDATA,
    ),
    ("Python block GA, restarts", "documented", "restart-ga", {}, TESTDATA[:3]),
    (
        "Python block GA, restarts",
        "ours",
        variant("restart-ga", name="restart-ga ours", normalised_roulette=True, restart_after=100),
        {},
        TESTDATA[:3],
    ),
    ("report's cell GA", "documented", "cell-ga", {}, ("report's puzzle",)),
    (
        "report's cell GA",
        "ours",
        variant("cell-ga", name="cell-ga ours", free_cells_only=True),
        {},
        ("report's puzzle",),
    ),
    ("report's row GA", "documented", "row-ga", {}, ("report's puzzle", "easy")),
    (
        "report's row GA",
        "ours",
        variant("row-ga", name="row-ga ours", restrict=True),
        {},
        ("report's puzzle", "easy"),
    ),
    ("alldifferent tabu search", "documented", "tabu", TABU, ("analyzer's puzzle",) + TESTDATA),
    ("alldifferent tabu search", "ours", "tabu-swap", TABU, ("analyzer's puzzle",) + TESTDATA),
    (
        "backtracking, analyzer",
        "documented",
        from_function(exact_baseline, name="exact", kind="exact"),
        {},
        ("analyzer's puzzle", "report's puzzle") + TESTDATA,
    ),
    (
        "backtracking, analyzer",
        "ours",
        from_function(_exact_ours, name="exact+propagation", kind="exact"),
        {},
        ("analyzer's puzzle", "report's puzzle") + TESTDATA,
    ),
    ("reference", "ours", "memetic", {}, ("analyzer's puzzle", "report's puzzle") + TESTDATA),
]

# (algorithm, data set, parameter the source leaves open, values tried beside the default)
SENSITIVITY = [
    ("block-ga", "easy", "population_size", (50, 800)),
    ("block-ga", "easy", "keep", (0.2, 0.8)),
    ("block-ga", "easy", "mutpb", (0.1, 1.0)),
    ("block-ga", "easy", "init", ("smart",)),
    ("restart-ga", "easy", "population_size", (100, 400)),
    ("restart-ga", "easy", "restart_every", (100, 2000)),
    ("restart-ga", "easy", "mutpb", (0.5,)),
    ("cell-ga", "report's puzzle", "population_size", (50, 400)),
    ("cell-ga", "report's puzzle", "amount", (1, 5)),
    ("row-ga", "report's puzzle", "population_size", (50, 800)),
    ("row-ga", "report's puzzle", "elites", (0, 50)),
    ("row-ga", "report's puzzle", "tournsize", (2, 5)),
    ("row-ga", "report's puzzle", "indpb", (0.05, 0.3)),
    ("tabu", "hard", "candidates", (20, 500)),
]


def _name(algorithm) -> str:
    return algorithm if isinstance(algorithm, str) else algorithm.name


def default(base: str, parameter: str):
    """The recipe's default of ``parameter``: the documented value, or our choice where the source is silent."""
    return inspect.signature(RECIPES[base]).parameters[parameter].default


def sensitivity_arms() -> list[tuple]:
    """(base, data set, parameter, value, record, options) of every value tried beside a default."""
    return [
        (
            base,
            data,
            parameter,
            value,
            variant(base, name=f"{base} {parameter}={value}", **{parameter: value}),
            TABU if base == "tabu" else {},
        )
        for base, data, parameter, values in SENSITIVITY
        for value in values
    ]


def experiments(runs: int, sensitivity_runs: int) -> list[tuple[str, list, dict, int]]:
    """The experiments to run, one per data set and number of runs: (data set, algorithms, their
    options by name, seeds per puzzle)."""
    arms: dict[tuple[str, int], tuple[list, dict]] = {}
    for _, _, algorithm, options, datasets in COMPARISON:
        for data in datasets:
            names, given = arms.setdefault((data, runs), ([], {}))
            names.append(algorithm)
            given[_name(algorithm)] = options
    for _, data, _, _, record, options in sensitivity_arms():
        names, given = arms.setdefault((data, sensitivity_runs), ([], {}))
        names.append(record)
        given[record.name] = options
    planned = []
    for (data, count), (names, given) in arms.items():
        puzzles = len(read(ROOT / "data" / DATA[data]))
        if count % puzzles:
            raise SystemExit(f"--runs and --sensitivity-runs must be multiples of {puzzles}, the puzzles of {data}")
        planned.append((data, names, given, count // puzzles))
    return planned


def facts(result) -> dict:
    """What the page needs of one run."""
    return dict(
        algorithm=result.algorithm,
        data=result.dataset,
        index=result.index,
        seed=result.seed,
        solved=result.solved,
        generations=result.generations,
        steps=result.steps,
        seconds=round(result.seconds, 4),
        note=result.note,
        error=result.error,
    )


def _rate(mine: list[dict]) -> str:
    solved = sum(r["solved"] for r in mine)
    low, high = wilson_interval(solved, len(mine))
    return f"{solved}/{len(mine)} | {100 * low:.0f}-{100 * high:.0f} %"


def _median(values: list[float], digits: int = 0) -> str:
    return f"{statistics.median(values):.{digits}f}" if values else "-"


def _cost(example: str, run: dict) -> int:
    """Generations (GAs), tabu steps or search nodes (exact): what "median to solve" counts."""
    return run["generations"] if example not in ("tabu_search", "exact_baselines") else run["steps"]


def _unit(example: str) -> str:
    return {"tabu_search": "steps", "exact_baselines": "nodes"}.get(example, "gen.")


def _row(results: list[dict], name: str, data: str, seeds: int | None = None) -> tuple[str, str, str]:
    mine = [r for r in results if r["algorithm"] == name and r["data"] == data and (seeds is None or r["seed"] < seeds)]
    example = EXAMPLES[name.split(" ")[0]]
    solved = [_cost(example, r) for r in mine if r["solved"]]
    to_solve = f"{_median(solved)} {_unit(example)}" if solved else "-"
    return _rate(mine), to_solve, _median([r["seconds"] for r in mine], 3)


def comparison_table(results: list[dict]) -> str:
    rows = [
        "| source | `-a` / example | mode | data | solved | 95 % interval | median to solve | median s |",
        "|---|---|---|---|---:|---:|---:|---:|",
    ]
    for source, mode, algorithm, _, datasets in COMPARISON:
        name = _name(algorithm)
        shown = f"`{name}`" if " " not in name else f"`{name.split()[0]}` + switches"
        if name.startswith("exact"):
            shown = "`exact_baselines.py" + (" --propagation`" if "propagation" in name else "`")
        for data in datasets:
            rate, to_solve, seconds = _row(results, name, data)
            rows.append(f"| {source} | {shown} | {mode} | {data} | {rate} | {to_solve} | {seconds} |")
    return "\n".join(rows)


def sensitivity_table(results: list[dict], document: dict) -> str:
    """Each value tried beside the default; the default's row is the first seeds of the comparison's runs."""
    rows = [
        "| `-a` | data | parameter | value | solved | 95 % interval | median to solve | median s |",
        "|---|---|---|---|---:|---:|---:|---:|",
    ]
    for base, data, parameter, values in SENSITIVITY:
        seeds = document["sensitivity_runs"] // document["puzzles"][data]
        for value in (default(base, parameter), *values):
            name = base if value == default(base, parameter) else f"{base} {parameter}={value}"
            label = f"{value} (default)" if name == base else str(value)
            rate, to_solve, seconds = _row(results, name, data, seeds if name == base else None)
            rows.append(f"| `{base}` | {data} | `{parameter}` | {label} | {rate} | {to_solve} | {seconds} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--sensitivity-runs", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--results",
        type=Path,
        default=ROOT / "benchmarks" / "results" / "reproductions.jsonl",
        help="keep every run here as it finishes; a rerun does what is missing",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "reproductions.md")
    parser.add_argument("--render", action="store_true", help="Write the page from the saved summary, run nothing.")
    args = parser.parse_args()
    if args.render:
        render(args.out, json.loads(SUMMARY.read_text()))
        return
    planned = experiments(args.runs, args.sensitivity_runs)
    total = sum(len(names) * count * len(read(ROOT / "data" / DATA[data])) for data, names, _, count in planned)
    started, results, before = time.perf_counter(), [], 0

    def progress(done: int, _: int) -> None:
        elapsed = time.perf_counter() - started
        print(f"\r{before + done}/{total} runs, {elapsed:.0f} s", end="", file=sys.stderr, flush=True)

    for data, names, options, seeds in planned:
        puzzles = read(ROOT / "data" / DATA[data])
        results += run_experiment(
            names,
            {data: puzzles},
            runs=seeds,
            options=options,
            results=args.results,
            workers=args.workers,
            progress=progress,
        )
        before = len(results)
    print(file=sys.stderr)
    document = dict(
        runs=args.runs,
        sensitivity_runs=args.sensitivity_runs,
        workers=args.workers,
        compute_seconds=round(sum(r.seconds for r in results)),
        puzzles={data: len(read(ROOT / "data" / path)) for data, path in DATA.items()},
        results=[facts(r) for r in results],
    )
    write_atomic(SUMMARY, json.dumps(document, indent=None).replace("}, {", "},\n {") + "\n", overwrite=True)
    render(args.out, document)
    print(comparison_table(document["results"]))
    print(sensitivity_table(document["results"], document))


def render(out: Path, document: dict) -> None:
    """Fill the template's placeholders with the tables and the run's facts and write the page."""
    results = document["results"]
    text = (ROOT / "benchmarks" / "reproductions_template.md").read_text()
    for key, value in (
        ("COMPARISON", comparison_table(results)),
        ("SENSITIVITY", sensitivity_table(results, document)),
        ("RUNS", str(document["runs"])),
        ("SENSITIVITY_RUNS", str(document["sensitivity_runs"])),
        ("WORKERS", str(document["workers"])),
        ("SECONDS", f"{document['compute_seconds']:,}"),
        ("TABU_STEPS", f"{TABU_STEPS:,}"),
    ):
        text = text.replace("{{" + key + "}}", value)
    text = re.sub(r"\{\{(solved|median) ([^|}]+)\|([^}]+)\}\}", lambda m: figure(results, *m.groups()), text)
    if "{{" in text:
        raise SystemExit(f"the template has a placeholder this script does not fill: {text[text.index('{{') :][:60]}")
    write_atomic(out, text, overwrite=True)


def figure(results: list[dict], kind: str, name: str, data: str) -> str:
    """A figure the text quotes: ``{{solved block-ga ours|easy}}`` is "11 of 20",
    ``{{median tabu|hard}}`` the median steps (generations, nodes) of the solved runs."""
    mine = [r for r in results if r["algorithm"] == name and r["data"] == data]
    if not mine:
        raise SystemExit(f"the template quotes {name} on {data}, which no run measured")
    if kind == "solved":
        return f"{sum(r['solved'] for r in mine)} of {len(mine)}"
    example = EXAMPLES[name.split(" ")[0]]
    return _median([_cost(example, r) for r in mine if r["solved"]])


if __name__ == "__main__":
    main()
