"""Lewis's easy-hard-easy claim for his simulated annealing: the solve rate over the share of givens.

    python benchmarks/annealing_phase_transition.py --size 9x9 [--shares 0,5,...,100] [--instances 5]
        [--runs 2] [--max-seconds 2] [-a sa-lewis -a sa-lewis-cp]

R. Lewis ("Metaheuristics can solve sudoku puzzles", J. Heuristics 13(4), 2007) reports, in its
abstract, an "easy-hard-easy" phase transition for his SA over generated instances.  This runs the
bundled ``sa-lewis`` (and any other ``-a``) through the public experiment API,
:func:`deap_sudoku.experiments.run_experiment`, on the Lloyd & Amos general instances
(``../shared/data/lloyd_amos_aco/general/inst<size>_<share>_<n>.txt``, read in place), the
``--instances`` lowest-numbered instances of each share, ``--runs`` seeds each, a seconds budget per
run, and a move budget (``--max-steps``) by default far beyond it: a default of 10 M moves once ended
the low-share runs of 16x16 and up before their seconds did.
Each size's table is printed and kept in ``benchmarks/results/annealing_phase_transition.json`` (other
sizes already there are kept), with the command that made it.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

from deap_sudoku.experiments.provenance import provenance
from deap_sudoku.experiments import run_experiment
from deap_sudoku.io import read

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "lloyd_amos_aco" / "general"
RESULTS = ROOT / "benchmarks" / "results" / "annealing_phase_transition.json"


def datasets(size: str, shares: list[int], instances: int) -> dict[str, list]:
    """Each share's ``instances`` lowest-numbered puzzles (the set skips some numbers), by the share's
    name (``9x9 45 %``)."""

    def paths(share: int) -> list[Path]:
        found = sorted(DATA.glob(f"inst{size}_{share}_*.txt"), key=lambda path: int(path.stem.rsplit("_", 1)[1]))
        return found[:instances]

    return {f"{size} {share} %": [read(path)[0] for path in paths(share)] for share in shares}


def summary(results, shares: list[int], size: str) -> list[dict]:
    rows = []
    for name in dict.fromkeys(r.algorithm for r in results):
        for share in shares:
            runs = [r for r in results if r.algorithm == name and r.dataset == f"{size} {share} %"]
            solved = [r for r in runs if r.solved]
            rows.append(
                dict(
                    algorithm=name,
                    size=size,
                    share=share,
                    runs=len(runs),
                    solved=len(solved),
                    median_seconds_solved=statistics.median(r.seconds for r in solved) if solved else None,
                    median_moves_solved=statistics.median(r.steps for r in solved) if solved else None,
                    median_seconds_all=statistics.median(r.seconds for r in runs),
                )
            )
    return rows


def table(rows: list[dict]) -> str:
    lines = [
        "| algorithm | size | givens % | solved | median s (solved) | median moves (solved) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        seconds, moves = row["median_seconds_solved"], row["median_moves_solved"]
        lines.append(
            f"| {row['algorithm']} | {row['size']} | {row['share']} | {row['solved']}/{row['runs']} | "
            f"{'-' if seconds is None else f'{seconds:.3f}'} | {'-' if moves is None else f'{moves:,.0f}'} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="9x9", choices=["9x9", "16x16", "25x25"])
    parser.add_argument("--shares", default=",".join(str(s) for s in range(0, 101, 5)))
    parser.add_argument("--instances", type=int, default=5)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=2.0)
    parser.add_argument("--max-steps", type=int, default=10**12, help="moves; far more than the seconds allow")
    parser.add_argument("-a", "--algorithm", action="append", default=None)
    args = parser.parse_args()
    shares = [int(s) for s in args.shares.split(",")]
    algorithms = args.algorithm or ["sa-lewis"]
    start = time.perf_counter()
    results = run_experiment(
        algorithms,
        datasets(args.size, shares, args.instances),
        runs=args.runs,
        options={name: dict(max_seconds=args.max_seconds, max_steps=args.max_steps) for name in algorithms},
        progress=lambda done, total: print(f"{done}/{total}", file=sys.stderr, flush=True),
    )
    rows = summary(results, shares, args.size)
    print(table(rows))
    saved = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    saved[args.size] = dict(
        command="python " + shlex.join(["benchmarks/annealing_phase_transition.py", *sys.argv[1:]]),
        seconds=round(time.perf_counter() - start, 1),
        provenance={**provenance(seed=0), "load_after": list(os.getloadavg())},
        rows=rows,
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
