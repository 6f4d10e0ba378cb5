"""``make_toolbox``: a ready ``deap.base.Toolbox`` for a puzzle, a representation and operators by name."""

from __future__ import annotations

import functools
import random

from deap import base, tools

from ..grid.puzzle import Puzzle
from . import crossover, init, mutation, selection
from . import fitness as fitness_functions
from .fitness import batch_map
from .individual import clone, individual_class

__all__ = ["make_toolbox", "REPRESENTATIONS", "FITNESSES", "MAXIMISED", "CROSSOVERS", "MUTATIONS", "SELECTIONS"]

REPRESENTATIONS = {
    # name: (initialiser, smart initialiser or None, default crossover, default mutation)
    "block": (init.init_block_permutation, init.init_smart_block_permutation, "block_uniform", "swap_in_box"),
    "row": (init.init_row_permutation, None, "row_uniform", "swap_in_row"),
    "cells": (init.init_free_cells, None, "cell_uniform", "random_reset"),
}
FITNESSES = {
    "collisions": fitness_functions.eval_collisions,
    "cell_collisions": fitness_functions.eval_cell_collisions,
    "column_box_collisions": fitness_functions.eval_column_box_collisions,
    "distinct": fitness_functions.eval_distinct,
    "threats": fitness_functions.eval_threats,
    "closeness": fitness_functions.eval_closeness,
    "closeness_mk": fitness_functions.eval_closeness_mk,
}
MAXIMISED = {name for name, evaluate in FITNESSES.items() if evaluate.weights[0] > 0}
CROSSOVERS = {
    "band_two_point": crossover.cx_band_two_point,
    "block_uniform": crossover.cx_block_uniform,
    "row_uniform": crossover.cx_row_uniform,
    "cell_uniform": crossover.cx_cell_uniform,
}
MUTATIONS = {
    "swap_in_box": mutation.mut_swap_in_box,
    # ours: every cell in a collision, paired inside its box; the documented rule is "conflict_swap"
    "conflict_swap_in_box": functools.partial(mutation.mut_conflict_swap, threshold=0, in_box=True),
    "conflict_swap": mutation.mut_conflict_swap,
    "swap_in_row": mutation.mut_swap_in_row,
    "random_reset": mutation.mut_random_reset,
}
SELECTIONS = {
    "tournament": selection.sel_tournament,
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


def make_toolbox(
    puzzle: Puzzle,
    *,
    representation: str = "block",
    smart: bool = True,
    restrict: bool = False,
    fitness: str = "collisions",
    mate: str | None = None,
    mutate: str | None = None,
    select: str = "tournament",
    tournsize: int = 3,
    keep: float | None = None,
    indpb: float | None = None,
    rng: random.Random | None = None,
) -> base.Toolbox:
    """A toolbox with ``individual``, ``population``, ``evaluate``, ``mate``, ``mutate``, ``select``,
    a fast ``clone`` and a batched ``map``, ready for ``deap.algorithms.eaSimple`` (or
    :func:`~deap_sudoku.algorithms.deap_loops.ea_simple`, which also stops when solved).

    The individuals' class follows the fitness's direction (``individual_class(evaluate)``:
    ``threats`` and ``distinct`` are maximised, the rest minimised).

    ``smart`` uses the smart initialiser where the representation has one;
    ``restrict`` limits initial values to what constraint propagation allows;
    ``tournsize`` is the tournament's size (``select="tournament"``), ``keep``
    the share truncation keeps (``select="truncation"``, default 0.5);
    ``indpb`` is the per-row probability of the ``swap_in_row`` mutation
    (default ``1/n``).  ``rng`` is bound to every operator that draws, so one
    seeded generator makes the whole run reproducible; without it they draw
    from the ``random`` module, as DEAP's tools do.  Every operator stays usable
    on its own: the toolbox only binds ``puzzle=`` and ``rng=``.

    :raises ValueError: for an unknown name, or an option that the chosen operator does not take.
    :raises TypeError: for an unknown keyword (Python's own check: no option is swallowed).
    """
    initialiser, smart_initialiser, default_mate, default_mutate = _pick(
        REPRESENTATIONS, representation, "representation"
    )
    evaluate, selector = _pick(FITNESSES, fitness, "fitness"), _pick(SELECTIONS, select, "selection")
    mate_name, mutate_name = mate or default_mate, mutate or default_mutate
    mate_function = _pick(CROSSOVERS, mate_name, "crossover")
    mutate_function = _pick(MUTATIONS, mutate_name, "mutation")
    _refuse_unused(select, keep, mutate_name, indpb)
    draws = {"rng": rng} if rng is not None else {}
    icls = individual_class(evaluate)
    toolbox = base.Toolbox()
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)
    initialise = smart_initialiser if smart and smart_initialiser else initialiser
    toolbox.register("individual", initialise, icls, puzzle=puzzle, restrict=restrict, **draws)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", evaluate, puzzle=puzzle)
    toolbox.register("mate", mate_function, puzzle=puzzle, **draws)
    mutate_options = {"indpb": 1.0 / puzzle.n if indpb is None else indpb} if mutate_name == "swap_in_row" else {}
    toolbox.register("mutate", mutate_function, puzzle=puzzle, **mutate_options, **draws)
    toolbox.register("select", selector, **_selection_options(select, tournsize, keep, draws))
    return toolbox


def _selection_options(select: str, tournsize: int, keep: float | None, draws: dict) -> dict:
    """What the chosen selection is registered with: a tournament's size, truncation's share (it
    draws nothing), the generator for the others."""
    if select == "tournament":
        return {"tournsize": tournsize, **draws}
    return {"keep": 0.5 if keep is None else keep} if select == "truncation" else draws


def _refuse_unused(select: str, keep: float | None, mutate_name: str, indpb: float | None) -> None:
    """An option the chosen operator does not take is refused, never swallowed."""
    if keep is not None and select != "truncation":
        raise ValueError(f"keep= is the share truncation selection keeps; select={select!r} does not take it")
    if indpb is not None and mutate_name != "swap_in_row":
        raise ValueError(f"indpb= is the per-row probability of the swap_in_row mutation, not of {mutate_name!r}")
