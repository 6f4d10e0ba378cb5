import pickle
import random

import numpy as np
import pytest

from deap_sudoku import Puzzle, PuzzleError, Shape, find_conflicts
from deap_sudoku.exact.generate import generate_puzzle

from tests.conftest import SHAPES

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


@pytest.mark.parametrize("box", SHAPES + [(6, 6)], ids=str)
def test_repr_is_short_and_the_line_format_round_trips_for_every_shape(box):
    puzzle = (
        generate_puzzle(Shape(*box), 0, random.Random(3), unique=False)
        if box != (6, 6)
        else Puzzle([0] * 1296, box=(6, 6))
    )
    assert repr(puzzle) == f"<Puzzle {puzzle.shape.name}, {int(puzzle.givens.sum())} givens>"
    if puzzle.n <= 35:
        assert Puzzle.parse(puzzle.format("line"), box=(puzzle.shape.box_rows, puzzle.shape.box_cols)) == puzzle
    assert pickle.loads(pickle.dumps(puzzle)) == puzzle
    assert hash(pickle.loads(pickle.dumps(puzzle))) == hash(puzzle)


def test_non_default_box_is_kept_in_repr():
    assert repr(Puzzle([0] * 36, box=(3, 2))) == "<Puzzle 6x6 (3x2 boxes), 0 givens>"


def test_str_draws_box_borders():
    text = str(Puzzle.parse(EASY))
    lines = text.splitlines()
    assert len(lines) == 11
    assert lines[0] == ". . 3 | . 2 . | 6 . ."
    assert lines[3] == "------+-------+------"
    six = str(Puzzle([0] * 36)).splitlines()
    assert six[2] == "------+------" and len(six) == 8
    sixteen = str(Puzzle([16] + [0] * 255)).splitlines()
    assert sixteen[0].startswith("16  . ") and sixteen[4].count("+") == 3


def test_puzzle_is_immutable():
    puzzle = Puzzle.parse(EASY)
    with pytest.raises(ValueError):
        puzzle.cells[0] = 1
    with pytest.raises(AttributeError):
        puzzle.foo = 1
    source = np.zeros(81, dtype=int)
    copy = Puzzle(source)
    source[0] = 5
    assert copy.cells[0] == 0


def test_cells_use_a_small_dtype_and_views_agree():
    puzzle = Puzzle.parse(EASY)
    assert puzzle.cells.dtype == np.uint8
    assert puzzle.grid.shape == (9, 9) and puzzle.grid[0, 2] == 3
    assert puzzle.num_givens == int(puzzle.givens.sum()) == 32
    assert not puzzle.is_complete


def test_candidates_exclude_peer_givens():
    puzzle = Puzzle.parse(EASY)
    candidates = puzzle.candidates()
    assert candidates[2] == {3}
    # r1c1: row has 3 2 6, column has 9 7 8, box has 3 9 1
    assert candidates[0] == {4, 5}


def test_equal_givens_name_unit_and_cells():
    with pytest.raises(PuzzleError, match=r"row 1 has 3 twice: r1c3 and r1c9"):
        Puzzle.parse("003020603" + EASY[9:])
    with pytest.raises(PuzzleError, match=r"column 1 has 9 twice: r2c1 and r9c1"):
        Puzzle.parse(EASY[:72] + "9" + EASY[73:])


def test_out_of_range_and_bad_sizes():
    with pytest.raises(PuzzleError, match=r"value 5 at r1c1 is out of range 1..4"):
        Puzzle([5] + [0] * 15)
    with pytest.raises(PuzzleError, match="80 cells do not make a square grid"):
        Puzzle([0] * 80)
    with pytest.raises(PuzzleError, match="prime"):
        Puzzle([0] * 49)
    with pytest.raises(PuzzleError, match="36 cells do not fit a 9x9"):
        Puzzle([0] * 36, box=(3, 3))


def test_find_conflicts_lists_every_unit():
    conflicts = find_conflicts(Shape(2, 2), np.array([1, 1, 0, 0] + [0] * 12))
    assert [(c.unit, c.value, c.cells) for c in conflicts] == [(0, 1, (0, 1)), (8, 1, (0, 1))]


def test_filled_keeps_givens():
    puzzle = Puzzle.parse(EASY)
    with pytest.raises(PuzzleError, match="changes the given 3 at r1c3"):
        puzzle.filled([0] * 81)
    assert puzzle.filled(puzzle.cells) == puzzle


def test_puzzles_of_different_shapes_differ():
    assert Puzzle([0] * 36, box=(2, 3)) != Puzzle([0] * 36, box=(3, 2))
    assert len({Puzzle.parse(EASY), Puzzle.parse(EASY)}) == 1
