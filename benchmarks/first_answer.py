"""How fast the first answer comes: import costs, first-call costs, one-puzzle wall time, and puzzles per second.

    python benchmarks/first_answer.py [--data ../shared/data] [--repeat 9] [--puzzles 1000] [--json FILE]

Every figure is wall time on this machine, one process per measurement where a
process is what a user starts (median of ``--repeat`` processes, and the best).
Python's bytecode cache is on (``PYTHONDONTWRITEBYTECODE`` is dropped), as on a
user's machine.  The throughput part solves the first ``--puzzles`` puzzles of
``forum_hardest_1905_11plus`` in one process with ``deap-sudoku solve`` (the
memetic GA, and ``-a backtracking``) and checks every answer.  Norvig's
published figure for his Python solver, for comparison, is from his essay
"Solving Every Sudoku Puzzle": about 0.04 s per puzzle (24 Hz) on his 95 hard
puzzles, on his machine of the time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
IMPORTS = {
    "python itself": "pass",
    "numpy": "import numpy",
    "click": "import click",
    "deap (base and tools, which loads moocore)": "import deap.base, deap.tools",
    "numpy + click + deap": "import numpy, click, deap.base, deap.tools",
    "deap_sudoku": "import deap_sudoku",
    "deap_sudoku.cli (what deap-sudoku loads)": "import deap_sudoku.cli",
    "numba": "import numba",
}
FIRST_CALLS = {
    "compiled propagation, first call (numba + cached kernel)":
        "from deap_sudoku import Puzzle\nfrom deap_sudoku.exact import search\n"
        "search(Puzzle([0] * 81), compiled=True)",
    "compiled repair, first call (numba + cached kernel)":
        "from deap_sudoku import load_sample\nfrom deap_sudoku.runs.recipes import memetic\n"
        "memetic(load_sample('9x9.txt'), max_generations=1, compiled=True)",
    "Python repair, first call": "from deap_sudoku import load_sample\nfrom deap_sudoku.runs.recipes import memetic\n"
                                 "memetic(load_sample('9x9.txt'), max_generations=1, compiled=False)",
}


def wall(command: list[str], repeat: int) -> tuple[float, float]:
    """Median and best wall time of ``repeat`` runs of ``command`` (which must succeed)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, env=ENV, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def in_process(code: str, repeat: int) -> tuple[float, float]:
    """Median and best time of ``code`` in a fresh process, after the package is imported."""
    timed = ("import time, deap_sudoku.cli\nstart = time.perf_counter()\n" + code
             + "\nprint(time.perf_counter() - start)")
    times = [float(subprocess.run([sys.executable, "-c", timed], check=True, env=ENV, capture_output=True,
                                  text=True).stdout) for _ in range(repeat)]
    return statistics.median(times), min(times)


def throughput(path: Path, algorithm: str) -> tuple[float, int]:
    """Seconds for ``deap-sudoku solve`` on every puzzle of ``path`` in one process, and puzzles solved."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "deap_sudoku", "solve", str(path), "-a", algorithm, "--quiet",
                           "--out", "-"], env=ENV, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    return seconds, len(re.findall(r": solved in ", done.stderr))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--puzzles", type=int, default=1000)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "deap_sudoku")], env=ENV, check=True)
    rows = []

    def report(kind: str, name: str, median: float, best: float) -> None:
        rows.append({"kind": kind, "what": name, "median_s": median, "best_s": best})
        print(f"| {kind} | {name} | {median:.3f} | {best:.3f} |", flush=True)

    print("| kind | what | median s | best s |\n|---|---|---:|---:|")
    for name, code in IMPORTS.items():
        report("import", name, *wall([sys.executable, "-c", code], args.repeat))
    for name, code in FIRST_CALLS.items():
        report("first call", name, *in_process(code, args.repeat))
    hardest = args.data / "tdoku_data" / "forum_hardest_1905_11plus.txt"
    with tempfile.TemporaryDirectory() as folder:
        one_easy, one_hard, sample = Path(folder, "easy.txt"), Path(folder, "hard.txt"), Path(folder, "sample.txt")
        one_easy.write_text((REPO / "data" / "9x9.txt").read_text().splitlines()[0] + "\n")
        lines = hardest.read_text().splitlines()
        one_hard.write_text(lines[0] + "\n")
        sample.write_text("\n".join(lines[:args.puzzles]) + "\n")
        for label, path in (("one easy 9x9 (data/9x9.txt, first)", one_easy),
                            ("one forum-hardest 9x9 (first of 1905_11plus)", one_hard)):
            for algorithm in ("memetic", "backtracking"):
                report("deap-sudoku solve", f"{label}, {algorithm}",
                       *wall([sys.executable, "-m", "deap_sudoku", "solve", str(path), "-a", algorithm, "-q"],
                             args.repeat))
        for algorithm in ("memetic", "backtracking"):
            seconds, solved = throughput(sample, algorithm)
            rows.append({"kind": "throughput", "what": algorithm, "puzzles": args.puzzles, "solved": solved,
                         "seconds": seconds, "per_second": args.puzzles / seconds})
            print(f"| throughput | {args.puzzles} forum-hardest 9x9, {algorithm}: {solved} solved, "
                  f"{args.puzzles / seconds:.0f} puzzles/s | {seconds:.2f} | |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
