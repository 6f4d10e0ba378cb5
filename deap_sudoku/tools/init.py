"""Initialisers: random individuals of each representation, givens in place.

Each takes the individual class first, like DEAP's ``tools.initIterate``, and
registers as ``toolbox.register("individual", init_..., Individual, puzzle=p)``.
``restrict=True`` draws only values that constraint propagation still allows
where it can (so forced cells start right).  ``rng`` is a ``random.Random``;
without one they draw from the ``random`` module, as DEAP's own tools do, so
``random.seed`` + ``eaSimple`` stays reproducible.

:func:`seed_from_search` seeds a population instead: it writes what a short exact search
finds into an individual already made.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence

import numpy as np

from .randomness import random_source
from .free_cells import free_cells
from .individual import Individual
from ..exact.backtracking import SearchBudgetExceeded, search
from ..grid.puzzle import Puzzle
from ..propagation import propagate
from .wrapping import claim_invariant

__all__ = [
    "init_block_permutation",
    "init_smart_block_permutation",
    "init_row_permutation",
    "init_free_cells",
    "seed_from_search",
]

SEED_NODES = 1000
"""The default node budget of :func:`seed_from_search`: the deterministic search settles 99 % of
the forum-hardest 9x9 puzzles within it (the 99th percentile is 847 nodes on the first 1,000 of
``forum_hardest_1905_11plus``), and 1,000 compiled nodes of a 25x25 cost milliseconds."""


@functools.lru_cache(maxsize=64)
def _allowed(puzzle: Puzzle) -> tuple[int, ...]:
    """The candidate bitmask propagation leaves for each cell (every value if it finds a contradiction)."""
    result = propagate(puzzle)
    if result.contradiction:
        return ((1 << puzzle.n) - 1,) * puzzle.shape.cells
    return result.masks


def _build(icls: Callable, grid: np.ndarray):
    """``icls(grid)``; a class that is not a numpy array (a ``creator`` list individual) gets Python ints."""
    array_class = isinstance(icls, type) and issubclass(icls, np.ndarray)
    return icls(grid) if array_class else icls(grid.tolist())


def _allows(mask: int, value: int) -> bool:
    return bool(mask >> (value - 1) & 1)


@functools.lru_cache(maxsize=4096)
def _values(mask: int) -> frozenset[int]:
    """The values a candidate bitmask allows."""
    return frozenset(value for value in range(1, mask.bit_length() + 1) if mask >> (value - 1) & 1)


def _place(grid: np.ndarray, cells: Sequence[int], values: Sequence[int], rng, preferred) -> None:
    """Give ``cells`` a permutation of ``values``: each cell, in order, takes a random value among
    the remaining ones in ``preferred(cell)`` (all of them where it is None), else any remaining one.
    ``preferred`` is asked once per cell, not once per value: the smart start's row look-ups were
    most of a population's making."""
    remaining = list(values)
    for cell in cells:
        wanted = preferred(cell)
        good = remaining if wanted is None else [v for v in remaining if v in wanted]
        value = rng.choice(good or remaining)
        remaining.remove(value)
        grid[cell] = value


def _by_fewest(cells: np.ndarray, allowed) -> list[int]:
    return sorted(cells.tolist(), key=lambda c: allowed[c].bit_count()) if allowed else cells.tolist()


def _init_permutation(
    icls: type[Individual], puzzle: Puzzle, unit_cells, unit_missing, restrict: bool, rng
) -> Individual:
    """Give each unit's free cells a random permutation of the values the unit misses."""
    rng = random_source(rng)
    allowed = _allowed(puzzle) if restrict else None
    preferred = (lambda cell: _values(allowed[cell])) if allowed else (lambda cell: None)
    grid = puzzle.cells.copy()
    for cells, missing in zip(unit_cells, unit_missing):
        _place(grid, _by_fewest(cells, allowed), missing.tolist(), rng, preferred)
    return _build(icls, grid)


def init_block_permutation(
    icls: type[Individual], *, puzzle: Puzzle, restrict: bool = False, rng: random.Random | None = None
) -> Individual:
    """Each box's free cells get a random permutation of the values the box misses."""
    free = free_cells(puzzle)
    return _init_permutation(icls, puzzle, free.boxes, free.box_missing, restrict, rng)


def init_smart_block_permutation(
    icls: type[Individual], *, puzzle: Puzzle, restrict: bool = False, rng: random.Random | None = None
) -> Individual:
    """Block-permutation that avoids collisions where it can, after the block GA's "smart" start.

    Box by box, choose at random to go row-wise or column-wise; each free cell
    takes a value the box still misses that is not yet in its row (or column),
    falling back to any missing value.  With ``restrict``, values propagation
    rules out are avoided first.
    """
    rng = random_source(rng)
    shape = puzzle.shape
    n = shape.n
    free = free_cells(puzzle)
    allowed = _allowed(puzzle) if restrict else None
    everything = frozenset(range(1, n + 1))
    grid = puzzle.cells.copy()
    for cells, missing in zip(free.boxes, free.box_missing):
        row_wise = rng.random() < 0.5
        order = sorted(cells.tolist(), key=lambda c: (c // n, c % n) if row_wise else (c % n, c // n))

        def preferred(cell: int, row_wise: bool = row_wise) -> frozenset[int]:  # this box's draw
            line = shape.rows[cell // n] if row_wise else shape.cols[cell % n]
            clear = everything - set(grid[line].tolist())
            return clear if allowed is None else clear & _values(allowed[cell])

        _place(grid, order, missing.tolist(), rng, preferred)
    return _build(icls, grid)


def init_row_permutation(
    icls: type[Individual], *, puzzle: Puzzle, restrict: bool = False, rng: random.Random | None = None
) -> Individual:
    """Each row's free cells get a random permutation of the values the row misses."""
    free = free_cells(puzzle)
    return _init_permutation(icls, puzzle, free.rows, free.row_missing, restrict, rng)


def init_free_cells(
    icls: type[Individual], *, puzzle: Puzzle, restrict: bool = False, rng: random.Random | None = None
) -> Individual:
    """Every free cell gets a random value (one propagation allows, with ``restrict``)."""
    rng = random_source(rng)
    allowed = _allowed(puzzle) if restrict else None
    grid = puzzle.cells.copy()
    for cell in free_cells(puzzle).cells.tolist():
        grid[cell] = (
            rng.choice([v for v in range(1, puzzle.n + 1) if _allows(allowed[cell], v)])
            if allowed
            else rng.randint(1, puzzle.n)
        )
    return _build(icls, grid)


def seed_from_search(
    individual, *, puzzle: Puzzle, max_nodes: int = SEED_NODES, max_seconds: float | None = None
) -> tuple:
    """Write into ``individual`` (in place) the answer of an exact search that finds one within
    ``max_nodes`` search nodes and ``max_seconds``; otherwise leave it as it is.

    Seeding: a GA spends hundreds of evaluations on a puzzle that backtracking with propagation
    settles in a few hundred nodes, and a seeded individual that is already a solution ends the
    run at generation 0.  Where the search does not settle it in time (the phase transition of
    large grids), the population is the GA's own.  The search is deterministic, so the seed does
    not draw from the run's generator.  Returns ``(individual,)``; its fitness is the caller's
    to invalidate, as with a mutation.
    """
    try:
        found = search(puzzle, max_nodes=max_nodes, max_seconds=max_seconds).solutions
    except SearchBudgetExceeded:
        found = ()
    if found:
        individual[:] = found[0].cells if isinstance(individual, np.ndarray) else found[0].cells.tolist()
    return (individual,)


# The representation invariant each operator keeps (tools.checks.check_operator checks the claim).
claim_invariant("block", init_block_permutation, init_smart_block_permutation)
claim_invariant("row", init_row_permutation)
