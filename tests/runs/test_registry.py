"""The algorithm registry: one record per algorithm, and running a task through it."""

import math
import time

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


@pytest.mark.parametrize("recipe", ["memetic", "block_ga", "cell_ga", "row_permutation_ga", "block_ga_restart"])
def test_a_recipes_time_budget_counts_building_its_first_population(recipe, monkeypatch):
    """The reported seconds run from the recipe's call, so the budget must too: a slow set-up
    (here, a population that takes 0.3 s to make) leaves a 0.2 s budget spent at generation 0."""
    from deap_sudoku.runs import recipes
    made = []

    def slow_population(population):
        def make(n):
            made.append(n)
            time.sleep(0.3)
            return population(n)
        return make
    evolve = recipes._evolve

    def patched(puzzle, operators, loop, toolbox, *args, **kwargs):
        toolbox.register("population", slow_population(toolbox.population))
        return evolve(puzzle, operators, loop, toolbox, *args, **kwargs)
    monkeypatch.setattr(recipes, "_evolve", patched)
    _, logbook, _ = getattr(recipes, recipe)(unsolvable(), seed=1, max_seconds=0.2, max_generations=1000)
    assert made and logbook.stop_reason == "time" and len(logbook) == 1
