"""Recipes: the documented Sudoku GAs and the project's memetic GA, composed from the parts (tabu
search is in :mod:`~deap_sudoku.runs.catalogue.local_search`, the exact solvers in
:mod:`~deap_sudoku.runs.catalogue.exact_solvers`).

Each documented one runs as documented by default, our improvements being
switches (``docs/reproductions.md`` tables every rule).

Each takes a puzzle, a ``seed`` (the edge where a run's one ``random.Random`` is made) and a
``stop`` (:class:`~deap_sudoku.algorithms.Stop`: its budgets, criteria and stop request; the default
is the documented one, ``Stop(max_generations=1000)`` say), runs until it, and returns
``(population, logbook, hall_of_fame)``; nothing is printed (pass ``callback`` for progress).  A
recipe fills in what its caller's ``stop`` leaves unset: the fitness of a solved grid and the clock's
start, which is the recipe's entry, so that the first population is built on the clock.
:mod:`deap_sudoku.runs.registry` runs them by name for the command line: each declares its record
where it is defined (:func:`~deap_sudoku.runs.record.bundled`).  Each script in ``examples/`` writes
the same composition out in full, and a test holds the two equal run for run.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable


from deap import base, tools

from .. import seeding
from ...algorithms import (
    Checkpointer,
    Stop,
    ea_generational,
    ea_keep_refill,
    ea_memetic,
    ea_plus_children,
    memetic_toolbox,
)
from ...grid.puzzle import Puzzle
from ...tools import (
    Individual,
    batch_map,
    cell_map,
    clone,
    cx_band_two_point,
    cx_diagonal,
    eval_cell_collisions,
    eval_closeness,
    eval_collisions,
    init_block_permutation,
    init_smart_block_permutation,
    make_toolbox,
    max_threats,
    mut_conflict_swap,
    mut_random_reset,
    optimum,
    sel_roulette,
    sel_stochastic_universal_sampling,
    with_punish_same,
)
from ...tools.init import SEED_NODES
from ..composition import MEMETIC_ALIASES, evolve
from ..kernel_cache import warm_up_search
from ..record import COMPILING, bundled_ga

__all__ = [
    "memetic",
    "block_ga",
    "block_ga_restart",
    "cell_ga",
    "row_permutation_ga",
    "warm_up_memetic",
]

Callback = Callable[[int, list, tools.Logbook], None]

DEFAULT_SECONDS = 60.0
"""The memetic GA's default budget: wall time."""


def warm_up_memetic(puzzle: Puzzle, compiled: bool | None) -> None:
    """Compile or load the memetic GA's kernels: the repair's, and the seed's search."""
    # the GA alone, or a seed that solves the puzzle would leave the repair kernels to the first run
    memetic(puzzle, stop=Stop(max_generations=1), compiled=compiled, seed_nodes=None)
    warm_up_search(puzzle, compiled)


@bundled_ga(
    "memetic",
    "ours, the evolutionary flagship: memetic GA with propagation repair",
    ("cxpb",),
    example="memetic",
    operators=MEMETIC_ALIASES,
    warm_up=warm_up_memetic,
    warm_up_message=COMPILING.format(name="repair"),
)
def memetic(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    population_size: int = 4,
    cxpb: float = 0.2,
    restart_after: int = 20,
    share: float = 0.5,
    noise: float = 0.0,
    locked_candidates: bool = True,
    compiled: bool | None = None,
    seed_nodes: int | None = SEED_NODES,
    stop: Stop = Stop(max_seconds=DEFAULT_SECONDS),
    operators: dict | None = None,
    checkpoint: Checkpointer | None = None,
    callback: Callback | None = None,
):
    """The project's best GA, its evolutionary flagship: the memetic GA of :mod:`deap_sudoku.algorithms.memetic`
    (block-permutations, block-uniform crossover, propagation repair as local search, restarts of
    stalled slots), its first individual seeded by an exact search of ``seed_nodes`` nodes (``None``
    or 0: no seed), until solved or ``stop`` ends it: by default a minute of wall time, not a number of
    generations, which would end a run that is slower per generation (larger grids) but would succeed."""
    started, rng = time.perf_counter(), seeding.generator(seed)
    toolbox = memetic_toolbox(
        puzzle,
        rng=rng,
        share=share,
        noise=noise,
        locked_candidates=locked_candidates,
        compiled=compiled,
        seed_nodes=seed_nodes,
    )
    stop = stop.with_defaults(solved=0, started=started)
    return evolve(
        puzzle,
        operators,
        ea_memetic,
        toolbox,
        population_size,
        cxpb=cxpb,
        restart_after=restart_after,
        stop=stop,
        rng=rng,
        checkpoint=checkpoint,
        callback=callback,
    )


BLOCK_GA_FITNESSES = {
    "cell_collisions": eval_cell_collisions,
    "closeness": eval_closeness,
    "collisions": eval_collisions,
}
"""The block GA's fitness choices: the first two are documented, ``collisions`` is ours."""


@bundled_ga(
    "block-ga",
    'block GA as the C++ "Sudoku Löser" documents it',
    ("mutpb", "select", "fitness"),
    example="block_ga",
    choices={"select": ("truncation", "sus"), "fitness": tuple(BLOCK_GA_FITNESSES)},
)
def block_ga(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    population_size: int = 200,
    init: str = "random",
    crossover_kind: str = "two_point",
    fitness: str = "cell_collisions",
    select: str = "truncation",
    keep: float = 0.5,
    mutpb: float = 0.5,
    mutation_threshold: int = 1,
    in_box_pairs: bool = False,
    punish_same: bool = False,
    stop: Stop = Stop(stagnation=True, max_generations=1000),
    operators: dict | None = None,
    checkpoint: Checkpointer | None = None,
    callback: Callback | None = None,
):
    """Block GA as documented for the C++ "Sudoku Löser", improvements as switches (``examples/block_ga.py``)."""
    started, rng = time.perf_counter(), seeding.generator(seed)
    toolbox = _block_toolbox(
        puzzle, rng, init, crossover_kind, fitness, select, mutation_threshold, in_box_pairs, punish_same
    )
    stop = stop.with_defaults(solved=0, started=started)
    return evolve(
        puzzle,
        operators,
        ea_keep_refill,
        toolbox,
        population_size,
        mutpb=mutpb,
        keep=keep,
        parents=3 if crossover_kind == "diagonal" else 2,
        stop=stop,
        rng=rng,
        checkpoint=checkpoint,
        callback=callback,
    )


def _block_toolbox(
    puzzle: Puzzle,
    rng: random.Random,
    init: str,
    crossover_kind: str,
    fitness: str,
    select: str,
    mutation_threshold: int,
    in_box_pairs: bool,
    punish_same: bool,
) -> base.Toolbox:
    """The block GA's toolbox, as :func:`block_ga`'s switches compose it."""
    evaluate = BLOCK_GA_FITNESSES[fitness]
    toolbox = base.Toolbox()
    toolbox.register(
        "individual",
        init_smart_block_permutation if init == "smart" else init_block_permutation,
        Individual,
        puzzle=puzzle,
        rng=rng,
    )
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", evaluate, puzzle=puzzle)
    if crossover_kind == "diagonal":
        toolbox.register("mate", cx_diagonal, puzzle=puzzle)
    else:
        toolbox.register("mate", cx_band_two_point, puzzle=puzzle, rng=rng)
    toolbox.register(
        "mutate",
        mut_conflict_swap,
        puzzle=puzzle,
        cell_map=cell_map(evaluate),
        threshold=mutation_threshold,
        in_box=in_box_pairs,
        rng=rng,
    )
    if select == "truncation":
        toolbox.register("select", tools.selBest)
    else:
        toolbox.register("select", sel_stochastic_universal_sampling, rng=rng)
    if punish_same:
        toolbox.register("select", with_punish_same(toolbox.select, free=~puzzle.givens))
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)
    return toolbox


@bundled_ga(
    "restart-ga", "block GA with random restart as the Python GA documents it", ("mutpb",), example="block_ga_restart"
)
def block_ga_restart(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    population_size: int = 200,
    mutpb: float = 1.0,
    restart_every: int = 500,
    normalised_roulette: bool = False,
    restart_after: int | None = None,
    stop: Stop = Stop(max_generations=3000),
    operators: dict | None = None,
    checkpoint: Checkpointer | None = None,
    callback: Callback | None = None,
):
    """Block GA with random restart as documented for the Python GA (``examples/block_ga_restart.py``)."""
    started, rng = time.perf_counter(), seeding.generator(seed)
    toolbox = make_toolbox(
        puzzle,
        representation="block",
        smart=False,
        fitness="threats",
        mate="block_uniform",
        mutate="swap_in_box",
        select="roulette",
        rng=rng,
    )
    toolbox.register("select", sel_roulette, normalise=normalised_roulette, rng=rng)
    stop = stop.with_defaults(solved=max_threats(puzzle.shape), started=started)
    return evolve(
        puzzle,
        operators,
        ea_plus_children,
        toolbox,
        population_size,
        mutpb=mutpb,
        restart_every=None if restart_after else restart_every,
        restart_after=restart_after,
        stop=stop,
        rng=rng,
        checkpoint=checkpoint,
        callback=callback,
    )


@bundled_ga("cell-ga", "cell GA as the report's Implementation 1 documents it", ("cxpb", "mutpb"), example="cell_ga")
def cell_ga(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    population_size: int = 200,
    cxpb: float = 1.0,
    mutpb: float = 1.0,
    amount: int = 2,
    free_cells_only: bool = False,
    stop: Stop = Stop(max_generations=1000),
    operators: dict | None = None,
    checkpoint: Checkpointer | None = None,
    callback: Callback | None = None,
):
    """Cell GA as documented for the report's Implementation 1 (``examples/cell_ga.py``)."""
    started, rng = time.perf_counter(), seeding.generator(seed)
    toolbox = make_toolbox(
        puzzle, representation="cells", fitness="distinct", mate="cell_uniform", select="elite_biased", rng=rng
    )
    toolbox.register("mutate", mut_random_reset, puzzle=puzzle, amount=amount, any_cell=not free_cells_only, rng=rng)
    stop = stop.with_defaults(solved=optimum(toolbox.evaluate.func, puzzle), started=started)
    return evolve(
        puzzle,
        operators,
        ea_generational,
        toolbox,
        population_size,
        cxpb=cxpb,
        mutpb=mutpb,
        one_child_per_mating=True,
        stop=stop,
        rng=rng,
        checkpoint=checkpoint,
        callback=callback,
    )


@bundled_ga(
    "row-ga",
    "row-permutation GA as the report's Implementation 2 documents it",
    ("cxpb", "mutpb", "tournsize"),
    example="row_permutation_ga",
)
def row_permutation_ga(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    population_size: int = 200,
    cxpb: float = 1.0,
    mutpb: float = 1.0,
    elites: int = 10,
    tournsize: int = 3,
    indpb: float = 0.1,
    restrict: bool = False,
    stop: Stop = Stop(max_generations=1000),
    operators: dict | None = None,
    checkpoint: Checkpointer | None = None,
    callback: Callback | None = None,
):
    """Row-permutation GA as documented for the report's Implementation 2 (``examples/row_permutation_ga.py``).

    :raises ValueError: for a ``tournsize`` larger than the population: each tournament draws that
        many, and a huge one would never end.
    """
    if tournsize > population_size:
        raise ValueError(f"tournsize {tournsize} is more than the population, {population_size}")
    started, rng = time.perf_counter(), seeding.generator(seed)
    toolbox = make_toolbox(
        puzzle,
        representation="row",
        restrict=restrict,
        fitness="column_box_collisions",
        mate="row_uniform",
        mutate="swap_in_row",
        indpb=indpb,
        select="tournament",
        tournsize=tournsize,
        rng=rng,
    )
    stop = stop.with_defaults(solved=0, started=started)
    return evolve(
        puzzle,
        operators,
        ea_generational,
        toolbox,
        population_size,
        cxpb=cxpb,
        mutpb=mutpb,
        elites=elites,
        stop=stop,
        rng=rng,
        checkpoint=checkpoint,
        callback=callback,
    )
