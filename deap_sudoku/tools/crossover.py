"""Crossovers: DEAP's contract (change the parents in place, return them as a tuple).

Every crossover exchanges whole cells at the same positions, so the givens,
equal in all parents, stay.  Band, diagonal and block-uniform crossovers move
whole boxes and keep block-permutations; row-uniform keeps row-permutations.
Index arrays select copies, never views, so parents never share memory.
"""

from __future__ import annotations

import random

import numpy as np

from .randomness import random_source
from .individual import Individual, grid_operator
from ..grid.puzzle import Puzzle
from .wrapping import claim_invariant

__all__ = [
    "cx_bands",
    "cx_band_two_point",
    "cx_diagonal",
    "cx_block_uniform",
    "cx_block_one_point",
    "cx_row_uniform",
    "cx_cell_uniform",
]


def _swap(ind1: np.ndarray, ind2: np.ndarray, cells: np.ndarray) -> None:
    held = ind1[cells]  # fancy indexing copies
    ind1[cells] = ind2[cells]
    ind2[cells] = held


def _band_cells(puzzle: Puzzle, bands: range | list[int]) -> np.ndarray:
    rows_per_band = puzzle.shape.box_rows
    rows = [r for b in bands for r in range(b * rows_per_band, (b + 1) * rows_per_band)]
    return puzzle.shape.rows[rows].ravel()


@grid_operator
def cx_bands(
    ind1: Individual, ind2: Individual, *, puzzle: Puzzle, first: int = 0, stop: int | None = None
) -> tuple[Individual, Individual]:
    """Exchange the horizontal bands of boxes ``first`` to ``stop - 1`` between the parents; by
    default the upper half of the bands (``stop``: half the bands, at least one).

    :raises ValueError: for a band range that is empty or outside the grid.
    """
    bands = puzzle.shape.box_cols  # n / box_rows bands
    stop = max(bands // 2, 1) if stop is None else stop
    if not 0 <= first < stop <= bands:
        raise ValueError(
            f"cx_bands: bands {first} to {stop - 1} are not a range of the {bands} bands of a "
            f"{puzzle.shape.name} grid (0 <= first < stop <= {bands})"
        )
    _swap(ind1, ind2, _band_cells(puzzle, range(first, stop)))
    return ind1, ind2


@grid_operator
def cx_band_two_point(
    ind1: Individual, ind2: Individual, *, puzzle: Puzzle, rng: random.Random | None = None
) -> tuple[Individual, Individual]:
    """Two-point crossover on bands: cut points strictly inside, swap what lies between.

    On a 9x9 (three bands) this always swaps the middle band, as the block GA's
    two-point crossover does.
    """
    rng = random_source(rng)
    bands = puzzle.shape.box_cols  # n / box_rows bands
    if bands < 3:
        first, stop = 0, 1
    else:
        first, stop = sorted(rng.sample(range(1, bands), 2)) if bands > 3 else (1, 2)
    return cx_bands(ind1, ind2, puzzle=puzzle, first=first, stop=stop)


@grid_operator
def cx_diagonal(*parents: Individual, puzzle: Puzzle) -> tuple[Individual, ...]:
    """The block GA's "Crossover(3)": with ``k`` parents, child ``j`` takes band ``i`` from parent ``(i + j) mod k``.

    Child 0 takes band ``i`` from parent ``i``; the parents become the children.
    """
    k = len(parents)
    if k < 2:
        raise ValueError("cx_diagonal needs at least two parents")
    originals = [np.array(p) for p in parents]
    for band in range(puzzle.shape.box_cols):
        cells = _band_cells(puzzle, [band])
        for j, child in enumerate(parents):
            child[cells] = originals[(band + j) % k][cells]
    return tuple(parents)


@grid_operator
def cx_block_uniform(
    ind1: Individual, ind2: Individual, *, puzzle: Puzzle, rng: random.Random | None = None
) -> tuple[Individual, Individual]:
    """Exchange a random number ``k`` (1 to boxes - 1) of random boxes between the parents."""
    rng = random_source(rng)
    n = puzzle.n
    chosen = rng.sample(range(n), rng.randint(1, n - 1))
    _swap(ind1, ind2, puzzle.shape.boxes[chosen].ravel())
    return ind1, ind2


@grid_operator
def cx_block_one_point(
    ind1: Individual, ind2: Individual, *, puzzle: Puzzle, rng: random.Random | None = None
) -> tuple[Individual, Individual]:
    """One-point crossover with the point between boxes (in box order): a point ``p`` from 1 to
    boxes - 1, and boxes ``p`` onwards exchanged, so every child's box is one of a parent's."""
    rng = random_source(rng)
    n = puzzle.n
    point = rng.randint(1, n - 1)
    _swap(ind1, ind2, puzzle.shape.boxes[point:].ravel())
    return ind1, ind2


@grid_operator
def cx_row_uniform(
    ind1: Individual, ind2: Individual, *, puzzle: Puzzle, indpb: float = 0.5, rng: random.Random | None = None
) -> tuple[Individual, Individual]:
    """Exchange each row with probability ``indpb`` (two children per pair, row-permutations kept)."""
    rng = random_source(rng)
    rows = [r for r in range(puzzle.n) if rng.random() < indpb]
    _swap(ind1, ind2, puzzle.shape.rows[rows].ravel())
    return ind1, ind2


@grid_operator
def cx_cell_uniform(
    ind1: Individual, ind2: Individual, *, puzzle: Puzzle, indpb: float = 0.5, rng: random.Random | None = None
) -> tuple[Individual, Individual]:
    """Exchange each free cell with probability ``indpb`` (for the free-cell representation)."""
    rng = random_source(rng)
    free = np.flatnonzero(~puzzle.givens)
    _swap(ind1, ind2, np.array([c for c in free.tolist() if rng.random() < indpb], dtype=np.int64))
    return ind1, ind2


# The representation invariant each operator keeps (tools.checks.check_operator checks the claim).
claim_invariant("block", cx_bands, cx_band_two_point, cx_diagonal, cx_block_uniform, cx_block_one_point)
claim_invariant("row", cx_row_uniform)
