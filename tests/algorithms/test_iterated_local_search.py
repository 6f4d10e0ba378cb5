"""Musliu & Winter's iterated local search (``-a cp-ils``): one test per rule, each seen to fail when
its rule is broken (each was: a break per rule, the test that caught it named in the commit's notes)."""

from __future__ import annotations

import importlib
import random

import numpy as np
import pytest

from deap_sudoku import Puzzle, read
from deap_sudoku.algorithms import iterated_local_search
from deap_sudoku.exact import solve, verify
from deap_sudoku.tools import accept_not_worse, conflicting_cells, eval_collisions, free_cells, mut_free_and_complete
from deap_sudoku.tools.individual import Individual

from tests.conftest import FORUM_HARDEST, REPO, unsolvable
from tests.timing import kept, timed

module = ils_module = importlib.import_module("deap_sudoku.algorithms.iterated_local_search")
MEDIUM = read(REPO / "data" / "9x9.txt")
EASY = read(REPO / "data" / "9x9-easy.txt")

RULE_BREAKS = [
    {
        "rule": "every box a permutation of the values it misses, the givens fixed",
        "edits": [
            [
                "deap_sudoku/algorithms/iterated_local_search.py",
                "self.box_cells[cell] = [other for other in cells.tolist() if other != cell]",
                "self.box_cells[cell] = [other for other in free.cells.tolist() if other != cell]",
            ]
        ],
        "test": "test_grids_keep_the_givens_and_every_box_a_permutation_and_the_score_is_the_row_and_column_clashes",
    },
    {
        "rule": "cost: duplicates in rows and columns, scored incrementally",
        "edits": [
            [
                "deap_sudoku/algorithms/iterated_local_search.py",
                "        self.score += least\n",
                "        self.score += min(least, 0)\n",
            ]
        ],
        "test": "test_each_step_makes_the_best_swap_of_the_drawn_cell_in_its_box",
    },
    {
        "rule": "min-conflicts step: a free cell that clashes in its row or column, drawn uniformly, swapped with "
        "the best free cell of its box (even a worse one; ties drawn)",
        "edits": [
            [
                "deap_sudoku/algorithms/iterated_local_search.py",
                "            if self.clashing(cell):\n                return cell\n",
                "            return cell\n",
            ]
        ],
        "test": "test_the_min_conflicts_step_draws_only_clashing_cells_and_each_of_them",
    },
    {
        "rule": "min-conflicts step: a free cell that clashes in its row or column, drawn uniformly, swapped with "
        "the best free cell of its box (even a worse one; ties drawn)",
        "edits": [
            [
                "deap_sudoku/algorithms/iterated_local_search.py",
                "least = min(delta for delta, _ in allowed)",
                "least = max(delta for delta, _ in allowed)",
            ]
        ],
        "test": "test_each_step_makes_the_best_swap_of_the_drawn_cell_in_its_box",
    },
    {
        "rule": "tabu: giving a cell back its old value is tabu for `tenure` (10) steps, unless the swap beats the "
        "descent's best",
        "edits": [
            [
                "deap_sudoku/algorithms/iterated_local_search.py",
                "= step + self.tenure  #",
                "= step + self.tenure - 1  #",
            ]
        ],
        "test": "test_a_swap_that_gives_a_cell_back_its_value_is_tabu_for_tenure_steps_unless_it_beats_the_descents_best",  # noqa: E501
    },
    {
        "rule": "tabu: giving a cell back its old value is tabu for `tenure` (10) steps, unless the swap beats the "
        "descent's best",
        "edits": [
            [
                "deap_sudoku/algorithms/iterated_local_search.py",
                "if not tabu or score + delta < descent_best:",
                "if not tabu:",
            ]
        ],
        "test": "test_a_swap_that_gives_a_cell_back_its_value_is_tabu_for_tenure_steps_unless_it_beats_the_descents_best",  # noqa: E501
    },
    {
        "rule": "a descent ends after `patience` (200) steps without improvement",
        "edits": [
            [
                "deap_sudoku/algorithms/iterated_local_search.py",
                "while self.score and idle < patience:",
                "while self.score and idle < patience // 2:",
            ]
        ],
        "test": "test_a_descent_ends_after_patience_steps_without_beating_its_best",
    },
    {
        "rule": "acceptance: the descent's best replaces the current grid when not worse (`worse=P`: a worse one "
        "with probability P)",
        "edits": [
            ["deap_sudoku/tools/perturbation.py", "    if new_cost <= old_cost:\n", "    if new_cost < old_cost:\n"]
        ],
        "test": "test_accept_not_worse",
    },
    {
        "rule": "acceptance: the descent's best replaces the current grid when not worse (`worse=P`: a worse one "
        "with probability P)",
        "edits": [
            [
                "deap_sudoku/algorithms/iterated_local_search.py",
                "current, current_score = descent_grid, descent_score",
                "current_score = descent_score",
            ]
        ],
        "test": "test_the_perturbation_starts_from_the_accepted_grid",
    },
    {
        "rule": "perturbation: the clashing cells and `share` (0.2) of the other free cells are freed and completed "
        "by the exact search within `max_nodes` (200) nodes; where it finds no completion, each box's freed cells "
        "take its missing values, preferring those propagation allows",
        "edits": [
            ["deap_sudoku/tools/perturbation.py", "round(share * len(others))", "round(share * len(others) / 2)"]
        ],
        "test": "test_the_perturbation_frees_the_clashing_cells_and_a_share_of_the_rest_and_keeps_the_others",
    },
    {
        "rule": "evaluations: every swap scored, every perturbed grid and the start (search nodes not counted)",
        "edits": [
            [
                "deap_sudoku/algorithms/iterated_local_search.py",
                "        if count:\n            self.evaluations += 1\n",
                "        if count:\n            pass\n",
            ]
        ],
        "test": "test_every_swap_scored_is_one_evaluation_and_so_is_every_grid_scored_whole",
    },
]
"""One break per row of the rule table in docs/literature.md (more for some), each caught by the test
named (``benchmarks/rule_breaks.py``)."""


def _boxes_are_permutations(grid, puzzle: Puzzle) -> bool:
    return bool((np.sort(np.asarray(grid)[puzzle.shape.boxes], axis=1) == np.arange(1, puzzle.n + 1)).all())


def _search(puzzle: Puzzle, seed: int = 0, tenure: int = 10):
    return module._Search(puzzle, random.Random(seed), tenure=tenure, restrict=False)


# representation and cost


def test_grids_keep_the_givens_and_every_box_a_permutation_and_the_score_is_the_row_and_column_clashes():
    puzzle = MEDIUM[3]
    result = iterated_local_search(puzzle, rng=random.Random(1), max_steps=3000, patience=20)
    assert result.perturbations >= 5  # the perturbation ran, and its grids too were kept right
    assert np.array_equal(result.grid[puzzle.givens], puzzle.cells[puzzle.givens])
    assert _boxes_are_permutations(result.grid, puzzle)
    assert result.score == eval_collisions(result.grid, puzzle=puzzle)[0]  # rows and columns: boxes add none


def test_the_search_solves_medium_puzzles_and_says_so():
    for puzzle in (EASY[0], MEDIUM[0], MEDIUM[1]):
        result = iterated_local_search(puzzle, rng=random.Random(0), max_steps=20_000)
        assert result.solved and verify(result.grid, puzzle) and result.stop_reason == "solved"
        _, logbook, hof = result.as_deap()
        assert logbook.stop_reason == "solved" and hof[0].fitness.values == (0,)


# the descent: min-conflicts, best swap, tabu with aspiration


def test_the_min_conflicts_step_draws_only_clashing_cells_and_each_of_them():
    search = _search(MEDIUM[2])
    clashing = {cell for cell in search.movable_cells if search.clashing(cell)}
    assert clashing and len(clashing) < len(search.movable_cells)
    drawn = {search.pick() for _ in range(3000)}
    assert drawn == clashing


def test_each_step_makes_the_best_swap_of_the_drawn_cell_in_its_box():
    search = _search(MEDIUM[2])
    for step in range(1, 200):
        search.step = step
        search.tabu_until = {}  # nothing tabu: the step must make the best swap there is
        state = search.rng.getstate()
        a = search.pick()
        search.rng.setstate(state)  # descend draws the same cell
        deltas = []
        for b in search.box_cells[a]:
            before = search.score
            deltas.append(ils_module._swap_in_box(search.grid, a, b, search.n, search.counts) + before)
            ils_module._swap_in_box(search.grid, a, b, search.n, search.counts)
        search.descend(descent_best=-1, budget=float("inf"))
        assert search.score == min(deltas)
        assert search.score == eval_collisions(np.array(search.grid), puzzle=MEDIUM[2])[0]


def test_a_swap_that_gives_a_cell_back_its_value_is_tabu_for_tenure_steps_unless_it_beats_the_descents_best():
    search = _search(MEDIUM[2], tenure=7)
    search.step = 1
    before = list(search.grid)
    search.descend(descent_best=10**6, budget=float("inf"))
    moved = [cell for cell in range(len(before)) if before[cell] != search.grid[cell]]
    assert len(moved) == 2
    for cell in moved:
        assert search.tabu_until[(cell, before[cell])] == 1 + 7
    # every swap tabu: no move, unless a swap beats the descent's best (aspiration)
    search.step = 2
    search.tabu_until = {(cell, value): 100 for cell in search.movable_cells for value in range(1, 10)}
    frozen = list(search.grid)
    for _ in range(20):
        search.descend(descent_best=-1, budget=float("inf"))
    assert search.grid == frozen
    search.descend(descent_best=10**6, budget=float("inf"))
    assert search.grid != frozen


def test_a_descent_ends_after_patience_steps_without_beating_its_best(monkeypatch):
    steps_at = []
    original = ils_module.mut_free_and_complete

    def recording(individual, **options):
        steps_at.append(calls["search"].step)
        return original(individual, **options)

    calls = {}
    original_init = module._Search.__init__

    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        calls["search"] = self

    monkeypatch.setattr(module._Search, "__init__", init)
    monkeypatch.setattr(ils_module, "mut_free_and_complete", recording)
    iterated_local_search(unsolvable(), rng=random.Random(2), patience=25, max_steps=3000)
    assert len(steps_at) >= 10
    assert all(later - earlier >= 25 for earlier, later in zip([0, *steps_at], steps_at))
    steps_at.clear()
    iterated_local_search(unsolvable(), rng=random.Random(2), patience=10**6, max_steps=2000)
    assert steps_at == []


# acceptance


def test_accept_not_worse():
    rng = random.Random(0)
    assert accept_not_worse(5, 5, rng) and accept_not_worse(5, 3, rng)
    assert not any(accept_not_worse(3, 5, rng) for _ in range(100))
    assert all(accept_not_worse(3, 5, rng, worse=1.0) for _ in range(100))
    assert 30 < sum(accept_not_worse(3, 5, rng, worse=0.5) for _ in range(100)) < 70


@pytest.mark.parametrize("verdict", [False, True])
def test_the_perturbation_starts_from_the_accepted_grid(verdict, monkeypatch):
    puzzle = unsolvable()
    perturbed, judged = [], []
    original = ils_module.mut_free_and_complete

    def recording(individual, **options):
        perturbed.append(np.asarray(individual).copy())
        return original(individual, **options)

    def accept(old, new, rng, worse):
        judged.append((old, new))
        return verdict

    monkeypatch.setattr(ils_module, "mut_free_and_complete", recording)
    iterated_local_search(puzzle, rng=random.Random(3), patience=20, max_steps=1500, accept=accept)
    assert len(perturbed) >= 5 and len(judged) == len(perturbed)
    costs = [eval_collisions(grid, puzzle=puzzle)[0] for grid in perturbed]
    if verdict:  # each time the best of the descent just ended
        assert costs == [new for _, new in judged]
        assert [old for old, _ in judged[1:]] == [new for _, new in judged[:-1]]
    else:  # always the start, never replaced
        assert all(np.array_equal(grid, perturbed[0]) for grid in perturbed)
        assert {old for old, _ in judged} == {costs[0]}


# the perturbation


@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
def test_the_perturbation_frees_the_clashing_cells_and_a_share_of_the_rest_and_keeps_the_others(share, monkeypatch):
    from deap_sudoku.tools import perturbation

    puzzle = MEDIUM[3]
    free = free_cells(puzzle)
    searched = []
    original = perturbation.solve
    monkeypatch.setattr(perturbation, "solve", lambda sub, **options: searched.append(sub) or original(sub, **options))
    for seed in range(5):
        individual = Individual(np.array(_search(puzzle, seed).grid))
        before = np.asarray(individual).copy()
        clashing = set(conflicting_cells(before, puzzle).tolist())
        mut_free_and_complete(individual, puzzle=puzzle, share=share, max_nodes=1, rng=random.Random(seed))
        freed = set(np.flatnonzero(searched[-1].cells == 0).tolist())
        others = len(free.cells) - len(clashing)
        assert clashing <= freed and len(freed - clashing) == round(share * others)
        kept = np.flatnonzero(searched[-1].cells)
        assert np.array_equal(searched[-1].cells[kept], before[kept])
        assert np.array_equal(np.asarray(individual)[kept], before[kept])  # what was kept stays
        assert _boxes_are_permutations(individual, puzzle) and not np.array_equal(individual, before)


def test_the_perturbation_completes_by_search_when_the_kept_cells_allow_it():
    """All free cells of the forum's hardest freed (share 1): propagation alone does not finish it, the
    search does; a box-wise random fill would not be a solution."""
    puzzle = Puzzle.parse(FORUM_HARDEST)
    broken = solve(puzzle).cells.astype(np.int64)
    box = next(cells for cells in free_cells(puzzle).boxes if len(cells) >= 3)
    broken[box[0]], broken[box[1]] = broken[box[1]], broken[box[0]]
    individual = Individual(broken)
    mut_free_and_complete(individual, puzzle=puzzle, share=1.0, max_nodes=100_000, rng=random.Random(0))
    assert verify(individual, puzzle)


# budgets, counting, reproducibility


def test_every_swap_scored_is_one_evaluation_and_so_is_every_grid_scored_whole(monkeypatch):
    calls = []
    original = ils_module._swap_in_box
    monkeypatch.setattr(
        ils_module, "_swap_in_box", lambda grid, a, b, *rest: calls.append((a, b)) or original(grid, a, b, *rest)
    )
    result = iterated_local_search(unsolvable(), rng=random.Random(4), patience=20, max_steps=800)
    scored, i = 0, 0
    while i < len(calls):  # a step scores each swap by making and undoing it, then makes its choice
        if i + 1 < len(calls) and calls[i + 1] == calls[i]:
            scored, i = scored + 1, i + 2
        else:
            i += 1
    assert result.perturbations >= 5 and result.evaluations == scored + 1 + result.perturbations


@pytest.mark.parametrize("budget", [1, 57, 4000])
def test_the_evaluation_budget_is_exact(budget):
    result = iterated_local_search(unsolvable(), rng=random.Random(5), patience=20, max_evaluations=budget)
    assert result.evaluations == budget and result.stop_reason == "evaluations"


def test_no_perturbation_starts_once_the_budget_is_spent():
    """Descents of one idle step end on the budget now and then: the perturbation must not go past it."""
    for budget in range(2, 120):
        result = iterated_local_search(unsolvable(), rng=random.Random(5), patience=1, max_evaluations=budget)
        assert result.evaluations == budget, budget


def test_the_step_and_time_budgets_hold():
    result = iterated_local_search(unsolvable(), rng=random.Random(6), max_steps=777)
    assert result.steps == 777 and result.stop_reason == "steps"
    # judged against the machine (tests/timing.py): the same call with no time to spend calibrates
    _, calibration = timed(lambda: iterated_local_search(unsolvable(), rng=random.Random(6), max_seconds=0.0))
    result, took = timed(
        lambda: iterated_local_search(unsolvable(), rng=random.Random(6), max_steps=10**9, max_seconds=1.0)
    )
    assert result.stop_reason == "time" and took.wall >= 1.0 and kept(took, 1.0, calibration), (took, calibration)
    assert iterated_local_search(MEDIUM[0], rng=random.Random(0), max_seconds=0.0).steps == 0


def test_stop_requests_and_the_callback_end_the_search():
    calls = []
    result = iterated_local_search(
        unsolvable(),
        rng=random.Random(7),
        report_every=100,
        callback=lambda step, score, best: calls.append((step, score, best)) or step >= 300,
    )
    assert [c[0] for c in calls] == [100, 200, 300] and result.stop_reason == "callback"
    assert all(best <= score for _, score, best in calls)
    asked = iter([False, False, True])
    result = iterated_local_search(unsolvable(), rng=random.Random(7), requested=lambda: next(asked))
    assert result.interrupted and result.steps == 64


def test_the_search_is_a_function_of_its_seed():
    puzzle = unsolvable()
    first, second, other = (
        iterated_local_search(puzzle, rng=random.Random(seed), patience=20, max_steps=1500) for seed in (8, 8, 9)
    )
    assert np.array_equal(first.grid, second.grid) and first.trace == second.trace
    assert first.evaluations == second.evaluations and first.perturbations == second.perturbations
    assert first.trace != other.trace


def test_the_recipe_has_no_step_cap_by_default(monkeypatch):
    """A hidden default of 100,000 steps ended 3-second ``cp-ils`` runs early: the recipe's runs end by
    their time or evaluation budget."""
    from deap_sudoku.runs.catalogue import local_search

    seen = {}
    original = local_search.iterated_local_search

    def recording(puzzle, **options):
        seen.update(options)
        return original(puzzle, **options)

    monkeypatch.setattr(local_search, "iterated_local_search", recording)
    _, logbook, _ = local_search.cp_ils(unsolvable(), max_evaluations=50)
    assert seen["max_steps"] is None and logbook.stop_reason == "evaluations"
    result = iterated_local_search(unsolvable(), rng=random.Random(0), max_steps=None, max_evaluations=50)
    assert result.stop_reason == "evaluations" and result.evaluations == 50


def test_the_search_is_composed_of_its_toolbox():
    """``iterated_local_search`` takes its start, acceptance and perturbation from its toolbox (the
    example registers them): one start, every descent judged by ``accept``, every perturbation made
    by ``perturb``; without a toolbox, the same parts from the arguments, run for run."""
    import collections

    puzzle, calls = unsolvable(), collections.Counter()
    rng = random.Random(5)
    toolbox = ils_module.iterated_search_toolbox(puzzle, rng=rng)
    for name in ("individual", "accept", "perturb"):
        part = getattr(toolbox, name)
        toolbox.register(
            name, lambda *args, _part=part, _name=name, **kwargs: calls.update([_name]) or _part(*args, **kwargs)
        )
    composed = iterated_local_search(puzzle, rng=rng, toolbox=toolbox, patience=10, max_steps=600)
    plain = iterated_local_search(puzzle, rng=random.Random(5), patience=10, max_steps=600)
    assert composed.trace == plain.trace and composed.perturbations >= 5
    assert calls["individual"] == 1 and calls["perturb"] == composed.perturbations
    assert calls["accept"] - composed.perturbations in (0, 1)  # the last descent judged, its perturbation cut
    with pytest.raises(ValueError, match="with a toolbox"):
        iterated_local_search(puzzle, rng=rng, toolbox=toolbox, share=0.5)
