"""Bytes a GA run allocates per individual, for each grid size and each algorithm that takes --population.

    python benchmarks/population_memory.py [--json benchmarks/results/population_memory.json]

Each (size, algorithm) runs in a fresh process: one run at the larger population
compiles and caches what a run needs, then runs of two generations at
populations P, 2P, P and 2P are traced with ``tracemalloc`` (numpy's buffers included);
no run may end early (solved or stagnant), and
the difference of the last two peaks over P is what one more individual costs (its
grid, its fitness, its offspring and its share of the batched fitness).  The
table sets the guard that refuses a --population too big for memory
(``deap_sudoku.cli.options.population_bytes``), and the last column checks the
guard against the measurement: it must never be below it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SIZES = {
    4: ("data/4x4.txt", 8192),
    9: ("data/9x9.txt", 2048),
    16: ("data/16x16.txt", 1024),
    25: ("data/25x25.txt", 512),
    36: (None, 256),
}
"""Side: (puzzle file, P); P spans several batches of the batched fitness, so its bound does not count."""

MEASURE = """
import sys, tracemalloc
from deap_sudoku import io
from deap_sudoku.algorithms import Stop
from deap_sudoku.runs import recipes, registry
# Every run lasts its generations: one solved early would peak lower and skew the difference.
recipes.Stop = lambda **criteria: Stop(**{**criteria, "solved": float("nan"), "stagnation": False})
name, path, small = sys.argv[1], sys.argv[2], int(sys.argv[3])
puzzle = io.read(path)[0]
algorithm = registry.algorithm(name)
if algorithm.warm_up:
    algorithm.warm_up(puzzle, None)
algorithm.run(puzzle, seed=0, population_size=2 * small, max_generations=2)
peaks = {}
for population in (small, 2 * small) * 2:  # the first pair may still compile a kernel a path needs
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    algorithm.run(puzzle, seed=0, population_size=population, max_generations=2)
    peaks[population] = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
print((peaks[2 * small] - peaks[small]) / small)
"""


def per_individual(algorithm: str, path: str, small: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, algorithm, path, str(small)],
        capture_output=True,
        text=True,
        timeout=3600,
        cwd=REPO,
        check=True,
    )
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    from deap_sudoku.cli.options import population_bytes
    from deap_sudoku.runs import registry

    algorithms = registry.takes("population_size")
    measured: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for side, (path, small) in SIZES.items():
            if path is None:
                path = str(Path(folder) / f"{side}x{side}.txt")
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
                        path,
                    ],
                    check=True,
                    cwd=REPO,
                )
            measured[side] = {name: per_individual(name, path, small) for name in algorithms}
            print(f"{side}x{side} done", file=sys.stderr)
    print("| grid | " + " | ".join(algorithms) + " | guard's worst / measured |")
    print("|---|" + "---:|" * (len(algorithms) + 1))
    ratios = []
    for side, row in measured.items():
        ratio = population_bytes(side * side) / max(row.values())
        ratios.append(ratio)
        print(
            f"| {side}x{side} | " + " | ".join(f"{row[name] / 1024:.1f}" for name in algorithms) + f" | {ratio:.2f} |"
        )
    print(
        "\nKiB per individual, traced; the last column is the guard's lowest ratio to the measurement "
        "(below 1 would let a run past the guard that does not fit)."
    )
    if args.json:
        args.json.write_text(json.dumps({str(k): v for k, v in measured.items()}, indent=2) + "\n")
    if min(ratios) < 1:
        sys.exit("the guard is below the measurement")


if __name__ == "__main__":
    main()
