"""Every bundled algorithm on the same sets, seeds and budgets, through ``run_experiment``: the
table of ``docs/literature.md``.

    pip install -e ".[plot,stats,ioh]"
    python benchmarks/literature_table.py [--data ../shared/data] [--instances 5] [--runs 2]
        [--max-seconds 5] [--max-evaluations 200000] [--results benchmarks/results/literature.jsonl]
        [--figures docs/img/literature] [--ioh benchmarks/results/literature_ioh] [--workers 2]
        [--json benchmarks/results/literature.json]

The sets: Lloyd & Amos's general instances at 9x9, 16x16 and 25x25 with 40, 45 and 50 % givens
(the first ``--instances`` of each share, in instance order), tdoku's forum_hardest_1106 and
Norvig's top95 (their first ``--instances``).  Each algorithm has ``--max-seconds`` of wall time
per run, and the population methods (the GAs and the ant colony) also ``--max-evaluations``; run
``r`` of each puzzle has seed ``r``.  Runs are kept in ``--results`` as they finish (a rerun of the
same command goes on from them).

Printed (Markdown): a matrix of runs solved per algorithm and set, the summary per set (solve
rate with its Wilson interval, ERT, medians) and the pairwise tests of every algorithm against the
memetic GA (Fisher's exact test on the solve counts, log-rank on the time to solve).  Written: a
run-time ECDF per set (``--figures``), an IOHprofiler export of the runs that trace fitness against
evaluations (``--ioh``), and the summary, the tests and every run (without its grid and trace,
which the results file keeps) as JSON (``--json``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.io import write_atomic
from deap_sudoku.experiments import provenance
from deap_sudoku.experiments import compare, comparison_table, report_json, run_experiment, summarise, summary_table
from deap_sudoku.experiments.iohprofiler import export_iohprofiler
from deap_sudoku.experiments.plots import plot_ecdf
from deap_sudoku.runs import ALGORITHMS

SHARES = (40, 45, 50)
POPULATION_KINDS = ("ga", "colony")
"""The population methods, which also get the evaluation budget (a local search's evaluations are
moves scored, hundreds of thousands a second: the wall time is its budget)."""
SIZES = ("9x9", "16x16", "25x25")


def datasets(data: Path, instances: int) -> dict[str, list]:
    """The sets, each its first ``instances`` puzzles."""
    found = {}
    for size in SIZES:
        for share in SHARES:
            files = sorted(
                (data / "lloyd_amos_aco" / "general").glob(f"inst{size}_{share}_*.txt"),
                key=lambda p: int(p.stem.rsplit("_", 1)[1]),
            )[:instances]
            found[f"lloyd-amos {size} {share}%"] = [read(path)[0] for path in files]
    found["forum_hardest_1106"] = read(data / "tdoku_data" / "forum_hardest_1106.txt")[:instances]
    found["top95"] = read(data / "norvig_pytudes" / "top95.txt")[:instances]
    if not all(found.values()):
        raise SystemExit(f"{data}: no puzzles for {[name for name, puzzles in found.items() if not puzzles]}")
    return found


def matrix(rows: list[dict], sets: list[str]) -> str:
    """The summary as one line per algorithm and one column per set: the runs it solved of those it
    made (the summary table has the times)."""
    names = list(dict.fromkeys(row["algorithm"] for row in rows))
    cell = {(row["algorithm"], row["dataset"]): row for row in rows}
    headers = [name.removeprefix("lloyd-amos ").replace("_", " ") for name in sets]
    lines = ["| algorithm | " + " | ".join(headers) + " |", "|---|" + "---:|" * len(sets)]
    for name in names:
        entries = [
            f"{cell[name, dataset]['solved']}/{cell[name, dataset]['runs']}" if (name, dataset) in cell else "-"
            for dataset in sets
        ]
        lines.append(f"| `{name}` | " + " | ".join(entries) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    parser.add_argument("--instances", type=int, default=5)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=5.0)
    parser.add_argument("--max-evaluations", type=int, default=200_000)
    parser.add_argument("--results", type=Path, default=Path("benchmarks/results/literature.jsonl"))
    parser.add_argument("--figures", type=Path, default=Path("docs/img/literature"))
    parser.add_argument("--ioh", type=Path, default=Path("benchmarks/results/literature_ioh"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=Path("benchmarks/results/literature.json"))
    args = parser.parse_args()
    sets = datasets(args.data, args.instances)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    options = {}
    for name, record in ALGORITHMS.items():
        options[name] = {"max_seconds": args.max_seconds} if "max_seconds" in record.options else {}
        if record.kind in POPULATION_KINDS and "max_evaluations" in record.options:
            options[name]["max_evaluations"] = args.max_evaluations

    def progress(done: int, total: int) -> None:
        print(f"\r{done}/{total} runs", end="", file=sys.stderr, flush=True)

    results = run_experiment(
        list(ALGORITHMS),
        sets,
        runs=args.runs,
        options=options,
        results=args.results,
        workers=args.workers,
        progress=progress,
    )
    print(file=sys.stderr)
    rows = summarise(results)
    print(matrix(rows, list(sets)))
    print()
    print(summary_table(rows))
    print()
    comparison = compare(results, "memetic")
    print(comparison_table(comparison))
    document = report_json(rows, results, comparison=comparison, provenance=provenance(seed=0))
    write_atomic(args.json, document, overwrite=True)
    args.figures.mkdir(parents=True, exist_ok=True)
    for name in sets:
        mine = [result for result in results if result.dataset == name]
        slug = name.replace(" ", "_").replace("%", "")
        plot_ecdf(mine, str(args.figures / f"ecdf_{slug}.png"), title=name, overwrite=True, measure="seconds")
    for line in export_iohprofiler(results, args.ioh, replace=True):
        print(line, file=sys.stderr)


if __name__ == "__main__":
    main()
