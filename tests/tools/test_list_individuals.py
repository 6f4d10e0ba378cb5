"""Classic ``creator``-made list individuals go through every operator kind in DEAP's own ``eaSimple``,
and give the very run numpy individuals give; anything else gets a TypeError that says what is needed."""

import random

import numpy as np
import pytest
from deap import algorithms, base, creator, tools

from deap_sudoku import load_sample
from deap_sudoku.algorithms.repair import mut_destroy_repair, mut_repair
from deap_sudoku.tools import (
    cx_band_two_point,
    cx_bands,
    cx_block_uniform,
    cx_cell_uniform,
    cx_diagonal,
    cx_row_uniform,
    eval_cell_collisions,
    eval_closeness,
    eval_closeness_mk,
    eval_collisions,
    eval_column_box_collisions,
    eval_distinct,
    eval_threats,
    individual_class,
    init_block_permutation,
    init_free_cells,
    init_row_permutation,
    init_smart_block_permutation,
    mut_conflict_swap,
    mut_random_reset,
    mut_swap_in_box,
    mut_swap_in_row,
    sel_elite_biased,
    sel_roulette,
    sel_stochastic_universal_sampling,
    sel_tournament,
    sel_truncation,
    with_punish_same,
)

PUZZLE = load_sample()

# (initialiser, crossover, mutation, fitness, selection): every operator of every kind appears at least once
COMPOSITIONS = {
    "band two-point": (
        init_smart_block_permutation,
        (cx_band_two_point, {}),
        (mut_swap_in_box, {}),
        eval_collisions,
        (sel_tournament, {"tournsize": 3}),
    ),
    "block uniform": (
        init_block_permutation,
        (cx_block_uniform, {}),
        (mut_conflict_swap, {"threshold": 0, "in_box": True}),
        eval_threats,
        (sel_roulette, {}),
    ),
    "diagonal": (
        init_block_permutation,
        (cx_diagonal, {}),
        (mut_destroy_repair, {}),
        eval_cell_collisions,
        (sel_stochastic_universal_sampling, {}),
    ),
    "bands": (
        init_block_permutation,
        (cx_bands, {"first": 1, "stop": 2}),
        (mut_repair, {}),
        eval_closeness,
        (with_punish_same(sel_tournament), {"tournsize": 2}),
    ),
    "conflict swap": (
        init_block_permutation,
        (cx_block_uniform, {}),
        (mut_conflict_swap, {}),
        eval_closeness_mk,
        (sel_tournament, {"tournsize": 3}),
    ),
    "rows": (
        init_row_permutation,
        (cx_row_uniform, {}),
        (mut_swap_in_row, {"indpb": 0.2}),
        eval_column_box_collisions,
        (sel_truncation, {}),
    ),
    "cells": (
        init_free_cells,
        (cx_cell_uniform, {}),
        (mut_random_reset, {"amount": 2}),
        eval_distinct,
        (sel_elite_biased, {}),
    ),
}
DRAWS = {mut_destroy_repair, mut_repair}  # take rng= only (no global draws): bound to a seeded generator


def _list_class(evaluate):
    weight = evaluate.weights[0]
    name = f"SudokuList{'Max' if weight > 0 else 'Min'}"
    if not hasattr(creator, name):
        creator.create(name + "Fitness", base.Fitness, weights=(weight,))
        creator.create(name, list, fitness=getattr(creator, name + "Fitness"))
    return getattr(creator, name)


def _run(composition, icls):
    initialiser, (mate, mate_options), (mutate, mutate_options), evaluate, (select, select_options) = composition
    toolbox = base.Toolbox()
    toolbox.register("individual", initialiser, icls, puzzle=PUZZLE)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", evaluate, puzzle=PUZZLE)
    toolbox.register("mate", mate, puzzle=PUZZLE, **mate_options)
    draws = {"rng": random.Random(7)} if mutate in DRAWS else {}
    toolbox.register("mutate", mutate, puzzle=PUZZLE, **mutate_options, **draws)
    toolbox.register("select", select, **select_options)
    random.seed(3)
    population, logbook = algorithms.eaSimple(
        toolbox.population(n=12), toolbox, cxpb=0.7, mutpb=0.5, ngen=4, verbose=False
    )
    return population, logbook


@pytest.mark.parametrize("name", sorted(COMPOSITIONS))
def test_creator_list_individuals_run_in_ea_simple_like_numpy_individuals(name):
    composition = COMPOSITIONS[name]
    evaluate = composition[3]
    fresh = composition[0](_list_class(evaluate), puzzle=PUZZLE)
    assert all(type(v) is int for v in fresh)  # not numpy uint8 scalars that wrap around at 255
    as_lists, lists_log = _run(composition, _list_class(evaluate))
    as_arrays, arrays_log = _run(composition, individual_class(evaluate))
    assert all(type(ind) is _list_class(evaluate) and all(type(v) is int for v in ind) for ind in as_lists)
    assert [list(ind) for ind in as_lists] == [np.asarray(ind).tolist() for ind in as_arrays]  # the same run
    assert [ind.fitness.values for ind in as_lists] == [ind.fitness.values for ind in as_arrays]
    assert lists_log.select("nevals") == arrays_log.select("nevals")
    grids = np.array([list(ind) for ind in as_lists])
    assert (grids[:, PUZZLE.givens] == PUZZLE.cells[PUZZLE.givens]).all()  # givens intact
    if name not in ("cells", "conflict swap"):  # permutations stay so (the documented conflict swap pairs anywhere)
        units = PUZZLE.shape.rows if composition[0] is init_row_permutation else PUZZLE.shape.boxes
        assert (np.sort(grids[:, units], axis=-1) == np.arange(1, 10)).all()
    assert [ind.fitness.values for ind in as_lists] == [evaluate(grid, puzzle=PUZZLE) for grid in grids]


@pytest.mark.parametrize("operator", [cx_block_uniform, cx_row_uniform, cx_cell_uniform, cx_band_two_point])
def test_a_grid_of_rows_or_an_immutable_individual_gets_a_type_error_that_says_what_is_needed(operator):
    rows = [list(range(1, 10))] * 9
    with pytest.raises(TypeError, match=rf"{operator.__name__} needs a flat grid .* shape \(9, 9\)"):
        operator(rows, [1] * 81, puzzle=PUZZLE)
    with pytest.raises(TypeError, match=rf"{operator.__name__} changes individuals in place: .* not tuple"):
        operator((1,) * 81, [1] * 81, puzzle=PUZZLE)
