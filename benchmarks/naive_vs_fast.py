"""The same GA written naively and with this package, timed in one run (issue 6's building blocks).

    python benchmarks/naive_vs_fast.py [--population 1000] [--generations 10]

All three run DEAP's eaSimple GA (cxpb 0.5, mutpb 0.3, tournament of 3) with
block-uniform crossover, an in-box swap mutation and the collision count:
naive = creator-made list individuals, Python-set fitness per individual,
deepcopy clone, builtin map, ``algorithms.eaSimple``; make_toolbox = the same
eaSimple with this package's numpy individuals, batched bitmask fitness and
fast clone; batched = ``deap_sudoku.algorithms.batched.ea_simple_batched``, the same
generation as array operations over the whole population.  Also: how one
evaluation and one local-search move grow with grid size (the tabu search's
in-box swap with incremental row/column scores, and the memetic GA's
destroy-and-rebuild move with the compiled kernel).
"""

from __future__ import annotations

import argparse
import json
import random
import time
import timeit
from pathlib import Path

import numpy as np
from deap import algorithms, base, creator, tools

from deap_sudoku import Shape, read
from deap_sudoku.algorithms.batched import ea_simple_batched
from deap_sudoku.tools.fitness import eval_collisions
from deap_sudoku.exact.generate import generate_puzzle
from deap_sudoku.tools.individual import Individual, clone
from deap_sudoku.tools.init import init_block_permutation
from deap_sudoku.algorithms.repair import mut_destroy_repair, mut_repair
from deap_sudoku.algorithms.tabu import _swap_in_box
from deap_sudoku.tools.toolbox import make_toolbox

DATA = Path(__file__).resolve().parents[1] / "data"


def naive_toolbox(puzzle) -> base.Toolbox:
    """The GA as a DEAP user would first write it: lists, sets, one evaluation at a time."""
    if not hasattr(creator, "NaiveFitness"):
        creator.create("NaiveFitness", base.Fitness, weights=(-1.0,))
        creator.create("NaiveGrid", list, fitness=creator.NaiveFitness)
    units = puzzle.shape.units.tolist()
    boxes = [[c for c in box if not puzzle.givens[c]] for box in puzzle.shape.boxes.tolist()]
    movable = [b for b in boxes if len(b) >= 2]
    n = puzzle.n

    def individual():
        return creator.NaiveGrid(init_block_permutation(Individual, puzzle=puzzle).tolist())

    def evaluate(grid):
        return (sum(len(unit) - len({grid[c] for c in unit}) for unit in units),)

    def mate(a, b):
        chosen = random.sample(range(n), random.randint(1, n - 1))
        for box in chosen:
            for cell in puzzle.shape.boxes[box].tolist():
                a[cell], b[cell] = b[cell], a[cell]
        return a, b

    def mutate(grid):
        x, y = random.sample(random.choice(movable), 2)
        grid[x], grid[y] = grid[y], grid[x]
        return (grid,)

    toolbox = base.Toolbox()
    toolbox.register("individual", individual)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", evaluate)
    toolbox.register("mate", mate)
    toolbox.register("mutate", mutate)
    toolbox.register("select", tools.selTournament, tournsize=3)
    return toolbox


def ours(puzzle) -> base.Toolbox:
    return make_toolbox(puzzle, smart=False, mate="block_uniform", mutate="swap_in_box")


def time_ga(toolbox, size: int, generations: int, puzzle=None, repeat: int = 3) -> tuple[float, int]:
    """Seconds (best of ``repeat``) and evaluations of ``generations`` generations from the same
    start; batched when ``puzzle`` is given."""
    random.seed(1)
    start_population = toolbox.population(n=size)
    best = float("inf")
    for _ in range(repeat):
        population = [toolbox.clone(ind) for ind in start_population]
        random.seed(2)
        start = time.perf_counter()
        if puzzle is None:
            _, logbook = algorithms.eaSimple(population, toolbox, 0.5, 0.3, generations, verbose=False)
        else:
            _, logbook = ea_simple_batched(population, puzzle, 0.5, 0.3, generations, rng=np.random.default_rng(1))
        best = min(best, time.perf_counter() - start)
    return best, sum(logbook.select("nevals"))


def compare(puzzle, size: int, generations: int) -> dict:
    print(f"\n{puzzle.shape.name}, population {size}, {generations} generations of eaSimple")
    print("| version | generations/s | evaluations/s | x naive |")
    print("|---|---:|---:|---:|")
    rows = {}
    for label, make, batched in (
        ("naive: lists, sets, deepcopy, map, eaSimple", naive_toolbox, False),
        ("deap_sudoku make_toolbox, eaSimple", ours, False),
        ("deap_sudoku ea_simple_batched", ours, True),
    ):
        seconds, evaluations = time_ga(make(puzzle), size, generations, puzzle if batched else None)
        rows[label] = {"generations_per_s": generations / seconds, "evaluations_per_s": evaluations / seconds}
        ratio = rows[label]["generations_per_s"] / next(iter(rows.values()))["generations_per_s"]
        print(f"| {label} | {generations / seconds:.1f} | {evaluations / seconds:,.0f} | {ratio:.1f}x |")
    return rows


def scaling() -> list[dict]:
    print(
        "\nOne evaluation and one local-search move against grid size (microseconds; puzzles with half the cells given)"
    )
    print(
        "| grid | eval_collisions, one individual | batched, per individual (population 1000) | in-box swap move "
        "| destroy-and-rebuild move |"
    )
    print("|---|---:|---:|---:|---:|")
    results = []
    # Only now load the compiled kernel: importing numba grows the heap and slows the GAs timed above.
    warm = read(DATA / "9x9.txt")[0]
    mut_repair(init_block_permutation(Individual, puzzle=warm), puzzle=warm)
    for box in ((3, 3), (4, 4), (5, 5), (6, 6)):
        shape = Shape(*box)
        puzzle = generate_puzzle(shape, shape.cells // 2, random.Random(1), unique=False)
        rng = random.Random(0)
        ind = init_block_permutation(Individual, puzzle=puzzle, rng=rng)
        one = min(timeit.repeat(lambda: eval_collisions(ind, puzzle=puzzle), number=200, repeat=3)) / 200
        population = np.stack([init_block_permutation(Individual, puzzle=puzzle, rng=rng) for _ in range(1000)])
        batch = min(timeit.repeat(lambda: eval_collisions.batch(population, puzzle), number=5, repeat=3)) / 5 / 1000
        grid = ind.tolist()
        n = shape.n
        units_of = [tuple(units) for units in shape.cell_units.tolist()]
        counts = [[0] * (n + 1) for _ in range(3 * n)]
        for cell, value in enumerate(grid):
            for unit in units_of[cell]:
                counts[unit][value] += 1
        free = [c for c in shape.boxes[0].tolist() if not puzzle.givens[c]]
        a, b = free[0], free[1]

        move = min(timeit.repeat(lambda: _swap_in_box(grid, a, b, n, counts), number=20000, repeat=3)) / 20000
        repaired = mut_repair(clone(ind), puzzle=puzzle, rng=rng)[0]  # a grid as the memetic GA holds them
        rebuild = (
            min(timeit.repeat(lambda: mut_destroy_repair(clone(repaired), puzzle=puzzle, rng=rng), number=20, repeat=3))
            / 20
        )
        results.append(
            {
                "grid": shape.name,
                "eval_one_us": one * 1e6,
                "eval_batched_us": batch * 1e6,
                "swap_move_us": move * 1e6,
                "rebuild_move_us": rebuild * 1e6,
            }
        )
        print(f"| {shape.name} | {one * 1e6:.1f} | {batch * 1e6:.2f} | {move * 1e6:.2f} | {rebuild * 1e6:,.0f} |")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--population", type=int, default=1000)
    parser.add_argument("--generations", type=int, default=10)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    results = {
        "9x9": compare(read(DATA / "9x9.txt")[0], args.population, args.generations),
        "25x25": compare(read(DATA / "25x25.txt")[0], args.population, max(2, args.generations // 2)),
        "scaling": scaling(),
    }
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
