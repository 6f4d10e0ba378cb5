"""Start-up, the first answer, and files of puzzles: whole ``deap-sudoku`` processes, as a user times them.

    python benchmarks/first_answer.py [--data ../shared/data] [--repeat 7] [--puzzles 1000] [--json FILE]
    python benchmarks/first_answer.py --startup-only [--repeat 7] [--json FILE]

Every figure is the wall time of whole processes on this machine, started the way a user starts
them: the ``deap-sudoku`` script installed beside this Python (``python -m deap_sudoku`` where
there is none), bytecode cache on (``PYTHONDONTWRITEBYTECODE`` is dropped), numba's kernel cache
filled once before any clock starts (a first-ever compilation is announced and is not what this
measures).  Issue 34's targets are printed beside the figures.

* **start-up**: ``deap-sudoku --version`` and the imports behind it (``--startup-only``: this table
  alone, with the machine's load and the provenance in the JSON).
* **first answer**: one puzzle per process, ``solve --max-seconds 10`` against plain ``solve`` run
  in turn (the ratio is taken pair by pair, so the machine's drift cancels), on puzzles no test or
  tuning of this package uses: the last 5 of ``forum_hardest_1905_11plus`` (9x9) and the 5
  highest-numbered of Lloyd & Amos's ``inst16x16_45_*`` and ``inst25x25_50_*`` instances.
* **files of puzzles**: ``solve`` on puzzles 2,001-3,000 of ``forum_hardest_1905_11plus`` (the
  seed's node budget was chosen on the first 1,000), with the default algorithm and with
  ``-a backtracking``, every answer verified by the command.
* **command overhead per puzzle**: ``solve -a`` a plug-in that looks each answer up (no search),
  on the same puzzles and on the first one alone; the difference over the other 999 puzzles is
  what reading, verifying and writing a puzzle costs, with the grids printed to standard output
  and with ``--out FILE`` (whose journal writes and syncs every answer as it comes).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SCRIPT = Path(sys.executable).parent / "deap-sudoku"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "deap_sudoku"]
IMPORTS = {
    "python itself": "pass",
    "numpy": "import numpy",
    "deap (base and tools)": "import deap.base, deap.tools",
    "deap_sudoku.cli (what every command loads)": "import deap_sudoku.cli",
    "numba": "import numba",
}
LOOKUP = '''"""Answers looked up, not searched: what solve costs around an algorithm that takes no time."""
import json, pathlib
ANSWERS = json.loads(pathlib.Path(__file__).with_name("answers.json").read_text())

def answer(puzzle, *, rng):
    """the stored answer"""
    return ANSWERS["".join(map(str, puzzle.cells.tolist()))]
'''
TARGETS = {"9x9": 0.35, "16x16": 0.35, "25x25": 0.45}


def run(command: list[str], **kwargs) -> float:
    """Wall seconds of ``command``, which must succeed."""
    start = time.perf_counter()
    subprocess.run(
        command,
        check=True,
        env=kwargs.pop("env", ENV),
        stdout=kwargs.pop("stdout", subprocess.DEVNULL),
        stderr=subprocess.DEVNULL,
        **kwargs,
    )
    return time.perf_counter() - start


def last(folder: Path, prefix: str, count: int = 5) -> list[Path]:
    """The ``count`` instances ``PREFIX_<i>.txt`` of ``folder`` with the highest numbers ``i``."""
    return sorted(folder.glob(f"{prefix}_*.txt"), key=lambda path: int(path.stem.rsplit("_", 1)[1]))[-count:]


def first_answers(files: list[Path], repeat: int) -> dict:
    """Per file, ``repeat`` pairs of (with budget, without) in turn; medians over all pairs."""
    budget, plain, ratios = [], [], []
    for _ in range(repeat):
        for path in files:
            a = run(COMMAND + ["solve", "-q", "--max-seconds", "10", str(path)])
            b = run(COMMAND + ["solve", "-q", str(path)])
            budget.append(a)
            plain.append(b)
            ratios.append(a / b)
    return {
        "with_budget_s": statistics.median(budget),
        "without_s": statistics.median(plain),
        "ratio": statistics.median(ratios),
        "worst_with_budget_s": max(budget),
        "runs": len(budget),
    }


def puzzle_sets(folder: Path, data: Path, hardest: list[str]) -> dict[str, list[Path]]:
    """The first-answer puzzles by size: the last 5 forum-hardest lines, each written to a file of
    its own in ``folder``, and the 5 highest-numbered Lloyd & Amos instances of each larger size."""
    general = data / "lloyd_amos_aco" / "general"
    nines = []
    for number, line in enumerate(hardest[-5:]):
        nines.append(folder / f"hardest{number}.txt")
        nines[-1].write_text(line + "\n")
    return {"9x9": nines, "16x16": last(general, "inst16x16_45"), "25x25": last(general, "inst25x25_50")}


def startup(repeat: int) -> dict:
    """The start-up table: ``deap-sudoku --version`` and each import behind it."""
    found = {}
    print("\n| start-up | median s | best s |\n|---|---:|---:|")
    for name, code in {"deap-sudoku --version": None, **IMPORTS}.items():
        command = COMMAND + ["--version"] if code is None else [sys.executable, "-c", code]
        times = [run(command) for _ in range(repeat)]
        found[name] = {"median_s": statistics.median(times), "best_s": min(times)}
        print(f"| {name} | {statistics.median(times):.3f} | {min(times):.3f} |", flush=True)
    return found


def first_answer_table(sets: dict[str, list[Path]], repeat: int) -> dict:
    """The first-answer table: one puzzle per process, with and without ``--max-seconds``."""
    found = {}
    print(
        "\n| one puzzle, whole process | with --max-seconds 10, median s | without, median s | "
        "ratio, median of pairs | target |\n|---|---:|---:|---:|---|"
    )
    for name, files in sets.items():
        found[name] = first_answers(files, repeat)
        print(
            f"| {name} ({len(files)} puzzles x {repeat}) | {found[name]['with_budget_s']:.3f} | "
            f"{found[name]['without_s']:.3f} | {found[name]['ratio']:.3f} | <= {TARGETS[name]} s"
            f"{' and <= 1.1x' if name != '25x25' else ''} |",
            flush=True,
        )
    return found


def files_of_puzzles(sample: Path, count: int) -> dict:
    """The files-of-puzzles table: the ``count`` puzzles of ``sample`` in one ``solve``, with the
    default algorithm and with backtracking; a failed solve ends the script."""
    found = {}
    print(f"\n| {count} forum-hardest 9x9 in one solve | seconds | puzzles/s | target |\n|---|---:|---:|---|")
    for algorithm, target in (("memetic", 100), ("backtracking", 300)):
        start = time.perf_counter()
        done = subprocess.run(
            COMMAND + ["solve", "-q", "-a", algorithm, str(sample)],
            env=ENV,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"solve -a {algorithm} failed (exit {done.returncode}): {done.stderr[-500:]}")
        found[algorithm] = {"puzzles": count, "seconds": seconds, "per_second": count / seconds}
        print(
            f"| {algorithm}{' (the default)' if algorithm == 'memetic' else ''} | {seconds:.2f} | "
            f"{count / seconds:.0f} | >= {target}/s |",
            flush=True,
        )
    return found


def overhead(folder: Path, sample: Path, lines: list[str]) -> dict:
    """The command-overhead table: ``solve`` with a plug-in that looks the answers up, on all of
    ``sample`` against its first puzzle alone, printing the grids and with ``--out``."""
    from deap_sudoku import Puzzle
    from deap_sudoku.exact import solve

    answers = {line.replace(".", "0"): solve(Puzzle.parse(line)).cells.tolist() for line in lines}
    (folder / "answers.json").write_text(json.dumps(answers))
    (folder / "lookup.py").write_text(LOOKUP)
    env = {**ENV, "PYTHONPATH": str(folder)}
    one = folder / "one.txt"
    one.write_text(lines[0] + "\n")
    found = {}
    print("\n| solve's own cost per puzzle (reading, verifying, writing) | ms | target |\n|---|---:|---|")
    for label, extra in (("grids to standard output", []), ("--out FILE (journal synced per answer)", ["--out"])):

        def timed(path: Path) -> float:
            out = [] if not extra else ["--out", str(folder / "out.txt"), "--force"]
            return run(COMMAND + ["solve", "-q", "-a", "lookup:answer", str(path)] + out, env=env, cwd=folder)

        many = statistics.median(timed(sample) for _ in range(3))
        single = statistics.median(timed(one) for _ in range(3))
        per = (many - single) / (len(lines) - 1) * 1000
        found[label] = {"ms_per_puzzle": per, "all_s": many, "one_s": single}
        print(f"| {label} | {per:.3f} | <= 1 ms |", flush=True)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--puzzles", type=int, default=1000)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--startup-only", action="store_true", help="the start-up table alone")
    args = parser.parse_args()
    rows: dict = {"command": " ".join(COMMAND)}
    print(f"command: {' '.join(COMMAND)}", flush=True)
    if args.startup_only:
        from deap_sudoku.experiments.provenance import provenance

        rows["provenance"] = {**provenance(seed=0), "load_before": list(os.getloadavg())}
        rows["startup"] = startup(args.repeat)
        rows["provenance"]["load_after"] = list(os.getloadavg())
        if args.json:
            args.json.write_text(json.dumps(rows, indent=2) + "\n")
        return
    hardest = (args.data / "tdoku_data" / "forum_hardest_1905_11plus.txt").read_text().split()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        sets = puzzle_sets(folder, args.data, hardest)
        for files in sets.values():  # numba's cache filled, off every clock
            for path in files:
                run(COMMAND + ["solve", "-q", "--max-seconds", "10", str(path)])
                run(COMMAND + ["solve", "-q", "-a", "backtracking", str(path)])
        rows["startup"] = startup(args.repeat)
        rows["first_answer"] = first_answer_table(sets, args.repeat)
        sample = folder / "sample.txt"
        lines = hardest[2000 : 2000 + args.puzzles]
        sample.write_text("\n".join(lines) + "\n")
        rows["files"] = files_of_puzzles(sample, len(lines))
        rows["overhead"] = overhead(folder, sample, lines)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
