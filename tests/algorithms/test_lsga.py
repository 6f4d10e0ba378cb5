"""Wang et al.'s LSGA (IEEE Trans. Games 2024): each rule of docs/literature.md held by a test."""

import inspect
import random
from types import SimpleNamespace

import numpy as np
import pytest

from deap_sudoku import read
from deap_sudoku.algorithms import Stop, ea_lsga, elite_learning_probability
from deap_sudoku.algorithms.lsga import _learn, _update_elite
from deap_sudoku.exact import solve
from deap_sudoku.runs.lsga import lsga, lsga_toolbox
from deap_sudoku.tools import (
    Individual,
    cx_row_uniform,
    eval_illegal_units,
    init_row_permutation,
    mut_block_local_search,
    mut_column_local_search,
    mut_reinit_row,
    mut_swap_in_row,
    sel_tournament,
)

from tests.conftest import REPO, unsolvable

EASY = read(REPO / "data" / "9x9-easy.txt")[0]
SOLUTION = solve(EASY).cells


def _rows_are_permutations(individual, puzzle):
    rows = np.asarray(individual).reshape(puzzle.n, puzzle.n)
    return bool((np.sort(rows, axis=1) == np.arange(1, puzzle.n + 1)).all())


def _illegal(grid, units):
    return sum(len(set(np.asarray(grid)[unit].tolist())) < len(unit) for unit in units)


def _swapped(first, second):
    """The solution with two cells swapped."""
    grid = SOLUTION.astype(np.int64).copy()
    grid[first], grid[second] = grid[second], grid[first]
    return Individual(grid)


def test_the_published_parameters_are_the_defaults():
    defaults = {k: p.default for k, p in inspect.signature(lsga).parameters.items() if p.default is not p.empty}
    assert {k: defaults[k] for k in ("population_size", "elite_size", "tournsize")} == dict(
        population_size=150, elite_size=50, tournsize=2
    )
    assert (defaults["cxpb"], defaults["row_cxpb"], defaults["mutpb"], defaults["reinitpb"]) == (0.2, 0.1, 0.3, 0.05)
    assert defaults["stop"].max_generations == 200


def test_the_toolbox_is_the_papers_operators():
    toolbox = lsga_toolbox(EASY, random.Random(0), tournsize=2, row_cxpb=0.1, mutpb=0.3, reinitpb=0.05)
    parts = {
        "individual": (init_row_permutation, {}),
        "evaluate": (eval_illegal_units, {}),
        "mate": (cx_row_uniform, {"indpb": 0.1}),
        "mutate": (mut_swap_in_row, {"indpb": 0.3}),
        "reinit": (mut_reinit_row, {"indpb": 0.05}),
        "column_search": (mut_column_local_search, {}),
        "block_search": (mut_block_local_search, {}),
        "select": (sel_tournament, {"tournsize": 2}),
    }
    for alias, (function, keywords) in parts.items():
        registered = getattr(toolbox, alias)
        assert registered.func is function, alias
        assert {k: registered.keywords[k] for k in keywords} == keywords, alias


def test_individuals_are_row_permutations_with_the_givens_fixed():
    puzzle = unsolvable()
    population, logbook, _ = lsga(puzzle, seed=1, population_size=20, elite_size=5, stop=Stop(max_generations=5))
    assert len(logbook) == 6 and len(population) == 20
    for individual in population:
        assert _rows_are_permutations(individual, puzzle)
        assert np.array_equal(np.asarray(individual)[puzzle.givens], puzzle.cells[puzzle.givens])


def test_fitness_counts_illegal_columns_and_boxes_not_repeats():
    puzzle, rng, shape = EASY, random.Random(3), EASY.shape
    for _ in range(20):
        individual = init_row_permutation(Individual, puzzle=puzzle, rng=rng)
        expected = _illegal(individual, shape.cols) + _illegal(individual, shape.boxes)
        assert eval_illegal_units(individual, puzzle=puzzle) == (expected,)
    assert eval_illegal_units(Individual(SOLUTION.astype(np.int64)), puzzle=puzzle) == (0,)


def _free_pair(same_box: bool):
    """Two free cells of one row: in one box (columns differ, boxes stay legal), or in two boxes of a band."""
    n, free = 9, ~EASY.givens
    for row in range(n):
        cells = [row * n + c for c in range(n) if free[row * n + c]]
        for a in cells:
            for b in cells:
                if a < b and ((a % n) // 3 == (b % n) // 3) == same_box and SOLUTION[a] != SOLUTION[b]:
                    return a, b
    raise AssertionError("no such pair")


def test_column_local_search_repairs_two_illegal_columns_within_a_row():
    a, b = _free_pair(same_box=True)
    individual = _swapped(a, b)
    assert _illegal(individual, EASY.shape.cols) == 2 and _illegal(individual, EASY.shape.boxes) == 0
    mut_column_local_search(individual, puzzle=EASY, rng=random.Random(0))
    assert _illegal(individual, EASY.shape.cols) == 0
    assert _rows_are_permutations(individual, EASY)


def test_block_local_search_repairs_two_illegal_boxes_of_a_band_within_a_row():
    a, b = _free_pair(same_box=False)
    individual = _swapped(a, b)
    assert _illegal(individual, EASY.shape.boxes) == 2
    mut_block_local_search(individual, puzzle=EASY, rng=random.Random(0))
    assert _illegal(individual, EASY.shape.boxes) == 0
    assert np.array_equal(individual, SOLUTION)  # the one pair that fits, swapped back


def test_row_reinitialisation_redraws_whole_rows_at_its_rate():
    rng, changed, drawn = random.Random(0), 0, 0
    parent = init_row_permutation(Individual, puzzle=EASY, rng=rng)
    rows = [r for r in range(9) if (~EASY.givens[r * 9 : r * 9 + 9]).sum() >= 2]
    for _ in range(300):
        child = Individual(parent.copy())
        mut_reinit_row(child, puzzle=EASY, indpb=0.25, rng=rng)
        assert _rows_are_permutations(child, EASY)
        assert np.array_equal(child[EASY.givens], EASY.cells[EASY.givens])
        diff = (np.asarray(child) != np.asarray(parent)).reshape(9, 9).any(axis=1)
        changed += int(diff.sum())
        drawn += len(rows)
    # a redrawn row of k free cells keeps its order with probability 1/k!, so slightly under the rate
    assert 0.17 < changed / drawn < 0.27


def test_crossover_happens_per_individual_at_cxpb():
    calls = []

    def counting_mate(ind1, ind2, *, puzzle, rng):
        calls.append(1)
        return cx_row_uniform(ind1, ind2, puzzle=puzzle, indpb=0.1, rng=rng)

    lsga(
        unsolvable(),
        seed=0,
        population_size=100,
        elite_size=10,
        stop=Stop(max_generations=10),
        operators={"mate": counting_mate},
    )
    assert 150 < len(calls) < 250  # 0.2 x 100 x 10 = 200 expected


def test_the_elite_archive_keeps_the_best_ever():
    extra = {"elite_count": 0, "elite_cells": np.zeros((3, 81), np.int64), "elite_scores": np.zeros(3)}

    def scored(value, fill):
        ind = Individual(np.full(81, fill, dtype=np.int64))
        ind.fitness.values = (value,)
        return ind

    _update_elite(extra, [scored(5, 1), scored(2, 2), scored(9, 3), scored(7, 4)])
    assert extra["elite_count"] == 3 and extra["elite_scores"].tolist() == [2, 5, 7]
    _update_elite(extra, [scored(8, 5), scored(1, 6)])  # worse ones do not push the archive's out
    assert extra["elite_scores"].tolist() == [1, 2, 5]
    assert extra["elite_cells"][:, 0].tolist() == [6, 2, 1]


def test_the_worst_learns_from_an_elite_with_probability_pb_else_restarts():
    assert elite_learning_probability(10, 4) == 0.6 and elite_learning_probability(0, 0) == 0.0
    fresh = Individual(np.full(81, 9, dtype=np.int64))

    def run_with(elite_score, seed):
        extra = {"elite_count": 1, "elite_cells": np.ones((1, 81), np.int64), "elite_scores": np.array([elite_score])}

        def evaluate(individuals, toolbox):
            for ind in individuals:
                ind.fitness.values = (3.0,)

        population = []
        for value in (4.0, 10.0, 6.0):
            ind = Individual(np.full(81, 2, dtype=np.int64))
            ind.fitness.values = (value,)
            population.append(ind)
        toolbox = SimpleNamespace(clone=lambda ind: Individual(ind.copy()), individual=lambda: Individual(fresh.copy()))
        run = SimpleNamespace(extra=extra, rng=random.Random(seed), evaluate=evaluate)
        _learn(population, run, toolbox, population[0])
        return population

    learnt = run_with(0.0, 0)  # Pb = 1: the worst (the second) becomes the elite's copy
    assert learnt[1][0] == 1 and learnt[1].fitness.values == (0.0,) and learnt[0][0] == learnt[2][0] == 2
    restarted = run_with(10.0, 0)  # Pb = 0: the worst is replaced by a fresh individual
    assert restarted[1][0] == 9 and restarted[1].fitness.values == (3.0,)


def test_runs_until_solved_or_out_of_generations():
    _, logbook, hof = lsga(EASY, seed=0)
    assert logbook.stop_reason == "solved" and hof[0].fitness.values == (0,)
    _, logbook, _ = lsga(unsolvable(), seed=0, population_size=20, elite_size=5, stop=Stop(max_generations=4))
    assert logbook.stop_reason == "generations" and len(logbook) == 5


def test_the_run_is_seeded_and_the_local_searches_help():
    puzzle = read(REPO / "data" / "9x9.txt")[0]
    budget = dict(population_size=40, elite_size=10, stop=Stop(max_generations=25))
    first, again = lsga(puzzle, seed=2, **budget), lsga(puzzle, seed=2, **budget)
    assert [r["min"] for r in first[1]] == [r["min"] for r in again[1]]
    idle = {"column_search": lambda ind: (ind,), "block_search": lambda ind: (ind,)}
    without = lsga(puzzle, seed=2, operators=idle, **budget)
    assert first[1][-1]["avg"] < without[1][-1]["avg"]


def test_ea_lsga_refuses_an_empty_archive():
    toolbox = lsga_toolbox(EASY, random.Random(0), tournsize=2, row_cxpb=0.1, mutpb=0.3, reinitpb=0.05)
    with pytest.raises(ValueError, match="elite_size"):
        ea_lsga(toolbox.population(n=4), toolbox, 0.2, stop=Stop(max_generations=1), rng=random.Random(0), elite_size=0)


def _reference_search(grid, units, pairs_of, partners_of, rng, n=9):
    """The searches as the reimplementations write them, cell by cell, on a list grid."""
    givens = EASY.givens

    def repeated(unit):
        values = [grid[c] for c in unit]
        return {v for v in values if values.count(v) > 1}

    illegal = [u for u in range(len(units)) if repeated(units[u])]
    for u1 in illegal:
        partners = partners_of(u1, illegal)
        if not partners:
            continue
        u2 = rng.choice(partners)
        rep1, rep2 = repeated(units[u1]), repeated(units[u2])
        for a, b in pairs_of(u1, u2):
            if givens[a] or givens[b]:
                continue
            if grid[a] in rep1 and grid[b] in rep2 and grid[a] not in rep2 and grid[b] not in rep1:
                grid[a], grid[b] = grid[b], grid[a]
                break
    return grid


def test_the_local_searches_swap_only_where_the_rule_allows():
    """Move for move the rule of the reimplementations: a pair in one row, each value repeated in its
    own unit and in neither case in the other; the other box from the same band."""
    cols, boxes = EASY.shape.cols.tolist(), EASY.shape.boxes.tolist()
    band = [box[0] // 9 // 3 for box in boxes]
    rng = random.Random(5)
    for seed in range(30):
        individual = init_row_permutation(Individual, puzzle=EASY, rng=rng)
        grid = individual.tolist()
        mut_column_local_search(individual, puzzle=EASY, rng=random.Random(seed))
        expected = _reference_search(
            grid,
            cols,
            lambda j1, j2: list(zip(cols[j1], cols[j2])),
            lambda j1, illegal: [j for j in illegal if j != j1],
            random.Random(seed),
        )
        assert individual.tolist() == expected
        mut_block_local_search(individual, puzzle=EASY, rng=random.Random(seed))
        expected = _reference_search(
            expected,
            boxes,
            lambda s1, s2: [(a, b) for a in boxes[s1] for b in boxes[s2] if a // 9 == b // 9],
            lambda s1, illegal: [s for s in illegal if s != s1 and band[s] == band[s1]],
            random.Random(seed),
        )
        assert individual.tolist() == expected


def test_every_child_is_mutated_reinitialised_and_searched_once_a_generation():
    calls = dict.fromkeys(("mutate", "reinit", "column_search", "block_search"), 0)
    real = {
        "mutate": lambda ind, puzzle, rng: mut_swap_in_row(ind, puzzle=puzzle, indpb=0.3, rng=rng),
        "reinit": lambda ind, puzzle, rng: mut_reinit_row(ind, puzzle=puzzle, indpb=0.05, rng=rng),
        "column_search": lambda ind, puzzle, rng: mut_column_local_search(ind, puzzle=puzzle, rng=rng),
        "block_search": lambda ind, puzzle, rng: mut_block_local_search(ind, puzzle=puzzle, rng=rng),
    }

    def counting(alias):
        def operator(individual, *, puzzle, rng):
            calls[alias] += 1
            return real[alias](individual, puzzle, rng)

        return operator

    lsga(
        unsolvable(),
        seed=0,
        population_size=30,
        elite_size=5,
        stop=Stop(max_generations=4),
        operators={alias: counting(alias) for alias in calls},
    )
    assert calls == dict.fromkeys(calls, 30 * 4)


def test_elite_learning_happens_every_generation():
    """With every fitness equal, Pb is 0: each generation the worst is replaced by a fresh individual."""
    made = []

    def constant(individual, *, puzzle):
        return (5.0,)

    def individual(*, puzzle, rng):
        made.append(1)
        return init_row_permutation(Individual, puzzle=puzzle, rng=rng)

    lsga(
        unsolvable(),
        seed=0,
        population_size=10,
        elite_size=3,
        stop=Stop(max_generations=6),
        operators={"evaluate": constant, "individual": individual},
    )
    assert len(made) == 6


def test_a_resumed_run_is_the_uninterrupted_one(tmp_path):
    """The elite archive is checkpointed with the run: stopping and resuming changes nothing."""
    from deap_sudoku.runs.checkpoint import Checkpoint

    puzzle, budget = unsolvable(), dict(population_size=30, elite_size=8)
    straight = lsga(puzzle, seed=3, stop=Stop(max_generations=6), **budget)
    lsga(puzzle, seed=3, stop=Stop(max_generations=3), checkpoint=Checkpoint(tmp_path / "run"), **budget)
    resumed = lsga(puzzle, seed=3, stop=Stop(max_generations=6), checkpoint=Checkpoint(tmp_path / "run"), **budget)
    assert [r["min"] for r in straight[1]] == [r["min"] for r in resumed[1]]
    assert [np.asarray(i).tolist() for i in straight[0]] == [np.asarray(i).tolist() for i in resumed[0]]
