"""Initialisers: random individuals of each representation, givens in place.

Each takes the individual class first, like DEAP's ``tools.initIterate``, and
registers as ``toolbox.register("individual", init_..., Individual, puzzle=p)``.
``restrict=True`` draws only values that constraint propagation still allows
where it can (so forced cells start right).  ``rng`` is a ``random.Random``;
without one they draw from the ``random`` module, as DEAP's own tools do, so
``random.seed`` + ``eaSimple`` stays reproducible.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

import numpy as np

from .free_cells import free_cells
from .individual import Individual
from ..grid.puzzle import Puzzle
from ..propagation import propagate

__all__ = ["init_block_permutation", "init_smart_block_permutation", "init_row_permutation", "init_free_cells"]


@functools.lru_cache(maxsize=64)
def _allowed(puzzle: Puzzle) -> tuple[int, ...]:
    """The candidate bitmask propagation leaves for each cell (every value if it finds a contradiction)."""
    result = propagate(puzzle)
    if result.contradiction:
        return ((1 << puzzle.n) - 1,) * puzzle.shape.cells
    return result.masks


def _build(icls: type, grid: np.ndarray):
    """``icls(grid)``; a class that is not a numpy array (a ``creator`` list individual) gets Python ints."""
    return icls(grid) if issubclass(icls, np.ndarray) else icls(grid.tolist())


def _allows(mask: int, value: int) -> bool:
    return bool(mask >> (value - 1) & 1)


def _place(grid: np.ndarray, cells: Sequence[int], values: Sequence[int], rng, prefer) -> None:
    """Give ``cells`` a permutation of ``values``: each cell, in order, takes a random value
    among the remaining ones that ``prefer(cell, value)`` accepts, else any remaining one."""
    remaining = list(values)
    for cell in cells:
        good = [v for v in remaining if prefer(cell, v)]
        value = rng.choice(good or remaining)
        remaining.remove(value)
        grid[cell] = value


def _by_fewest(cells: np.ndarray, allowed) -> list[int]:
    return sorted(cells.tolist(), key=lambda c: allowed[c].bit_count()) if allowed else cells.tolist()


def _init_permutation(icls: type[Individual], puzzle: Puzzle, unit_cells, unit_missing, restrict: bool,
                      rng) -> Individual:
    """Give each unit's free cells a random permutation of the values the unit misses."""
    rng = rng or random
    allowed = _allowed(puzzle) if restrict else None
    prefer = (lambda c, v: _allows(allowed[c], v)) if allowed else (lambda c, v: True)
    grid = puzzle.cells.copy()
    for cells, missing in zip(unit_cells, unit_missing):
        _place(grid, _by_fewest(cells, allowed), missing.tolist(), rng, prefer)
    return _build(icls, grid)


def init_block_permutation(icls: type[Individual], *, puzzle: Puzzle, restrict: bool = False,
                           rng: random.Random | None = None) -> Individual:
    """Each box's free cells get a random permutation of the values the box misses."""
    free = free_cells(puzzle)
    return _init_permutation(icls, puzzle, free.boxes, free.box_missing, restrict, rng)


def init_smart_block_permutation(icls: type[Individual], *, puzzle: Puzzle, restrict: bool = False,
                                 rng: random.Random | None = None) -> Individual:
    """Block-permutation that avoids collisions where it can, after the block GA's "smart" start.

    Box by box, choose at random to go row-wise or column-wise; each free cell
    takes a value the box still misses that is not yet in its row (or column),
    falling back to any missing value.  With ``restrict``, values propagation
    rules out are avoided first.
    """
    rng = rng or random
    shape = puzzle.shape
    n = shape.n
    free = free_cells(puzzle)
    allowed = _allowed(puzzle) if restrict else None
    grid = puzzle.cells.copy()
    for cells, missing in zip(free.boxes, free.box_missing):
        row_wise = rng.random() < 0.5
        order = sorted(cells.tolist(), key=lambda c: (c // n, c % n) if row_wise else (c % n, c // n))

        def prefer(cell: int, value: int) -> bool:
            line = shape.rows[cell // n] if row_wise else shape.cols[cell % n]
            clear = value not in grid[line]
            return clear and (allowed is None or _allows(allowed[cell], value))

        _place(grid, order, missing.tolist(), rng, prefer)
    return _build(icls, grid)


def init_row_permutation(icls: type[Individual], *, puzzle: Puzzle, restrict: bool = False,
                         rng: random.Random | None = None) -> Individual:
    """Each row's free cells get a random permutation of the values the row misses."""
    free = free_cells(puzzle)
    return _init_permutation(icls, puzzle, free.rows, free.row_missing, restrict, rng)


def init_free_cells(icls: type[Individual], *, puzzle: Puzzle, restrict: bool = False,
                    rng: random.Random | None = None) -> Individual:
    """Every free cell gets a random value (one propagation allows, with ``restrict``)."""
    rng = rng or random
    allowed = _allowed(puzzle) if restrict else None
    grid = puzzle.cells.copy()
    for cell in free_cells(puzzle).cells.tolist():
        grid[cell] = rng.choice([v for v in range(1, puzzle.n + 1) if _allows(allowed[cell], v)]) if allowed \
            else rng.randint(1, puzzle.n)
    return _build(icls, grid)
