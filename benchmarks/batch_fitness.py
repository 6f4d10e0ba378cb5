"""Batched against per-individual fitness, and eaSimple with and without the fast clone and map.

    python benchmarks/batch_fitness.py [--population 1000] [--repeat 5] [--json FILE]

Population of block-permutation individuals of the first puzzle of data/9x9.txt
(and a generated 25x25). Prints evaluations per second and ms per generation;
the best of --repeat timings is reported.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import time
from pathlib import Path

import numpy as np
from deap import algorithms

from deap_sudoku import Shape, read
from deap_sudoku.tools.fitness import batch_map
from deap_sudoku.exact.generate import generate_puzzle
from deap_sudoku.tools.individual import clone
from deap_sudoku.tools.toolbox import FITNESSES, make_toolbox

DATA = Path(__file__).resolve().parents[1] / "data"


def best_time(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def python_sets_collisions(grid: np.ndarray, units: list[list[int]]) -> int:
    values = grid.tolist()
    return sum(len(unit) - len({values[c] for c in unit}) for unit in units)


def fitness_rates(puzzle, size: int, repeat: int) -> list[dict]:
    toolbox = make_toolbox(puzzle)
    random.seed(0)
    population = toolbox.population(n=size)
    units = puzzle.shape.units.tolist()
    print(f"\n{puzzle.shape.name}, population {size}: evaluations per second")
    print("| fitness | per individual | batched | ratio |")
    print("|---|---:|---:|---:|")
    seconds = best_time(lambda: [python_sets_collisions(np.asarray(i), units) for i in population], repeat)
    print(f"| collisions, Python sets (reference) | {size / seconds:,.0f} | | |")
    rows = [{"grid": puzzle.shape.name, "fitness": "collisions, Python sets", "per_individual_per_s": size / seconds}]
    for name, evaluate in FITNESSES.items():
        toolbox.register("evaluate", evaluate, puzzle=puzzle)
        one = best_time(lambda: list(map(toolbox.evaluate, population)), repeat)
        batched = best_time(lambda: batch_map(toolbox.evaluate, population), repeat)
        print(f"| {name} | {size / one:,.0f} | {size / batched:,.0f} | {one / batched:.1f}x |")
        rows.append(
            {
                "grid": puzzle.shape.name,
                "fitness": name,
                "per_individual_per_s": size / one,
                "batched_per_s": size / batched,
            }
        )
    return rows


def generation_times(puzzle, size: int, generations: int, repeat: int) -> list[dict]:
    print(f"\neaSimple on {puzzle.shape.name}, population {size}, cxpb 0.5, mutpb 0.3: ms per generation")
    print("| toolbox | ms per generation |")
    print("|---|---:|")
    random.seed(0)
    start = make_toolbox(puzzle).population(n=size)  # made once: initialisation is not what is timed
    rows = []
    for label, fast in (
        ("DEAP defaults: deepcopy clone, builtin map", False),
        ("make_toolbox: clone + batch_map", True),
    ):
        toolbox = make_toolbox(puzzle)
        if not fast:
            toolbox.register("clone", copy.deepcopy)
            toolbox.register("map", map)

        def run():
            random.seed(1)
            population = [copy.deepcopy(ind) for ind in start]
            algorithms.eaSimple(population, toolbox, 0.5, 0.3, generations, verbose=False)

        milliseconds = 1000 * best_time(run, repeat) / generations
        print(f"| {label} | {milliseconds:.1f} |")
        rows.append({"toolbox": label, "ms_per_generation": milliseconds})
    return rows


def copy_costs(puzzle, repeat: int) -> list[dict]:
    import pickle
    import timeit

    ind = make_toolbox(puzzle).individual()
    ind.fitness.values = (3,)
    number = 20000
    print("\nOne 81-cell individual: microseconds per operation")
    print("| operation | µs |")
    print("|---|---:|")
    from deap import base, creator

    creator.create("BenchFitness", base.Fitness, weights=(-1.0,))
    creator.create("BenchGrid", np.ndarray, fitness=creator.BenchFitness)
    made = creator.BenchGrid(np.asarray(ind))
    made.fitness.values = (3,)
    rows = []
    for label, action in (
        ("toolbox.clone", lambda: clone(ind)),
        ("copy.deepcopy", lambda: copy.deepcopy(ind)),
        ("pickle round trip", lambda: pickle.loads(pickle.dumps(ind))),
        ("pickle round trip, creator-made ndarray individual", lambda: pickle.loads(pickle.dumps(made))),
    ):
        seconds = min(timeit.repeat(action, number=number, repeat=repeat)) / number
        print(f"| {label} | {seconds * 1e6:.1f} |")
        rows.append({"operation": label, "microseconds": seconds * 1e6})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--population", type=int, default=1000)
    parser.add_argument("--generations", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    nine = read(DATA / "9x9.txt")[0]
    results = {
        "fitness_9x9": fitness_rates(nine, args.population, args.repeat),
        "generation_9x9": generation_times(nine, args.population, args.generations, args.repeat),
        "copy_9x9": copy_costs(nine, args.repeat),
    }
    twenty_five = generate_puzzle(Shape(5, 5), 330, random.Random(1))
    results["fitness_25x25"] = fitness_rates(twenty_five, args.population, max(1, args.repeat // 2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
