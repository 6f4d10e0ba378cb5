"""The algorithm registry: one record per algorithm, and running a task through it."""

import math

import numpy as np
import pytest

from deap_sudoku import load_sample
from deap_sudoku.exact import verify
from deap_sudoku.runs import ALGORITHMS, Task, algorithm, names, run_task
from deap_sudoku.runs.registry import OPTIONS, takes

from tests.conftest import unsolvable

EASY = load_sample()


def test_records_say_what_each_algorithm_honours():
    assert names() == ("memetic", "block-ga", "restart-ga", "cell-ga", "row-ga", "tabu", "tabu-swap", "backtracking",
                       "analyzer", "propagation")
    assert names(checkpointable=True) == names(kind="ga")
    assert all(set(a.options) <= set(OPTIONS) for a in ALGORITHMS.values())
    assert takes("max_seconds") == ("memetic", "block-ga", "restart-ga", "cell-ga", "row-ga", "tabu", "tabu-swap",
                                    "backtracking")
    assert algorithm("tabu").options == ("max_steps", "max_seconds") and takes("tournament_size") == ("row-ga",)
    assert names(traced=True) == names(stoppable=True)
    assert algorithm("tabu").stoppable and not algorithm("backtracking").stoppable
    with pytest.raises(ValueError, match="choose from memetic"):
        algorithm("nope")


@pytest.mark.parametrize("name, options", [("memetic", {}), ("row-ga", dict(population_size=60)),
                                           ("tabu", dict(max_steps=20_000)), ("backtracking", {}),
                                           ("analyzer", {}), ("propagation", {})])
def test_a_task_runs_through_the_registry_and_is_verified(name, options):
    result = run_task(Task(name, EASY, seed=1, options=options))
    assert result.solved and verify(np.array(result.grid), EASY) and result.fitness == 0


def test_progress_requests_and_checkpoints_reach_only_algorithms_that_take_them():
    lines = []
    result = run_task(Task("row-ga", unsolvable(), options=dict(population_size=10, max_generations=3)),
                      progress=lines.append, requested=lambda: False)
    assert lines == [f"generation {g}: best fitness {m:g}" for g, m in enumerate(result.trace.series["best"])]
    assert result.trace.x == (0, 1, 2, 3) and result.objective.target == 0 and result.objective.lower_is_better
    stopped = run_task(Task("memetic", unsolvable(), options=dict(max_generations=50)), requested=lambda: True)
    assert stopped.note == "interrupted" and stopped.generations == 0
    with pytest.raises(ValueError, match="cannot be checkpointed"):
        run_task(Task("tabu", EASY), checkpoint=object())
    exhausted = run_task(Task("backtracking", unsolvable()))
    assert not exhausted.solved and exhausted.note == "exhausted" and math.isnan(exhausted.fitness)
