"""One :class:`Stop` for every run (issue 61): each loop reads the Stop it is given, its budgets and
the clock it carries, and the time left is worked out in one place (:meth:`Stop.seconds_left`).

Each loop is given a budget of evaluations (or steps, or nodes) and a planted time overrun: a
Stop whose clock began long before the call, with a budget already spent.  No wall-clock bound:
a loop that honours the overrun stops before its first move, whatever the machine's load."""

from __future__ import annotations

import random
import time

import pytest

from deap_sudoku import Puzzle
from deap_sudoku.algorithms import Stop, iterated_local_search, simulated_annealing, tabu_search
from deap_sudoku.algorithms.stop import given_stop
from deap_sudoku.runs.catalogue import local_search
from deap_sudoku.runs.registry import algorithm, from_function, names
from deap_sudoku.runs.task import Task, run_task
from tests.conftest import FORUM_HARDEST, unsolvable


def overrun() -> Stop:
    """A Stop whose 1 s budget was spent before the call: its clock began 100 s ago (and, so that a
    loop that ignores it ends all the same, a cap of steps and evaluations)."""
    return Stop(max_seconds=1.0, started=time.perf_counter() - 100, max_steps=400, max_evaluations=4000)


def test_the_time_left_is_the_budget_less_the_seconds_since_the_stop_began():
    assert Stop().seconds_left() is None and not Stop().out_of_time() and Stop().deadline() is None
    late = overrun()
    assert (
        late.seconds_left() <= -99
        and late.out_of_time()
        and late.limit("max_steps") == 400
        and late.deadline() == late.started + 1.0
    )
    fresh = Stop(max_seconds=50.0).begun()
    assert 0 < fresh.seconds_left() <= 50 and not fresh.out_of_time()
    assert late.begun() is late  # a clock begun by the caller is kept
    assert Stop(max_steps=5).limit("max_steps") == 5 and Stop().limit("max_evaluations") == float("inf")


def test_a_stop_and_loose_budgets_are_one_or_the_other():
    with pytest.raises(TypeError, match="not both .*max_seconds"):
        tabu_search(unsolvable(), rng=random.Random(0), max_seconds=3.0, stop=Stop(max_steps=10))
    built = given_stop(None, "loop", {}, max_steps=7, max_seconds=None)
    assert built.max_steps == 7 and built.started is not None


def test_tabu_search_reads_the_stop_it_is_given():
    result = tabu_search(unsolvable(), rng=random.Random(0), stop=Stop(max_steps=37))
    assert result.steps == 37 and not result.solved
    late = tabu_search(unsolvable(), rng=random.Random(0), stop=overrun())
    assert late.steps == 0 and late.stop_reason == "time"
    asked = tabu_search(unsolvable(), rng=random.Random(0), stop=Stop(max_steps=100, requested=lambda: True))
    assert asked.steps == 0 and asked.interrupted


def test_the_annealing_reads_the_stop_it_is_given():
    result = simulated_annealing(unsolvable(), rng=random.Random(0), stop=Stop(max_evaluations=333))
    assert result.evaluations == 333 and result.stop_reason == "evaluations"
    steps = simulated_annealing(unsolvable(), rng=random.Random(0), stop=Stop(max_steps=250))
    assert steps.steps == 250 and steps.stop_reason == "steps"
    late = simulated_annealing(unsolvable(), rng=random.Random(0), stop=overrun())
    assert late.steps == 0 and late.evaluations == 1 and late.stop_reason == "time"


def test_the_iterated_local_search_reads_the_stop_it_is_given():
    result = iterated_local_search(unsolvable(), rng=random.Random(0), patience=20, stop=Stop(max_evaluations=300))
    assert result.evaluations == 300 and result.stop_reason == "evaluations"
    steps = iterated_local_search(unsolvable(), rng=random.Random(0), patience=20, stop=Stop(max_steps=120))
    assert steps.steps == 120 and steps.stop_reason == "steps"
    late = iterated_local_search(unsolvable(), rng=random.Random(0), stop=overrun())
    assert late.steps == 0 and late.stop_reason == "time"


@pytest.mark.parametrize("recipe", [local_search.tabu, local_search.cp_ils, local_search.annealing])
def test_a_local_search_recipe_hands_its_stop_down(recipe):
    _, logbook, _ = recipe(unsolvable(), seed=0, stop=overrun())
    assert logbook.stop_reason == "time" and logbook[-1]["steps"] == 0


@pytest.mark.parametrize(
    "name, cap",
    [("block-ga", "max_generations"), ("acs", "max_generations"), ("tabu", "max_steps"), ("sa-lewis", "max_steps")],
)
def test_a_run_reads_the_clock_its_stop_carries(name, cap):
    """A run's start given by its caller (``deap-sudoku solve`` counts the loading of the kernels)
    travels in the Stop: a budget spent before the run ends it before its first generation or step."""
    given = {cap: 5, "max_seconds": 1.0}
    outcome = algorithm(name).run(unsolvable(), seed=0, started=time.perf_counter() - 100, **given)
    assert outcome.note == "time" and outcome.generations == outcome.steps == 0, outcome.note


def test_the_exact_solvers_take_their_limits_from_a_stop():
    assert Stop(max_nodes=9, max_seconds=2.0, started=5.0).search_limits() == {
        "max_nodes": 9,
        "max_seconds": 2.0,
        "started": 5.0,
    }
    assert "max_nodes" not in Stop(max_seconds=2.0).search_limits(nodes=None)
    hardest = Puzzle.parse(FORUM_HARDEST)
    nodes = algorithm("backtracking").run(hardest, seed=0, max_nodes=5)
    assert nodes.note == "no answer after 5 search nodes"
    for name in ("backtracking", "cdcl"):
        late = algorithm(name).run(hardest, seed=0, max_seconds=1.0, started=time.perf_counter() - 100)
        assert late.note.startswith("no answer within 1 s"), (name, late.note)


def test_a_function_of_yours_is_given_the_seconds_its_stop_leaves():
    given = []

    def mine(puzzle, *, rng, max_seconds=None):
        given.append(max_seconds)
        return puzzle.cells

    record = from_function(mine, name="mine")
    run_task(
        Task("mine", unsolvable(), options=dict(max_seconds=5.0), record=record), started=time.perf_counter() - 100
    )
    assert given == [1e-3]  # nothing left: the least a function is given


def test_every_bundled_loop_with_a_time_budget_is_covered_here():
    """A new kind of loop gets a test of its Stop here."""
    covered = {"ga", "colony", "local search", "exact"}
    timed = {algorithm(name).kind for name in names() if "max_seconds" in algorithm(name).options}
    assert timed <= covered, timed - covered


def test_spent_names_the_budget_a_local_search_has_spent_and_asks_only_when_told():
    """The one check the three local searches make between moves (Stop.spent)."""
    asked = []
    stop = Stop(max_steps=5, max_evaluations=9, requested=lambda: asked.append(1) or True).begun()
    assert stop.spent(5, 0) == "steps" and stop.spent(None, 9) == "evaluations" and stop.spent(4, 8) == ""
    assert asked == [] and stop.spent(4, 8, ask=True) == "interrupted" and asked == [1]
    assert Stop(max_seconds=1.0, started=time.perf_counter() - 100).spent(0, 0, ask=True) == "time"
    assert Stop().begun().spent(10**9, 10**9, ask=True) == ""  # no budget, no request: go on


def test_a_generation_loop_refuses_a_stop_whose_only_budget_it_never_reads():
    """A GA reads no max_steps or max_nodes: given only those, it would never end."""
    from deap_sudoku.algorithms.run import Run

    for stop in (Stop(max_steps=5), Stop(max_nodes=5)):
        with pytest.raises(ValueError, match="set at least one stop criterion"):
            Run([], stop=stop, stats=None, halloffame=None, callback=None, checkpoint=None, rng=None)
