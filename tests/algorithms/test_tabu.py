import random

import numpy as np
import pytest

from deap_sudoku import Puzzle, read
from deap_sudoku.algorithms import tabu_search
from deap_sudoku.exact import verify

from tests.conftest import REPO

SWAPS = dict(moves="swap", memory="cells")  # ours


def test_documented_tabu_solves_easy_puzzles_and_the_sources_example():
    puzzles = read(REPO / "data" / "9x9-easy.txt")[:2] + read(REPO / "data" / "sources" / "analyzer-example.txt")
    for puzzle in puzzles:
        result = tabu_search(puzzle, max_steps=20_000, rng=random.Random(1))
        assert result.solved and verify(result.grid, puzzle)
        assert result.visited == result.steps + 1  # every step moved to a board never seen before


def test_swap_tabu_solves_easy_and_medium_puzzles_without_propagation():
    for name, count in (("9x9-easy.txt", 2), ("9x9.txt", 1)):  # a medium one takes 3,700 steps, 2.5 s
        for puzzle in read(REPO / "data" / name)[:count]:
            result = tabu_search(puzzle, max_steps=20_000, rng=random.Random(1), **SWAPS)
            assert result.solved and verify(result.grid, puzzle), name
            assert result.visited == 0


def test_the_board_table_never_forgets():
    """Four empty squares that no filling completes: 256 boards, so 2000 steps that never return to a
    board must end up without a move (a cell tenure keeps moving)."""
    unsolvable = Puzzle.parse("1234341201204300")
    result = tabu_search(unsolvable, max_steps=2000, candidates=50, rng=random.Random(3))
    assert not result.solved and result.steps == 2000 and result.visited <= 256
    cells = tabu_search(unsolvable, max_steps=2000, candidates=50, rng=random.Random(3), memory="cells")
    assert cells.visited == 0 and cells.steps == 2000


def test_starts_and_moves_keep_givens_and_what_each_mode_promises():
    puzzle = read(REPO / "data" / "9x9.txt")[0]
    documented = tabu_search(puzzle, max_steps=5, rng=random.Random(0))
    swapped = tabu_search(puzzle, max_steps=5, rng=random.Random(0), **SWAPS)
    for result in (documented, swapped):
        assert result.steps <= 5
        assert np.array_equal(result.grid[puzzle.givens], puzzle.cells[puzzle.givens])
    assert (np.sort(swapped.grid[puzzle.shape.boxes], axis=1) == np.arange(1, 10)).all()
    assert not (np.sort(documented.grid[puzzle.shape.boxes], axis=1) == np.arange(1, 10)).all()  # random values
    assert tabu_search(puzzle, max_seconds=0.0, rng=random.Random(0)).steps == 0
    with pytest.raises(ValueError, match="moves is one of"):
        tabu_search(puzzle, moves="teleport", rng=random.Random(0))


@pytest.mark.parametrize("options", [{}, SWAPS])
def test_tabu_is_reproducible_by_seed(options):
    puzzle = read(REPO / "data" / "9x9.txt")[1]
    first = tabu_search(puzzle, max_steps=300, rng=random.Random(4), **options)
    second = tabu_search(puzzle, max_steps=300, rng=random.Random(4), **options)
    assert np.array_equal(first.grid, second.grid) and first.steps == second.steps


def test_the_documented_search_draws_its_moves_as_rng_choice_and_rng_randint_would():
    """The search draws each candidate through ``rng._randbelow``, as ``rng.choice(cells)`` and
    ``rng.randint(1, n - 1)`` do (faster): the outcome recorded before that change, seed 4."""
    puzzle = read(REPO / "data" / "9x9.txt")[1]
    result = tabu_search(puzzle, max_steps=300, rng=random.Random(4))
    assert (result.score, result.evaluations, result.trace[100]) == (9, 29912, (100, 16, 15))
    assert result.grid[:9].tolist() == [4, 5, 2, 1, 7, 8, 9, 6, 3]  # its first row


def test_tabu_reports_progress_every_n_steps():
    puzzle = read(REPO / "data" / "testdata" / "expert.txt")[0]
    calls = []
    result = tabu_search(
        puzzle,
        max_steps=250,
        report_every=100,
        rng=random.Random(2),
        callback=lambda step, score, best: calls.append((step, score, best)),
    )
    assert [c[0] for c in calls] == [100, 200][: len(calls)] and calls
    assert all(best <= score for _, score, best in calls) and calls[-1][2] >= result.score


@pytest.mark.parametrize(
    "moves, memory, scorer", [("value", "boards", "_delta"), ("value", "cells", "_delta"), ("swap", "cells", None)]
)
def test_every_scored_move_is_counted_and_no_other(moves, memory, scorer, monkeypatch):
    from deap_sudoku.algorithms import tabu

    calls = []
    name = scorer or "_swap_in_box"
    original = getattr(tabu, name)
    monkeypatch.setattr(tabu, name, lambda *args: calls.append(1) or original(*args))
    puzzle = read(REPO / "deap_sudoku" / "data" / "testdata" / "hard.txt")[0]
    result = tabu_search(puzzle, rng=random.Random(4), moves=moves, memory=memory, max_steps=300)
    # a swap is scored by making it and taking it back, and each step makes the chosen one
    scored = len(calls) if scorer else (len(calls) - result.steps) // 2
    assert result.evaluations == scored > 0
