"""The propagation kernel: the Python reference and its compiled twin agree exactly, and the rules hold."""

import functools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deap_sudoku import Puzzle, Shape, find_conflicts
from deap_sudoku.exact import random_solution
from deap_sudoku.propagation import (
    Tables,
    arrays,
    initial_masks,
    mask_sets,
    propagate,
    propagate_arrays,
    propagate_masks,
    tables,
)
from deap_sudoku.propagation.kernel_compiled import Propagator

from tests.conftest import SHAPES


@st.composite
def states(draw):
    """A shape, candidate masks of a partly emptied solution with some cells narrowed at random (often
    contradictory), and the cells to propagate first."""
    box = draw(st.sampled_from(SHAPES))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    shape = Shape(*box)
    solution = random_solution(shape, rng).cells
    keep = draw(st.floats(0.1, 0.7))
    cells = np.where(np.array([rng.random() < keep for _ in range(shape.cells)]), solution, 0)
    puzzle = Puzzle(cells, box=shape)
    cands, queue = initial_masks(puzzle)
    full = (1 << shape.n) - 1
    for cell in rng.sample(range(shape.cells), draw(st.integers(0, 6))):
        cands[cell] = rng.randint(1, full)  # narrowed to a random subset: may contradict the givens
        if not cands[cell] & (cands[cell] - 1) and cell not in queue:  # a queue holds a cell once
            queue.append(cell)
    return shape, cands, queue


@settings(max_examples=150, deadline=None)
@given(states(), st.booleans(), st.booleans())
def test_compiled_twin_equals_the_reference(state, hidden, locked):
    shape, cands, queue = state
    reference = list(cands)
    ok = propagate_masks(reference, list(queue), tables(shape), hidden=hidden, locked=locked)
    compiled = np.array(cands, dtype=np.int64)
    assert propagate_arrays(compiled, queue, shape, hidden=hidden, locked=locked) == ok
    if ok:  # after a contradiction the states are where each stopped, which need not be a fixed point
        assert compiled.tolist() == reference


@functools.lru_cache(maxsize=None)
def _line_box_segments(shape: Shape) -> list[tuple[list[int], list[int], list[int]]]:
    """Every (segment, line, box) where a line crosses a box, from the shape's own rows, columns and boxes."""
    return [
        (sorted(set(line) & set(box)), line, box)
        for line in shape.units[: 2 * shape.n].tolist()
        for box in shape.boxes.tolist()
        if set(line) & set(box)
    ]


def _naive_fixed_point(shape: Shape, cands: list[int]) -> list[int] | None:
    """The three rules as written, one value at a time, to a fixed point (``None``: a contradiction).
    Box-line reduction here looks at every cell of a segment, decided ones included."""
    cands, t = list(cands), tables(shape)
    bits = [1 << v for v in range(shape.n)]
    segments = _line_box_segments(shape)
    while True:
        before = list(cands)
        _naked_singles(cands, t)
        _hidden_singles(cands, t, bits)
        _box_line(cands, segments, bits)
        if 0 in cands or any(not any(cands[c] & bit for c in unit) for unit in t.units for bit in bits):
            return None
        if cands == before:
            return cands


def _naked_singles(cands: list[int], t: Tables) -> None:
    """A decided cell's value leaves its peers."""
    for c, m in enumerate(cands):
        if m and not m & (m - 1):
            for p in t.peers[c]:
                cands[p] &= ~m


def _hidden_singles(cands: list[int], t: Tables, bits: list[int]) -> None:
    """A value with one place left in a unit goes there."""
    for unit in t.units:
        for bit in bits:
            holders = [c for c in unit if cands[c] & bit]
            if len(holders) == 1:
                cands[holders[0]] = bit


def _box_line(cands: list[int], segments, bits: list[int]) -> None:
    """A value that a segment holds and the rest of its line (or box) does not leaves the rest of the
    box (or line)."""
    for seg, line, box in segments:
        for bit in bits:
            for inside, outside in ((line, box), (box, line)):
                if any(cands[c] & bit for c in seg) and not any(cands[c] & bit for c in inside if c not in seg):
                    for c in outside:
                        if c not in seg:
                            cands[c] &= ~bit


@settings(max_examples=40, deadline=None)
@given(states())
def test_box_line_reduction_reaches_the_rules_fixed_point(state):
    """The kernel's box-line pass (segment unions, each segment against its line's and box's others)
    must reach the fixed point of the rules applied as written, one value at a time."""
    shape, cands, _ = state
    naive = _naive_fixed_point(shape, cands)
    reference = list(cands)
    decided = [c for c, m in enumerate(cands) if not m & (m - 1)]  # a narrowed given may have two values
    ok = propagate_masks(reference, decided, tables(shape), hidden=True, locked=True)
    assert ok == (naive is not None)
    if ok:
        assert reference == naive


def test_rules_naked_hidden_and_box_line():
    norvig = Puzzle.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    naked, hidden = propagate(norvig, hidden_singles=False), propagate(norvig)
    assert hidden.filled > naked.filled >= 0 and not hidden.contradiction
    assert all(len(c) == 1 for c, v in zip(hidden.candidates, hidden.values) if v)
    assert mask_sets([0b101, 0b1]) == (frozenset({1, 3}), frozenset({1}))
    unboxed, boxed = propagate(norvig, locked_candidates=False), propagate(norvig, locked_candidates=True)
    # box-line reduction solves Norvig's puzzle, where singles alone leave 291 candidates
    assert boxed.solved and sum(m.bit_count() for m in boxed.masks) < sum(m.bit_count() for m in unboxed.masks)


def test_a_contradiction_is_reported():
    assert propagate(Puzzle.parse("12345678." + "........9" + "." * 63)).contradiction


@pytest.mark.parametrize("box", SHAPES)
def test_tables_agree_with_the_shape(box):
    shape = Shape(*box)
    t, a = tables(shape), arrays(shape)
    assert [list(p) for p in t.peers] == shape.peers.tolist()
    assert a.peers.tolist() == shape.peers.tolist() and a.units.tolist() == shape.units.tolist()
    assert len(t.segments) == len(t.intersections) == shape.n * (shape.box_rows + shape.box_cols)
    assert sorted(c for seg in t.segments for c in seg) == sorted(list(range(shape.cells)) * 2)


# -- the documented constraint analyzer ------------------------------------------------------


def test_the_analyzer_solves_its_sources_example_in_5_sweeps_by_naked_singles():
    """Source 004: the square at (7, 7) can only be 3, and repeating the sweep "5 times" solves the example."""
    from deap_sudoku import read
    from deap_sudoku.propagation import analyze
    from tests.conftest import REPO

    [example] = read(REPO / "data" / "sources" / "analyzer-example.txt")
    assert propagate(example, hidden_singles=False).candidates[7 * 9 + 7] == {3}
    result = analyze(example)
    assert result.solved and result.filled == 51 and result.sweeps == 5
    [report] = read(REPO / "data" / "sources" / "report-example.txt")  # needs hidden singles
    assert analyze(report).filled == 6 < propagate(report).filled == 45


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32 - 1), st.floats(0.2, 0.8))
def test_the_analyzer_reaches_the_naked_singles_fixed_point(box, seed, keep):
    from deap_sudoku.propagation import analyze

    rng = random.Random(seed)
    shape = Shape(*box)
    solution = random_solution(shape, rng).cells
    cells = np.where(np.array([rng.random() < keep for _ in range(shape.cells)]), solution, 0)
    puzzle = Puzzle(cells, box=shape)
    result, naked = analyze(puzzle), propagate(puzzle, hidden_singles=False)
    assert not result.contradiction and np.array_equal(result.values, naked.values)


@st.composite
def puzzles(draw):
    """A partly emptied solution with a few empty cells then given random values where the grid
    allows them (such puzzles often have no solution)."""
    box = draw(st.sampled_from(SHAPES))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    shape = Shape(*box)
    keep = draw(st.floats(0.1, 0.8))
    cells = np.where(np.array([rng.random() < keep for _ in range(shape.cells)]), random_solution(shape, rng).cells, 0)
    for cell in rng.sample(range(shape.cells), draw(st.integers(0, 6))):
        if not cells[cell]:
            trial = cells.copy()
            trial[cell] = rng.randint(1, shape.n)
            if not find_conflicts(shape, trial):
                cells = trial
    return Puzzle(cells, box=shape)


@settings(max_examples=150, deadline=None)
@given(puzzles(), st.booleans(), st.booleans())
def test_the_roots_seeding_reaches_the_fixed_point_of_the_givens(puzzle, hidden, locked):
    """``run_givens`` removes each given's value from its units at once and then propagates: the same
    verdict and fixed point as queueing every given (what exact search's root did before)."""
    reference, queue = initial_masks(puzzle)
    ok = propagate_masks(reference, queue, tables(puzzle.shape), hidden=hidden, locked=locked)
    cands, consistent = Propagator(puzzle.shape, hidden=hidden, locked=locked).run_givens(puzzle.cells)
    assert consistent == ok
    if ok:
        assert cands.tolist() == reference


@pytest.mark.parametrize("hidden, locked", [(False, False), (True, True)])
def test_the_roots_seeding_refuses_a_value_given_twice_in_a_unit(hidden, locked):
    """``run_givens`` takes raw values, which need not be a valid puzzle: two equal givens in one box
    are a contradiction, as they are when every given is queued."""
    shape = Shape(2, 2)
    values = np.zeros(shape.cells, dtype=np.int64)
    values[0], values[5] = 3, 3  # r1c1 and r2c2: the same box
    cands = np.array([1 << (v - 1) if v else 0b1111 for v in values], dtype=np.int64)
    assert not propagate_arrays(cands, [0, 5], shape, hidden=hidden, locked=locked)
    assert Propagator(shape, hidden=hidden, locked=locked).run_givens(values)[1] is False


def test_sixty_four_bit_masks_read_as_their_values():
    """Value 64's bit is an int64's sign bit: a mask with it and another bit is two candidates, not
    one (numpy counts the bits of a signed number's absolute value, which has one here)."""
    from deap_sudoku.propagation.kernel import mask_values
    from deap_sudoku.propagation.tables import int64_masks

    masks = [1 << 63, (1 << 63) | (1 << 62), 1, 0, (1 << 64) - 1]
    as_int64 = int64_masks(masks)
    assert as_int64.dtype == np.int64 and as_int64[0] < 0
    assert mask_values(as_int64, np.dtype(np.uint8)).tolist() == [64, 0, 1, 0, 0]
    assert mask_values(masks, np.dtype(np.uint8)).tolist() == [64, 0, 1, 0, 0]
