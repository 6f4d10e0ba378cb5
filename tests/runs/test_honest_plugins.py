"""What a plug-in gives is judged on what it was given (issue 60, item 4): it runs on a copy of its
puzzle, its grid is verified against the task's own, and a process it forks gives no answer."""

from __future__ import annotations

import os

import numpy as np
import pytest

from deap_sudoku import load_sample
from deap_sudoku.exact import solve
from deap_sudoku.io import load_samples
from deap_sudoku.runs.registry import from_function
from deap_sudoku.runs.sandbox import run_contained
from deap_sudoku.runs.task import Task, run_task

EASY = load_sample("9x9-easy.txt")


def _elsewhere(puzzle) -> np.ndarray:
    """A solved grid that is not this puzzle's: its solution with two values swapped everywhere."""
    solution = solve(puzzle).cells
    return np.where(solution == 1, 2, np.where(solution == 2, 1, solution))


def rewrites_its_puzzle(puzzle, *, rng):
    grid = _elsewhere(puzzle)
    puzzle.cells.setflags(write=True)  # the array owns its data: numpy lets it be written again
    puzzle.cells[:] = grid
    return grid


def swaps_its_puzzle(puzzle, *, rng):
    grid = _elsewhere(puzzle)
    object.__setattr__(puzzle, "_cells", grid.astype(puzzle.cells.dtype))
    return grid


@pytest.mark.parametrize("plugin", [rewrites_its_puzzle, swaps_its_puzzle])
@pytest.mark.parametrize("runner", [run_task, run_contained])
def test_a_plugin_that_changes_its_puzzle_is_judged_on_the_puzzle_it_was_given(plugin, runner):
    record = from_function(plugin, name=f"mine:{plugin.__name__}")
    task = Task(record.name, EASY, record=record)
    before = task.puzzle.cells.copy()
    result = runner(task)
    assert not result.solved and result.grid == _elsewhere(EASY).tolist(), result
    assert np.array_equal(task.puzzle.cells, before) and not task.puzzle.cells.flags.writeable


def fools_the_verifier(puzzle, *, rng):
    import deap_sudoku.runs.task

    deap_sudoku.runs.task.unsolved_because = lambda grid, puzzle: ""  # in its own process: every grid solves
    return _elsewhere(puzzle)


def test_a_plugins_answer_from_its_own_process_is_verified_again_where_it_is_recorded():
    from deap_sudoku.runs import sandbox

    record = from_function(fools_the_verifier, name="mine:fools_the_verifier")
    try:
        result = run_contained(Task(record.name, EASY, record=record))
    finally:
        sandbox._SANDBOX.stop()  # its child's verifier is the plug-in's now: no later run goes there
    assert not result.solved and "verification failed" in result.note and result.found_by == ""


def forks(puzzle, *, rng):
    """Forks, and both processes return this puzzle's solution."""
    os.fork()
    return solve(puzzle).cells


def test_a_plugin_that_forks_gets_each_answer_filed_under_its_own_task():
    record = from_function(forks, name="mine:forks")
    puzzles = load_samples("9x9.txt")[:2]
    tasks = [
        Task(record.name, p, dataset="9x9", index=i, seed=s, record=record)
        for i, p in enumerate(puzzles)
        for s in (0, 1)
    ]
    results = [run_contained(task) for task in tasks]
    assert [(r.index, r.seed) for r in results] == [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
    ]  # recorded (0, 0), (0, 0), (1, 0), (1, 0)
    assert all(r.solved and r.grid == solve(t.puzzle).cells.tolist() for r, t in zip(results, tasks))


def test_a_fork_a_plugin_made_in_this_process_ends_where_it_returns(tmp_path):
    forked, went_on = tmp_path / "forked", tmp_path / "went on"

    def forks_and_tells(puzzle, *, rng):
        child = os.fork()
        if child:
            forked.write_text(str(child))
        return solve(puzzle).cells

    parent = os.getpid()
    record = from_function(forks_and_tells, name="mine:forks_and_tells")
    result = run_task(Task(record.name, EASY, record=record))
    if os.getpid() != parent:  # the fork went on past run_task, into the caller's program
        went_on.write_text("yes")
        os._exit(0)
    _, status = os.waitpid(int(forked.read_text()), 0)
    assert result.solved and not went_on.exists() and os.waitstatus_to_exitcode(status) == 0
