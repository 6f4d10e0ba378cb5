"""check_operator: every public operator passes it, found in ``deap_sudoku.tools.__all__`` rather than
listed here, and each promise it checks is caught when an operator breaks it."""

from __future__ import annotations

import random

import numpy as np
import pytest

import deap_sudoku.tools as tools
from deap_sudoku import load_sample
from deap_sudoku.tools import OperatorContractError, check_operator, eval_collisions, mut_swap_in_box, sel_tournament
from deap_sudoku.tools.checks import KINDS

OPTIONS = {"mut_swap_in_row": {"indpb": 0.5}, "mut_reinit_row": {"indpb": 0.5}, "sel_tournament": {"tournsize": 3}}
"""The keyword arguments an operator cannot do without (what its toolbox.register line gives it)."""
PUBLIC = [name for name in tools.__all__ if name.split("_", 1)[0] in KINDS]
NINE, SIX = load_sample("9x9.txt"), load_sample("6x6.txt")


def test_the_public_operators_are_found_not_listed():
    assert len(PUBLIC) >= 24 and {
        "cx_block_uniform",
        "mut_swap_in_box",
        "sel_tournament",
        "eval_collisions",
        "init_block_permutation",
    } <= set(PUBLIC)


@pytest.mark.parametrize("puzzle", [NINE, SIX], ids=["9x9", "6x6"])
@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_operator_keeps_its_contract(name, puzzle):
    check_operator(getattr(tools, name), puzzle, **OPTIONS.get(name, {}))


def mut_not_a_tuple(individual, *, puzzle, rng=None):
    return individual


def mut_a_copy(individual, *, puzzle, rng=None):
    return (individual.copy(),)


def mut_moves_a_given(individual, *, puzzle, rng=None):
    given = int(np.flatnonzero(puzzle.givens)[0])
    individual[given] = individual[given] % puzzle.n + 1
    return (individual,)


def mut_breaks_boxes(individual, *, puzzle, rng=None):
    free = np.flatnonzero(~puzzle.givens)
    individual[free[0]] = individual[free[0]] % puzzle.n + 1  # a value twice in its box
    return (individual,)


mut_breaks_boxes.keeps = "block"


def mut_invalidates(individual, *, puzzle, rng=None):
    del individual.fitness.values
    return (individual,)


def mut_ignores_its_rng(individual, *, puzzle, rng=None):
    return mut_swap_in_box(individual, puzzle=puzzle, rng=random.Random())


def eval_changes_it(individual, *, puzzle):
    individual[np.flatnonzero(~puzzle.givens)[0]] = 1
    return eval_collisions(individual, puzzle=puzzle)


def eval_a_number(individual, *, puzzle):
    return eval_collisions(individual, puzzle=puzzle)[0]


def eval_misses_the_optimum(individual, *, puzzle):
    return (eval_collisions(individual, puzzle=puzzle)[0] + 1,)


eval_misses_the_optimum.weights = (-1.0,)


def sel_copies(individuals, k, *, rng=None):
    return [individual.__deepcopy__({}) for individual in sel_tournament(individuals, k, 3, rng=rng)]


def sel_sorts_in_place(individuals, k, *, rng=None):  # the best k, found by sorting the caller's list
    individuals.sort(key=lambda individual: individual.fitness, reverse=True)
    return individuals[:k]


def sel_the_worst(individuals, k, *, rng=None):
    return sorted(individuals, key=lambda individual: individual.fitness.values, reverse=True)[:k]


@pytest.mark.parametrize(
    "operator, message",
    [
        (mut_not_a_tuple, "not a tuple"),
        (mut_a_copy, "changed in place"),
        (mut_moves_a_given, "moved a given"),
        (mut_breaks_boxes, "no longer a block-permutation"),
        (mut_invalidates, "touched the fitness"),
        (mut_ignores_its_rng, "the same seed and parents gave other children"),
        (eval_changes_it, "changed the individual"),
        (eval_a_number, "not a tuple"),
        (eval_misses_the_optimum, "not the optimum 0"),
        (sel_copies, "not a member of the population"),
        (sel_sorts_in_place, "reordered or changed the population"),  # a population sorted best first hid it
        (sel_the_worst, "chose the worst individual"),
    ],
)
def test_each_breach_is_caught_and_named(operator, message):
    with pytest.raises(OperatorContractError, match=message):
        check_operator(operator, NINE)


def test_a_name_without_a_kind_is_refused_unless_the_kind_is_given():
    def shuffle(individual, *, puzzle, rng=None):
        return mut_swap_in_box(individual, puzzle=puzzle, rng=rng)

    with pytest.raises(ValueError, match="kind of operator"):
        check_operator(shuffle, NINE)
    check_operator(shuffle, NINE, kind="mut", keeps="block")
