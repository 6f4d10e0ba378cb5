"""Peak memory of 36x36 runs with a population of 1000, each in a fresh process.

    python benchmarks/memory_36x36.py [--json benchmarks/results/memory_36x36.json]

Runs ``deap-sudoku solve`` on a generated 36x36 puzzle (half the cells given)
with the block GA and the memetic GA, population 1000, a few generations, and
reports each process's peak resident memory (``ru_maxrss``), next to a process
that only imports the package.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

MEASURE = """
import resource, runpy, sys
sys.argv = ["deap-sudoku"] + sys.argv[1:]
try:
    if len(sys.argv) > 1:
        runpy.run_module("deap_sudoku", run_name="__main__")
    else:
        import deap_sudoku.cli
except SystemExit:
    pass
print("PEAK_KIB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def peak_mib(*args: str) -> float:
    done = subprocess.run([sys.executable, "-c", MEASURE, *args], capture_output=True, text=True, timeout=3600)
    line = next(ln for ln in done.stderr.splitlines() if ln.startswith("PEAK_KIB"))
    return int(line.split()[1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        puzzle = Path(folder) / "36x36.txt"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "deap_sudoku",
                "generate",
                "--box",
                "6x6",
                "--givens",
                "648",
                "--any",
                "--format",
                "grid",
                "--out",
                str(puzzle),
            ],
            check=True,
        )
        runs = {
            "import only": (),
            "block GA, population 1000, 20 generations": (
                "solve",
                str(puzzle),
                "-a",
                "block-ga",
                "--population",
                "1000",
                "--max-generations",
                "20",
            ),
            "memetic GA, population 1000, 2 generations": (
                "solve",
                str(puzzle),
                "-a",
                "memetic",
                "--population",
                "1000",
                "--max-generations",
                "2",
            ),
        }
        results = {label: peak_mib(*command) for label, command in runs.items()}
    print("| 36x36 run | peak resident memory (MiB) |")
    print("|---|---:|")
    for label, mib in results.items():
        print(f"| {label} | {mib:.0f} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
