"""A benchmark plan makes its tasks as they are taken and names its missing runs in ranges (issue 16, point 10)."""

from __future__ import annotations

import itertools
import tracemalloc

from deap_sudoku import load_sample
from deap_sudoku.experiments import Plan
from deap_sudoku.runs import RunResult, Task

PUZZLES = [load_sample("9x9-easy.txt", i) for i in range(3)]


def _plan(runs: int) -> Plan:
    return Plan(
        (("a.txt", lambda: iter(PUZZLES), 3), ("b.txt", lambda: iter(PUZZLES[:1]), 1)),
        ("tabu", "memetic"),
        runs,
        seed=10,
        options={"tabu": {"max_steps": 5}},
    )


def _result(task: Task) -> RunResult:
    return RunResult(task.algorithm, task.dataset, task.index, task.seed, 0.5, True, 0.0, 0, 0, 0, 0.0, [])


def test_the_tasks_come_in_plan_order_with_their_options():
    plan = _plan(2)
    tasks = list(plan)
    assert len(plan) == len(tasks) == (3 + 1) * 2 * 2
    assert [(t.dataset, t.algorithm, t.index, t.seed) for t in tasks[:5]] == [
        ("a.txt", "tabu", 0, 10),
        ("a.txt", "tabu", 0, 11),
        ("a.txt", "tabu", 1, 10),
        ("a.txt", "tabu", 1, 11),
        ("a.txt", "tabu", 2, 10),
    ]
    assert tasks[0].puzzle is PUZZLES[0] and tasks[0].options == {"max_steps": 5} and tasks[6].options == {}


def test_a_hundred_million_runs_cost_nothing_before_the_first():
    """bench --runs 100000000 used to build every task first: 3.6 GiB before any run."""
    tracemalloc.start()
    try:
        plan = _plan(100_000_000)
        first = list(itertools.islice(plan, 1000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(plan) == 800_000_000 and len(first) == 1000 and peak < 1 << 20


def test_missing_runs_are_named_in_ranges_of_seeds():
    plan = _plan(100)
    done = [_result(t) for t in itertools.islice(plan, 150) if t.seed != 12]  # puzzles 1 and 2 of tabu, in part
    missing, count = plan.missing(done)
    assert count == len(plan) - len(done)
    assert missing[:4] == [
        "a.txt puzzle 1, tabu, seed 12",
        "a.txt puzzle 2, tabu, seed 12",
        "a.txt puzzle 2, tabu, seeds 60-109",
        "a.txt puzzle 3, tabu, seeds 10-109",
    ]
    assert missing[-1] == "b.txt puzzle 1, memetic, seeds 10-109" and len(missing) == 4 + 5
    assert plan.missing([_result(t) for t in plan]) == ([], 0)
