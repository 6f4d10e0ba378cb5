"""Every run says which part of its algorithm found the answer (issue 52, item 3), and ``auto``
chooses the algorithm by a puzzle's size and share of givens (item 4)."""

import pytest

from deap_sudoku import load_sample
from deap_sudoku.experiments.store import _record, _result
from deap_sudoku.runs import Task, run_task
from deap_sudoku.runs.auto import EASY_SHARE, PHASE_BAND, choose_algorithm
from deap_sudoku.runs.record import FOUND_BY

from tests.conftest import pattern_puzzle, unsolvable

NINE = load_sample("9x9.txt")
EASY = load_sample("9x9-easy.txt")


@pytest.mark.parametrize(
    "name, puzzle, options, found_by",
    [
        ("memetic", NINE, {}, "seed search"),
        ("memetic", NINE, dict(seed_nodes=None), "first population"),  # propagation repair settles it
        ("restart-ga", EASY, {}, "evolution"),
        ("cdcl", NINE, {}, "exact search"),
        ("backtracking", NINE, {}, "exact search"),
        ("propagation", EASY, {}, "propagation"),
        ("tabu-swap", EASY, dict(max_seconds=10), "local search"),
        ("acs", EASY, dict(max_seconds=10), "ant colony"),
    ],
)
def test_a_solved_run_says_which_part_found_the_answer(name, puzzle, options, found_by):
    result = run_task(Task(name, puzzle, options=options))
    assert result.solved and result.found_by == found_by and found_by in FOUND_BY
    assert _result(_record(result)).found_by == found_by  # kept in results files (bench --json, --results)


def test_an_unsolved_run_names_nothing():
    result = run_task(Task("memetic", unsolvable(), options=dict(max_generations=2)))
    assert not result.solved and result.found_by == ""


@pytest.mark.parametrize(
    "box, share, chosen",
    [
        (3, 0.3, "backtracking"),
        (4, 0.45, "backtracking"),
        (5, 0.3, "backtracking"),
        (5, PHASE_BAND[0], "cdcl"),  # 25x25 near the phase transition
        (5, 0.45, "cdcl"),
        (5, PHASE_BAND[1], "backtracking"),  # easier: clause learning's kernels cost more than they save
        (6, 0.3, "cdcl"),
        (6, 0.45, "cdcl"),
        (6, 0.5, "cdcl"),
        (6, EASY_SHARE, "backtracking"),
        (7, 0.4, "cdcl"),
    ],
)
def test_auto_chooses_by_size_and_share_of_givens(box, share, chosen):
    cells = box**4
    assert choose_algorithm(pattern_puzzle(box, round(cells * (1 - share)))) == chosen
