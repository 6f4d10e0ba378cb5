"""Bytes a run allocates per individual, for each grid size and each algorithm that takes --population.

    python benchmarks/population_memory.py [--json benchmarks/results/population_memory.json]
        [--only acs,lsga] [--sides 16,36]

Each (size, algorithm) runs in a fresh process: one run at the larger population
compiles and caches what a run needs, then runs of two generations at
populations P, 2P, P and 2P are traced with ``tracemalloc`` (numpy's buffers included);
no run may end early (solved, stagnant or out of time: the ant colonies' first ants and
the memetic GA's seed solve the easy puzzles at once), and
the difference of the last two peaks over P is what one more individual costs (its
grid, its fitness, its offspring and its share of the batched fitness; an ant's grid
and its construction).  The figures set the guard that refuses a --population too big
for memory (``deap_sudoku.runs.memory.POPULATION_BYTES``, a table per family of
algorithms, each the worst of its members, which this prints), and the last line checks the
guard against each algorithm's measurement: it must never be below it.  With --only or
--sides, the figures measured are merged into the --json file's."""

from __future__ import annotations

import argparse
import json
import math
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
SLOW = {"memetic": {4: 4096, 9: 1024, 16: 256, 25: 128, 36: 64}}
"""Side: P for an algorithm whose generations are slow (the memetic GA searches locally from every
child: 5.5 min for its 4x4 at 8192), still at least one batch of the batched fitness (65,536 cells)."""

MEASURE = """
import dataclasses, sys, tracemalloc
from deap_sudoku import io
from deap_sudoku.runs import record, registry
# Every run lasts its two generations: one solved early (an ant colony's first ants, the memetic GA's
# seed), stagnant or out of time (the memetic GA's and the colony's default budgets are seconds) would
# peak lower and skew the difference.  Every algorithm that takes --population builds its stop here.
recipe_stop = record.recipe_stop
record.recipe_stop = lambda recipe, **fields: dataclasses.replace(
    recipe_stop(recipe, **fields), solved=float("nan"), stagnation=False, patience=None, max_seconds=None
)
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
    outcome = algorithm.run(puzzle, seed=0, population_size=population, max_generations=2)
    peaks[population] = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
    assert outcome.generations == 2, f"{name} ended after {outcome.generations} generations ({outcome.note})"
print((peaks[2 * small] - peaks[small]) / small)
"""


def per_individual(algorithm: str, path: str, small: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, algorithm, path, str(small)],
        capture_output=True,
        text=True,
        timeout=3600,
        cwd=REPO,
    )
    if done.returncode:
        sys.exit(f"{algorithm} on {path}: {done.stderr.strip().splitlines()[-1]}")
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=None, help="write the figures here (kept ones merged)")
    parser.add_argument("--only", default=None, help="comma-separated algorithms to measure (default: all)")
    parser.add_argument("--sides", default=None, help="comma-separated grid sides to measure (default: all)")
    args = parser.parse_args()
    from deap_sudoku.runs import registry

    algorithms = args.only.split(",") if args.only else list(registry.takes("population_size"))
    sides = [int(side) for side in args.sides.split(",")] if args.sides else list(SIZES)
    kept = json.loads(args.json.read_text()) if args.json and args.json.exists() and (args.only or args.sides) else {}
    measured: dict[int, dict[str, float]] = {int(side): row for side, row in kept.items()}
    with tempfile.TemporaryDirectory() as folder:
        for side in sides:
            path, small = SIZES[side]
            if path is None:
                path = str(Path(folder) / f"{side}x{side}.txt")
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "deap_sudoku",
                        "generate",
                        "--box",
                        f"{math.isqrt(side)}x{math.isqrt(side)}",
                        "--givens",
                        str(side * side // 2),
                        "--any",
                        "--format",
                        "grid",
                        "--out",
                        path,
                    ],
                    check=True,
                    cwd=REPO,
                )
            row = measured.setdefault(side, {})
            row.update({name: per_individual(name, path, SLOW.get(name, {}).get(side, small)) for name in algorithms})
            print(f"{side}x{side} done", file=sys.stderr)
    measured = dict(sorted(measured.items()))
    if args.json:
        args.json.write_text(json.dumps({str(k): v for k, v in measured.items()}, indent=2) + "\n")
    report(measured)


def report(measured: dict[int, dict[str, float]]) -> None:
    """Print the figures, each table of the guard as its worst member measured, and the guard's
    lowest ratio to the measurement per algorithm; exit non-zero where the guard is below it."""
    from deap_sudoku.cli.options import population_bytes
    from deap_sudoku.runs import registry
    from deap_sudoku.runs.memory import POPULATION_BYTES

    names = list(dict.fromkeys(name for row in measured.values() for name in row))
    print("| grid | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for side, row in measured.items():
        print(f"| {side}x{side} | " + " | ".join(f"{row[n] / 1024:.1f}" if n in row else "" for n in names) + " |")
    print("\nKiB per individual, traced.\n\nEach table as the worst of its algorithms (bytes):")
    for table in POPULATION_BYTES:
        members = [n for n in names if registry.algorithm(n).memory == table]
        points = tuple(
            (side * side, math.ceil(max(row[n] for n in members if n in row)))
            for side, row in measured.items()
            if any(n in row for n in members)
        )
        print(f"    {table!r}: {points},  # {', '.join(members)}")
    ratios = {
        name: min(population_bytes(side * side, name) / row[name] for side, row in measured.items() if name in row)
        for name in names
    }
    print("\nThe guard's lowest ratio to the measurement (below 1 lets a run past the guard that does not fit):")
    print("    " + ", ".join(f"{name} {ratio:.2f}" for name, ratio in ratios.items()))
    if min(ratios.values()) < 1:
        sys.exit("the guard is below the measurement")


if __name__ == "__main__":
    main()
