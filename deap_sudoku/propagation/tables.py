"""A shape's propagation geometry, computed once per shape: peers, units and line-box segments.

The same tables in two forms: Python tuples, which the reference kernel's
inner loops index fastest (:func:`tables`), and padded ``int64`` arrays with
``-1`` pads, the form the compiled twin indexes (:func:`arrays`); the compiled
twin finds the line-box segments by arithmetic on the box shape instead.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..grid.puzzle import require
from ..grid.shape import Shape

__all__ = ["Tables", "Arrays", "tables", "arrays"]


@dataclass(frozen=True)
class Tables:
    """Per-shape tables as Python tuples.

    ``full`` is the bitmask of every value (bit ``v - 1`` for value ``v``).
    ``segments`` are the line-box intersections; ``intersections`` gives for
    each segment (its index, the line's other segments, the box's other
    segments, the line's other cells, the box's other cells), segments as
    indices into ``segments``: what box-line reduction needs.
    """

    n: int
    full: int
    peers: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    cell_units: tuple[tuple[int, ...], ...]
    segments: tuple[tuple[int, ...], ...]
    intersections: tuple[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]


@dataclass(frozen=True)
class Arrays:
    """The tables the compiled kernels index, as padded ``int64`` arrays (``-1`` pads).  Their box-line
    pass walks the line-box segments by arithmetic on ``geometry`` (``box_rows, box_cols``) instead
    of through segment tables: cells are row-major, so a row's segments are runs of cells."""

    n: int
    full: np.int64
    peers: np.ndarray  # (cells, peers)
    units: np.ndarray  # (3n, n)
    cell_units: np.ndarray  # (cells, 3)
    geometry: np.ndarray  # (box_rows, box_cols)

    def kernel_args(self) -> tuple:
        """The tables in the order the compiled kernels take them, after ``full``."""
        return (self.peers, self.units, self.cell_units, self.geometry)


@functools.lru_cache(maxsize=None)
def tables(shape: Shape) -> Tables:
    """The tuple tables of ``shape`` (cached)."""
    require(shape, Shape, "shape")
    n = shape.n
    box_of = {c: b for b, box in enumerate(shape.boxes.tolist()) for c in box}
    segments: list[tuple[int, ...]] = []
    key: dict[tuple[str, int, int], int] = {}
    for kind, lines in (("row", shape.rows.tolist()), ("col", shape.cols.tolist())):
        for li, line in enumerate(lines):
            for b in sorted({box_of[c] for c in line}):
                key[kind, li, b] = len(segments)
                segments.append(tuple(c for c in line if box_of[c] == b))
    of_line: dict[tuple[str, int], list[int]] = {}
    of_box: dict[tuple[str, int], list[int]] = {}
    for (kind, li, b), i in key.items():  # the segments of each line and of each box, in key order
        of_line.setdefault((kind, li), []).append(i)
        of_box.setdefault((kind, b), []).append(i)
    intersections = []
    for (kind, li, b), s in key.items():
        line_segs = tuple(i for i in of_line[kind, li] if i != s)
        box_segs = tuple(i for i in of_box[kind, b] if i != s)
        line_rest = tuple(c for i in line_segs for c in segments[i])
        box_rest = tuple(c for i in box_segs for c in segments[i])
        intersections.append((s, line_segs, box_segs, line_rest, box_rest))
    return Tables(
        n,
        (1 << n) - 1,
        tuple(tuple(p) for p in shape.peers.tolist()),
        tuple(tuple(u) for u in shape.units.tolist()),
        tuple(tuple(u) for u in shape.cell_units.tolist()),
        tuple(segments),
        tuple(intersections),
    )


def _padded(rows) -> np.ndarray:
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), max(width, 1)), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def int64_masks(masks) -> np.ndarray:
    """Candidate bitmasks (Python ints of up to 64 bits) as the compiled kernels' ``int64`` array: the
    same 64 bits, so a mask with value 64's bit reads as a negative number (two's complement), which
    the kernels' bit operations treat as any other mask."""
    return np.array(masks, dtype=np.uint64).view(np.int64)


@functools.lru_cache(maxsize=None)
def arrays(shape: Shape) -> Arrays:
    """The padded array tables of ``shape`` (cached), built from :func:`tables`."""
    require(shape, Shape, "shape")
    t = tables(shape)
    return Arrays(
        t.n,
        int64_masks([t.full])[0],
        _padded(t.peers),
        _padded(t.units),
        _padded(t.cell_units),
        np.array([shape.box_rows, shape.box_cols], dtype=np.int64),
    )
