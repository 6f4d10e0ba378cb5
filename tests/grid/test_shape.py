import numpy as np
import pytest

from deap_sudoku.grid.shape import MAX_SIDE, Shape, box_shapes_for_side

from tests.conftest import SHAPES

ALL_SHAPES = SHAPES + [(6, 6), (8, 8)]


@pytest.mark.parametrize("box", ALL_SHAPES, ids=str)
def test_each_cell_is_in_one_row_one_column_one_box(box):
    shape = Shape(*box)
    n = shape.n
    for kind, table in enumerate((shape.rows, shape.cols, shape.boxes)):
        assert sorted(table.ravel().tolist()) == list(range(n * n))  # a partition
        assert np.array_equal(shape.units[kind * n : (kind + 1) * n], table)
    membership = np.zeros(n * n, dtype=int)
    for unit in shape.units:
        membership[unit] += 1
    assert (membership == 3).all()
    for cell in range(n * n):
        r, c, b = shape.cell_units[cell]
        assert (r, c, b) == (
            cell // n,
            n + cell % n,
            2 * n + (cell // n) // shape.box_rows * shape.box_rows + (cell % n) // shape.box_cols,
        )
        for u in (r, c, b):
            assert cell in shape.units[u]


@pytest.mark.parametrize("box", ALL_SHAPES, ids=str)
def test_peers_count_and_symmetry(box):
    shape = Shape(*box)
    n = shape.n
    assert shape.peers.shape == (n * n, 3 * n - shape.box_rows - shape.box_cols - 1)
    peer_sets = [set(p) for p in shape.peers.tolist()]
    for cell, peers in enumerate(peer_sets):
        assert cell not in peers
        assert all(cell in peer_sets[p] for p in peers)
        same_row = {p for p in peers if p // n == cell // n}
        assert len(same_row) == n - 1


def test_9x9_has_20_peers_and_boxes_are_3x3_blocks():
    shape = Shape(3, 3)
    assert shape.peers.shape == (81, 20)
    assert shape.boxes[0].tolist() == [0, 1, 2, 9, 10, 11, 18, 19, 20]
    assert shape.boxes[4].tolist() == [30, 31, 32, 39, 40, 41, 48, 49, 50]


def test_6x6_boxes_are_two_rows_of_three():
    shape = Shape.for_side(6)
    assert (shape.box_rows, shape.box_cols) == (2, 3)
    assert shape.boxes[1].tolist() == [3, 4, 5, 9, 10, 11]
    assert shape.boxes[2].tolist() == [12, 13, 14, 18, 19, 20]


@pytest.mark.parametrize(
    "side, box",
    [
        (4, (2, 2)),
        (6, (2, 3)),
        (8, (2, 4)),
        (9, (3, 3)),
        (12, (3, 4)),
        (16, (4, 4)),
        (25, (5, 5)),
        (36, (6, 6)),
        (64, (8, 8)),
        (10, (2, 5)),
        (100, (10, 10)),
    ],
)
def test_for_side_picks_the_squarest_box(side, box):
    assert (Shape.for_side(side).box_rows, Shape.for_side(side).box_cols) == box


@pytest.mark.parametrize("side", [5, 7, 11, 13, 3, 1, 0, 101])
def test_sides_no_box_tiles_are_refused(side):
    with pytest.raises(ValueError, match=str(side)):
        Shape.for_side(side)


def test_degenerate_and_oversized_boxes_are_refused():
    with pytest.raises(ValueError, match="degenerates"):
        Shape(1, 9)
    with pytest.raises(ValueError, match="larger than the supported"):
        Shape(11, 11)
    assert box_shapes_for_side(12) == [(3, 4), (4, 3), (2, 6), (6, 2)]
    assert MAX_SIDE >= 64


def test_tables_are_shared_and_read_only():
    a, b = Shape(3, 3), Shape(3, 3)
    assert a.peers is b.peers and a.units is b.units
    with pytest.raises(ValueError):
        a.peers[0, 0] = 5


def test_names_are_one_based():
    shape = Shape(3, 3)
    assert shape.cell_name(0) == "r1c1" and shape.cell_name(80) == "r9c9"
    assert [shape.unit_name(u) for u in (0, 9, 26)] == ["row 1", "column 1", "box 9"]
