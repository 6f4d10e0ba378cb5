"""A run held on the kernels' Python twins while another process compiles them takes the compiled
kernels up where it asks its budget (issue 52): clause learning between kernel calls, the exact
search between nodes, the GAs and the ant colony between children and generations.  The twins give
the same answers, so a take-up changes how long a run takes, never what it finds."""

from __future__ import annotations

import random
import sys
import time

import pytest

from deap_sudoku import read
from deap_sudoku.algorithms import stop as stop_module
from deap_sudoku.exact import backtracking, clause_learning, search, solve_learning
from deap_sudoku.exact.generate import generate_puzzle
from deap_sudoku.grid.shape import Shape
from deap_sudoku.propagation import choice
from deap_sudoku.runs import registry

from tests.conftest import REPO

SIXTEEN = generate_puzzle(Shape(4, 4), 102, random.Random(0), unique=False)
"""40 % givens: 134 search nodes to tell it has two solutions, two colony generations to solve it."""
TWENTY_FIVE = read(REPO / "data" / "25x25.txt")[0]


@pytest.fixture
def hold(monkeypatch) -> list:
    """A hold whose kernels are cached from the ``ready[0]``-th question on (counted in ``asked``);
    the loads it made are in ``loads``.  Returns ``[ready, asked, loads]``."""
    monkeypatch.setattr(choice, "HOLD_POLL_SECONDS", 0.0)
    state: list = [1, [], []]

    def until() -> bool:
        state[1].append(True)
        return len(state[1]) >= state[0]

    def start(ready: int, budgeted: bool = True) -> None:
        state[0] = ready
        choice.hold_compiled(until, load=lambda: state[2].append(time.perf_counter()), budgeted=budgeted)

    state.append(start)
    return state


def test_a_budgeted_hold_ends_only_where_the_budget_is_asked_with_time_left_to_load(hold):
    start = hold[3]
    start(ready=1)
    assert not choice.prefer_compiled(256, 16)  # a kernel call never takes the kernels up
    assert not choice.take_up_compiled(time.perf_counter() + choice.TAKE_UP_SECONDS / 2)  # too late to load
    assert hold[2] == [] and not choice.prefer_compiled(256, 16)
    assert choice.take_up_compiled(time.perf_counter() + 2 * choice.TAKE_UP_SECONDS)
    assert len(hold[2]) == 1 and choice.prefer_compiled(256, 16)
    assert not choice.take_up_compiled(None)  # once


def test_an_unbudgeted_hold_ends_at_a_kernel_call_or_where_the_run_asks(hold):
    start = hold[3]
    start(ready=2, budgeted=False)
    assert not choice.take_up_compiled(None)  # not cached yet
    assert choice.take_up_compiled(None) and len(hold[2]) == 1
    start(ready=1, budgeted=False)
    assert choice.prefer_compiled(256, 16) and len(hold[2]) == 1  # the kernel call loads them itself


def test_clause_learning_goes_on_compiled_from_where_it_stands(hold, monkeypatch):
    """The search that began in Python ends compiled, conflict for conflict the same search."""
    from deap_sudoku.exact import clause_learning_compiled

    kept: dict = {}
    expected = solve_learning(TWENTY_FIVE, compiled=False, statistics=kept)
    calls = []
    compiled_run = clause_learning_compiled.run
    monkeypatch.setattr(clause_learning_compiled, "run", lambda *a: calls.append(1) or compiled_run(*a))
    monkeypatch.setattr(clause_learning, "PAUSE_SECONDS", 1e-4)  # many calls: room for a take-up between
    hold[3](ready=3)
    switched: dict = {}
    assert solve_learning(TWENTY_FIVE, statistics=switched, max_seconds=60) == expected
    assert switched == kept and hold[2] and calls  # taken up, and the compiled loop ran
    assert len(hold[1]) == 3  # it asked between calls until the kernels were there


def test_clause_learning_asked_for_python_stays_in_python(hold):
    hold[3](ready=1)
    solve_learning(TWENTY_FIVE, compiled=False)
    assert hold[1] == [] and hold[2] == []


def test_the_exact_search_starts_over_compiled(hold, monkeypatch):
    expected = search(SIXTEEN, limit=2, compiled=False)
    calls = []
    compiled_search = backtracking._search_compiled
    monkeypatch.setattr(backtracking, "_search_compiled", lambda *a: calls.append(1) or compiled_search(*a))
    hold[3](ready=3)
    found = search(SIXTEEN, limit=2)
    assert found.solutions == expected.solutions and found.exhausted == expected.exhausted
    assert hold[2] and calls == [1]


@pytest.mark.parametrize("name", ["memetic", "acs"])
def test_the_population_methods_take_them_up_between_children_and_generations(name, hold, monkeypatch):
    """The memetic GA's repair and the colony's construction ask the hold at every kernel call; under
    a budgeted hold only their run takes the kernels up: its polls between children, its
    generations (the colony), or its seed's search (the memetic GA)."""
    monkeypatch.delitem(sys.modules, "numba", raising=False)  # left to choose: the hold decides
    record = registry.algorithm(name)
    hold[3](ready=2)
    record.run(SIXTEEN, seed=0, max_generations=3, max_seconds=60, requested=lambda: False)
    assert len(hold[2]) == 1  # taken up in the run


def test_a_poll_with_too_little_budget_left_keeps_the_twins(hold):
    hold[3](ready=1)
    poll = stop_module.Stop(max_seconds=choice.TAKE_UP_SECONDS / 2, started=time.perf_counter()).poller()
    poll()
    assert hold[2] == [] and not choice.prefer_compiled(256, 16)
    poll = stop_module.Stop(max_seconds=10 * choice.TAKE_UP_SECONDS, started=time.perf_counter()).poller()
    poll()
    assert len(hold[2]) == 1


def test_a_take_up_leaves_the_global_generators_as_they_were(monkeypatch):
    """The load runs a warm-up, which may draw from ``random``: a run's draws stay its own."""
    from deap_sudoku.runs import kernels

    monkeypatch.setattr(choice, "HOLD_POLL_SECONDS", 0.0)
    record = registry.algorithm("backtracking")
    monkeypatch.setattr(kernels, "compiled_before", lambda name, part="": True)
    drawn = registry.Algorithm(**{**vars(record), "warm_up": lambda puzzle, compiled: random.random()})
    kernels._hold("backtracking", SIXTEEN, drawn, True, None)
    random.seed(1)
    assert choice.take_up_compiled(None)
    assert random.random() == random.Random(1).random()
