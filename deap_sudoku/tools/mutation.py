"""Mutations: DEAP's contract (change the individual in place, return ``(individual,)``).

Only free cells change.  In-box swaps keep block-permutations, in-row swaps
keep row-permutations.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence

import numpy as np

from .randomness import random_source
from .fitness import collision_map
from .free_cells import free_cells
from .individual import Individual, grid_operator
from ..grid.puzzle import Puzzle, require
from .wrapping import claim_invariant

__all__ = [
    "mut_swap_in_box",
    "mut_help_array_swap_in_box",
    "mut_three_swap_in_box",
    "mut_insert_in_box",
    "mut_mixed_in_box",
    "help_array",
    "BOX_MOVES",
    "mut_conflict_swap",
    "mut_swap_in_row",
    "mut_random_reset",
    "mut_reinit_row",
]


def _swap_two(individual: np.ndarray, cells: np.ndarray, rng) -> None:
    a, b = rng.sample(cells.tolist(), 2)
    individual[a], individual[b] = individual[b], individual[a]


@grid_operator
def mut_swap_in_box(individual: Individual, *, puzzle: Puzzle, rng: random.Random | None = None) -> tuple[Individual]:
    """Swap two free cells inside one random box that has at least two."""
    rng = random_source(rng)
    boxes = [cells for cells in free_cells(puzzle).boxes if len(cells) >= 2]
    if boxes:
        _swap_two(individual, rng.choice(boxes), rng)
    return (individual,)


@grid_operator
def mut_conflict_swap(
    individual: Individual,
    *,
    puzzle: Puzzle,
    cell_map: Callable[[np.ndarray, Puzzle], np.ndarray] = collision_map,
    threshold: int = 1,
    in_box: bool = False,
    rng: random.Random | None = None,
) -> tuple[Individual]:
    """The C++ block GA's conflict-guided mutation: the free cells whose value in ``cell_map``
    exceeds ``threshold`` are shuffled and swapped in pairs; an odd one stays put.

    As documented: the map of the fitness in use (:func:`~deap_sudoku.tools.fitness.cell_map`
    gives it), cells with a value above 1 ("Fitnesswert > 1"), pairs formed anywhere.  Our
    improvements are switches: ``threshold=0`` takes every cell in a collision, ``in_box=True``
    forms the pairs inside each box, which keeps block-permutations.  Givens never move.
    """
    rng = random_source(rng)
    free = free_cells(puzzle)
    chosen = free.cells[np.asarray(cell_map(individual, puzzle))[free.cells] > threshold].tolist()
    groups: list[list[int]] = [chosen]
    if in_box:
        by_box: dict[int, list[int]] = {}
        for cell in chosen:
            by_box.setdefault(int(free.box_of[cell]), []).append(cell)
        groups = list(by_box.values())
    for group in groups:
        rng.shuffle(group)
        for a, b in zip(group[0::2], group[1::2]):
            individual[a], individual[b] = individual[b], individual[a]
    return (individual,)


@grid_operator
def mut_swap_in_row(
    individual: Individual, *, puzzle: Puzzle, indpb: float, rng: random.Random | None = None
) -> tuple[Individual]:
    """For each row, with probability ``indpb``, swap two of its free cells."""
    rng = random_source(rng)
    for cells in free_cells(puzzle).rows:
        if len(cells) >= 2 and rng.random() < indpb:
            _swap_two(individual, cells, rng)
    return (individual,)


@grid_operator
def mut_reinit_row(
    individual: Individual, *, puzzle: Puzzle, indpb: float, rng: random.Random | None = None
) -> tuple[Individual]:
    """For each row, with probability ``indpb``, give its free cells a fresh random permutation of the
    values the row misses (Wang et al.'s row re-initialisation; a coin is drawn for every row)."""
    rng = random_source(rng)
    free = free_cells(puzzle)
    for cells, missing in zip(free.rows, free.row_missing):
        if rng.random() < indpb and len(cells) >= 2:
            values = missing.tolist()
            rng.shuffle(values)
            individual[cells] = values
    return (individual,)


@grid_operator
def mut_random_reset(
    individual: Individual, *, puzzle: Puzzle, amount: int = 1, any_cell: bool = False, rng: random.Random | None = None
) -> tuple[Individual]:
    """Set ``amount`` random free cells to random values (the cell GA's mutation amount; not ``k``,
    which in DEAP counts individuals selected).

    With ``any_cell``, as the report's Implementation 1 does, the ``amount`` cells are drawn from the
    whole board and a draw that hits a given changes nothing (a wasted mutation).
    """
    rng = random_source(rng)
    if any_cell:
        givens = puzzle.givens
        for cell in rng.sample(range(puzzle.shape.cells), min(amount, puzzle.shape.cells)):
            value = rng.randint(1, puzzle.n)
            if not givens[cell]:
                individual[cell] = value
        return (individual,)
    cells = free_cells(puzzle).cells.tolist()
    for cell in rng.sample(cells, min(amount, len(cells))):
        individual[cell] = rng.randint(1, puzzle.n)
    return (individual,)


# -- Mantere & Koljonen's moves inside one box ------------------------------------------


@functools.lru_cache(maxsize=64)
def help_array(puzzle: Puzzle) -> np.ndarray:
    """Mantere & Koljonen's help array: ``(cells, n + 1)`` booleans, true where value ``v`` is a given
    in the cell's row or column, so that a move putting ``v`` there can never be right."""
    require(puzzle, Puzzle, "puzzle")
    shape, n = puzzle.shape, puzzle.n
    present = np.zeros((2 * n, n + 1), dtype=bool)  # rows, then columns: the givens' values
    for unit in range(2 * n):
        cells = shape.units[unit]
        present[unit, puzzle.cells[cells][puzzle.givens[cells]]] = True
    present[:, 0] = False
    table = present[np.arange(shape.cells) // n] | present[n + np.arange(shape.cells) % n]
    table.setflags(write=False)
    return table


def _swap_move(values: list[int], rng) -> list[int]:
    a, b = rng.sample(range(len(values)), 2)
    moved = list(values)
    moved[a], moved[b] = values[b], values[a]
    return moved


def _three_swap_move(values: list[int], rng) -> list[int]:
    """Three positions a, b, c: a takes b's value, b takes c's, c takes a's."""
    a, b, c = rng.sample(range(len(values)), 3)
    moved = list(values)
    moved[a], moved[b], moved[c] = values[b], values[c], values[a]
    return moved


def _insert_move(values: list[int], rng) -> list[int]:
    """The value at one position taken out and put back at another, the values between shifted one place."""
    take, put = rng.sample(range(len(values)), 2)
    moved = list(values)
    moved.insert(put, moved.pop(take))
    return moved


BOX_MOVES: dict[str, tuple[int, Callable[[list[int], random.Random], list[int]]]] = {
    "swap": (2, _swap_move),
    "three_swap": (3, _three_swap_move),
    "insert": (2, _insert_move),
}
"""The moves inside a box: the free cells each needs, and the move on those cells' values (in box order)."""


def _move_in_box(
    individual: np.ndarray,
    puzzle: Puzzle,
    kinds: Sequence[str],
    weights: Sequence[float] | None,
    *,
    use_help_array: bool,
    tries: int,
    frozen: np.ndarray | None,
    rng,
) -> None:
    """Up to ``tries`` draws of a move (a kind by ``weights``, a random box with the cells it needs,
    cells in it); the first draw that the help array allows (or any, without it) is made.  The help
    array is asked about the values that move, each on its new cell: a value that stays where it
    is, even one its row or column forbids there, does not stop a move elsewhere in its box."""
    boxes = free_cells(puzzle).boxes
    if frozen is not None:
        boxes = tuple(cells[~frozen[cells]] for cells in boxes)
    illegal = help_array(puzzle) if use_help_array else None
    for _ in range(tries):
        kind = kinds[0] if len(kinds) == 1 else rng.choices(kinds, weights=weights)[0]
        needed, move = BOX_MOVES[kind]
        fit = [cells for cells in boxes if len(cells) >= needed]
        if not fit:
            continue
        cells = rng.choice(fit)
        values = individual[cells]
        moved = np.asarray(move(values.tolist(), rng), dtype=values.dtype)
        if illegal is not None:
            lands = moved != values  # the values that move, each onto its new cell
            if illegal[cells[lands], moved[lands]].any():
                continue  # a moved value would meet a given of its new row or column: the move is not made
        individual[cells] = moved
        return


@grid_operator
def mut_help_array_swap_in_box(
    individual: Individual, *, puzzle: Puzzle, tries: int = 1, rng: random.Random | None = None
) -> tuple[Individual]:
    """Swap two free cells of a random box unless the help array forbids it (a value would land in a
    row or column where it is a given); an illegal draw is drawn again, ``tries`` draws in all."""
    _move_in_box(
        individual, puzzle, ("swap",), None, use_help_array=True, tries=tries, frozen=None, rng=random_source(rng)
    )
    return (individual,)


@grid_operator
def mut_three_swap_in_box(
    individual: Individual,
    *,
    puzzle: Puzzle,
    use_help_array: bool = False,
    tries: int = 1,
    rng: random.Random | None = None,
) -> tuple[Individual]:
    """Rotate the values of three free cells of a random box (a takes b's, b takes c's, c takes a's)."""
    rng = random_source(rng)
    _move_in_box(
        individual, puzzle, ("three_swap",), None, use_help_array=use_help_array, tries=tries, frozen=None, rng=rng
    )
    return (individual,)


@grid_operator
def mut_insert_in_box(
    individual: Individual,
    *,
    puzzle: Puzzle,
    use_help_array: bool = False,
    tries: int = 1,
    rng: random.Random | None = None,
) -> tuple[Individual]:
    """Insertion inside a random box: one free cell's value taken out and put in at another free
    cell, the values of the free cells between shifted one place (in the box's reading order)."""
    rng = random_source(rng)
    _move_in_box(
        individual, puzzle, ("insert",), None, use_help_array=use_help_array, tries=tries, frozen=None, rng=rng
    )
    return (individual,)


@grid_operator
def mut_mixed_in_box(
    individual: Individual,
    *,
    puzzle: Puzzle,
    swap: float = 1.0,
    three_swap: float = 1.0,
    insert: float = 1.0,
    use_help_array: bool = True,
    tries: int = 1,
    belief=None,
    rng: random.Random | None = None,
) -> tuple[Individual]:
    """Mantere & Koljonen's mutation: one move inside a random box, a swap, a three-swap or an
    insertion drawn with the relative weights ``swap``, ``three_swap`` and ``insert``, refused
    when the help array forbids it (``use_help_array``) and drawn again, ``tries`` draws in all.

    With a ``belief`` (:class:`~deap_sudoku.tools.belief.BeliefSpace`), the cells whose value is
    the one the belief space holds for them stay put, as givens do: the cultural algorithm's influence.
    """
    rng = random_source(rng)
    if min(swap, three_swap, insert) < 0 or swap + three_swap + insert <= 0:
        raise ValueError("mut_mixed_in_box: the move weights are not negative and not all 0")
    kinds, weights = zip(
        *[(k, w) for k, w in (("swap", swap), ("three_swap", three_swap), ("insert", insert)) if w > 0]
    )
    frozen = None if belief is None else belief.frozen(individual)
    _move_in_box(individual, puzzle, kinds, weights, use_help_array=use_help_array, tries=tries, frozen=frozen, rng=rng)
    return (individual,)


# The representation invariant each operator keeps (tools.checks.check_operator checks the claim).
claim_invariant(
    "block", mut_swap_in_box, mut_help_array_swap_in_box, mut_three_swap_in_box, mut_insert_in_box, mut_mixed_in_box
)
claim_invariant("row", mut_swap_in_row, mut_reinit_row)
