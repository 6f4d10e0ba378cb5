"""Property tests: every operator keeps the givens and its representation's invariant, and
returns DEAP's tuples; every fitness is optimal exactly on solutions; batched == per-individual."""

import random
from functools import lru_cache
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deap_sudoku import Puzzle, Shape
from deap_sudoku.tools.crossover import (
    cx_band_two_point,
    cx_bands,
    cx_block_uniform,
    cx_cell_uniform,
    cx_diagonal,
    cx_row_uniform,
)
from deap_sudoku.tools.fitness import (
    batch_map,
    cell_map,
    closeness_map,
    collision_map,
    eval_cell_collisions,
    eval_closeness,
    eval_closeness_mk,
    eval_collisions,
    eval_column_box_collisions,
    eval_distinct,
    eval_threats,
    optimum,
)
from deap_sudoku.exact.generate import dig_puzzle, random_solution
from deap_sudoku.tools.individual import Individual, MaxIndividual, individual_class
from deap_sudoku.tools.init import (
    init_block_permutation,
    init_free_cells,
    init_row_permutation,
    seed_from_search,
    init_smart_block_permutation,
)
from deap_sudoku.tools.mutation import mut_conflict_swap, mut_random_reset, mut_swap_in_box, mut_swap_in_row
from deap_sudoku.exact import solve, verify
from deap_sudoku.propagation import propagate

from tests.conftest import FORUM_HARDEST, unsolvable

BOXES = [(2, 2), (2, 3), (3, 3), (4, 4)]
FITNESSES = [
    eval_collisions,
    eval_cell_collisions,
    eval_column_box_collisions,
    eval_distinct,
    eval_threats,
    eval_closeness,
    eval_closeness_mk,
]


@lru_cache(maxsize=None)
def _solution(box):
    return random_solution(Shape(*box), random.Random(7))


@st.composite
def cases(draw):
    """A puzzle of a random shape (unique or not), and a seeded random generator."""
    box = draw(st.sampled_from(BOXES))
    solution = _solution(box)
    seed = draw(st.integers(0, 2**32 - 1))
    givens = draw(st.integers(0, solution.shape.cells))
    puzzle = dig_puzzle(solution, givens, random.Random(seed), unique=False)
    return puzzle, random.Random(seed)


def _keeps_givens(ind, puzzle):
    return np.array_equal(np.asarray(ind)[puzzle.givens], puzzle.cells[puzzle.givens])


def _units_are_permutations(ind, units):
    return bool(np.all(np.sort(np.asarray(ind)[units], axis=1) == np.arange(1, units.shape[1] + 1)))


def _all_values_in_range(ind, puzzle):
    values = np.asarray(ind)
    return bool(values.min() >= 1 and values.max() <= puzzle.n)


@settings(max_examples=40, deadline=None)
@given(cases(), st.booleans())
def test_initialisers_keep_givens_and_their_invariant(case, restrict):
    puzzle, rng = case
    shape = puzzle.shape
    for init, units in (
        (init_block_permutation, shape.boxes),
        (init_smart_block_permutation, shape.boxes),
        (init_row_permutation, shape.rows),
        (init_free_cells, None),
    ):
        ind = init(Individual, puzzle=puzzle, restrict=restrict, rng=rng)
        assert isinstance(ind, Individual) and not ind.fitness.valid
        assert _keeps_givens(ind, puzzle) and _all_values_in_range(ind, puzzle)
        if units is not None:
            assert _units_are_permutations(ind, units)


def test_restricted_initialisers_start_forced_cells_right():
    solution = _solution((3, 3))
    puzzle = dig_puzzle(solution, 40, random.Random(1))
    forced = propagate(puzzle)
    assert forced.solved  # an easy unique puzzle: propagation alone fills it
    for init in (init_block_permutation, init_smart_block_permutation, init_row_permutation, init_free_cells):
        ind = init(Individual, puzzle=puzzle, restrict=True, rng=random.Random(0))
        assert verify(ind, puzzle), init.__name__


def test_smart_initialiser_collides_less_than_random():
    puzzle = dig_puzzle(_solution((3, 3)), 25, random.Random(3))
    rng = random.Random(0)
    smart = np.mean(
        [
            eval_collisions(init_smart_block_permutation(Individual, puzzle=puzzle, rng=rng), puzzle=puzzle)[0]
            for _ in range(200)
        ]
    )
    plain = np.mean(
        [
            eval_collisions(init_block_permutation(Individual, puzzle=puzzle, rng=rng), puzzle=puzzle)[0]
            for _ in range(200)
        ]
    )
    assert smart < plain


def test_seed_from_search_writes_the_answer_it_finds_in_place_or_leaves_the_individual_alone():
    puzzle = Puzzle.parse(FORUM_HARDEST)
    answer = solve(puzzle).cells
    individual = init_block_permutation(Individual, puzzle=puzzle, rng=random.Random(0))
    before = individual.copy()
    assert seed_from_search(individual, puzzle=puzzle, max_nodes=3) == (individual,)  # too few nodes
    assert np.array_equal(individual, before)
    (returned,) = seed_from_search(individual, puzzle=puzzle)
    assert returned is individual and np.array_equal(individual, answer)
    as_list = [0] * 81  # a creator-made list individual gets Python ints
    seed_from_search(as_list, puzzle=puzzle)
    assert as_list == answer.tolist() and type(as_list[0]) is int
    hopeless = init_block_permutation(Individual, puzzle=unsolvable(), rng=random.Random(0))
    kept = hopeless.copy()
    seed_from_search(hopeless, puzzle=unsolvable())  # the search proves there is none: nothing written
    assert np.array_equal(hopeless, kept)


@settings(max_examples=40, deadline=None)
@given(cases())
def test_block_crossovers_and_mutations_keep_block_permutations(case):
    puzzle, rng = case
    boxes = puzzle.shape.boxes
    parents = [init_block_permutation(Individual, puzzle=puzzle, rng=rng) for _ in range(3)]
    before = [p.copy() for p in parents]
    a, b = cx_block_uniform(parents[0], parents[1], puzzle=puzzle, rng=rng)
    assert a is parents[0] and b is parents[1]
    # cells are exchanged, not invented: at each cell the pair holds the same two values
    assert np.array_equal(np.sort(np.stack([a, b]), axis=0), np.sort(np.stack(before[:2]), axis=0))
    results = [a, b, *cx_band_two_point(a, b, puzzle=puzzle, rng=rng), *cx_diagonal(*parents, puzzle=puzzle)]
    results += [
        mut_swap_in_box(parents[0], puzzle=puzzle, rng=rng)[0],
        mut_conflict_swap(parents[1], puzzle=puzzle, threshold=0, in_box=True, rng=rng)[0],
    ]
    for ind in results:
        assert _keeps_givens(ind, puzzle) and _units_are_permutations(ind, boxes)


@settings(max_examples=40, deadline=None)
@given(cases())
def test_row_and_cell_operators_keep_their_invariants(case):
    puzzle, rng = case
    rows = puzzle.shape.rows
    a, b = (init_row_permutation(Individual, puzzle=puzzle, rng=rng) for _ in range(2))
    a, b = cx_row_uniform(a, b, puzzle=puzzle, rng=rng)
    (a,) = mut_swap_in_row(a, puzzle=puzzle, indpb=0.5, rng=rng)
    for ind in (a, b):
        assert _keeps_givens(ind, puzzle) and _units_are_permutations(ind, rows)
    c, d = (init_free_cells(Individual, puzzle=puzzle, rng=rng) for _ in range(2))
    c, d = cx_cell_uniform(c, d, puzzle=puzzle, rng=rng)
    (c,) = mut_random_reset(c, puzzle=puzzle, amount=5, rng=rng)
    (d,) = mut_conflict_swap(d, puzzle=puzzle, rng=rng)
    for ind in (c, d):
        assert _keeps_givens(ind, puzzle) and _all_values_in_range(ind, puzzle)


def test_two_point_band_crossover_swaps_the_middle_band_of_a_9x9():
    puzzle = Puzzle([0] * 81)
    a, b = Individual([1] * 81), Individual([2] * 81)
    cx_band_two_point(a, b, puzzle=puzzle, rng=random.Random(0))
    assert a.reshape(9, 9)[:, 0].tolist() == [1, 1, 1, 2, 2, 2, 1, 1, 1]
    cx_bands(a, b, puzzle=puzzle, first=0, stop=1)
    assert a.reshape(9, 9)[:, 0].tolist() == [2, 2, 2, 2, 2, 2, 1, 1, 1]


@pytest.mark.parametrize("box, upper_rows", [((3, 3), 3), ((2, 2), 2), ((2, 4), 4), ((4, 2), 4)])
def test_cx_bands_registers_like_the_other_crossovers_and_swaps_the_upper_half_by_default(box, upper_rows):
    from deap import base

    puzzle = Puzzle([0] * (box[0] * box[1]) ** 2, box=box)
    n = puzzle.n
    toolbox = base.Toolbox()
    toolbox.register("mate", cx_bands, puzzle=puzzle)
    a, b = Individual([1] * n * n), Individual([2] * n * n)
    toolbox.mate(a, b)
    assert a.reshape(n, n)[:, 0].tolist() == [2] * upper_rows + [1] * (n - upper_rows)
    for first, stop in ((1, 1), (-1, 1), (0, n // box[0] + 1)):
        with pytest.raises(ValueError, match="not a range of the"):
            cx_bands(a, b, puzzle=puzzle, first=first, stop=stop)


def test_diagonal_crossover_takes_band_i_from_parent_i():
    puzzle = Puzzle([0] * 81)
    parents = [Individual([v] * 81) for v in (1, 2, 3)]
    children = cx_diagonal(*parents, puzzle=puzzle)
    assert children[0].reshape(9, 9)[::3, 0].tolist() == [1, 2, 3]
    assert children[1].reshape(9, 9)[::3, 0].tolist() == [2, 3, 1]


def test_conflict_swap_swaps_exactly_the_free_cells_whose_map_value_exceeds_the_threshold():
    """The C++ GA's rule: every cell with a map value > 1 is swapped (in random pairs, anywhere; an odd
    one stays), cells at 1 or below never move, givens never move."""
    puzzle = Puzzle.parse("1" + "0" * 255)  # 16x16: 16 values, so 15 distinct values can all move
    ind = Individual(np.tile(np.arange(1, 17), 16))
    marked = np.arange(16)  # 16 cells above the threshold, cell 0 (a given) among them
    values = np.zeros(256, dtype=np.int64)
    values[marked] = 2
    values[100:140] = 1  # at the threshold: not taken
    values[0] = 5
    before = ind.copy()
    mut_conflict_swap(ind, puzzle=puzzle, cell_map=lambda individual, p: values, rng=random.Random(0))
    moved = np.flatnonzero(ind != before)
    assert len(moved) == 14 and set(moved.tolist()) < set(marked.tolist())  # 15 free cells: 7 pairs, one stays
    assert sorted(ind[marked].tolist()) == sorted(before[marked].tolist())  # swapped, not invented
    with_zero = Individual(before)
    mut_conflict_swap(
        with_zero, puzzle=puzzle, cell_map=lambda individual, p: values, threshold=0, rng=random.Random(0)
    )
    assert set(np.flatnonzero(with_zero != before).tolist()) <= set(marked.tolist()) | set(range(100, 140))
    assert np.flatnonzero(with_zero != before).size > 14


def test_conflict_swap_reads_the_map_of_the_fitness_in_use_and_pairs_inside_boxes_on_request():
    solution = _solution((3, 3))
    puzzle = dig_puzzle(solution, 30, random.Random(2), unique=False)
    ind = init_block_permutation(Individual, puzzle=puzzle, rng=random.Random(4))
    assert cell_map(eval_cell_collisions) is collision_map and cell_map(eval_collisions) is collision_map
    assert cell_map(eval_closeness) is closeness_map
    assert not closeness_map(ind, puzzle).any()  # a 0/1 map: "> 1" never holds, so the mutation never swaps
    untouched = Individual(ind)
    mut_conflict_swap(untouched, puzzle=puzzle, cell_map=cell_map(eval_closeness), rng=random.Random(0))
    assert np.array_equal(untouched, ind)
    documented = Individual(ind)
    mut_conflict_swap(documented, puzzle=puzzle, rng=random.Random(0))
    above_one = set(np.flatnonzero(collision_map(ind, puzzle) > 1).tolist()) - set(np.flatnonzero(puzzle.givens))
    moved = set(np.flatnonzero(documented != ind).tolist())
    assert (
        moved
        and moved <= above_one
        and len(above_one) - len(moved)
        <= 1 + sum(1 for a in above_one for b in above_one if a < b and ind[a] == ind[b])
    )  # equal values swap invisibly
    in_boxes = Individual(ind)
    mut_conflict_swap(in_boxes, puzzle=puzzle, threshold=0, in_box=True, rng=random.Random(0))
    assert _units_are_permutations(in_boxes, puzzle.shape.boxes)
    (untouched,) = mut_conflict_swap(Individual(solution.cells), puzzle=puzzle, threshold=0)
    assert np.array_equal(untouched, solution.cells)


def test_random_reset_of_any_square_wastes_the_draws_that_hit_givens():
    """Implementation 1 mutates random squares of the board; one that is given stays."""
    solution = _solution((3, 3))
    puzzle = dig_puzzle(solution, 80, random.Random(1), unique=False)  # one free square
    free = int(np.flatnonzero(~puzzle.givens)[0])
    rng = random.Random(0)
    anywhere = sum(
        mut_random_reset(Individual(solution.cells), puzzle=puzzle, any_cell=True, rng=rng)[0][free]
        != solution.cells[free]
        for _ in range(900)
    )
    only_free = sum(
        mut_random_reset(Individual(solution.cells), puzzle=puzzle, rng=rng)[0][free] != solution.cells[free]
        for _ in range(900)
    )
    assert 0 < anywhere < 30  # about 900 * 1/81 * 8/9 = 10
    assert 700 < only_free  # about 900 * 8/9 = 800
    (ind,) = mut_random_reset(Individual(solution.cells), puzzle=puzzle, amount=81, any_cell=True, rng=rng)
    assert _keeps_givens(ind, puzzle)


# -- fitness ----------------------------------------------------------------------------


def _reference_collisions(grid, shape, units):
    return sum(len(unit) - len(set(grid[unit].tolist())) for unit in units)


@settings(max_examples=25, deadline=None)
@given(cases())
def test_fitness_matches_a_set_based_reference_and_batches_agree(case):
    puzzle, rng = case
    shape = puzzle.shape
    population = [init_free_cells(Individual, puzzle=puzzle, rng=rng) for _ in range(5)]
    population.append(Individual(_solution((shape.box_rows, shape.box_cols)).cells))
    for ind in population:
        grid = np.asarray(ind)
        assert eval_collisions(ind, puzzle=puzzle)[0] == _reference_collisions(grid, shape, shape.units)
        expected = _reference_collisions(grid, shape, shape.units[shape.n :])
        assert eval_column_box_collisions(ind, puzzle=puzzle)[0] == expected
        assert eval_distinct(grid, puzzle=puzzle)[0] == sum(len(set(grid[u].tolist())) for u in shape.units)
        cmap = collision_map(ind, puzzle)
        expected = [sum(int(np.sum(grid[u] == grid[c])) - 1 for u in shape.units if c in u) for c in range(shape.cells)]
        assert cmap.tolist() == expected
    for evaluate in FITNESSES:
        kind = individual_class(evaluate)  # the direction each fitness demands of its individuals
        ones = [kind(ind) for ind in population]
        one_by_one = [evaluate(ind, puzzle=puzzle) for ind in ones]
        batched = batch_map(_registered(evaluate, puzzle), ones)
        assert batched == one_by_one  # to the last bit: a run records one fitness for one grid
        with mock.patch("deap_sudoku.tools.fitness.BATCH_CELLS", 4 * shape.cells):  # batches of 4 and 2
            assert batch_map(_registered(evaluate, puzzle), ones) == one_by_one


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_closeness_scores_a_grid_alone_as_in_a_batch_to_the_last_bit(box):
    """Float fitnesses summed in numpy's shape-dependent order gave a grid a value up to 7e-12 apart
    alone and in a batch, so batch_map and SCOOP runs recorded two fitnesses for one individual."""
    shape = Shape(*box)
    puzzle = Puzzle(np.zeros(shape.cells, dtype=np.int64), box=box)
    grids = np.random.default_rng(sum(box)).integers(1, shape.n + 1, size=(120, shape.cells))
    grids[:20] = [init_block_permutation(Individual, puzzle=puzzle, rng=random.Random(i)) for i in range(20)]
    for evaluate in (eval_closeness, eval_closeness_mk):
        alone = [evaluate(Individual(grid), puzzle=puzzle)[0] for grid in grids]
        for size in (2, 7, 120):
            batched = np.concatenate([evaluate.batch(grids[i : i + size], puzzle) for i in range(0, 120, size)])
            assert batched.tolist() == alone, (evaluate.__name__, size)


def _registered(evaluate, puzzle):
    from deap import base

    toolbox = base.Toolbox()
    toolbox.register("evaluate", evaluate, puzzle=puzzle)
    return toolbox.evaluate


@settings(max_examples=60, deadline=None)
@given(cases())
def test_fitness_is_optimal_exactly_on_solutions(case):
    puzzle, rng = case
    solution = Individual(_solution((puzzle.shape.box_rows, puzzle.shape.box_cols)).cells)
    candidate = init_block_permutation(Individual, puzzle=puzzle, rng=rng)
    for evaluate in FITNESSES:
        best = optimum(evaluate, puzzle)
        assert evaluate(np.asarray(solution), puzzle=puzzle)[0] == pytest.approx(best, abs=1e-12)
        score = evaluate(np.asarray(candidate), puzzle=puzzle)[0]
        if evaluate in (eval_threats, eval_column_box_collisions):
            continue  # these ignore one kind of unit; checked below for their representations
        assert (abs(score - best) < 1e-12) == verify(candidate), evaluate.__name__


def test_partial_fitnesses_are_optimal_on_solutions_of_their_representation():
    puzzle = dig_puzzle(_solution((3, 3)), 30, random.Random(4))
    rng = random.Random(5)
    for _ in range(50):
        rows = init_row_permutation(Individual, puzzle=puzzle, rng=rng)
        assert (eval_column_box_collisions(rows, puzzle=puzzle)[0] == 0) == verify(rows, puzzle)
        blocks = init_block_permutation(MaxIndividual, puzzle=puzzle, rng=rng)
        assert (eval_threats(blocks, puzzle=puzzle)[0] == 108) == verify(blocks, puzzle)


def test_closeness_map_marks_a_cell_when_its_row_and_column_closeness_exceed_3_of_6():
    """The C++ GA's rule: row value + column value (each the sum of three terms scaled to 0..1) > 3."""
    solution = _solution((3, 3))
    puzzle = Puzzle([0] * 81)
    assert not closeness_map(Individual(solution.cells), puzzle).any()
    ones = Individual(solution.cells)
    ones[:9] = 1  # row 1 scores 3 (sum, product and 8 missing values all at their worst)
    marked = closeness_map(ones, puzzle).reshape(9, 9)
    column_of_one = int(np.flatnonzero(solution.cells[:9] == 1)[0])  # this column is still right: 3 + 0
    assert marked[0].tolist() == [c != column_of_one for c in range(9)] and not marked[1:].any()
    assert not closeness_map(init_block_permutation(Individual, puzzle=puzzle, rng=random.Random(0)), puzzle).any()
    assert eval_closeness(ones, puzzle=puzzle)[0] > 0 and eval_closeness_mk(ones, puzzle=puzzle)[0] > 0


def test_cell_collisions_are_the_collision_map_summed():
    puzzle = Puzzle([0] * 81)
    for seed in range(5):
        ind = init_free_cells(Individual, puzzle=puzzle, rng=random.Random(seed))
        assert eval_cell_collisions(ind, puzzle=puzzle)[0] == collision_map(ind, puzzle).sum()
    pair_and_triple = Individual(_solution((3, 3)).cells)
    pair_and_triple[1] = pair_and_triple[0]  # row 1, box 1: one value twice in each (2 + 2); column: none
    assert (
        eval_cell_collisions(pair_and_triple, puzzle=puzzle)[0]
        == 2 * eval_collisions(pair_and_triple, puzzle=puzzle)[0]
    )
