"""``make_toolbox``: a ready ``deap.base.Toolbox`` for a puzzle, a representation and operators by name."""

from __future__ import annotations

import functools

from deap import base, tools

from . import crossover, init, mutation, selection
from . import fitness as fitness_functions
from .fitness import batch_map
from .individual import clone, individual_class
from .puzzle import Puzzle

__all__ = ["make_toolbox", "REPRESENTATIONS", "FITNESSES", "CROSSOVERS", "MUTATIONS", "SELECTIONS"]

REPRESENTATIONS = {
    # name: (initialiser, smart initialiser or None, default crossover, default mutation)
    "block": (init.init_block_permutation, init.init_smart_block_permutation, "block_uniform", "swap_in_box"),
    "row": (init.init_row_permutation, None, "row_uniform", "swap_in_row"),
    "cells": (init.init_free_cells, None, "cell_uniform", "random_reset"),
}
FITNESSES = {
    "collisions": fitness_functions.eval_collisions,
    "column_box_collisions": fitness_functions.eval_column_box_collisions,
    "distinct": fitness_functions.eval_distinct,
    "threats": fitness_functions.eval_threats,
    "closeness": fitness_functions.eval_closeness,
    "closeness_mk": fitness_functions.eval_closeness_mk,
}
MAXIMISED = {"distinct", "threats"}
CROSSOVERS = {
    "band_two_point": crossover.cx_band_two_point,
    "block_uniform": crossover.cx_block_uniform,
    "row_uniform": crossover.cx_row_uniform,
    "cell_uniform": crossover.cx_cell_uniform,
}
MUTATIONS = {
    "swap_in_box": mutation.mut_swap_in_box,
    "conflict_swap_in_box": functools.partial(mutation.mut_conflict_swap, in_box=True),
    "conflict_swap": mutation.mut_conflict_swap,
    "swap_in_row": mutation.mut_swap_in_row,
    "random_reset": mutation.mut_random_reset,
}
SELECTIONS = {
    "tournament": tools.selTournament,
    "roulette": selection.sel_roulette,
    "sus": selection.sel_stochastic_universal_sampling,
    "truncation": selection.sel_truncation,
    "elite_biased": selection.sel_elite_biased,
}


def _pick(table: dict, name: str, what: str):
    try:
        return table[name]
    except KeyError:
        raise ValueError(f"unknown {what} {name!r}; choose from {', '.join(table)}") from None


def make_toolbox(puzzle: Puzzle, *, representation: str = "block", smart: bool = True, restrict: bool = False,
                 fitness: str = "collisions", mate: str | None = None, mutate: str | None = None,
                 select: str = "tournament", tournsize: int = 3, indpb: float | None = None,
                 **select_options) -> base.Toolbox:
    """A toolbox with ``individual``, ``population``, ``evaluate``, ``mate``, ``mutate``, ``select``,
    a fast ``clone`` and a batched ``map``, ready for ``deap.algorithms.eaSimple``.

    ``smart`` uses the smart initialiser where the representation has one;
    ``restrict`` limits initial values to what constraint propagation allows;
    ``indpb`` is the per-row probability of the ``swap_in_row`` mutation (default ``1/n``);
    ``select_options`` go to the selection (e.g. ``keep=0.3`` for truncation).
    Every operator stays usable on its own: the toolbox only binds ``puzzle=``.
    """
    initialiser, smart_initialiser, default_mate, default_mutate = _pick(REPRESENTATIONS, representation,
                                                                         "representation")
    evaluate = _pick(FITNESSES, fitness, "fitness")
    icls = individual_class(1.0 if fitness in MAXIMISED else -1.0)
    indpb = 1.0 / puzzle.n if indpb is None else indpb
    toolbox = base.Toolbox()
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)
    toolbox.register("individual", smart_initialiser if smart and smart_initialiser else initialiser,
                     icls, puzzle=puzzle, restrict=restrict)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", evaluate, puzzle=puzzle)
    mate_name, mutate_name = mate or default_mate, mutate or default_mutate
    toolbox.register("mate", _pick(CROSSOVERS, mate_name, "crossover"), puzzle=puzzle)
    mutate_options = {"indpb": indpb} if mutate_name == "swap_in_row" else {}
    toolbox.register("mutate", _pick(MUTATIONS, mutate_name, "mutation"), puzzle=puzzle, **mutate_options)
    selector = _pick(SELECTIONS, select, "selection")
    if select == "tournament":
        select_options.setdefault("tournsize", tournsize)
    toolbox.register("select", selector, **select_options)
    return toolbox

