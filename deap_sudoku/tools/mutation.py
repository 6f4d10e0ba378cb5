"""Mutations: DEAP's contract (change the individual in place, return ``(individual,)``).

Only free cells change.  In-box swaps keep block-permutations, in-row swaps
keep row-permutations.
"""

from __future__ import annotations

import random

import numpy as np

from .fitness import collision_map
from .free_cells import free_cells
from .individual import Individual
from ..grid.puzzle import Puzzle

__all__ = ["mut_swap_in_box", "mut_conflict_swap", "mut_swap_in_row", "mut_random_reset"]


def _swap_two(individual: np.ndarray, cells: np.ndarray, rng) -> None:
    a, b = rng.sample(cells.tolist(), 2)
    individual[a], individual[b] = individual[b], individual[a]


def mut_swap_in_box(individual: Individual, *, puzzle: Puzzle,
                    rng: random.Random | None = None) -> tuple[Individual]:
    """Swap two free cells inside one random box that has at least two."""
    rng = rng or random
    boxes = [cells for cells in free_cells(puzzle).boxes if len(cells) >= 2]
    if boxes:
        _swap_two(individual, rng.choice(boxes), rng)
    return (individual,)


def mut_conflict_swap(individual: Individual, *, puzzle: Puzzle, in_box: bool = False,
                      rng: random.Random | None = None) -> tuple[Individual]:
    """The block GA's conflict-guided mutation: the free cells in a collision are shuffled and
    swapped in pairs; an odd one stays put.

    With ``in_box`` the pairs are formed inside each box, which keeps block-permutations;
    without it (as documented) pairs are formed anywhere.
    """
    rng = rng or random
    free = free_cells(puzzle)
    clashing = free.cells[collision_map(individual, puzzle)[free.cells] > 0].tolist()
    groups: list[list[int]] = [clashing]
    if in_box:
        by_box: dict[int, list[int]] = {}
        for cell in clashing:
            by_box.setdefault(int(free.box_of[cell]), []).append(cell)
        groups = list(by_box.values())
    for group in groups:
        rng.shuffle(group)
        for a, b in zip(group[0::2], group[1::2]):
            individual[a], individual[b] = individual[b], individual[a]
    return (individual,)


def mut_swap_in_row(individual: Individual, *, puzzle: Puzzle, indpb: float,
                    rng: random.Random | None = None) -> tuple[Individual]:
    """For each row, with probability ``indpb``, swap two of its free cells."""
    rng = rng or random
    for cells in free_cells(puzzle).rows:
        if len(cells) >= 2 and rng.random() < indpb:
            _swap_two(individual, cells, rng)
    return (individual,)


def mut_random_reset(individual: Individual, *, puzzle: Puzzle, k: int = 1,
                     rng: random.Random | None = None) -> tuple[Individual]:
    """Set ``k`` random free cells to random values (the cell GA's ``mutation_amount``)."""
    rng = rng or random
    cells = free_cells(puzzle).cells.tolist()
    for cell in rng.sample(cells, min(k, len(cells))):
        individual[cell] = rng.randint(1, puzzle.n)
    return (individual,)
