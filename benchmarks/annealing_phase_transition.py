"""Lewis's §3.3 protocol for his simulated annealing, scaled to a shared machine: the success rate over p.

    python benchmarks/annealing_phase_transition.py --order 3 [--shares 0,5,...,100] [--instances 3]
        [--trials 2] [--scale 1] [--workers 2] [--source lewis]

R. Lewis, "Metaheuristics can solve Sudoku puzzles" (J. Heuristics 13(4), 2007; sections and pages
of the author's preprint, see docs/literature.md), §3.3: for p = 0 to 1 in steps of 0.05, twenty
instances, twenty trials each, limits of 5, 30 and 350 s for orders 3, 4 and 5; success rate, and
the mean time of the solved runs.  His instances (§3.2): a full grid (from the root solution of §1,
his SA on a blank grid, or a newspaper's; he reports equivalent results for all three, p. 8),
shuffled by permuting bands, stacks, rows within a band and columns within a stack (no relabelling
of the values), then each cell removed with probability exactly 1 - p.  ``--source lewis`` (the
default) makes them so, from the root solution; ``--source lloyd-amos`` reads Lloyd & Amos's general
instances instead (``../shared/data/lloyd_amos_aco/general``: ceil(p * cells) givens exactly, where
his are binomial).

The limits are moves, not seconds, so that a loaded machine changes the seconds and not the
outcome: his limit times the rate his own figure 3 shows (an order-4 run solved at about 8,400
thousand iterations in "approximately 8 seconds": :data:`HIS_MOVES_PER_SECOND`), times ``--scale``.
A wall-clock guard (``--guard-rate``, far slower than this machine) only ends a run that stalls.
Runs go through :func:`deap_sudoku.experiments.run_experiment`, are kept as they finish in a
journal (``--journal``, by default in the temporary folder: a stopped sweep resumes where it was
when the same command runs again), and each order's table beside his figure's values, with every
run's outcome and the provenance, is written to ``benchmarks/results/annealing_phase_transition.json``
(other keys kept).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path


from deap_sudoku.experiments import run_experiment
from deap_sudoku.experiments.provenance import provenance
from deap_sudoku.experiments.summary import wilson_interval
from deap_sudoku.grid.puzzle import Puzzle
from deap_sudoku.io import read

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "lloyd_amos_aco" / "general"
RESULTS = ROOT / "benchmarks" / "results" / "annealing_phase_transition.json"
JOURNALS = Path(tempfile.gettempdir()) / "deap_sudoku_annealing_phase_transition"

HIS_LIMITS = {3: 5.0, 4: 30.0, 5: 350.0}
"""§3.3: "time limits of 5, 30 and 350 seconds" for orders 3, 4 and 5."""
HIS_MOVES_PER_SECOND = 1.05e6
"""His machine's moves per second, read off his figure 3 (§3.1, p. 6): the order-4 run's solution at
about 8,400 (x1000) iterations, "approximately 8 seconds"."""
_PS = [round(0.05 * i, 2) for i in range(21)]
HIS_FIGURES = {
    # p: (success rate %, mean solution time of the solved runs, s), read by eye off figures 4, 5 and 6
    # (p. 8; a rate to about 2 %, a time to about half a tick); the text (p. 9) gives order 3 "a 100%
    # success rate for all of the trials", order 4 "a dip ... between values p = 0.3 and 0.55",
    # order 5 "as low as 30% at p = 0.45".
    3: dict(zip(_PS, [(100, t) for t in (1.36, 1.27, 1.14, 1.02, 0.97, 0.84, 0.75, 0.63, 0.50, 0.40, 0.26,
                                         0.19, 0.09, 0.06, 0.03, 0.01, 0, 0, 0, 0, 0)])),
    4: dict(zip(_PS, [(100, 25.7), (100, 23.1), (100, 21.0), (100, 18.7), (100, 16.8), (100, 15.1),
                      (100, 13.6), (88, 13.5), (75, 12.3), (85, 9.5), (99, 6.5), (100, 4.1), (100, 2.9),
                      (100, 2.1), (100, 1.4), (100, 1.0), (100, 0.6), (100, 0.2), (100, 0), (100, 0),
                      (100, 0)])),
    5: dict(zip(_PS, [(100, 330), (100, 244), (100, 226), (100, 189), (100, 160), (100, 160), (100, 148),
                      (92, 216), (38, 218), (31, 239), (49, 90), (100, 55), (100, 29), (100, 20), (100, 14),
                      (100, 10), (100, 6), (100, 3), (100, 1), (100, 0), (100, 0)])),
}  # fmt: skip


def root_solution(n: int) -> list[list[int]]:
    """The grid of Lewis's ROOT-SOLUTION(n) (§1, p. 2), row by row."""
    grid = [[0] * (n * n) for _ in range(n * n)]
    x = 0
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            for k in range(1, n * n + 1):
                grid[n * (i - 1) + j - 1][k - 1] = x % (n * n) + 1
                x += 1
            x += n
        x += 1
    return grid


def lewis_instance(n: int, p: float, rng: random.Random) -> Puzzle:
    """One instance as §3.2 makes them: the root solution shuffled by his four operators (bands,
    stacks, rows within each band, columns within each stack; values not relabelled), then every
    cell removed with probability 1 - p."""
    bands, stacks = list(range(n)), list(range(n))
    rng.shuffle(stacks)  # "permuting columns of squares"
    rng.shuffle(bands)  # "permuting rows of squares"
    columns = [stack * n + c for stack in stacks for c in rng.sample(range(n), n)]
    rows = [band * n + r for band in bands for r in rng.sample(range(n), n)]
    root = root_solution(n)
    cells = [root[r][c] if rng.random() < p else 0 for r in rows for c in columns]
    return Puzzle(cells, box=(n, n))


def datasets(source: str, n: int, shares: list[int], instances: int) -> dict[str, list[Puzzle]]:
    """``instances`` puzzles for each share (in %), by the share's name (``p = 0.45``)."""
    found: dict[str, list[Puzzle]] = {}
    for share in shares:
        if source == "lewis":
            rng = random.Random(f"lewis order {n} p {share} %")  # a string seed: the same in every process
            found[f"p = {share / 100:.2f}"] = [lewis_instance(n, share / 100, rng) for _ in range(instances)]
        else:
            size = f"{n * n}x{n * n}"
            paths = sorted(DATA.glob(f"inst{size}_{share}_*.txt"), key=lambda path: int(path.stem.rsplit("_", 1)[1]))
            found[f"p = {share / 100:.2f}"] = [read(path)[0] for path in paths[:instances]]
    return found


def summary(results, n: int, shares: list[int]) -> list[dict]:
    rows = []
    for share in shares:
        runs = [r for r in results if r.dataset == f"p = {share / 100:.2f}"]
        solved = [r for r in runs if r.solved]
        low, high = wilson_interval(len(solved), len(runs))
        his = HIS_FIGURES[n].get(round(share / 100, 2))
        rows.append(
            dict(
                p=share / 100,
                runs=len(runs),
                solved=len(solved),
                rate_interval=[round(low, 3), round(high, 3)],
                givens=round(statistics.mean(r.givens_share for r in runs), 3) if runs else None,
                mean_moves_solved=round(statistics.mean(r.steps for r in solved)) if solved else None,
                mean_seconds_solved=round(statistics.mean(r.seconds for r in solved), 2) if solved else None,
                stop_reasons=sorted({r.note for r in runs if not r.solved}),
                his_rate=his[0] if his else None,
                his_mean_seconds=his[1] if his else None,
            )
        )
    return rows


def table(rows: list[dict]) -> str:
    lines = [
        "| p | solved | 95 % interval | mean moves (solved) | as his seconds | our mean s | his rate | his mean s |",
        "|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        moves = row["mean_moves_solved"]
        low, high = row["rate_interval"]
        lines.append(
            f"| {row['p']:.2f} | {row['solved']}/{row['runs']} | {100 * low:.0f}-{100 * high:.0f} % | "
            f"{'-' if moves is None else f'{moves:,}'} | "
            f"{'-' if moves is None else f'{moves / HIS_MOVES_PER_SECOND:.2f}'} | "
            f"{'-' if row['mean_seconds_solved'] is None else row['mean_seconds_solved']} | "
            f"{'-' if row['his_rate'] is None else row['his_rate']} | "
            f"{'-' if row['his_mean_seconds'] is None else row['his_mean_seconds']} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--order", type=int, default=3, choices=[3, 4, 5])
    parser.add_argument("--shares", default=",".join(str(s) for s in range(0, 101, 5)), help="p in %%")
    parser.add_argument("--instances", type=int, default=3, help="per p (his: 20)")
    parser.add_argument("--trials", type=int, default=2, help="per instance (his: 20)")
    parser.add_argument("--scale", type=float, default=1.0, help="share of his limit")
    parser.add_argument("--guard-rate", type=float, default=1e5, help="moves/s under which a run is cut")
    parser.add_argument("--source", default="lewis", choices=["lewis", "lloyd-amos"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("-a", "--algorithm", default="sa-lewis")
    parser.add_argument("--journal", type=Path, default=None, help="the run journal (resumes from it)")
    args = parser.parse_args()
    shares = [int(s) for s in args.shares.split(",")]
    moves = round(HIS_LIMITS[args.order] * args.scale * HIS_MOVES_PER_SECOND)
    options = dict(max_steps=moves, max_seconds=moves / args.guard_rate)
    journal = args.journal or JOURNALS / f"order{args.order}_{args.source}_{args.algorithm}_{args.scale:g}.jsonl"
    journal.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    load_before = list(os.getloadavg())
    results = run_experiment(
        [args.algorithm],
        datasets(args.source, args.order, shares, args.instances),
        runs=args.trials,
        options={args.algorithm: options},
        results=journal,
        workers=args.workers,
        progress=lambda done, total: print(f"{done}/{total}", file=sys.stderr, flush=True),
    )
    rows = summary(results, args.order, shares)
    print(table(rows))
    command = "python " + shlex.join(["benchmarks/annealing_phase_transition.py", *sys.argv[1:]])
    saved = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    saved[f"order {args.order}, {args.source}, {args.algorithm}"] = dict(
        command=command,
        protocol=dict(
            instances_per_p=args.instances,
            trials_per_instance=args.trials,
            his_limit_seconds=HIS_LIMITS[args.order],
            scale=args.scale,
            max_moves=moves,
            guard_seconds=options["max_seconds"],
            his_moves_per_second=HIS_MOVES_PER_SECOND,
            source=args.source,
        ),
        journal=str(journal),
        seconds=round(time.perf_counter() - start, 1),
        provenance={
            **provenance(seed=0, command=command),
            "load_before": load_before,
            "load_after": list(os.getloadavg()),
        },
        cores=os.cpu_count(),
        rows=rows,
        runs=[
            [r.dataset, r.index, r.seed, r.solved, r.steps, r.evaluations, round(r.seconds, 3), r.note] for r in results
        ],
        runs_fields=["dataset", "instance", "seed", "solved", "moves", "evaluations", "seconds", "note"],
    )
    RESULTS.write_text(json.dumps(saved, indent=1) + "\n")
    sys.exit(results.exit_code)


if __name__ == "__main__":
    main()
