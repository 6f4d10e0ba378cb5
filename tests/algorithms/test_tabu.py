import random

import numpy as np

from deap_sudoku import read
from deap_sudoku.algorithms import tabu_search
from deap_sudoku.exact import verify

from tests.conftest import REPO


def test_tabu_solves_easy_and_medium_puzzles_without_propagation():
    for name in ("9x9-easy.txt", "9x9.txt"):
        for puzzle in read(REPO / "data" / name)[:2]:
            result = tabu_search(puzzle, restrict=False, max_steps=20_000, rng=random.Random(1))
            assert result.solved and verify(result.grid, puzzle), name


def test_tabu_keeps_givens_and_blocks_and_respects_budgets():
    puzzle = read(REPO / "data" / "9x9.txt")[0]
    result = tabu_search(puzzle, restrict=False, max_steps=5, rng=random.Random(0))
    assert result.steps <= 5
    grid = result.grid
    assert np.array_equal(grid[puzzle.givens], puzzle.cells[puzzle.givens])
    assert (np.sort(grid[puzzle.shape.boxes], axis=1) == np.arange(1, 10)).all()
    assert tabu_search(puzzle, max_seconds=0.0, restrict=False, rng=random.Random(0)).steps == 0


def test_tabu_is_reproducible_by_seed():
    puzzle = read(REPO / "data" / "9x9.txt")[1]
    first = tabu_search(puzzle, restrict=False, max_steps=300, rng=random.Random(4))
    second = tabu_search(puzzle, restrict=False, max_steps=300, rng=random.Random(4))
    assert np.array_equal(first.grid, second.grid) and first.steps == second.steps


def test_tabu_reports_progress_every_n_steps():
    puzzle = read(REPO / "data" / "testdata" / "expert.txt")[0]
    calls = []
    result = tabu_search(puzzle, restrict=False, max_steps=250, report_every=100, rng=random.Random(2),
                         callback=lambda step, score, best: calls.append((step, score, best)))
    assert [c[0] for c in calls] == [100, 200][:len(calls)] and calls
    assert all(best <= score for _, score, best in calls) and calls[-1][2] >= result.score
