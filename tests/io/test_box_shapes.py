"""Every box shape survives every format that accepts it: what the package writes, it reads back as
the same puzzle, shape included, with no ``box=`` from the caller (issue 35)."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deap_sudoku import FORMATS, Puzzle, PuzzleFileError, Shape, dumps, loads
from deap_sudoku.grid.shape import MAX_SIDE, MIN_SIDE
from deap_sudoku.grid.formats import ALPHABETS

ALL_SHAPES = [
    (r, c) for r in range(2, MAX_SIDE // 2 + 1) for c in range(2, MAX_SIDE // 2 + 1) if MIN_SIDE <= r * c <= MAX_SIDE
]
TALL = [(3, 2), (4, 3), (5, 4)]


def pattern_puzzle(box: tuple[int, int], seed: int, share: float = 0.5) -> Puzzle:
    """A random puzzle of ``box``: the pattern grid shuffled by value, row-in-band, column-in-stack,
    band and stack (all validity-preserving), then a ``share`` of its cells emptied."""
    rows, cols = box
    n = rows * cols
    rng = np.random.default_rng(seed)
    r, c = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    grid = (cols * (r % rows) + r // rows + c) % n
    grid = rng.permutation(n)[grid] + 1
    row_order = np.concatenate([band * rows + rng.permutation(rows) for band in rng.permutation(n // rows)])
    col_order = np.concatenate([stack * cols + rng.permutation(cols) for stack in rng.permutation(n // cols)])
    cells = grid[row_order][:, col_order].ravel()
    cells[rng.random(n * n) < share] = 0
    return Puzzle(cells, box=box)


def formats_for(shape: Shape, alphabet: str = "digits") -> list[str]:
    """The formats that hold ``shape``: symbols for every value, square boxes for lloyd."""
    fits = shape.n <= len(ALPHABETS[alphabet][0])
    return ["grid"] + ["line", "dash"] * fits + ["lloyd"] * (shape.box_rows == shape.box_cols)


def test_the_shapes_cover_both_orientations_up_to_the_largest():
    assert (3, 2) in ALL_SHAPES and (2, 3) in ALL_SHAPES and (10, 10) in ALL_SHAPES and (2, 50) in ALL_SHAPES
    assert all((c, r) in ALL_SHAPES for r, c in ALL_SHAPES)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(ALL_SHAPES), st.integers(0, 2**32 - 1)), min_size=1, max_size=3),
    st.sampled_from(FORMATS),
    st.sampled_from(sorted(ALPHABETS)),
)
def test_every_shape_round_trips_through_every_format_that_holds_it(specs, fmt, alphabet):
    batch = [pattern_puzzle(box, seed) for box, seed in specs]
    if any(fmt not in formats_for(p.shape, alphabet) for p in batch):
        with pytest.raises(ValueError, match="lloyd format holds square boxes only|alphabet has symbols"):
            dumps(batch, format=fmt, alphabet=alphabet)
        return
    text = dumps(batch, format=fmt, alphabet=alphabet)
    back = loads(text, format=fmt, alphabet=alphabet)
    assert back == batch  # Puzzle equality includes the shape
    assert [p.shape for p in back] == [p.shape for p in batch]
    if alphabet == "digits":
        assert loads(text) == batch  # the format detected, too


@pytest.mark.parametrize("box", ALL_SHAPES, ids=lambda b: f"{b[0]}x{b[1]}")
def test_every_shape_round_trips_in_the_grid_format_and_as_its_picture(box):
    puzzle = pattern_puzzle(box, seed=sum(box))
    assert loads(dumps([puzzle], format="grid")) == [puzzle]
    assert Puzzle.parse(str(puzzle)) == puzzle  # the box borders of the picture carry the shape
    assert Puzzle.parse(puzzle.format()) == puzzle if puzzle.n <= 35 else True


@pytest.mark.parametrize("fmt", ["line", "grid", "dash"])
def test_a_shape_is_stated_only_where_a_reader_would_not_assume_it(fmt):
    wide, tall, square = pattern_puzzle((2, 3), 1), pattern_puzzle((3, 2), 2), pattern_puzzle((3, 3), 3)
    assert "# box" not in dumps([wide, square, wide], format=fmt)
    statements = re.findall(r"^# box (\S+)$", dumps([tall, tall, wide, square, tall], format=fmt), re.MULTILINE)
    assert statements == ["3x2", "2x3", "3x3", "3x2"]


def _errors(text: str, **options) -> list[str]:
    with pytest.raises(PuzzleFileError) as caught:
        loads(text, **options)
    return [str(error) for error in caught.value.errors]


@pytest.mark.parametrize("box", TALL, ids=str)
@pytest.mark.parametrize("fmt", ["line", "grid", "dash"])
def test_a_tall_box_without_its_statement_is_an_error_that_names_the_shape_and_box_option(box, fmt):
    puzzle = pattern_puzzle(box, seed=7, share=0.3)
    bare = "".join(line for line in dumps([puzzle], format=fmt).splitlines(True) if not line.startswith("#"))
    [message] = _errors(bare)
    rows, cols = box
    assert f"reads cleanly with {rows}x{cols} boxes" in message and f"--box {rows}x{cols}" in message
    assert f"with the {cols}x{rows} boxes assumed" in message
    assert loads(bare, box=box) == [puzzle]


def test_a_puzzle_that_breaks_its_stated_shape_is_an_error_naming_the_line():
    wide = pattern_puzzle((2, 3), 4, share=0.0)
    messages = _errors("# box 3x2\n" + wide.format("line"))  # every clash of the stated shape, each located
    assert all(m.startswith("<string>:2:") and " twice: " in m and "reads cleanly" not in m for m in messages)
    [message] = _errors("# box 3x2\n" + pattern_puzzle((3, 3), 5).format("line"))
    assert message.startswith("<string>:2:") and "line 1 states box 3x2" in message
    [message] = _errors("# box 7x1\n" + wide.format("line"))
    assert message.startswith("<string>:1:1:") and "states no Sudoku box shape" in message


def test_a_stated_shape_that_contradicts_the_callers_box_is_an_error():
    tall = pattern_puzzle((3, 2), 6)
    messages = _errors(tall.format("grid"), box=(2, 3))
    assert messages[0].startswith("<string>:1:1:") and "but box 2x3 was asked for (--box 2x3)" in messages[0]
    assert loads(tall.format("grid"), box=(3, 2)) == [tall]


def test_irregular_box_borders_are_errors_naming_the_line():
    picture = str(pattern_puzzle((3, 2), 8)).splitlines()
    picture[1] = picture[1].replace(" | ", "   ", 1)
    [message] = _errors("\n".join(picture) + "\n")
    assert message.startswith("<string>:2:") and "borders of this row differ from those of line 1" in message
    shifted = str(pattern_puzzle((2, 2), 9)).splitlines()
    shifted.insert(1, shifted.pop(2))  # the border line after the first row, not the second
    [message] = _errors("\n".join(shifted) + "\n")
    assert message.startswith("<string>:2:") and "equal height" in message


def test_borders_that_contradict_a_stated_shape_are_an_error():
    [message] = _errors("# box 2x3\n" + str(pattern_puzzle((3, 2), 10)) + "\n")
    assert "the box borders draw 3x2 boxes, but line 1 states box 2x3" in message


def test_the_lloyd_writer_refuses_a_box_that_is_not_square_in_one_line():
    with pytest.raises(ValueError, match=r"^the lloyd format holds square boxes only, not 3x2$"):
        dumps([pattern_puzzle((3, 2), 11)], format="lloyd")
