"""Mantere & Koljonen's GA and cultural algorithm: each rule of docs/literature.md held by a test."""

import copy
import inspect
import math
import pickle
import random

import numpy as np
import pytest
from deap import base

from deap_sudoku import Puzzle, read
from deap_sudoku.runs.catalogue.mantere_koljonen import mk_cultural, mk_ga
from deap_sudoku.algorithms import Stop
from deap_sudoku.exact import dig_puzzle, solve
from deap_sudoku.tools import (
    BeliefSpace,
    FitnessMin,
    Individual,
    cx_block_one_point,
    cx_block_uniform,
    eval_closeness_mk,
    help_array,
    init_block_permutation,
    mut_help_array_swap_in_box,
    mut_insert_in_box,
    mut_mixed_in_box,
    mut_three_swap_in_box,
    sel_ranked_pairs,
)

from tests.conftest import REPO

EASY = read(REPO / "data" / "9x9-easy.txt")[0]
FEW_EMPTY = dig_puzzle(solve(EASY), 56, random.Random(0), unique=False)
"""A puzzle the GA solves in a few hundred generations, so that a test can watch it end solved."""

# One break (or more) per row of docs/literature.md's table, each made alone in a copy of the repository
# by benchmarks/rule_breaks.py, which checks that the named test fails (tests/test_rule_breaks.py checks
# the list's form). Plain literals: the script reads them with ast.literal_eval.
RULE_BREAKS = [
    {
        "rule": "every box a permutation of its missing values, givens fixed",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "    init_block_permutation,\n",
                "    init_block_permutation,\n    init_row_permutation,\n",
            ],
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                'toolbox.register("individual", init_block_permutation,',
                'toolbox.register("individual", init_row_permutation,',
            ],
        ],
        "test": "test_every_individual_of_both_runs_is_a_block_permutation_with_the_givens_fixed",
    },
    {
        "rule": "a help array: a move may not put a value into a row or column where it is a given",
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                "            if illegal[cells[lands], moved[lands]].any():",
                "            if False:",
            ],
        ],
        "test": "test_the_help_array_refuses_a_swap_that_puts_a_value_beside_its_given",
    },
    {
        "rule": "a help array: a move may not put a value into a row or column where it is a given",
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                "present[np.arange(shape.cells) // n] | present[n + np.arange(shape.cells) % n]",
                "present[np.arange(shape.cells) // n]",
            ],
        ],
        "test": "test_the_help_array_refuses_a_swap_that_puts_a_value_beside_its_given",
    },
    {
        "rule": "a help array: a move may not put a value into a row or column where it is a given",
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                "illegal[cells[lands], moved[lands]]",
                "illegal[cells, moved]",
            ],
        ],
        "test": "test_the_help_array_checks_only_the_values_that_move",
    },
    {
        "rule": "a help array: a move may not put a value into a row or column where it is a given",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "    tries: int = 10,\n    restart_after: int | None = 2000,\n    accepted: int | None = None,",
                "    tries: int = 1,\n    restart_after: int | None = 2000,\n    accepted: int | None = None,",
            ],
        ],
        "test": "test_the_recipes_defaults_are_the_tables",
    },
    {
        "rule": "mutation in one box: swap, 3-swap (rotate three), insertion, with equal weights, one per child",
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                "= values[b], values[c], values[a]",
                "= values[b], values[a], values[c]",
            ],
        ],
        "test": "test_a_three_swap_rotates_three_free_cells_of_one_box",
    },
    {
        "rule": "mutation in one box: swap, 3-swap (rotate three), insertion, with equal weights, one per child",
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                "moved.insert(put, moved.pop(take))",
                "moved[take], moved[put] = moved[put], moved[take]",
            ],
        ],
        "test": "test_an_insertion_moves_one_value_and_shifts_the_free_cells_between",
    },
    {
        "rule": "mutation in one box: swap, 3-swap (rotate three), insertion, with equal weights, one per child",
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                "rng.choices(kinds, weights=weights)[0]",
                "rng.choice(kinds)",
            ],
        ],
        "test": "test_the_mixed_mutation_draws_its_move_by_the_weights",
    },
    {
        "rule": "mutation in one box: swap, 3-swap (rotate three), insertion, with equal weights, one per child",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                (
                    "    insert: float = 1.0,\n    use_help_array: bool = True,\n    tries: int = 10,\n    restar"
                    "t_after: int | None = 2000,\n    accepted: int | None = None,"
                ),
                (
                    "    insert: float = 2.0,\n    use_help_array: bool = True,\n    tries: int = 10,\n    restar"
                    "t_after: int | None = 2000,\n    accepted: int | None = None,"
                ),
            ],
        ],
        "test": "test_the_recipes_defaults_are_the_tables",
    },
    {
        "rule": "mutation in one box: swap, 3-swap (rotate three), insertion, with equal weights, one per child",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                (
                    "def mk_ga(\n    puzzle: Puzzle,\n    *,\n    seed: int = 0,\n    population_size: int = 21,"
                    "\n    elites: int = 1,\n    cxpb: float = 1.0,\n    mutpb: float = 1.0,"
                ),
                (
                    "def mk_ga(\n    puzzle: Puzzle,\n    *,\n    seed: int = 0,\n    population_size: int = 21,"
                    "\n    elites: int = 1,\n    cxpb: float = 1.0,\n    mutpb: float = 0.5,"
                ),
            ],
        ],
        "test": "test_the_recipes_defaults_are_the_tables",
    },
    {
        "rule": "crossover points only between boxes",
        "edits": [
            [
                "deap_sudoku/tools/crossover.py",
                "puzzle.shape.boxes[point:].ravel()",
                "np.arange(point * n, puzzle.shape.cells)",
            ],
        ],
        "test": "test_the_crossover_points_lie_between_boxes",
    },
    {
        "rule": "crossover points only between boxes",
        "edits": [
            [
                "deap_sudoku/tools/crossover.py",
                "puzzle.shape.boxes[chosen].ravel()",
                "puzzle.shape.rows[chosen].ravel()",
            ],
        ],
        "test": "test_the_uniform_crossover_exchanges_whole_boxes",
    },
    {
        "rule": "fitness: 10·Σ\\|sum−45\\| + Σ√\\|product−9!\\| + 50·missing values, rows and columns",
        "edits": [
            [
                "deap_sudoku/tools/fitness.py",
                "+ np.sqrt(product_gap) + 50 * missing)",
                "+ np.sqrt(product_gap) + 5 * missing)",
            ],
        ],
        "test": "test_the_fitness_is_the_published_formula_by_hand",
    },
    {
        "rule": "fitness: 10·Σ\\|sum−45\\| + Σ√\\|product−9!\\| + 50·missing values, rows and columns",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "    eval_closeness_mk,\n",
                "    eval_closeness,\n    eval_closeness_mk,\n",
            ],
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                'toolbox.register("evaluate", eval_closeness_mk,',
                'toolbox.register("evaluate", eval_closeness,',
            ],
        ],
        "test": "test_the_fitness_is_theirs_and_the_run_ends_when_solved_or_at_100000_generations",
    },
    {
        "rule": (
            "population 21, the best kept, place *i* filled by a child of two parents drawn among the places above it"
        ),
        "edits": [
            [
                "deap_sudoku/tools/selection.py",
                "max(len(ranked) - 1 - j // 2, 1)",
                "max(len(ranked) - j // 2, 1)",
            ],
        ],
        "test": "test_the_parents_of_place_i_come_from_the_i_places_above_it",
    },
    {
        "rule": (
            "population 21, the best kept, place *i* filled by a child of two parents drawn among the places above it"
        ),
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "        elites=elites,\n        one_child_per_mating=True,",
                "        elites=0,\n        one_child_per_mating=True,",
            ],
        ],
        "test": "test_the_best_is_kept_and_the_population_is_21",
    },
    {
        "rule": (
            "population 21, the best kept, place *i* filled by a child of two parents drawn among the places above it"
        ),
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "def mk_ga(\n    puzzle: Puzzle,\n    *,\n    seed: int = 0,\n    population_size: int = 21,",
                "def mk_ga(\n    puzzle: Puzzle,\n    *,\n    seed: int = 0,\n    population_size: int = 20,",
            ],
        ],
        "test": "test_the_best_is_kept_and_the_population_is_21",
    },
    {
        "rule": "restart after 2000 generations without improvement",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "    restart_after: int | None = 2000,\n    accepted: int | None = None,",
                "    restart_after: int | None = 20000,\n    accepted: int | None = None,",
            ],
        ],
        "test": "test_a_run_restarts_after_2000_generations_without_improvement",
    },
    {
        "rule": "restart after 2000 generations without improvement",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "    restart_after: int | None = 2000,\n    accepted: int = 2,",
                "    restart_after: int | None = 20000,\n    accepted: int = 2,",
            ],
        ],
        "test": "test_a_run_restarts_after_2000_generations_without_improvement",
    },
    {
        "rule": "restart after 2000 generations without improvement",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "        restart_after=restart_after,\n        stop=stop,",
                "        restart_after=None,\n        stop=stop,",
            ],
        ],
        "test": "test_a_run_restarts_after_2000_generations_without_improvement",
    },
    {
        "rule": "the best's fitness worsened by 1 for each generation it stays on top (ageing)",
        "test": None,
        "why": "not implemented (the table says so): there is no rule in the code to break",
    },
    {
        "rule": "stop: solved or 100,000 generations",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "    accepted: int | None = None,\n    stop: Stop = Stop(max_generations=100_000),",
                "    accepted: int | None = None,\n    stop: Stop = Stop(max_generations=10_000),",
            ],
        ],
        "test": "test_the_fitness_is_theirs_and_the_run_ends_when_solved_or_at_100000_generations",
    },
    {
        "rule": "stop: solved or 100,000 generations",
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "stop.with_defaults(solved=0, started=started)",
                "stop.with_defaults(started=started)",
            ],
        ],
        "test": "test_the_fitness_is_theirs_and_the_run_ends_when_solved_or_at_100000_generations",
    },
    {
        "rule": (
            "cultural algorithm: a belief space the `accepted` (2) best distinct grids update every generation, a"
            " free cell's value believed where they all agree and it clashes with nothing in the best's row and c"
            "olumn; the mutation leaves believed cells alone"
        ),
        "edits": [
            [
                "deap_sudoku/tools/belief.py",
                "(best == best[0]).all(axis=0) & free & ~self._clashing(best[0])",
                "(best == best[0]).all(axis=0) & free",
            ],
        ],
        "test": "test_the_belief_space_holds_what_the_accepted_best_agree_on",
    },
    {
        "rule": (
            "cultural algorithm: a belief space the `accepted` (2) best distinct grids update every generation, a"
            " free cell's value believed where they all agree and it clashes with nothing in the best's row and c"
            "olumn; the mutation leaves believed cells alone"
        ),
        "edits": [
            [
                "deap_sudoku/tools/belief.py",
                "if not any(np.array_equal(grid, seen) for seen in grids):",
                "if True:",
            ],
        ],
        "test": "test_the_belief_space_holds_what_the_accepted_best_agree_on",
    },
    {
        "rule": (
            "cultural algorithm: a belief space the `accepted` (2) best distinct grids update every generation, a"
            " free cell's value believed where they all agree and it clashes with nothing in the best's row and c"
            "olumn; the mutation leaves believed cells alone"
        ),
        "edits": [
            [
                "deap_sudoku/tools/mutation.py",
                "frozen = None if belief is None else belief.frozen(individual)",
                "frozen = None",
            ],
        ],
        "test": "test_the_mutation_leaves_believed_cells_alone",
    },
    {
        "rule": (
            "cultural algorithm: a belief space the `accepted` (2) best distinct grids update every generation, a"
            " free cell's value believed where they all agree and it clashes with nothing in the best's row and c"
            "olumn; the mutation leaves believed cells alone"
        ),
        "edits": [
            [
                "deap_sudoku/tools/belief.py",
                "        self.belief.update(individuals)\n",
                "",
            ],
        ],
        "test": "test_the_cultural_algorithm_updates_its_belief_before_each_selection",
    },
    {
        "rule": (
            "cultural algorithm: a belief space the `accepted` (2) best distinct grids update every generation, a"
            " free cell's value believed where they all agree and it clashes with nothing in the best's row and c"
            "olumn; the mutation leaves believed cells alone"
        ),
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "belief.accepting(sel_ranked_pairs)",
                "sel_ranked_pairs",
            ],
        ],
        "test": "test_the_cultural_run_solves_the_easy_puzzle_and_differs_from_the_ga",
    },
    {
        "rule": (
            "cultural algorithm: a belief space the `accepted` (2) best distinct grids update every generation, a"
            " free cell's value believed where they all agree and it clashes with nothing in the best's row and c"
            "olumn; the mutation leaves believed cells alone"
        ),
        "edits": [
            [
                "deap_sudoku/runs/catalogue/mantere_koljonen.py",
                "    accepted: int = 2,\n",
                "    accepted: int = 3,\n",
            ],
        ],
        "test": "test_the_recipes_defaults_are_the_tables",
    },
]


def test_the_help_array_refuses_a_swap_that_puts_a_value_beside_its_given():
    solution = solve(EASY).cells
    puzzle = Puzzle(np.where(np.isin(np.arange(81), [0, 1]), 0, solution))  # two free cells, in box 0 and row 0
    # a swap moves cell 0's value into column 1, whose givens hold every value but cell 1's
    individual = Individual(solution.astype(np.int64))
    mut_help_array_swap_in_box(individual, puzzle=puzzle, tries=5, rng=random.Random(1))
    assert np.array_equal(individual, solution) and help_array(puzzle)[1, solution[0]]
    unchecked = Individual(solution.astype(np.int64))
    mut_mixed_in_box(
        unchecked, puzzle=puzzle, swap=1, three_swap=0, insert=0, use_help_array=False, rng=random.Random(1)
    )
    assert unchecked[0] == solution[1] and unchecked[1] == solution[0]


def _stuck_box():
    """EASY's solution with box 0's first row free, each of its three values also freed in the other two
    columns of the box (further down), so that any move of the row is legal; and cells 10 and 20 free
    and swapped: two values their rows forbid, which no move of row 0 clears."""
    solution = solve(EASY).cells
    free = [0, 1, 2, 10, 20]
    for cell in (0, 1, 2):
        for column in {0, 1, 2} - {cell}:
            free += [c for c in range(27 + column, 81, 9) if solution[c] == solution[cell]]
    puzzle = Puzzle(np.where(np.isin(np.arange(81), free), 0, solution))
    start = solution.astype(np.int64)
    start[[10, 20]] = solution[[20, 10]]
    illegal = help_array(puzzle)
    assert illegal[10, start[10]] and illegal[20, start[20]]  # stuck where they are
    assert not illegal[np.ix_([0, 1, 2], solution[[0, 1, 2]])].any()  # row 0 may take any order
    return puzzle, start


MOVES = {
    "swap": lambda ind, **kw: mut_help_array_swap_in_box(ind, **kw),
    "three_swap": lambda ind, **kw: mut_three_swap_in_box(ind, use_help_array=True, **kw),
    "insert": lambda ind, **kw: mut_insert_in_box(ind, use_help_array=True, **kw),
}


@pytest.mark.parametrize("kind", MOVES)
def test_the_help_array_checks_only_the_values_that_move(kind):
    puzzle, start = _stuck_box()
    illegal = help_array(puzzle)
    row_moves = 0
    for seed in range(40):
        individual = Individual(start.copy())
        MOVES[kind](individual, puzzle=puzzle, tries=10, rng=random.Random(seed))
        changed = np.flatnonzero(individual != start)
        assert not illegal[changed, individual[changed]].any()  # no value moved onto a given's row or column
        row_moves += bool(np.isin(changed, [0, 1, 2]).any())
    # 7, 3 and 7 of 40 (the first legal draw is made, often in box 3 or 6); checking every free cell of
    # the box, the stuck cells 10 and 20 held row 0 still: 0 of 40 for each move
    assert row_moves >= 3


@pytest.mark.parametrize("kind", ["three_swap", "insert"])
def test_the_help_array_refuses_a_three_swap_or_insertion_onto_a_given(kind):
    solution = solve(EASY).cells
    puzzle = Puzzle(np.where(np.isin(np.arange(81), [0, 1, 2]), 0, solution))  # row 0 of box 0 free
    # any move of the three puts a value into a column whose givens hold it
    for seed in range(10):
        individual = Individual(solution.astype(np.int64))
        MOVES[kind](individual, puzzle=puzzle, tries=5, rng=random.Random(seed))
        assert np.array_equal(individual, solution)
    unchecked = Individual(solution.astype(np.int64))
    mut = mut_three_swap_in_box if kind == "three_swap" else mut_insert_in_box
    mut(unchecked, puzzle=puzzle, use_help_array=False, rng=random.Random(0))
    assert not np.array_equal(unchecked, solution)


def test_a_three_swap_rotates_three_free_cells_of_one_box():
    individual = init_block_permutation(Individual, puzzle=EASY, rng=random.Random(3))
    for seed in range(20):
        before = individual.copy()
        mut_three_swap_in_box(individual, puzzle=EASY, rng=random.Random(seed))
        changed = np.flatnonzero(individual != before)
        assert len(changed) == 3 and not EASY.givens[changed].any()
        assert len({int(c // 27) * 3 + int(c % 9) // 3 for c in changed}) == 1  # one box
        a, b, c = changed
        # a cycle: no cell gets its own value back, and the three values are kept
        assert sorted(individual[changed].tolist()) == sorted(before[changed].tolist())
        assert {(int(before[x]), int(individual[x])) for x in (a, b, c)} != {
            (int(before[x]), int(before[x])) for x in (a, b, c)
        }


def test_an_insertion_moves_one_value_and_shifts_the_free_cells_between():
    individual = init_block_permutation(Individual, puzzle=EASY, rng=random.Random(4))
    boxes = [np.asarray(box)[~EASY.givens[box]] for box in EASY.shape.boxes]
    seen_shift = False
    for seed in range(30):
        before = individual.copy()
        mut_insert_in_box(individual, puzzle=EASY, rng=random.Random(seed))
        changed = np.flatnonzero(individual != before)
        box = next(b for b in boxes if set(changed.tolist()) <= set(b.tolist()))
        old, new = before[box].tolist(), individual[box].tolist()
        assert any(
            old[:i] + old[i + 1 :] == new[:j] + new[j + 1 :] and old[i] == new[j]
            for i in range(len(old))
            for j in range(len(new))
        )
        seen_shift |= len(changed) > 2  # more than a swap: the values between moved
    assert seen_shift


def test_the_mixed_mutation_draws_its_move_by_the_weights():
    counts = {2: 0, 3: 0}
    for seed in range(200):
        individual = init_block_permutation(Individual, puzzle=EASY, rng=random.Random(seed))
        before = individual.copy()
        mut_mixed_in_box(
            individual, puzzle=EASY, swap=1, three_swap=3, insert=0, use_help_array=False, rng=random.Random(seed)
        )
        changed = int(np.count_nonzero(individual != before))
        counts[changed] = counts.get(changed, 0) + 1
    assert set(counts) == {2, 3} and 110 < counts[3] < 190  # about 3 in 4 three-swaps


def test_the_crossover_points_lie_between_boxes():
    rng, empty = random.Random(0), Puzzle([0] * 81)  # no givens: two parents' boxes never coincide here
    boxes = empty.shape.boxes
    points = set()
    for _ in range(60):
        one = init_block_permutation(Individual, puzzle=empty, rng=rng)
        two = init_block_permutation(Individual, puzzle=empty, rng=rng)
        a, b = one.copy(), two.copy()
        cx_block_one_point(one, two, puzzle=empty, rng=rng)
        from_first = [k for k in range(9) if np.array_equal(one[boxes[k]], a[boxes[k]])]
        from_second = [k for k in range(9) if np.array_equal(one[boxes[k]], b[boxes[k]])]
        point = len(from_first)
        assert from_first == list(range(point)) and from_second == list(range(point, 9))
        assert np.array_equal(two[boxes[point:]], a[boxes[point:]]) and np.array_equal(
            two[boxes[:point]], b[boxes[:point]]
        )
        points.add(point)
    assert points == set(range(1, 9))


def test_the_uniform_crossover_exchanges_whole_boxes():
    rng, empty = random.Random(1), Puzzle([0] * 81)
    boxes = empty.shape.boxes
    for _ in range(30):
        one = init_block_permutation(Individual, puzzle=empty, rng=rng)
        two = init_block_permutation(Individual, puzzle=empty, rng=rng)
        a, b = one.copy(), two.copy()
        cx_block_uniform(one, two, puzzle=empty, rng=rng)
        taken = [k for k in range(9) if np.array_equal(one[boxes[k]], b[boxes[k]])]
        kept = [k for k in range(9) if np.array_equal(one[boxes[k]], a[boxes[k]])]
        assert sorted(taken + kept) == list(range(9)) and 0 < len(taken) < 9
        assert all(np.array_equal(two[boxes[k]], a[boxes[k]]) for k in taken)


def test_every_individual_of_both_runs_is_a_block_permutation_with_the_givens_fixed():
    for recipe in (mk_ga, mk_cultural):
        population, _, _ = recipe(EASY, seed=2, stop=Stop(max_generations=5))
        for individual in population:
            assert np.array_equal(individual[EASY.givens], EASY.cells[EASY.givens])
            for box in EASY.shape.boxes:
                assert sorted(individual[box].tolist()) == list(range(1, 10))


def test_the_fitness_is_the_published_formula_by_hand():
    grid = init_block_permutation(Individual, puzzle=EASY, rng=random.Random(7))
    lines = [grid[9 * r : 9 * r + 9].tolist() for r in range(9)] + [grid[c::9].tolist() for c in range(9)]
    by_hand = sum(
        10 * abs(sum(line) - 45) + math.sqrt(abs(math.prod(line) - math.factorial(9))) + 50 * (9 - len(set(line)))
        for line in lines
    )
    assert eval_closeness_mk(grid, puzzle=EASY)[0] == pytest.approx(by_hand, rel=1e-12) and by_hand > 0


def test_the_recipes_defaults_are_the_tables():
    for recipe in (mk_ga, mk_cultural):
        defaults = {name: p.default for name, p in inspect.signature(recipe).parameters.items()}
        assert (defaults["swap"], defaults["three_swap"], defaults["insert"]) == (1.0, 1.0, 1.0)  # equal weights
        assert defaults["cxpb"] == defaults["mutpb"] == 1.0  # a child of every pair, each mutated once
        assert defaults["use_help_array"] is True and defaults["tries"] == 10
        assert defaults["crossover"] == "uniform"
    assert inspect.signature(mk_cultural).parameters["accepted"].default == 2


def test_a_run_restarts_after_2000_generations_without_improvement():
    for recipe in (mk_ga, mk_cultural):
        assert inspect.signature(recipe).parameters["restart_after"].default == 2000
    puzzle = read(REPO / "data" / "9x9.txt")[0]
    _, logbook, _ = mk_ga(puzzle, seed=0, restart_after=4, stop=Stop(max_generations=40))
    best, since, restarts = logbook[0]["min"], 0, 0
    for record in logbook[1:]:
        if record["restarts"] > restarts:  # this generation drew a fresh population, and it counts
            assert since == 4
            restarts, since = record["restarts"], 0
        since = 0 if record["min"] < best else since + 1
        best = min(best, record["min"])
        assert since <= 4
    assert restarts == 3  # at generations 29, 33 and 37


def _ranked(size):
    population = []
    for rank in range(size):
        individual = Individual(np.zeros(81, dtype=np.int64))
        individual.fitness.values = (float(rank),)  # rank 0 the best
        population.append(individual)
    return population


def test_the_parents_of_place_i_come_from_the_i_places_above_it():
    population = _ranked(21)
    shuffled = population[::-1]
    chosen = sel_ranked_pairs(shuffled, 40, rng=random.Random(2))
    ranks = [next(r for r, p in enumerate(population) if p is c) for c in chosen]
    for j, rank in enumerate(ranks):
        assert rank < 20 - j // 2  # place i = 20 - j // 2 draws among ranks 0..i-1
    draws = random.Random(2)
    assert ranks == [int((20 - j // 2) * draws.random()) for j in range(40)]


def test_the_best_is_kept_and_the_population_is_21():
    _, logbook, _ = mk_ga(EASY, seed=3, restart_after=None, stop=Stop(max_generations=40))
    best = [record["min"] for record in logbook]
    assert all(b <= a for a, b in zip(best, best[1:]))
    assert {record["nevals"] for record in logbook[1:]} <= set(range(21))  # at most 20 children, one elite
    parameters = inspect.signature(mk_ga).parameters
    assert parameters["population_size"].default == 21 and parameters["elites"].default == 1


def test_the_fitness_is_theirs_and_the_run_ends_when_solved_or_at_100000_generations():
    population, logbook, hof = mk_ga(FEW_EMPTY, seed=0, restart_after=100, stop=Stop(max_generations=3000))
    assert logbook.fitness == "closeness_mk" and logbook.target == 0
    assert logbook.stop_reason == "solved" and hof[0].fitness.values == (0.0,)
    assert eval_closeness_mk(hof[0], puzzle=FEW_EMPTY) == (0.0,)
    for recipe in (mk_ga, mk_cultural):
        assert inspect.signature(recipe).parameters["stop"].default.max_generations == 100_000


def _scored(grid, value):
    individual = Individual(np.array(grid))
    individual.fitness = FitnessMin((value,))
    return individual


def test_the_belief_space_holds_what_the_accepted_best_agree_on():
    rng = random.Random(5)
    grid = np.asarray(init_block_permutation(Individual, puzzle=EASY, rng=rng))
    other = grid.copy()
    free = np.flatnonzero(~EASY.givens)
    box_free = [c for c in EASY.shape.boxes[4] if not EASY.givens[c]]
    other[box_free[0]], other[box_free[1]] = grid[box_free[1]], grid[box_free[0]]  # they differ in two cells
    worse = np.asarray(init_block_permutation(Individual, puzzle=EASY, rng=rng))
    belief = BeliefSpace(EASY, accepted=2)
    belief.update([_scored(worse, 9.0), _scored(grid, 1.0), _scored(other, 2.0)])
    clash = belief._clashing(grid)
    expected = np.where(EASY.givens, EASY.cells, np.where((grid == other) & ~clash, grid, 0))
    assert np.array_equal(belief.values, expected) and belief.believed > 0
    assert belief.values[box_free[0]] == 0 and not (belief.values[free][clash[free]]).any()
    belief.update([_scored(grid, 1.0), _scored(grid.copy(), 1.0), _scored(worse, 9.0)])  # one grid twice: one voice
    voices = np.where(EASY.givens, EASY.cells, np.where((grid == worse) & ~clash, grid, 0))
    assert np.array_equal(belief.values, voices)  # the copy counted once: the second voice is the worse grid
    copies = BeliefSpace(EASY, accepted=2)
    copies.update([_scored(grid, 1.0), _scored(grid.copy(), 1.0)])
    assert copies.believed == 0


def test_the_mutation_leaves_believed_cells_alone():
    rng = random.Random(6)
    belief = BeliefSpace(EASY, accepted=2)
    individual = init_block_permutation(Individual, puzzle=EASY, rng=rng)
    free = np.flatnonzero(~EASY.givens)
    believed = free[::2]
    belief.values = np.where(EASY.givens, EASY.cells, 0)
    belief.values[believed] = np.asarray(individual)[believed]
    for seed in range(50):
        before = individual.copy()
        mut_mixed_in_box(individual, puzzle=EASY, belief=belief, use_help_array=False, rng=random.Random(seed))
        assert np.array_equal(individual[believed], before[believed])
        assert int(np.count_nonzero(individual != before)) >= 2 or seed  # it still moves the others


def test_the_cultural_algorithm_updates_its_belief_before_each_selection():
    calls = []
    belief = BeliefSpace(EASY, accepted=2)
    population = [
        _scored(init_block_permutation(Individual, puzzle=EASY, rng=random.Random(s)), float(s)) for s in range(4)
    ]
    select = belief.accepting(lambda individuals, k, **kw: calls.append(belief.values.copy()) or individuals[:k])
    select(population, 2)
    expected = BeliefSpace(EASY, accepted=2)
    expected.update(population)
    assert np.array_equal(calls[0], expected.values) and expected.believed > 0


def _cultural_toolbox():
    rng, belief = random.Random(0), BeliefSpace(EASY, accepted=2)
    toolbox = base.Toolbox()
    toolbox.register("select", belief.accepting(sel_ranked_pairs), rng=rng)
    toolbox.register("mutate", mut_mixed_in_box, puzzle=EASY, belief=belief, rng=rng)
    return toolbox, belief


def test_the_cultural_toolbox_pickles_and_a_copy_has_one_belief_space_of_its_own():
    population = [
        _scored(init_block_permutation(Individual, puzzle=EASY, rng=random.Random(s)), float(s)) for s in range(4)
    ]
    toolbox, belief = _cultural_toolbox()
    givens_only = belief.values.copy()
    for twin in (pickle.loads(pickle.dumps(toolbox)), copy.deepcopy(toolbox)):
        selecting, mutating = twin.select.func.belief, twin.mutate.keywords["belief"]
        assert selecting is mutating and selecting is not belief
        twin.select(population, 2)  # acceptance updates the twin's belief space, which its mutation reads
        assert mutating.believed > 0 and np.array_equal(belief.values, givens_only)


def test_the_cultural_run_solves_the_easy_puzzle_and_differs_from_the_ga():
    ga = mk_ga(EASY, seed=1, restart_after=200, stop=Stop(max_generations=30))
    cultural = mk_cultural(EASY, seed=1, restart_after=200, stop=Stop(max_generations=30))
    assert [r["min"] for r in ga[1]] != [r["min"] for r in cultural[1]]


@pytest.mark.parametrize("crossover", ["bands"])
def test_an_unknown_crossover_is_refused(crossover):
    with pytest.raises(ValueError, match="crossover is one of"):
        mk_ga(EASY, crossover=crossover)
