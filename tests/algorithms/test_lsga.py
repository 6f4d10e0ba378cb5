"""Wang et al.'s LSGA (IEEE Trans. Games 2024): each rule of docs/literature.md held by a test."""

import inspect
import random
from types import SimpleNamespace

import numpy as np
import pytest

from deap_sudoku import Puzzle, read
from deap_sudoku.algorithms import Stop, ea_lsga, elite_learning_probability
from deap_sudoku.algorithms.lsga import _learn, _update_elite
from deap_sudoku.exact import solve
from deap_sudoku.runs.catalogue.lsga import lsga, lsga_toolbox
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

# One break (or more) per row of docs/literature.md's table, each made alone in a copy of the repository
# by benchmarks/rule_breaks.py, which checks that the named test fails (tests/test_rule_breaks.py checks
# the list's form). Plain literals: the script reads them with ast.literal_eval.
RULE_BREAKS = [
    {
        "rule": "GA with column and sub-block local search and elite population learning; matrix coding",
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "                toolbox.column_search(child)\n                toolbox.block_search(child)\n",
                "",
            ],
        ],
        "test": "test_the_run_is_seeded_and_the_local_searches_help",
    },
    {
        "rule": "GA with column and sub-block local search and elite population learning; matrix coding",
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "                _learn(offspring, run, toolbox, template)\n",
                "",
            ],
        ],
        "test": "test_elite_learning_happens_every_generation",
    },
    {
        "rule": 'every row a permutation of its missing values, givens fixed ("associated matrix" = the givens\' mask)',
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                "    init_row_permutation,\n",
                "    init_block_permutation,\n    init_row_permutation,\n",
            ],
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                'toolbox.register("individual", init_row_permutation,',
                'toolbox.register("individual", init_block_permutation,',
            ],
        ],
        "test": "test_individuals_are_row_permutations_with_the_givens_fixed",
    },
    {
        "rule": "fitness: illegal columns plus illegal sub-blocks (not the number of repeats), 0 solved",
        "edits": [
            [
                "deap_sudoku/tools/fitness.py",
                (
                    "np.count_nonzero(unit_duplicates(population, puzzle.shape, puzzle.shape.units[puzzle.n :]) >"
                    " 0, axis=1)"
                ),
                "unit_duplicates(population, puzzle.shape, puzzle.shape.units[puzzle.n :]).sum(axis=1)",
            ],
        ],
        "test": "test_fitness_counts_illegal_columns_and_boxes_not_repeats",
    },
    {
        "rule": "fitness: illegal columns plus illegal sub-blocks (not the number of repeats), 0 solved",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                'toolbox.register("evaluate", eval_illegal_units,',
                'toolbox.register("evaluate", eval_collisions,',
            ],
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                "    eval_illegal_units,\n",
                "    eval_collisions,\n    eval_illegal_units,\n",
            ],
        ],
        "test": "test_the_toolbox_is_the_papers_operators",
    },
    {
        "rule": (
            "population 150, elite archive 50, tournament of 2, PC1 0.2, PC2 0.1, PM1 0.3, PM2 0.05, 200 generations"
        ),
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                "    population_size: int = 150,",
                "    population_size: int = 100,",
            ],
        ],
        "test": "test_the_published_parameters_are_the_defaults",
    },
    {
        "rule": (
            "population 150, elite archive 50, tournament of 2, PC1 0.2, PC2 0.1, PM1 0.3, PM2 0.05, 200 generations"
        ),
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                "    cxpb: float = 0.2,",
                "    cxpb: float = 0.3,",
            ],
        ],
        "test": "test_the_published_parameters_are_the_defaults",
    },
    {
        "rule": (
            "population 150, elite archive 50, tournament of 2, PC1 0.2, PC2 0.1, PM1 0.3, PM2 0.05, 200 generations"
        ),
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                "    reinitpb: float = 0.05,",
                "    reinitpb: float = 0.5,",
            ],
        ],
        "test": "test_the_published_parameters_are_the_defaults",
    },
    {
        "rule": "tournament selection of 2, population-size many",
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "toolbox.select(run.population, len(run.population))",
                "toolbox.select(run.population, len(run.population) // 2)",
            ],
        ],
        "test": "test_individuals_are_row_permutations_with_the_givens_fixed",
    },
    {
        "rule": "tournament selection of 2, population-size many",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                'toolbox.register("select", sel_tournament, tournsize=tournsize,',
                'toolbox.register("select", sel_tournament, tournsize=tournsize + 1,',
            ],
        ],
        "test": "test_the_toolbox_is_the_papers_operators",
    },
    {
        "rule": (
            "crossover: each selected individual, with PC1, picks a random partner among the selected; each row e"
            "xchanged with PC2"
        ),
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "toolbox.clone(rng.choice(parents))",
                "toolbox.clone(rng.choice(run.population))",
            ],
        ],
        "test": "test_the_crossover_partner_is_drawn_among_the_selected",
    },
    {
        "rule": (
            "crossover: each selected individual, with PC1, picks a random partner among the selected; each row e"
            "xchanged with PC2"
        ),
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "                if rng.random() < cxpb:",
                "                if rng.random() < 2 * cxpb:",
            ],
        ],
        "test": "test_crossover_happens_per_individual_at_cxpb",
    },
    {
        "rule": (
            "crossover: each selected individual, with PC1, picks a random partner among the selected; each row e"
            "xchanged with PC2"
        ),
        "edits": [
            [
                "deap_sudoku/tools/crossover.py",
                "rows = [r for r in range(puzzle.n) if rng.random() < indpb]",
                "rows = [r for r in range(puzzle.n) if rng.random() < 2 * indpb]",
            ],
        ],
        "test": "test_the_row_crossover_exchanges_whole_rows_at_pc2",
    },
    {
        "rule": (
            "crossover: each selected individual, with PC1, picks a random partner among the selected; each row e"
            "xchanged with PC2"
        ),
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                "cx_row_uniform, puzzle=puzzle, indpb=row_cxpb,",
                "cx_row_uniform, puzzle=puzzle, indpb=0.5,",
            ],
        ],
        "test": "test_the_toolbox_is_the_papers_operators",
    },
    {
        "rule": "swap mutation: each row, with PM1, swaps two non-given cells",
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                ("        if len(cells) >= 2 and rng.random() < indpb:\n            _swap_two(individual, cells, rng)"),
                (
                    "        if len(cells) >= 2 and rng.random() < 2 * indpb:\n            _swap_two(individual, "
                    "cells, rng)"
                ),
            ],
        ],
        "test": "test_the_swap_mutation_swaps_two_free_cells_of_a_row_at_pm1",
    },
    {
        "rule": "swap mutation: each row, with PM1, swaps two non-given cells",
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                (
                    "    a, b = rng.sample(cells.tolist(), 2)\n    individual[a], individual[b] = individual[b], "
                    "individual[a]"
                ),
                (
                    "    a, b, c = rng.sample(cells.tolist(), 3) if len(cells) > 2 else (*rng.sample(cells.tolist"
                    "(), 2), None)\n    individual[a], individual[b] = individual[b], individual[a]\n    if c is "
                    "not None:\n        individual[a], individual[c] = individual[c], individual[a]"
                ),
            ],
        ],
        "test": "test_the_swap_mutation_swaps_two_free_cells_of_a_row_at_pm1",
    },
    {
        "rule": "re-initialisation: each row, with PM2, gets a fresh permutation of its missing values",
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                "        if rng.random() < indpb and len(cells) >= 2:",
                "        if rng.random() < 2 * indpb and len(cells) >= 2:",
            ],
        ],
        "test": "test_row_reinitialisation_redraws_whole_rows_at_its_rate",
    },
    {
        "rule": (
            "column local search: the illegal columns C; for each, a random other column of C; the first row wher"
            "e both cells are free and hold values repeated in their columns, and neither value is repeated in th"
            "e other column, is swapped"
        ),
        "edits": [
            [
                "deap_sudoku/tools/local_search.py",
                "j2 = rng.choice([j for j in illegal if j != j1])",
                "j2 = rng.choice(illegal)",
            ],
        ],
        "test": "test_the_local_searches_swap_only_where_the_rule_allows",
    },
    {
        "rule": (
            "column local search: the illegal columns C; for each, a random other column of C; the first row wher"
            "e both cells are free and hold values repeated in their columns, and neither value is repeated in th"
            "e other column, is swapped"
        ),
        "edits": [
            [
                "deap_sudoku/tools/local_search.py",
                "if repeated1[va] and repeated2[vb] and not repeated2[va] and not repeated1[vb]:",
                "if repeated1[va] and repeated2[vb]:",
            ],
        ],
        "test": "test_the_local_searches_swap_only_where_the_rule_allows",
    },
    {
        "rule": (
            "sub-block local search: the illegal boxes S; for each, another of S sharing its rows; the first pair"
            " of free cells in one row holding values repeated in their own box and not in the other is swapped"
        ),
        "edits": [
            [
                "deap_sudoku/tools/local_search.py",
                "others = [s for s in illegal if s != s1 and band[s] == band[s1]]",
                "others = [s for s in illegal if s != s1]",
            ],
        ],
        "test": "test_the_local_searches_swap_only_where_the_rule_allows",
    },
    {
        "rule": (
            "sub-block local search: the illegal boxes S; for each, another of S sharing its rows; the first pair"
            " of free cells in one row holding values repeated in their own box and not in the other is swapped"
        ),
        "edits": [
            [
                "deap_sudoku/tools/local_search.py",
                "for b in boxes[s2].tolist() if a // n == b // n]",
                "for b in boxes[s2].tolist()]",
            ],
        ],
        "test": "test_the_local_searches_swap_only_where_the_rule_allows",
    },
    {
        "rule": (
            "order in a generation: select, cross, mutate, column search, sub-block search, evaluate, update the "
            "archive, elite learning"
        ),
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "                toolbox.column_search(child)\n                toolbox.block_search(child)\n",
                "                toolbox.block_search(child)\n                toolbox.column_search(child)\n",
            ],
        ],
        "test": "test_a_generation_selects_crosses_mutates_searches_then_evaluates",
    },
    {
        "rule": (
            "order in a generation: select, cross, mutate, column search, sub-block search, evaluate, update the "
            "archive, elite learning"
        ),
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                (
                    "                _update_elite(run.extra, offspring)\n                _learn(offspring, run, "
                    "toolbox, template)\n"
                ),
                (
                    "                _learn(offspring, run, toolbox, template)\n                _update_elite(run"
                    ".extra, offspring)\n"
                ),
            ],
        ],
        "test": "test_elite_learning_happens_every_generation",
    },
    {
        "rule": "elite archive: the 50 best of archive and population after each evaluation",
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "    kept = pool[: len(scores)]",
                "    kept = pool[-len(scores) :]",
            ],
        ],
        "test": "test_the_elite_archive_keeps_the_best_ever",
    },
    {
        "rule": "elite archive: the 50 best of archive and population after each evaluation",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                "    elite_size: int = 50,",
                "    elite_size: int = 40,",
            ],
        ],
        "test": "test_the_published_parameters_are_the_defaults",
    },
    {
        "rule": (
            "elite learning: the population's worst is replaced by a random archive member with Pb = (f_worst − f"
            "_elite) / f_worst, otherwise by a fresh random individual"
        ),
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "return (worst - elite) / worst if worst > 0 else 0.0",
                "return (worst - elite) / (worst + elite) if worst > 0 else 0.0",
            ],
        ],
        "test": "test_the_worst_learns_from_an_elite_with_probability_pb_else_restarts",
    },
    {
        "rule": (
            "elite learning: the population's worst is replaced by a random archive member with Pb = (f_worst − f"
            "_elite) / f_worst, otherwise by a fresh random individual"
        ),
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "worst = max(range(len(population)), key=lambda i: _score(population[i]))",
                "worst = min(range(len(population)), key=lambda i: _score(population[i]))",
            ],
        ],
        "test": "test_the_worst_learns_from_an_elite_with_probability_pb_else_restarts",
    },
    {
        "rule": "elitism",
        "edits": [
            [
                "deap_sudoku/algorithms/lsga.py",
                "            run.next_generation(offspring)",
                ("            run.next_generation(offspring[:-1] + [toolbox.clone(min(run.population, key=_score))])"),
            ],
        ],
        "test": "test_the_population_keeps_no_elite",
    },
    {
        "rule": "stop: the archive's best at 0, or 200 generations",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                "    stop: Stop = Stop(max_generations=200),",
                "    stop: Stop = Stop(max_generations=2000),",
            ],
        ],
        "test": "test_the_published_parameters_are_the_defaults",
    },
    {
        "rule": "stop: the archive's best at 0, or 200 generations",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/lsga.py",
                "stop.with_defaults(solved=0, started=started)",
                "stop.with_defaults(started=started)",
            ],
        ],
        "test": "test_runs_until_solved_or_out_of_generations",
    },
]


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


def test_the_crossover_partner_is_drawn_among_the_selected():
    toolbox = lsga_toolbox(EASY, random.Random(0), tournsize=2, row_cxpb=0.1, mutpb=0.3, reinitpb=0.05)
    population = toolbox.population(n=20)
    chosen = population[:2]  # the selection returns only these two
    toolbox.register("select", lambda individuals, k: [chosen[i % 2] for i in range(k)])
    partners = []

    def mate(child, partner):
        partners.append(np.asarray(partner).tolist())
        return child, partner

    toolbox.register("mate", mate)
    ea_lsga(population, toolbox, 1.0, stop=Stop(max_generations=1), rng=random.Random(0), elite_size=5)
    selected = [np.asarray(ind).tolist() for ind in chosen]
    assert len(partners) == 20 and all(partner in selected for partner in partners)


def test_the_row_crossover_exchanges_whole_rows_at_pc2():
    empty, rng, exchanged = Puzzle([0] * 81), random.Random(4), 0
    for _ in range(300):
        one = init_row_permutation(Individual, puzzle=empty, rng=rng)
        two = init_row_permutation(Individual, puzzle=empty, rng=rng)
        a, b = one.copy(), two.copy()
        cx_row_uniform(one, two, puzzle=empty, indpb=0.1, rng=rng)
        for row in empty.shape.rows:
            swapped = np.array_equal(one[row], b[row]) and np.array_equal(two[row], a[row])
            assert swapped or (np.array_equal(one[row], a[row]) and np.array_equal(two[row], b[row]))
            exchanged += swapped
    assert 0.08 < exchanged / 2700 < 0.12


def test_the_swap_mutation_swaps_two_free_cells_of_a_row_at_pm1():
    rng, changed, drawn = random.Random(6), 0, 0
    parent = init_row_permutation(Individual, puzzle=EASY, rng=rng)
    rows = [r for r in range(9) if (~EASY.givens[r * 9 : r * 9 + 9]).sum() >= 2]
    for _ in range(300):
        child = Individual(parent.copy())
        mut_swap_in_row(child, puzzle=EASY, indpb=0.3, rng=rng)
        diff = (np.asarray(child) != np.asarray(parent)).reshape(9, 9)
        assert set(diff.sum(axis=1).tolist()) <= {0, 2} and not diff.ravel()[EASY.givens].any()
        changed += int(diff.any(axis=1).sum())
        drawn += len(rows)
    assert 0.26 < changed / drawn < 0.34


def test_a_generation_selects_crosses_mutates_searches_then_evaluates():
    log = []

    def logged(alias, real=None):
        def operator(*individuals, puzzle, rng=None):
            log.append(alias)
            return real(*individuals, puzzle=puzzle, rng=rng) if real else individuals

        return operator

    def evaluate(individual, *, puzzle):
        log.append("evaluate")
        return eval_illegal_units(individual, puzzle=puzzle)

    swap_all = lambda ind, *, puzzle, rng: mut_swap_in_row(ind, puzzle=puzzle, indpb=1.0, rng=rng)  # noqa: E731
    operators = {alias: logged(alias) for alias in ("mate", "reinit", "column_search", "block_search")}
    operators |= {"mutate": logged("mutate", swap_all), "evaluate": evaluate}
    lsga(EASY, seed=0, population_size=6, elite_size=2, cxpb=1.0, stop=Stop(max_generations=1), operators=operators)
    generation = log[6:]  # after the first population's six evaluations
    assert generation[:6] == ["mate"] * 6
    assert generation[6:30] == ["mutate", "reinit", "column_search", "block_search"] * 6
    assert generation[30:36] == ["evaluate"] * 6 and set(generation[36:]) <= {"evaluate"}


def test_the_population_keeps_no_elite():
    """Every child changed (all rows swapped, no crossover, idle searches), every fitness equal: a grid of
    one generation in the next would be an elite kept; elite learning brings a fresh individual."""
    populations = []

    def keep(generation, population, logbook):
        populations.append({tuple(np.asarray(ind).tolist()) for ind in population})

    operators = {
        "mutate": lambda ind, *, puzzle, rng: mut_swap_in_row(ind, puzzle=puzzle, indpb=1.0, rng=rng),
        "column_search": lambda ind, **kw: (ind,),
        "block_search": lambda ind, **kw: (ind,),
        "evaluate": lambda ind, *, puzzle: (5.0,),
    }
    lsga(
        unsolvable(),
        seed=0,
        population_size=10,
        elite_size=3,
        cxpb=0.0,
        stop=Stop(max_generations=5),
        callback=keep,
        operators=operators,
    )
    assert len(populations) >= 5
    assert all(not (before & after) for before, after in zip(populations, populations[1:]))


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
