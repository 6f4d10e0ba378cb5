"""Propagation repair: invariants of every move, and agreement with the library's fitness."""

from __future__ import annotations

import random
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deap_sudoku import Puzzle, Shape
from deap_sudoku.algorithms import Stop
from deap_sudoku.tools.fitness import collision_map, eval_collisions
from deap_sudoku.exact.generate import dig_puzzle, random_solution
from deap_sudoku.tools.individual import Individual
from deap_sudoku.tools.init import init_block_permutation
from deap_sudoku.algorithms.memetic import memetic_toolbox
from deap_sudoku.algorithms.repair import PropagationRepair, mut_destroy_repair, mut_repair
from deap_sudoku.algorithms.repair_kernel import Draws, rebuild_compiled, rebuild_reference
from deap_sudoku.exact import verify
from deap_sudoku.propagation import propagate
from tests.conftest import wide_puzzle

_NINE = Puzzle(np.zeros(81, dtype=np.int8), box=(3, 3))
BOXES = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4)]


@lru_cache(maxsize=None)
def _solution(box):
    return random_solution(Shape(*box), random.Random(11))


@st.composite
def cases(draw):
    """A puzzle (any number of givens, unique or not), a random block-permutation of it and a generator."""
    box = draw(st.sampled_from(BOXES))
    seed = draw(st.integers(0, 2**32 - 1))
    solution = _solution(box)
    rng = random.Random(seed)
    puzzle = dig_puzzle(solution, draw(st.integers(0, solution.shape.cells)), rng, unique=False)
    return puzzle, init_block_permutation(Individual, puzzle=puzzle, rng=rng), rng


def _is_block_permutation_of(ind, puzzle):
    values = np.asarray(ind)
    boxes_ok = np.all(np.sort(values[puzzle.shape.boxes], axis=1) == np.arange(1, puzzle.n + 1))
    return bool(boxes_ok and np.array_equal(values[puzzle.givens], puzzle.cells[puzzle.givens]))


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from(["repair", "destroy"]), st.floats(0, 1), st.booleans())
def test_moves_keep_givens_and_block_permutations_and_leave_fitness_to_the_algorithm(case, move, noise, compiled):
    """DEAP's contract: the move changes the grid in place; invalidating the fitness is the algorithm's job."""
    puzzle, ind, rng = case
    ind.fitness.values = before = eval_collisions(ind, puzzle=puzzle)
    if move == "repair":
        result = mut_repair(ind, puzzle=puzzle, noise=noise, compiled=compiled, rng=rng)
    else:
        result = mut_destroy_repair(ind, puzzle=puzzle, noise=noise, compiled=compiled, rng=rng)
    assert result == (ind,)
    assert _is_block_permutation_of(ind, puzzle)
    assert ind.fitness.values == before


@settings(max_examples=40, deadline=None)
@given(cases())
def test_clashing_cells_are_those_the_collision_map_marks(case):
    puzzle, ind, _ = case
    kernel = PropagationRepair(puzzle)
    assert kernel.clashing(ind).tolist() == np.flatnonzero(collision_map(ind, puzzle)).tolist()


@settings(max_examples=60, deadline=None)
@given(cases(), st.data())
def test_boxes_are_made_permutations_keeping_fixed_and_first_cells(case, data):
    puzzle, ind, rng = case
    kernel = PropagationRepair(puzzle)
    values = np.array([data.draw(st.integers(0, puzzle.n)) for _ in range(puzzle.shape.cells)])
    values[kernel.fixed] = np.asarray(ind)[kernel.fixed]  # fixed cells hold their forced values
    out = kernel.as_block_permutation(values, np.random.default_rng(rng.getrandbits(64)))
    assert np.all(np.sort(out[puzzle.shape.boxes], axis=1) == np.arange(1, puzzle.n + 1))
    assert np.array_equal(out[kernel.fixed], values[kernel.fixed])
    for box in kernel._box_order:  # a cell whose value is its box's first occurrence keeps it
        seen = set()
        for c in box:
            if 0 < values[c] and values[c] not in seen:
                assert out[c] == values[c]
            seen.add(values[c])


@settings(max_examples=80, deadline=None)
@given(cases(), st.floats(0, 1), st.booleans(), st.data())
def test_compiled_rebuild_is_the_reference_rebuild(case, noise, locked, data):
    """Same inputs and random draws, same grid and failures: the numba kernel is the Python spec."""
    puzzle, ind, rng = case
    kernel = PropagationRepair(puzzle)
    values = ind.tolist()
    keep = [c for c in kernel._open if data.draw(st.booleans())] if data.draw(st.booleans()) else []
    draws = Draws.new(
        np.random.default_rng(rng.getrandbits(64)), kernel._open_array, puzzle.shape.cells, puzzle.n, noise
    )
    expected = rebuild_reference(kernel.candidates(), values, keep, draws, puzzle.shape, locked)
    grid, failed = rebuild_compiled(
        np.array(kernel.candidates(), dtype=np.int64),
        np.array(values, dtype=np.int64),
        np.array(keep, dtype=np.int64),
        draws,
        puzzle.shape,
        locked,
    )
    assert (grid.tolist(), failed) == expected


def test_both_kernels_give_the_same_seeded_repair():
    puzzle = Puzzle.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    grids = []
    for compiled in (True, False):
        ind = init_block_permutation(Individual, puzzle=puzzle, rng=random.Random(2))
        mut_destroy_repair(ind, puzzle=puzzle, compiled=compiled, rng=random.Random(3))
        grids.append(ind.tolist())
    assert grids[0] == grids[1]


def test_rebuild_keeps_forced_cells_and_fills_every_cell():
    puzzle = Puzzle.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    kernel = PropagationRepair(puzzle)
    forced = propagate(puzzle).values
    values, failed = kernel.rebuild(puzzle.cells, [], np.random.default_rng(0))
    assert all(values)
    assert all(values[c] == forced[c] for c in range(81) if forced[c])
    reference, reference_failed = PropagationRepair(puzzle, compiled=False).rebuild(
        puzzle.cells, [], np.random.default_rng(0)
    )
    assert values.tolist() == reference.tolist() and failed == reference_failed
    assert (failed == 0) <= verify(values, puzzle)  # no failed cell: the rebuild found a solution


@pytest.mark.parametrize("compiled", [True, False])
def test_a_grid_without_failures_is_a_solution(compiled):
    """When no cell fails the construction is a solution (propagation checked every placement), and a
    failed cell leaves a collision: the count says which.  The 12x12 puzzle's seeds both fail (5, 7, 8)
    and succeed, so a kernel that forgets to count a failure is caught (the 9x9 seeds never failed)."""
    dug = dig_puzzle(_solution((3, 4)), 57, random.Random(3), unique=False)
    kernel = PropagationRepair(dug, compiled=compiled)
    clean = []
    for seed in range(10):
        values, failed = kernel.rebuild(dug.cells, [], np.random.default_rng(seed))
        assert (failed == 0) == verify(values, dug), (seed, failed)
        clean.append(failed == 0)
    assert set(clean) == {True, False}, clean


def test_keeping_a_consistent_grid_rebuilds_it_unchanged():
    solution = _solution((4, 4))
    puzzle = dig_puzzle(solution, 100, random.Random(5), unique=False)
    kernel = PropagationRepair(puzzle)
    values = solution.cells
    rebuilt, failed = kernel.rebuild(values, np.arange(puzzle.shape.cells), np.random.default_rng(0))
    assert failed == 0 and np.array_equal(rebuilt, values)
    assert np.array_equal(kernel.destroy(values, np.random.default_rng(0)), kernel._open_array)


def test_puzzle_that_propagation_refutes_is_flagged_and_still_repaired():
    puzzle = Puzzle.parse("12345678." + "........9" + "." * 63)  # r1c9 has no value left
    kernel = PropagationRepair(puzzle)
    assert not kernel.consistent
    ind = init_block_permutation(Individual, puzzle=puzzle, rng=random.Random(0))
    mut_repair(ind, puzzle=puzzle, rng=random.Random(0))
    assert _is_block_permutation_of(ind, puzzle)
    assert eval_collisions(ind, puzzle=puzzle)[0] > 0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(BOXES), st.integers(0, 2**32 - 1), st.booleans())
def test_python_box_filling_is_the_compiled_box_filling(box, seed, tied):
    """The same grid from either kernel, keys tied too: both sort stably (the compiled one's
    np.argsort did not: boxes of 16 cells with tied keys came out otherwise)."""
    from deap_sudoku.algorithms.repair_kernel import fill_boxes, fill_boxes_reference

    shape = Shape(*box)
    generator = np.random.default_rng(seed)
    values = generator.integers(0, shape.n + 2, shape.cells).astype(np.int64)  # empty, repeated, out of range
    if tied:
        values[: shape.cells // 2] = 0  # boxes with many cells to fill, among few distinct keys
    boxes = np.array([generator.permutation(b) for b in shape.boxes.tolist()], dtype=np.int64)
    keys = generator.integers(0, 3, boxes.shape) / 4 if tied else generator.random(boxes.shape)
    compiled, reference = values.copy(), values.copy()
    fill_boxes(compiled, boxes, keys)
    fill_boxes_reference(reference, boxes, keys)
    assert reference.tolist() == compiled.tolist()
    assert np.all(np.sort(reference[boxes], axis=1) == np.arange(1, shape.n + 1))


def test_a_memetic_run_is_the_same_whichever_kernel_runs_when(monkeypatch):
    """The automatic choice switches kernels in the middle of a run without changing it."""
    from deap_sudoku.propagation import choice
    from deap_sudoku.runs.catalogue.ga_recipes import memetic

    puzzle = Puzzle.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    runs = {}
    for compiled in (True, False):
        population, logbook, hof = memetic(
            puzzle, seed=4, compiled=compiled, stop=Stop(max_generations=30), seed_nodes=None
        )
        runs[compiled] = ([ind.tolist() for ind in population], logbook.select("min"))
    calls = []

    def switching(cells, side):  # Python for the first 3 kernel calls, then compiled
        calls.append(cells)
        return len(calls) > 3

    monkeypatch.setattr("deap_sudoku.algorithms.repair.prefer_compiled", switching)
    population, logbook, hof = memetic(puzzle, seed=4, stop=Stop(max_generations=30), seed_nodes=None)
    assert len(calls) > 6
    assert ([ind.tolist() for ind in population], logbook.select("min")) == runs[True] == runs[False]
    assert choice.prefer_compiled(82, 9) and not choice.prefer_compiled(81 * 81, 81)


@pytest.mark.parametrize("move", [mut_repair, mut_destroy_repair])
@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize(
    "values, message", [([1] * 80, r"shape \(80,\)"), ([10] + [1] * 80, "holds 10"), ([-1] + [1] * 80, "holds -1")]
)
def test_repair_moves_refuse_what_would_read_past_their_tables(move, compiled, values, message):
    """The moves check the individual once, then run the kernel unchecked: the one check must hold."""
    with pytest.raises(ValueError, match=f"{move.__name__}: individual .*{message}"):
        move(np.array(values, dtype=np.int8), puzzle=_NINE, compiled=compiled, rng=random.Random(0))


@pytest.mark.parametrize("name, value", [("share", 1.5), ("share", -0.1), ("share", True), ("noise", 2)])
def test_a_probability_outside_0_to_1_is_refused_before_any_work(name, value):
    """``share`` read as a probability would free every peer above 1 and none below 0, silently."""
    repair = PropagationRepair(_NINE)
    with pytest.raises(ValueError, match=f"{name} must be a probability 0..1"):
        mut_destroy_repair(np.array(_NINE.cells, dtype=np.int8), puzzle=_NINE, rng=random.Random(0), **{name: value})
    with pytest.raises(ValueError, match=f"{name} must be a probability 0..1"):
        memetic_toolbox(_NINE, rng=random.Random(0), **{name: value})
    if name == "share":
        with pytest.raises(ValueError, match="share must be a probability 0..1"):
            repair.destroy(np.array(_NINE.cells), np.random.default_rng(0), share=value)


def test_a_grid_wider_than_the_compiled_kernels_repairs_in_python_and_refuses_compiled():
    """81 values overflow the compiled kernels' 64-bit masks: asked for, they are refused at once;
    left to choose, the repair runs in Python (it used to fail building its int64 root masks)."""
    puzzle = wide_puzzle(40)
    with pytest.raises(ValueError, match="sides up to 64, not 81"):
        PropagationRepair(puzzle, compiled=True)
    individual = np.array(puzzle.cells, dtype=np.int8)
    mut_repair(individual, puzzle=puzzle, rng=random.Random(0))
    assert verify(individual, puzzle)


def test_the_compiled_repair_holds_64_values():
    """On a 64x64 grid (value 64's bit is an int64 mask's sign bit) the compiled rebuild gives the
    Python one's grid and failures, draw for draw; it used to be refused above 62 values."""
    from tests.conftest import pattern_puzzle

    puzzle = pattern_puzzle(8, 300)
    rng = random.Random(1)
    scrambled = np.array(puzzle.cells, dtype=np.int64)
    scrambled[puzzle.cells == 0] = [rng.randint(1, 64) for _ in range(300)]
    keep = np.flatnonzero(puzzle.cells == 0)[::3]
    outcomes = []
    for compiled in (False, True):
        repair = PropagationRepair(puzzle, compiled=compiled)
        grid, failed = repair.rebuild(scrambled, keep, np.random.default_rng(5), noise=0.1)
        outcomes.append((grid.tolist(), failed))
    assert outcomes[0] == outcomes[1]
    assert 64 in outcomes[1][0] and outcomes[1][0].count(0) == 0
