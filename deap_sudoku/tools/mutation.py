"""Mutations: DEAP's contract (change the individual in place, return ``(individual,)``).

Only free cells change.  In-box swaps keep block-permutations, in-row swaps
keep row-permutations.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from .randomness import random_source
from .fitness import collision_map
from .free_cells import free_cells
from .individual import Individual, grid_operator
from ..grid.puzzle import Puzzle
from .wrapping import claim_invariant

__all__ = ["mut_swap_in_box", "mut_conflict_swap", "mut_swap_in_row", "mut_random_reset"]


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


# The representation invariant each operator keeps (tools.checks.check_operator checks the claim).
claim_invariant("block", mut_swap_in_box)
claim_invariant("row", mut_swap_in_row)
