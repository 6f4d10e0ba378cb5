"""The batched eaSimple: each array operator does what its per-individual twin does, and the GA solves."""

from __future__ import annotations

import random

import numpy as np
from deap import tools
from hypothesis import given, settings
from hypothesis import strategies as st

from deap_sudoku import read
from deap_sudoku.algorithms.batched import (
    cx_block_uniform_batched,
    ea_simple_batched,
    mut_swap_in_box_batched,
    sel_tournament_batched,
)
from deap_sudoku.tools.fitness import eval_collisions
from deap_sudoku.tools.individual import Individual
from deap_sudoku.tools.init import init_block_permutation
from deap_sudoku.exact import verify

from tests.conftest import REPO

PUZZLES = {name: read(REPO / "data" / name)[0] for name in ("9x9.txt", "6x6.txt", "16x16.txt")}


def _stack(puzzle, size, seed):
    rng = random.Random(seed)
    return np.stack([init_block_permutation(Individual, puzzle=puzzle, rng=rng) for _ in range(size)])


def _boxes_and_givens_ok(stack, puzzle):
    boxes = np.sort(stack[:, puzzle.shape.boxes], axis=2)
    return bool(
        np.all(boxes == np.arange(1, puzzle.n + 1)) and np.all(stack[:, puzzle.givens] == puzzle.cells[puzzle.givens])
    )


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PUZZLES)), st.integers(0, 2**32 - 1))
def test_crossover_exchanges_whole_boxes_and_mutation_swaps_two_cells_of_one_box(name, seed):
    puzzle = PUZZLES[name]
    rng = np.random.default_rng(seed)
    first, second = _stack(puzzle, 8, seed), _stack(puzzle, 8, seed + 1)
    before_first, before_second = first.copy(), second.copy()
    cx_block_uniform_batched(first, second, puzzle, rng)
    assert _boxes_and_givens_ok(first, puzzle) and _boxes_and_givens_ok(second, puzzle)
    for row in range(8):
        took = [
            np.array_equal(first[row, box], before_second[row, box])
            and np.array_equal(second[row, box], before_first[row, box])
            for box in puzzle.shape.boxes
        ]
        kept = [np.array_equal(first[row, box], before_first[row, box]) for box in puzzle.shape.boxes]
        assert all(t or k for t, k in zip(took, kept))
        assert sum(not k for k in kept) <= puzzle.n - 1
    before = first.copy()
    mut_swap_in_box_batched(first, puzzle, rng)
    assert _boxes_and_givens_ok(first, puzzle)
    for row in range(8):
        moved = np.flatnonzero(first[row] != before[row])
        assert len(moved) == 2  # a box holds distinct values, so a swap changes both cells
        assert len({int(puzzle.shape.cell_units[c][2]) for c in moved}) == 1
        assert not puzzle.givens[moved].any()


def test_tournament_picks_the_best_entrant_with_the_textbook_probabilities():
    """Entrants are drawn with replacement, so the best of 5 wins a tournament of size t with
    probability 1 - (4/5)^t and the worst only when all t entrants are it, (1/5)^t."""
    fitness = np.array([5, 3, 9, 1, 7])
    uniform = np.bincount(sel_tournament_batched(fitness, 5000, 1, np.random.default_rng(0)), minlength=5)
    assert all(abs(count - 1000) < 150 for count in uniform)
    wins = np.bincount(sel_tournament_batched(fitness, 5000, 5, np.random.default_rng(1)), minlength=5) / 5000
    assert abs(wins[3] - (1 - 0.8**5)) < 0.03 and wins[2] < 0.003
    assert np.all(np.diff(wins[np.argsort(fitness)]) <= 0.03)  # better fitness, more wins


def test_batched_ga_solves_the_easy_puzzle_and_returns_evaluated_individuals():
    puzzle = read(REPO / "data" / "9x9-easy.txt")[0]
    rng = random.Random(1)
    population = [init_block_permutation(Individual, puzzle=puzzle, rng=rng) for _ in range(300)]
    hof = tools.HallOfFame(1, similar=np.array_equal)
    final, logbook = ea_simple_batched(population, puzzle, 0.5, 0.3, 80, halloffame=hof, rng=np.random.default_rng(2))
    assert len(final) == 300 and len(logbook) == 81
    assert all(ind.fitness.values == eval_collisions(ind, puzzle=puzzle) for ind in final)
    assert logbook[0]["nevals"] == 300 and 0 < logbook[1]["nevals"] <= 300
    assert hof[0].fitness.values == (0,) and verify(hof[0], puzzle)
    assert _boxes_and_givens_ok(np.stack(final), puzzle)


def test_same_generator_seed_same_run():
    puzzle = PUZZLES["9x9.txt"]
    runs = []
    for _ in range(2):
        population = [Individual(row) for row in _stack(puzzle, 50, 3)]
        final, logbook = ea_simple_batched(population, puzzle, 0.5, 0.3, 10, rng=np.random.default_rng(4))
        runs.append((logbook.select("min"), np.stack(final)))
    assert runs[0][0] == runs[1][0] and np.array_equal(runs[0][1], runs[1][1])
