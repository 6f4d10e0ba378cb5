"""Every run says which part of its algorithm found the answer (issue 52, item 3), and ``auto``
chooses the algorithm by a puzzle's size and share of givens (item 4)."""

import pytest

from deap_sudoku import load_sample
from deap_sudoku.io import load_samples
from deap_sudoku.experiments.store import _record, _result
from deap_sudoku.runs import Task, run_task
from deap_sudoku.runs.auto import EASY_SHARE, PHASE_BAND, choose_algorithm
from deap_sudoku.cli.auto import found_by as phrase
from deap_sudoku.cli.status import ending
from deap_sudoku.grid import Puzzle
from deap_sudoku.runs.registry import from_function
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
        ("tabu-swap", EASY, dict(max_seconds=10), "start"),  # its start, narrowed by propagation
        ("acs", load_samples("9x9.txt")[4], dict(max_seconds=10), "ant colony"),  # at generation 1
    ],
)
def test_a_solved_run_says_which_part_found_the_answer(name, puzzle, options, found_by):
    result = run_task(Task(name, puzzle, options=options))
    assert result.solved and result.found_by == found_by and found_by in FOUND_BY
    assert _result(_record(result)).found_by == found_by  # kept in results files (bench --json, --results)


def _one_free_cell_a_box() -> Puzzle:
    """9x9.txt's solution with one cell of each box emptied: every start of a box fill is the solution."""
    solution = run_task(Task("backtracking", NINE)).grid
    cells = list(solution)
    for box in NINE.shape.boxes:
        cells[int(box[0])] = 0
    return Puzzle(cells, box=NINE.shape)


@pytest.mark.parametrize(
    "name, puzzle, found_by",
    [
        ("acs", EASY, "propagation"),  # generation 0 is the givens propagated
        ("acs-paper", EASY, "propagation"),
        ("sa-lewis-cp", EASY, "propagation"),  # propagation fixed every cell: 0 steps, no move
        ("sa-lewis", _one_free_cell_a_box(), "start"),
        ("cp-ils", _one_free_cell_a_box(), "start"),
        ("tabu-swap", _one_free_cell_a_box(), "start"),
    ],
)
def test_a_run_solved_before_any_move_or_ant_credits_what_solved_it(name, puzzle, found_by):
    result = run_task(Task(name, puzzle, options=dict(max_seconds=10)))
    assert result.solved and result.steps == 0 and result.generations == 0, result
    assert result.found_by == found_by
    assert "colony" not in ending(result) and "by local search" not in ending(result)
    assert ("(0 steps, " if result.trace.unit == "step" else "(0 generations, ") in ending(result)  # no GA's words


def test_a_local_search_solved_by_its_moves_says_local_search():
    for name in ("sa-lewis", "cp-ils"):
        result = run_task(Task(name, load_samples("4x4.txt")[0], options=dict(max_seconds=10)))
        assert result.solved and result.found_by == "local search", result


def test_every_kind_of_algorithm_that_solves_names_what_did():
    def mine(puzzle, *, rng):  # a function of a kind no phrase describes: it is named
        return run_task(Task("backtracking", puzzle)).grid

    record = from_function(mine, name="mymod:mine")
    result = run_task(Task("mymod:mine", EASY, record=record))
    assert result.solved and result.found_by == "algorithm" and phrase(result) == " by mymod:mine"
    assert [word for word, said in FOUND_BY.items() if not said] == ["algorithm"]  # every other word has its phrase


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


def test_a_ga_of_yours_says_whether_its_first_population_or_evolution_found_it():
    from deap_sudoku.algorithms import ea_simple
    from deap_sudoku.runs.user import from_toolbox
    from deap_sudoku.tools import make_toolbox

    mine = from_toolbox(lambda puzzle, rng: make_toolbox(puzzle, rng=rng), name="mine", population_size=20)
    results = [
        run_task(Task("mine", p, options=dict(max_generations=300), record=mine)) for p in load_samples("4x4.txt")
    ]
    assert all(r.solved for r in results) and {r.generations > 0 for r in results} == {True, False}, results
    assert all(r.found_by == ("evolution" if r.generations else "first population") for r in results)

    def seeded_loop(population, toolbox, **options):  # a loop that knows better says so in its logbook
        population, logbook = ea_simple(population, toolbox, **options)
        logbook.found_by = "seed search"
        return population, logbook

    seeded = from_toolbox(lambda puzzle, rng: make_toolbox(puzzle, rng=rng), name="seeded", loop=seeded_loop)
    four = load_samples("4x4.txt")[0]
    assert run_task(Task("seeded", four, options=dict(max_generations=300), record=seeded)).found_by == "seed search"
