"""The clause-learning search: sound (never "no solution" where there is one, never a wrong grid),
complete on small grids, the same answers from its Python and compiled twins, and its budgets kept."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deap_sudoku import Puzzle, read
from deap_sudoku.exact import SearchBudgetExceeded, solve_learning, verify
from deap_sudoku.exact import clause_learning, clause_learning_kernel
from tests.exact.test_search import all_4x4_solutions


@settings(max_examples=120, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=16, max_size=16), st.integers(0, 3))
def test_finds_a_solution_exactly_when_one_exists_on_4x4(values, seed):
    """Random givens against brute force, on both twins: a verified grid when one exists, else None."""
    try:
        puzzle = Puzzle(values)
    except ValueError:
        return
    givens = puzzle.givens
    exists = bool(np.any(np.all(all_4x4_solutions()[:, givens] == puzzle.cells[givens], axis=1)))
    answers = [solve_learning(puzzle, rng=random.Random(seed), compiled=twin) for twin in (False, True)]
    assert answers[0] == answers[1]
    assert (answers[0] is not None) == exists
    assert answers[0] is None or verify(answers[0], puzzle)


def test_never_gives_up_on_a_hard_9x9_that_has_a_solution(shared_data):
    """A learnt clause that drops a literal it needs refutes a branch that holds the solution: with
    the minimisation's marks left set, 11 of the first 20 forum-hardest puzzles came out "no solution"."""
    puzzles = read(shared_data / "tdoku_data" / "forum_hardest_1106.txt")[::3]
    for puzzle in puzzles:
        solution = solve_learning(puzzle, compiled=True)
        assert solution is not None and verify(solution, puzzle), puzzle


@pytest.mark.parametrize("puzzle", ["hardest", "empty 16x16"])
def test_the_twins_take_the_same_path(shared_data, puzzle):
    """The same grid from the Python loop and the compiled one; on an empty grid, where any of very many
    solutions would do, the one found depends on every decision and learnt clause on the way."""
    if puzzle == "hardest":
        puzzles = read(shared_data / "norvig_pytudes" / "hardest.txt")[:4]
    else:
        puzzles = [Puzzle([0] * 256)]
    for one in puzzles:
        python, compiled = (solve_learning(one, rng=random.Random(7), compiled=twin) for twin in (False, True))
        assert python == compiled and verify(python, one)


def test_another_generator_another_search():
    empty = Puzzle([0] * 256)
    assert solve_learning(empty, rng=random.Random(1)) != solve_learning(empty, rng=random.Random(2))


def test_a_full_clause_store_grows_and_the_search_goes_on(shared_data, monkeypatch):
    """The kernel returns to Python for more room; the search then goes on as if it had had it."""
    puzzles = read(shared_data / "norvig_pytudes" / "hardest.txt")[:6]
    expected = [solve_learning(p, compiled=True) for p in puzzles]
    grown = []
    real_grow = clause_learning._grow
    monkeypatch.setattr(clause_learning, "LEARNT_ROOM", 1)
    monkeypatch.setattr(clause_learning, "_grow", lambda state: grown.append(1) or real_grow(state))
    assert [solve_learning(p, compiled=True) for p in puzzles] == expected
    assert len(grown) >= 2


def test_budgets_are_kept_and_checked(shared_data):
    [hard] = read(shared_data / "norvig_pytudes" / "hardest.txt")[:1]
    with pytest.raises(SearchBudgetExceeded, match="after 1 conflict$"):
        solve_learning(hard, max_conflicts=1, compiled=True)
    with pytest.raises(ValueError, match="more than 0"):
        solve_learning(hard, max_seconds=0)
    with pytest.raises(ValueError, match="max_conflicts must be at least 1"):
        solve_learning(hard, max_conflicts=0)
    with pytest.raises(ValueError, match="sides up to 64"):
        solve_learning(Puzzle([0] * 81**2), compiled=True)


def test_a_contradiction_in_the_givens_is_no_solution():
    """Two givens that leave a cell no value: settled at level 0, without a decision."""
    cells = [0] * 81
    cells[0:8] = range(1, 9)  # row 1 needs a 9 in its last cell
    cells[9 * 4 + 8] = 9  # the last column has its 9 already
    assert solve_learning(Puzzle(cells)) is None


def test_without_the_target_phase_it_searches_otherwise_and_is_still_right(shared_data):
    """The ablation's switch: decisions set false instead of as in the fullest assignment yet."""
    for puzzle in read(shared_data / "norvig_pytudes" / "hardest.txt"):
        assert verify(solve_learning(puzzle, compiled=True, target_phase=False), puzzle)
    empty = Puzzle([0] * 256)
    assert solve_learning(empty, compiled=True) != solve_learning(empty, compiled=True, target_phase=False)


def test_clean_ups_in_the_middle_of_a_branch_keep_the_reasons(shared_data, monkeypatch):
    """A clean-up comes whenever its conflicts are due, at any depth: it must keep the clauses that set
    the values on the trail and renumber them.  With a clean-up every 3 conflicts (the Python loop
    reads its schedule when it runs), every grid still comes back solved."""
    monkeypatch.setattr(clause_learning_kernel, "REDUCE_FIRST", 3)
    monkeypatch.setattr(clause_learning_kernel, "REDUCE_INC", 0)
    for puzzle in read(shared_data / "tdoku_data" / "forum_hardest_1106.txt")[:60:6]:
        solution = solve_learning(puzzle, compiled=False)
        assert solution is not None and verify(solution, puzzle), puzzle


def test_rephasing_searches_otherwise_and_is_still_right(shared_data, monkeypatch):
    """The ablation's other switch: with a restart and a rephasing after every conflict (in the Python
    loop), the answers stay right and the path is not the one without rephasing."""
    monkeypatch.setattr(clause_learning_kernel, "REPHASE", 1)
    monkeypatch.setattr(clause_learning_kernel, "RESTART_UNIT", 1)
    for puzzle in read(shared_data / "tdoku_data" / "forum_hardest_1106.txt")[:60:15]:
        solution = solve_learning(puzzle, compiled=False)
        assert solution is not None and verify(solution, puzzle), puzzle
    empty = Puzzle([0] * 256)
    assert solve_learning(empty, compiled=False) != solve_learning(empty, compiled=False, rephase=False)


def _luby_restarts_within(conflicts: int, unit: int) -> int:
    """How many restarts the Luby schedule (``unit`` conflicts per unit, MiniSat's sequence 1, 1, 2,
    1, 1, 2, 4, ...) allows in ``conflicts`` conflicts: the k-th comes after ``unit * luby(k)`` more."""

    def luby(i: int) -> int:  # i from 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        return 1 << (k - 1) if (1 << k) - 1 == i else luby(i - (1 << (k - 1)) + 1)

    count, spent = 0, 0
    while spent + unit * luby(count + 1) <= conflicts:
        count += 1
        spent += unit * luby(count)
    return count


SCHEDULES = ("RESTART_UNIT", "REDUCE_FIRST", "REDUCE_INC", "REPHASE")


@pytest.fixture
def short_schedules(monkeypatch):
    """Every mechanism's schedule made short (the Python loop reads them when it runs), so that a
    hard 9x9 of a few hundred conflicts meets each many times."""
    for name, value in zip(SCHEDULES, (2, 20, 5, 10)):
        monkeypatch.setattr(clause_learning_kernel, name, value)


_COUNTED: dict[tuple, list[dict]] = {}


def _counts(shared_data, **options) -> list[dict]:
    """The Python search's statistics on five hard 9x9s, searched once per process for each set of
    options and schedules (several tests read the same searches)."""
    schedules = tuple(getattr(clause_learning_kernel, name) for name in SCHEDULES)
    key = (tuple(sorted(options.items())), schedules)
    if key not in _COUNTED:
        counts = []
        for puzzle in read(shared_data / "tdoku_data" / "forum_hardest_1106.txt")[:40:8]:
            statistics: dict = {}
            assert verify(solve_learning(puzzle, compiled=False, statistics=statistics, **options), puzzle)
            counts.append(statistics)
        _COUNTED[key] = counts
    return [dict(counts) for counts in _COUNTED[key]]


def test_restarts_follow_the_luby_schedule(shared_data, short_schedules):
    """Restarts happen, and never before the Luby schedule allows (switched off, there are none)."""
    counts = _counts(shared_data)
    assert all(1 <= c["restarts"] <= _luby_restarts_within(c["conflicts"], 2) for c in counts), counts
    assert sum(c["restarts"] for c in counts) >= sum(_luby_restarts_within(c["conflicts"], 2) for c in counts) // 2


def test_clean_ups_keep_the_learnt_clauses_few(shared_data, short_schedules, monkeypatch):
    """Each clean-up drops about half of the learnt clauses: the store ends with about a third as many
    as the conflicts that learnt them, where without clean-ups it keeps nearly one per conflict."""
    cleaned = _counts(shared_data)
    monkeypatch.setattr(clause_learning_kernel, "REDUCE_FIRST", 10**9)
    kept = _counts(shared_data)
    assert all(c["reductions"] >= 1 for c in cleaned) and not any(c["reductions"] for c in kept)
    share = [sum(c["learnt"] for c in run) / sum(c["conflicts"] for c in run) for run in (cleaned, kept)]
    assert share[0] < 0.5 < 0.8 < share[1], share


def test_rephasing_happens_only_where_it_is_switched_on(shared_data, short_schedules):
    """Rephasing comes on its arithmetic schedule when switched on, never with ``rephase=False`` or
    without a target phase."""
    assert sum(c["rephases"] for c in _counts(shared_data)) >= 3
    assert sum(c["rephases"] for c in _counts(shared_data, rephase=False)) == 0
    assert sum(c["rephases"] for c in _counts(shared_data, target_phase=False)) == 0


def test_statistics_are_filled_when_a_budget_ends_the_search(shared_data):
    [hard] = read(shared_data / "tdoku_data" / "forum_hardest_1106.txt")[:1]  # 73 conflicts to settle
    statistics: dict = {}
    with pytest.raises(SearchBudgetExceeded):
        solve_learning(hard, max_conflicts=3, compiled=False, statistics=statistics)
    assert statistics["conflicts"] == 3
    assert set(statistics) == {"conflicts", "restarts", "rephases", "reductions", "learnt"}


RECORDED = {
    "python, short schedules": [
        (25, 6, 2, 1, 15),
        (97, 20, 4, 3, 35),
        (117, 26, 4, 4, 26),
        (94, 21, 4, 3, 27),
        (32, 7, 2, 1, 20),
    ],
    "compiled": [(149, 1, 0, 0, 146), (189, 1, 0, 0, 187), (58, 0, 0, 0, 57)],
}
"""Conflicts, restarts, rephases, clean-ups and learnt clauses kept, as the search counted them before
its loop was split into named parts (669cbd6, one 411-line function): the split moved code, not the
search."""


def _recorded_counts(puzzles, seed, compiled):
    found = []
    for puzzle in puzzles:
        statistics: dict = {}
        assert verify(solve_learning(puzzle, rng=random.Random(seed), compiled=compiled, statistics=statistics), puzzle)
        found.append(tuple(statistics[k] for k in ("conflicts", "restarts", "rephases", "reductions", "learnt")))
    return found


def test_the_python_search_is_the_one_recorded_before_its_loop_was_split(shared_data, short_schedules):
    hard = read(shared_data / "tdoku_data" / "forum_hardest_1106.txt")[:40:8]
    assert _recorded_counts(hard, 5, compiled=False) == RECORDED["python, short schedules"]


def test_the_compiled_search_is_the_one_recorded_before_its_loop_was_split(shared_data):
    """With the schedules as written: the compiled parts take the module's constants when compiled."""
    general = shared_data / "lloyd_amos_aco" / "general"
    big = [read(general / f"inst25x25_45_{i}.txt")[0] for i in (0, 1, 10)]
    assert _recorded_counts(big, 1, compiled=True) == RECORDED["compiled"]
