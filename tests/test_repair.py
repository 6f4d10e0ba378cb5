"""Propagation repair: invariants of every move, and agreement with the library's fitness."""

from __future__ import annotations

import random
from functools import lru_cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from deap_sudoku import Puzzle, Shape
from deap_sudoku.fitness import collision_map, eval_collisions
from deap_sudoku.generate import dig_puzzle, random_solution
from deap_sudoku.individual import Individual
from deap_sudoku.init import init_block_permutation
from deap_sudoku.repair import PropagationRepair, mut_destroy_repair, mut_repair
from deap_sudoku.solvers import propagate, verify

BOXES = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4)]


@lru_cache(maxsize=None)
def _solution(box):
    return random_solution(Shape(*box), random.Random(11))


@st.composite
def cases(draw):
    """A puzzle (any number of givens, unique or not), a random block-permutation of it and a generator."""
    box = draw(st.sampled_from(BOXES))
    seed = draw(st.integers(0, 2**32 - 1))
    solution = _solution(box)
    rng = random.Random(seed)
    puzzle = dig_puzzle(solution, draw(st.integers(0, solution.shape.cells)), rng, unique=False)
    return puzzle, init_block_permutation(Individual, puzzle, rng=rng), rng


def _is_block_permutation_of(ind, puzzle):
    values = np.asarray(ind)
    boxes_ok = np.all(np.sort(values[puzzle.shape.boxes], axis=1) == np.arange(1, puzzle.n + 1))
    return bool(boxes_ok and np.array_equal(values[puzzle.givens], puzzle.cells[puzzle.givens]))


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from(["repair", "destroy"]), st.floats(0, 1))
def test_moves_keep_givens_and_block_permutations_and_invalidate_fitness(case, move, noise):
    puzzle, ind, rng = case
    ind.fitness.values = eval_collisions(ind, puzzle)
    kernel = PropagationRepair(puzzle)
    if move == "repair":
        result = mut_repair(ind, repair=kernel, noise=noise, rng=rng)
    else:
        result = mut_destroy_repair(ind, repair=kernel, noise=noise, rng=rng)
    assert result == (ind,)
    assert _is_block_permutation_of(ind, puzzle)
    assert not ind.fitness.valid


@settings(max_examples=40, deadline=None)
@given(cases())
def test_collision_count_and_clashing_cells_agree_with_the_fitness_module(case):
    puzzle, ind, _ = case
    kernel = PropagationRepair(puzzle)
    values = ind.tolist()
    assert kernel.collisions(values) == eval_collisions(ind, puzzle)[0]
    assert kernel.clashing(values) == np.flatnonzero(collision_map(ind, puzzle)).tolist()


def test_rebuild_keeps_forced_cells_and_fills_every_cell():
    puzzle = Puzzle.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    kernel = PropagationRepair(puzzle)
    forced = propagate(puzzle).values
    values, failed = kernel.rebuild(puzzle.cells.tolist(), [], random.Random(0))
    assert all(values)
    assert all(values[c] == forced[c] for c in range(81) if forced[c])
    assert failed >= 0


def test_a_grid_without_failures_is_a_solution():
    """When no cell fails the construction is a solution: propagation checked every placement."""
    puzzle = _solution((3, 3))
    dug = dig_puzzle(puzzle, 30, random.Random(3), unique=True)
    kernel = PropagationRepair(dug)
    for seed in range(20):
        values, failed = kernel.rebuild(dug.cells.tolist(), [], random.Random(seed))
        if failed == 0:
            assert verify(np.array(values), dug)
            return
    raise AssertionError("no seed of 20 built the 30-given puzzle without failures")


def test_keeping_a_consistent_grid_rebuilds_it_unchanged():
    solution = _solution((4, 4))
    puzzle = dig_puzzle(solution, 100, random.Random(5), unique=False)
    kernel = PropagationRepair(puzzle)
    values = solution.cells.tolist()
    rebuilt, failed = kernel.rebuild(values, list(range(puzzle.shape.cells)), random.Random(0))
    assert failed == 0 and rebuilt == values
    assert kernel.destroy(values, random.Random(0)) == [c for c in range(256) if not puzzle.givens[c]
                                                         and c not in kernel.fixed]


def test_puzzle_that_propagation_refutes_is_flagged_and_still_repaired():
    puzzle = Puzzle.parse("12345678." + "........9" + "." * 63)  # r1c9 has no value left
    kernel = PropagationRepair(puzzle)
    assert not kernel.consistent
    ind = init_block_permutation(Individual, puzzle, rng=random.Random(0))
    mut_repair(ind, repair=kernel, rng=random.Random(0))
    assert _is_block_permutation_of(ind, puzzle)
    assert eval_collisions(ind, puzzle)[0] > 0
