"""The package's ant colony (``-a acs``, ``-a acs-paper``) beside Lloyd & Amos's own solver as a
two-sample comparison: the same held-out instances, both sides at once, one core each.

    python benchmarks/acs_yardstick.py [--source https://github.com/huwlloyd-mmu/sudoku_acs]
        [--data ../shared/data/lloyd_amos_aco] [--instances 14] [--runs-each 1] [--seed 59]
        [--max-seconds 10] [--rules code paper] [--startup 6]
        [--runs benchmarks/results/acs_parity_runs.jsonl] [--json FILE [--force]]

The authors' C++ solver is cloned from ``--source`` (a URL, or a local git repository such as a
bare mirror) into a temporary folder and built there with g++ (a benchmark-only yardstick: never a
dependency, never copied into this repository).  One line is added to that temporary copy, after
its colony loop, to print the number of colony iterations to stderr.

**Instances.**  Held out from the files both sides were tuned on: for each set (Lloyd & Amos's
general 25x25 at 40, 45 and 50 % givens, 16x16 at 45 %), ``--instances`` files drawn from
``--data`` and each put through a random symmetry of the grid (values relabelled, bands and stacks
permuted, rows and columns permuted within them, transposed or not), all drawn from ``--seed``, so
the same command makes the same instances again.  They are written in the authors' format to a
temporary folder, and both sides read the same file.

**Runs.**  For each instance, each greedy rule (``code``: the released solver's, greedy when a draw
is above q0 = 0.9; ``paper``: the paper's, greedy with probability q0, which the released solver
runs with ``--q0 0.1``) and ``--runs-each`` runs, the original starts in a subprocess pinned to
core 1 while the package's run, :func:`deap_sudoku.runs.run_task` in this process, runs pinned to
core 0: both at once, so whatever else loads the machine loads both.  Sets and rules take turns
(instance by instance), so that a partial file covers every set.  The package's kernels are loaded
beforehand, off the clock, as the original's timer leaves out its start-up.  A run counts as
solved when its answer is verified (the original's: its own check) within ``--max-seconds`` of
its own clock; the original reads its clock every 100 iterations, so a solution it reports after
the limit counts as unsolved, as the package's would.  Each side's colony iterations, the seconds
of its clock and its CPU seconds (the original's: the whole process's, from the kernel) are kept.

**Start-up**, apart from the search: ``--startup`` held-out 16x16 instances, each solved by
three whole processes in turn (the original; ``deap-sudoku solve -a acs``; ``-a memetic``, whose
start-up ``-a acs`` should match), their wall time and each one's own clock kept: a process's
start-up is its wall time less the seconds its own clock gave the search.

Each pair of runs is appended to ``--runs`` as it finishes; the same command again goes on from the
runs it holds (the instances are made again from the seed).

Printed, per set and rule: the runs, each side's solved count and Fisher's exact test on them
(:func:`scipy.stats.fisher_exact`), the log-rank test on the colony iterations to solve (an
unsolved run censored at the iterations it made; :func:`scipy.stats.logrank`), and each side's
iterations per second of its own clock and per CPU second; then the start-up.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.experiments.provenance import provenance
from deap_sudoku.io import write_atomic
from deap_sudoku.runs import Task, run_task
from deap_sudoku.runs.catalogue.colony import warm_up_colony

SHARES = (("25x25", 40), ("25x25", 45), ("25x25", 50), ("16x16", 45))
Q0 = {"code": "0.9", "paper": "0.1"}
"""The original's ``--q0`` for each rule: it is greedy when a draw is above q0."""
ALGORITHM = {"code": "acs", "paper": "acs-paper"}
PATCH_AFTER = "\tClearPheromone();\n"
PATCH = '\tstd::cerr << "iterations " << iter << std::endl;\n'
CLI_CLOCK = re.compile(r"(?:solved in|after) ([0-9.]+) s .*?\((\d+) generations?")
"""The seconds and generations in the command line's closing line (stderr)."""


def build(source: str, folder: Path) -> tuple[Path, str]:
    """Clone and build the original in ``folder``; return its executable and its commit."""
    subprocess.run(["git", "clone", "-q", source, str(folder / "src")], check=True)
    commit = subprocess.run(
        ["git", "-C", str(folder / "src"), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    solver = folder / "src" / "src" / "sudokuantsystem.cpp"
    text = solver.read_text()
    if text.count(PATCH_AFTER) != 1:
        raise SystemExit(f"{solver}: the line to count iterations after is not there once; the code has changed")
    solver.write_text(text.replace(PATCH_AFTER, PATCH_AFTER + PATCH))
    (folder / "src" / "obj").mkdir(exist_ok=True)
    subprocess.run(["make", "-s", "-f", "Makefile"], cwd=folder / "src", check=True)
    return folder / "src" / "sudokusolver", commit


def load(path: Path) -> tuple[int, list[list[int]]]:
    """A file in the authors' format: its box order and rows (-1 empty)."""
    words = path.read_text().split()
    order = int(words[0])
    side = order * order
    values = [int(word) for word in words[2 : 2 + side * side]]
    if len(values) != side * side:
        raise SystemExit(f"{path}: {len(values)} cells, not {side * side}")
    return order, [values[row * side : (row + 1) * side] for row in range(side)]


def symmetry(order: int, rows: list[list[int]], rng: random.Random) -> list[list[int]]:
    """``rows`` under a random symmetry of the grid: values relabelled, bands and stacks permuted,
    the rows of each band and the columns of each stack permuted, transposed with probability 1/2."""
    side = order * order
    labels = list(range(1, side + 1))
    rng.shuffle(labels)

    def lines() -> list[int]:
        bands = rng.sample(range(order), order)
        return [band * order + line for band in bands for line in rng.sample(range(order), order)]

    row_order, col_order = lines(), lines()
    grid = [[rows[r][c] if rows[r][c] < 0 else labels[rows[r][c] - 1] for c in col_order] for r in row_order]
    if rng.random() < 0.5:
        grid = [list(column) for column in zip(*grid)]
    return grid


def dump(order: int, rows: list[list[int]]) -> str:
    """The authors' format: order, ``1``, then tab-separated rows with a trailing tab (CRLF)."""
    return "\r\n".join([str(order), "1", *("".join(f"{value}\t" for value in row) for row in rows)]) + "\r\n"


def held_out(data: Path, instances: int, seed: int, folder: Path) -> dict[str, list[tuple[Path, str]]]:
    """Per set, ``instances`` held-out files written to ``folder``, each with the source file's name."""
    made = {}
    for size, share in SHARES:
        files = sorted(
            (data / "general").glob(f"inst{size}_{share}_*.txt"), key=lambda p: int(p.stem.rsplit("_", 1)[1])
        )
        if len(files) < instances:
            raise SystemExit(f"{data / 'general'}: {len(files)} files inst{size}_{share}_*, not {instances}")
        rng = random.Random(f"{seed} {size} {share}")
        chosen = rng.sample(files, instances)
        made[f"{size} {share}%"] = []
        for k, source in enumerate(chosen):
            order, rows = load(source)
            target = folder / f"{source.stem}_s{seed}_{k}.txt"
            target.write_text(dump(order, symmetry(order, rows, rng)))
            made[f"{size} {share}%"].append((target, source.name))
    return made


def original(solver: Path, path: Path, rule: str, limit: float, core: int | None = 1) -> tuple:
    """Start the original on ``path`` (pinned to ``core``); return the process and its start time."""
    command = [str(solver), "--file", str(path), "--timeout", str(int(limit)), "--q0", Q0[rule]]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=None if core is None else (lambda: os.sched_setaffinity(0, {core})),
    )
    return process, time.perf_counter()


def finish(started: tuple, limit: float) -> dict:
    """The original's result: solved within the limit, its clock's seconds (the wall time where it
    failed: it leaves its time unset then), iterations, CPU and wall seconds of the process."""
    process, began = started
    out, err = process.stdout.read(), process.stderr.read()  # a few lines: no pipe fills
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stdout.close()
    process.stderr.close()
    cpu = usage.ru_utime + usage.ru_stime
    lines = out.split()
    failed = lines[0] != "0" if lines else True
    seconds = float(lines[1]) if not failed else wall
    iterations = int(err.split("iterations")[-1].split()[0]) if "iterations" in err else 0
    return {
        "solved": not failed and seconds <= limit,
        "seconds": seconds,
        "iterations": iterations,
        "cpu": cpu,
        "wall": wall,
    }


def ours(path: Path, rule: str, seed: int, limit: float) -> dict:
    """The package's run on ``path`` in this process (pinned to core 0), ``limit`` seconds."""
    puzzle = read(path)[0]
    cpu = time.process_time()
    result = run_task(Task(ALGORITHM[rule], puzzle, seed, path.name, 0, {"max_seconds": limit}))
    cpu = time.process_time() - cpu
    return {
        "solved": bool(result.solved) and result.seconds <= limit,
        "seconds": result.seconds,
        "iterations": result.generations,
        "cpu": cpu,
    }


def whole(command: list[str], environment: dict) -> dict:
    """Wall seconds of a whole process of the command line and the seconds and generations its
    own closing line gives."""
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=environment)
    wall = time.perf_counter() - began
    found = CLI_CLOCK.search(done.stderr)
    seconds = float(found.group(1)) if found else float("nan")
    return {
        "wall": wall,
        "seconds": seconds,
        "iterations": int(found.group(2)) if found else 0,
        "exit": done.returncode,
    }


def startup(solver: Path, files: list[Path], environment: dict) -> list[dict]:
    """Whole processes on each of ``files``, one after another on core 0: the original, ``-a acs``
    and ``-a memetic``."""
    rows = []
    for path in files:
        row: dict = {"file": path.name}
        theirs = finish(original(solver, path, "code", 10.0, core=None), 10.0)
        row["original"] = {"wall": theirs["wall"], "seconds": theirs["seconds"], "iterations": theirs["iterations"]}
        for name in ("acs", "memetic"):
            command = [sys.executable, "-m", "deap_sudoku", "solve", str(path), "-a", name, "-q"]
            row[name] = whole(command, environment)
        rows.append(row)
        print(
            f"start-up {path.name:28} original {row['original']['wall']:.3f} s  acs {row['acs']['wall']:.3f} s  "
            f"memetic {row['memetic']['wall']:.3f} s",
            file=sys.stderr,
            flush=True,
        )
    return rows


def kept(path: Path, limit: float, seed: int) -> list[dict]:
    """The runs ``path`` holds from an earlier call with the same limit and seed (a torn last line
    is dropped)."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if (row.get("max_seconds"), row.get("seed")) != (limit, seed):
            raise SystemExit(
                f"{path}: its runs had a limit of {row.get('max_seconds')} s and seed {row.get('seed')}, "
                f"not {limit} s and {seed}"
            )
        rows.append(row)
    return rows


def summary(rows: list[dict]) -> list[dict]:
    """Per set and rule: runs, each side's solved count, Fisher's exact test on them, the log-rank
    test on the iterations to solve, each side's iterations per second of its clock and per CPU
    second, and their ratios (package / original)."""
    from scipy import stats

    table = []
    for key in sorted(dict.fromkeys((row["set"], row["rule"]) for row in rows), key=lambda k: (k[1], k[0])):
        mine = [row for row in rows if (row["set"], row["rule"]) == key]
        entry: dict = {"set": key[0], "rule": key[1], "runs": len(mine)}
        for side in ("original", "package"):
            runs = [row[side] for row in mine]
            iterations = sum(run["iterations"] for run in runs)
            entry[side] = {
                "solved": sum(run["solved"] for run in runs),
                "iterations_per_second": iterations / max(sum(run["seconds"] for run in runs), 1e-9),
                "iterations_per_cpu_second": iterations / max(sum(run["cpu"] for run in runs), 1e-9),
                "median_iterations_solved": statistics.median([r["iterations"] for r in runs if r["solved"]] or [0]),
            }
        solved, other = entry["package"]["solved"], entry["original"]["solved"]
        n = len(mine)
        entry["fisher_p"] = float(stats.fisher_exact([[solved, n - solved], [other, n - other]]).pvalue)

        def censored(side: str):
            runs = [row[side] for row in mine]
            return stats.CensoredData(
                uncensored=[r["iterations"] for r in runs if r["solved"]],
                right=[max(r["iterations"], 1) for r in runs if not r["solved"]],
            )

        entry["logrank_p"] = (
            float(stats.logrank(censored("package"), censored("original")).pvalue) if solved + other else float("nan")
        )
        for rate in ("iterations_per_second", "iterations_per_cpu_second"):
            entry[f"{rate}_ratio"] = entry["package"][rate] / max(entry["original"][rate], 1e-9)
        table.append(entry)
    return table


def startup_summary(rows: list[dict]) -> dict:
    """Medians of each whole process's wall time and start-up (wall less its own clock's seconds)."""
    found = {}
    for side in ("original", "acs", "memetic"):
        walls = [row[side]["wall"] for row in rows]
        starts = [row[side]["wall"] - row[side]["seconds"] for row in rows if not math.isnan(row[side]["seconds"])]
        found[side] = {
            "median_wall": statistics.median(walls) if walls else None,
            "median_startup": statistics.median(starts) if starts else None,
            "median_iterations": statistics.median([row[side]["iterations"] for row in rows]) if rows else None,
        }
    return found


def markdown(table: list[dict], starts: dict | None) -> str:
    lines = [
        "| set | rule | runs | original solved | ours solved | Fisher p | iterations to solve, median "
        "original / ours | log-rank p | iterations per CPU second ours / original |",
        "|---|---|---:|---:|---:|---:|---|---:|---|",
    ]
    for e in table:
        o, p = e["original"], e["package"]
        lines.append(
            f"| {e['set']} | {e['rule']} | {e['runs']} | {o['solved']} | {p['solved']} | {e['fisher_p']:.2g} | "
            f"{o['median_iterations_solved']:g} / {p['median_iterations_solved']:g} | {e['logrank_p']:.2g} | "
            f"{e['iterations_per_cpu_second_ratio']:.2f} ({p['iterations_per_cpu_second']:.0f} / "
            f"{o['iterations_per_cpu_second']:.0f}) |"
        )
    if starts:
        lines.append("")
        lines.append("| whole process (held-out 16x16) | median wall s | median start-up s | median iterations |")
        lines.append("|---|---:|---:|---:|")
        for side, name in (("original", "original"), ("acs", "`solve -a acs`"), ("memetic", "`solve -a memetic`")):
            s = starts[side]
            lines.append(
                f"| {name} | {s['median_wall']:.3f} | {s['median_startup']:.3f} | {s['median_iterations']:g} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", default="https://github.com/huwlloyd-mmu/sudoku_acs")
    parser.add_argument("--data", type=Path, default=Path(__file__).parents[2] / "shared/data/lloyd_amos_aco")
    parser.add_argument("--instances", type=int, default=14, help="held-out instances per set")
    parser.add_argument("--runs-each", type=int, default=1, help="runs per instance, rule and side")
    parser.add_argument("--seed", type=int, default=59, help="draws the instances, their symmetries and seeds")
    parser.add_argument("--max-seconds", type=float, default=10.0)
    parser.add_argument("--rules", nargs="+", choices=list(Q0), default=list(Q0))
    parser.add_argument("--startup", type=int, default=6, help="held-out 16x16 instances timed as whole processes")
    parser.add_argument("--runs", type=Path, default=Path("benchmarks/results/acs_parity_runs.jsonl"))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    if args.json and args.json.exists() and not args.force:
        raise SystemExit(f"{args.json} exists: --force to replace it")
    if len(os.sched_getaffinity(0)) < 2:
        raise SystemExit("two cores are needed: one for each solver")
    record = provenance(seed=args.seed)
    load_before = os.getloadavg()
    rows = kept(args.runs, args.max_seconds, args.seed)
    done = {(row["rule"], row["file"], row["run"]) for row in rows}
    with tempfile.TemporaryDirectory(prefix="acs-yardstick-") as folder:
        solver, commit = build(args.source, Path(folder))
        instances = held_out(args.data, args.instances, args.seed, Path(folder))
        os.sched_setaffinity(0, {0})
        for path, _ in (instances["25x25 45%"][0], instances["16x16 45%"][0]):
            warm_up_colony(read(path)[0], compiled=True)  # numba and the kernels loaded, off the clock
        for k in range(args.instances):
            for name, files in instances.items():
                path, source = files[k]
                for rule in args.rules:
                    for run in range(args.runs_each):
                        if (rule, path.name, run) in done:
                            continue
                        seed = args.seed * 1000 + k * 10 + run
                        started = original(solver, path, rule, args.max_seconds)
                        mine = ours(path, rule, seed, args.max_seconds)
                        theirs = finish(started, args.max_seconds)
                        row = {
                            "set": name,
                            "rule": rule,
                            "file": path.name,
                            "source": source,
                            "run": run,
                            "package_seed": seed,
                            "original": theirs,
                            "package": mine,
                            "max_seconds": args.max_seconds,
                            "seed": args.seed,
                            "load": os.getloadavg()[0],
                        }
                        with args.runs.open("a") as runs:  # each run kept as it finishes: a rerun goes on
                            runs.write(json.dumps(row) + "\n")
                        rows.append(row)
                        print(
                            f"{name:10} {rule:5} {path.name:28} original "
                            f"{'solved' if theirs['solved'] else 'failed'} {theirs['seconds']:6.2f} s "
                            f"{theirs['iterations']:6d} it   package {'solved' if mine['solved'] else 'failed'} "
                            f"{mine['seconds']:6.2f} s {mine['iterations']:6d} it   load {row['load']:.1f}",
                            file=sys.stderr,
                            flush=True,
                        )
        environment = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
        starts = startup(solver, [path for path, _ in instances["16x16 45%"][: args.startup]], environment)
    table = summary(rows)
    start_summary = startup_summary(starts) if starts else None
    print(markdown(table, start_summary))
    if args.json:
        record["original"] = {"source": args.source, "commit": commit}
        record["load_before"] = load_before
        record["load_after"] = os.getloadavg()
        record["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
        report = {
            "provenance": record,
            "max_seconds": args.max_seconds,
            "instances": args.instances,
            "runs_each": args.runs_each,
            "summary": table,
            "startup": {"summary": start_summary, "runs": starts},
            "runs": rows,
        }
        write_atomic(args.json, json.dumps(report, indent=1), overwrite=args.force)


if __name__ == "__main__":
    main()
