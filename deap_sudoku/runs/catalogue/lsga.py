"""Wang et al.'s local-search GA (IEEE Transactions on Games 16(1), 2024: "LSGA") as a run, composed
from the package's parts (``examples/lsga.py`` writes the same composition out).  The paper's body
could not be read here: its rules come from the abstract and from third-party reimplementations that
say they follow its pseudocode (``docs/literature.md`` says which rule comes from where).

Row-permutation individuals with the givens fixed; fitness the illegal columns and boxes
(:func:`~deap_sudoku.tools.eval_illegal_units`); tournaments of 2; each parent mates with
probability 0.2 with a random parent, exchanging each row with probability 0.1; each row swaps two
free cells with probability 0.3 and is re-initialised with probability 0.05; then the column and
sub-block local searches; an elite archive of the 50 best ever, from which the population's worst
learns (:func:`~deap_sudoku.algorithms.ea_lsga`); 150 individuals, until solved or 200 generations.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from deap import base, tools

from .. import seeding
from ...algorithms import Checkpointer, Stop, ea_lsga
from ...grid.puzzle import Puzzle
from ...tools import (
    Individual,
    batch_map,
    clone,
    cx_row_uniform,
    eval_illegal_units,
    init_row_permutation,
    mut_block_local_search,
    mut_column_local_search,
    mut_reinit_row,
    mut_swap_in_row,
    sel_tournament,
)
from ..composition import GA_ALIASES, evolve
from ..record import bundled_ga

__all__ = ["lsga", "lsga_toolbox", "LSGA_ALIASES"]

Callback = Callable[[int, list, tools.Logbook], None]

LSGA_ALIASES = GA_ALIASES + ("reinit", "column_search", "block_search")
"""The toolbox aliases LSGA's loop calls: DEAP's, the row re-initialisation and the two local searches."""


def lsga_toolbox(
    puzzle: Puzzle, rng: random.Random, *, tournsize: int, row_cxpb: float, mutpb: float, reinitpb: float
) -> base.Toolbox:
    """LSGA's parts, registered under :data:`LSGA_ALIASES`, every part that draws bound to ``rng``."""
    toolbox = base.Toolbox()
    toolbox.register("individual", init_row_permutation, Individual, puzzle=puzzle, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_illegal_units, puzzle=puzzle)
    toolbox.register("mate", cx_row_uniform, puzzle=puzzle, indpb=row_cxpb, rng=rng)
    toolbox.register("mutate", mut_swap_in_row, puzzle=puzzle, indpb=mutpb, rng=rng)
    toolbox.register("reinit", mut_reinit_row, puzzle=puzzle, indpb=reinitpb, rng=rng)
    toolbox.register("column_search", mut_column_local_search, puzzle=puzzle, rng=rng)
    toolbox.register("block_search", mut_block_local_search, puzzle=puzzle, rng=rng)
    toolbox.register("select", sel_tournament, tournsize=tournsize, rng=rng)
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)
    return toolbox


@bundled_ga(
    "lsga",
    "after Wang et al. 2024 (rules from reimplementations): row GA, column and sub-block local search, elite learning",
    ("cxpb", "mutpb", "tournsize"),
    example="lsga",
    operators=LSGA_ALIASES,
    memory="lsga",
)
def lsga(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    population_size: int = 150,
    elite_size: int = 50,
    tournsize: int = 2,
    cxpb: float = 0.2,
    row_cxpb: float = 0.1,
    mutpb: float = 0.3,
    reinitpb: float = 0.05,
    stop: Stop = Stop(max_generations=200),
    operators: dict | None = None,
    checkpoint: Checkpointer | None = None,
    callback: Callback | None = None,
):
    """LSGA (``examples/lsga.py``): ``cxpb`` is the paper's individual crossover rate (PC1),
    ``row_cxpb`` its row crossover rate (PC2), ``mutpb`` its swap mutation rate per row (PM1),
    ``reinitpb`` its row re-initialisation rate (PM2).

    :raises ValueError: for a ``tournsize`` larger than the population, or an ``elite_size`` under 1.
    """
    if tournsize > population_size:
        raise ValueError(f"tournsize {tournsize} is more than the population, {population_size}")
    if elite_size < 1:
        raise ValueError(f"elite_size is at least 1, not {elite_size}")
    started, rng = time.perf_counter(), seeding.generator(seed)
    toolbox = lsga_toolbox(puzzle, rng, tournsize=tournsize, row_cxpb=row_cxpb, mutpb=mutpb, reinitpb=reinitpb)
    stop = stop.with_defaults(solved=0, started=started)
    return evolve(
        puzzle,
        operators,
        ea_lsga,
        toolbox,
        population_size,
        cxpb=cxpb,
        elite_size=elite_size,
        stop=stop,
        rng=rng,
        checkpoint=checkpoint,
        callback=callback,
    )
