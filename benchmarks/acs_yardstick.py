"""The package's ant colony (``-a acs``, ``-a acs-paper``) beside Lloyd & Amos's own solver, on the
same instances in one run, one core each, with the same time limit.

    python benchmarks/acs_yardstick.py [--source https://github.com/huwlloyd-mmu/sudoku_acs]
        [--data ../shared/data/lloyd_amos_aco] [--instances 75] [--max-seconds 10]
        [--rules code paper] [--paper-instances 75] [--cap 1.5]
        [--runs benchmarks/results/acs_yardstick_runs.jsonl] [--json FILE [--force]]

The authors' C++ solver is cloned from ``--source`` (a URL or a local git repository) into a
temporary folder and built there with g++ (a benchmark-only yardstick: never a dependency, never
copied into this repository).  One line is added to that temporary copy, after its colony loop,
to print the number of colony iterations to stderr, so that iterations per second can be
compared.

The sets are Lloyd & Amos's general 25x25 instances at 40, 45 and 50 % givens and 16x16 at 45 %
(``--instances`` of each, in file order) and their logic-solvable 9x9 puzzles.  For each instance
and each greedy rule (``code``: the released solver's, greedy when a draw is above q0 = 0.9;
``paper``: the paper's, greedy with probability q0, which the released solver runs with
``--q0 0.1``), the original starts in a subprocess pinned to one core while the package's run,
:func:`deap_sudoku.runs.run_task` in this process (kernels compiled beforehand, off the clock, as
the original's timer leaves out its start-up and the propagation of the givens), runs pinned to the
other.  A run counts as solved when its answer is verified (the original's: its own check) within
the limit.  The original reads its clock every 100 iterations, so it may run a little past the
limit: a solution it reports after the limit counts as unsolved, as the package's run would be.

The package's runs go on up to ``--cap`` times the limit, so that one run, its course fixed by its
seed, says whether it solved within the limit and within the limit scaled by the ratio of colony
iterations per second (package / original, per set), where the package runs fewer.

Each pair of runs is appended to ``--runs`` as it finishes; the same command again goes on from
the runs it holds.

Printed: per set and rule, the original's solved count with its 95 % Wilson interval, the package's
within the same limit and within the scaled one, each said inside or outside that interval, and
the ratio of iterations per second.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deap_sudoku import __version__, read
from deap_sudoku.experiments import wilson_interval
from deap_sudoku.io import write_atomic
from deap_sudoku.runs import Task, run_task

SHARES = (("25x25", 40), ("25x25", 45), ("25x25", 50), ("16x16", 45))
Q0 = {"code": "0.9", "paper": "0.1"}
"""The original's ``--q0`` for each rule: it is greedy when a draw is above q0."""
ALGORITHM = {"code": "acs", "paper": "acs-paper"}
PATCH_AFTER = "\tClearPheromone();\n"
PATCH = '\tstd::cerr << "iterations " << iter << std::endl;\n'


def build(source: str, folder: Path) -> Path:
    """Clone and build the original in ``folder``; return its executable."""
    subprocess.run(["git", "clone", "-q", source, str(folder / "src")], check=True)
    solver = folder / "src" / "src" / "sudokuantsystem.cpp"
    text = solver.read_text()
    if text.count(PATCH_AFTER) != 1:
        raise SystemExit(f"{solver}: the line to count iterations after is not there once; the code has changed")
    solver.write_text(text.replace(PATCH_AFTER, PATCH_AFTER + PATCH))
    (folder / "src" / "obj").mkdir(exist_ok=True)
    subprocess.run(["make", "-s", "-f", "Makefile"], cwd=folder / "src", check=True)
    return folder / "src" / "sudokusolver"


def sets(data: Path, instances: int) -> dict[str, list[Path]]:
    """The instance files of each set, in file order (``inst25x25_45``: its first ``instances``)."""
    found = {}
    for size, share in SHARES:
        files = sorted(
            (data / "general").glob(f"inst{size}_{share}_*.txt"), key=lambda p: int(p.stem.rsplit("_", 1)[1])
        )
        found[f"{size} {share}%"] = files[:instances]
    found["9x9 logic-solvable"] = sorted((data / "logic-solvable").glob("*.txt"))
    if not all(found.values()):
        raise SystemExit(f"{data}: no instances for {[name for name, files in found.items() if not files]}")
    return found


def original(solver: Path, path: Path, rule: str, limit: float) -> subprocess.Popen:
    """Start the original on ``path`` pinned to core 1."""
    command = [str(solver), "--file", str(path), "--timeout", str(int(limit)), "--q0", Q0[rule]]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {1}),
    )


def finish(process: subprocess.Popen, started: float, limit: float) -> dict:
    """The original's result: solved within the limit, its seconds and iterations."""
    out, err = process.communicate()
    wall = time.perf_counter() - started
    lines = out.split()
    failed = lines[0] != "0" if lines else True
    seconds = float(lines[1]) if not failed else wall
    iterations = int(err.split("iterations")[-1].split()[0]) if "iterations" in err else 0
    return {"solved": not failed and seconds <= limit, "seconds": seconds, "iterations": iterations}


def ours(path: Path, rule: str, seed: int, cap: float) -> dict:
    """The package's run on ``path`` (pinned to core 0) for up to ``cap`` seconds: whether and when
    it solved, which :func:`summary` judges against the limit and the scaled limit."""
    puzzle = read(path)[0]
    result = run_task(Task(ALGORITHM[rule], puzzle, seed, path.name, 0, {"max_seconds": cap}))
    return {"solved": result.solved, "seconds": result.seconds, "iterations": result.generations}


def kept(path: Path, limit: float) -> list[dict]:
    """The runs ``path`` holds from an earlier call with the same limit (a torn last line is dropped)."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if row.get("max_seconds") != limit:
            raise SystemExit(f"{path}: its runs had a limit of {row.get('max_seconds')} s, not {limit}")
        rows.append(row)
    return rows


def summary(rows: list[dict], limit: float) -> list[dict]:
    """Per set and rule: both sides' solved counts within ``limit`` and Wilson intervals, the ratio
    of iterations per second, and the package's solved count within the limit scaled by that ratio
    (where it is below 1), with whether each lies in the original's interval."""
    table = []
    for key in dict.fromkeys((row["set"], row["rule"]) for row in rows):
        mine = [row for row in rows if (row["set"], row["rule"]) == key]
        entry: dict = {"set": key[0], "rule": key[1], "instances": len(mine)}
        for side in ("original", "package"):
            iterations = sum(row[side]["iterations"] for row in mine)
            seconds = sum(row[side]["seconds"] for row in mine)
            entry[side] = {"iterations_per_second": iterations / seconds if seconds else 0.0}
        ratio = entry["package"]["iterations_per_second"] / max(entry["original"]["iterations_per_second"], 1e-9)
        entry["speed_ratio"] = ratio
        entry["scaled_limit"] = limit / min(ratio, 1.0)
        low, high = wilson_interval(sum(row["original"]["solved"] for row in mine), len(mine))
        for side, within in (("original", limit), ("package", limit), ("package_scaled", entry["scaled_limit"])):
            runs = [row["original" if side == "original" else "package"] for row in mine]
            solved = sum(run["solved"] and run["seconds"] <= within for run in runs)
            entry.setdefault(side, {}).update(solved=solved, wilson=wilson_interval(solved, len(mine)))
            entry[side]["inside"] = low <= solved / len(mine) <= high
        table.append(entry)
    return table


def markdown(table: list[dict]) -> str:
    lines = [
        "| set | rule | n | original solved (95 % Wilson) | package, same limit | package, scaled limit |"
        " iterations/s package / original |",
        "|---|---|---:|---|---|---|---:|",
    ]
    for e in table:
        cells = []
        for side in ("original", "package", "package_scaled"):
            low, high = e[side]["wilson"]
            inside = "" if side == "original" else (", inside" if e[side]["inside"] else ", **outside**")
            cells.append(f"{e[side]['solved']} ({100 * low:.0f}-{100 * high:.0f} %{inside})")
        lines.append(
            f"| {e['set']} | {e['rule']} | {e['instances']} | {cells[0]} | {cells[1]} | {cells[2]}, "
            f"{e['scaled_limit']:.1f} s | {e['speed_ratio']:.2f} "
            f"({e['package']['iterations_per_second']:.0f} / {e['original']['iterations_per_second']:.0f}) |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", default="https://github.com/huwlloyd-mmu/sudoku_acs")
    parser.add_argument("--data", type=Path, default=Path(__file__).parents[2] / "shared/data/lloyd_amos_aco")
    parser.add_argument("--instances", type=int, default=75)
    parser.add_argument("--paper-instances", type=int, default=None, help="fewer instances for the paper rule")
    parser.add_argument("--max-seconds", type=float, default=10.0)
    parser.add_argument("--cap", type=float, default=2.0, help="the package's runs last up to this many limits")
    parser.add_argument("--rules", nargs="+", choices=list(Q0), default=list(Q0))
    parser.add_argument("--runs", type=Path, default=Path("benchmarks/results/acs_yardstick_runs.jsonl"))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    if args.json and args.json.exists() and not args.force:
        raise SystemExit(f"{args.json} exists: --force to replace it")
    rows = kept(args.runs, args.max_seconds)
    done = {(row["rule"], row["file"]) for row in rows}
    if len(os.sched_getaffinity(0)) < 2:
        raise SystemExit("two cores are needed: one for each solver")
    found = sets(args.data, args.instances)
    with tempfile.TemporaryDirectory(prefix="acs-yardstick-") as folder:
        solver = build(args.source, Path(folder))
        os.sched_setaffinity(0, {0})
        for rule in args.rules:
            limit = args.instances if rule == "code" or args.paper_instances is None else args.paper_instances
            for name, files in found.items():
                for seed, path in enumerate(files[:limit]):
                    if (rule, path.name) in done:
                        continue
                    started = time.perf_counter()
                    process = original(solver, path, rule, args.max_seconds)
                    mine = ours(path, rule, seed, args.cap * args.max_seconds)
                    theirs = finish(process, started, args.max_seconds)
                    row = {"set": name, "rule": rule, "file": path.name, "original": theirs, "package": mine}
                    row["max_seconds"] = args.max_seconds
                    with args.runs.open("a") as runs:  # each run kept as it finishes: a rerun goes on from them
                        runs.write(json.dumps(row) + "\n")
                    rows.append(row)
                    print(
                        f"{name:20} {rule:5} {path.name:24} original {'solved' if theirs['solved'] else 'failed'} "
                        f"{theirs['seconds']:6.2f} s {theirs['iterations']:6d} it   package "
                        f"{'solved' if mine['solved'] else 'failed'} {mine['seconds']:6.2f} s {mine['iterations']:6d}",
                        file=sys.stderr,
                        flush=True,
                    )
    table = summary(rows, args.max_seconds)
    print(markdown(table))
    if args.json:
        report = {
            "version": __version__,
            "max_seconds": args.max_seconds,
            "cap": args.cap,
            "summary": table,
            "runs": rows,
        }
        write_atomic(args.json, json.dumps(report, indent=1), overwrite=args.force)


if __name__ == "__main__":
    main()
