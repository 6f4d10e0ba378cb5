"""DEAP's ``eaSimple`` for the block GA, run on the whole population at once.

:func:`ea_simple_batched` does what ``eaSimple`` does with tournament
selection, :func:`~deap_sudoku.tools.crossover.cx_block_uniform`,
:func:`~deap_sudoku.tools.mutation.mut_swap_in_box` and
:func:`~deap_sudoku.tools.fitness.eval_collisions` registered, generation for
generation (select with replacement, mate consecutive pairs with ``cxpb``,
mutate each with ``mutpb``, evaluate the changed ones), but every step is one
numpy operation over a ``(population, cells)`` stack of the individuals.  For
large populations the per-individual Python calls, not the fitness, are
what costs (``benchmarks/naive_vs_fast.py``); this removes them.  The
individuals go in and come out as :class:`~deap_sudoku.tools.individual.Individual`
with valid fitnesses, so the result composes with the rest of DEAP.
"""

from __future__ import annotations

import numpy as np
from deap import tools

from ..grid.puzzle import Puzzle
from ..tools.fitness import eval_collisions
from ..tools.free_cells import free_cells
from ..tools.individual import Individual

__all__ = ["ea_simple_batched", "sel_tournament_batched", "cx_block_uniform_batched", "mut_swap_in_box_batched"]


def sel_tournament_batched(fitness: np.ndarray, k: int, tournsize: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of ``k`` tournament winners (lowest fitness; the first entrant wins a tie)."""
    entrants = rng.integers(0, fitness.shape[0], size=(k, tournsize))
    return entrants[np.arange(k), np.argmin(fitness[entrants], axis=1)]


def cx_block_uniform_batched(first: np.ndarray, second: np.ndarray, puzzle: Puzzle, rng: np.random.Generator) -> None:
    """:func:`~deap_sudoku.tools.crossover.cx_block_uniform` on row pairs of two stacks, in place: each
    pair exchanges a random number (1 to boxes - 1) of random boxes."""
    pairs, n = first.shape[0], puzzle.n
    how_many = np.asarray(rng.integers(1, n, size=pairs))  # 1 .. n-1
    rank = np.argsort(np.argsort(rng.random((pairs, n)), axis=1), axis=1)
    swap = (rank < how_many[:, None])[:, free_cells(puzzle).box_of]
    held = first.copy()
    np.copyto(first, second, where=swap)
    np.copyto(second, held, where=swap)


def mut_swap_in_box_batched(stack: np.ndarray, puzzle: Puzzle, rng: np.random.Generator) -> None:
    """:func:`~deap_sudoku.tools.mutation.mut_swap_in_box` on every row of ``stack``, in place: two free
    cells of one random box (with at least two) exchange values."""
    boxes = [cells for cells in free_cells(puzzle).boxes if len(cells) >= 2]
    if not boxes or not stack.shape[0]:
        return
    counts = np.array([len(b) for b in boxes])
    padded = np.zeros((len(boxes), counts.max()), dtype=np.intp)
    for i, cells in enumerate(boxes):
        padded[i, : len(cells)] = cells
    rows = np.arange(stack.shape[0])
    box = rng.integers(0, len(boxes), size=rows.shape[0])
    i = (rng.random(rows.shape[0]) * counts[box]).astype(np.intp)
    j = (rng.random(rows.shape[0]) * (counts[box] - 1)).astype(np.intp)
    j += j >= i
    a, b = padded[box, i], padded[box, j]
    stack[rows, a], stack[rows, b] = stack[rows, b], stack[rows, a].copy()


def ea_simple_batched(
    population: list[Individual],
    puzzle: Puzzle,
    cxpb: float,
    mutpb: float,
    ngen: int,
    *,
    rng: np.random.Generator,
    tournsize: int = 3,
    halloffame: tools.HallOfFame | None = None,
) -> tuple[list[Individual], tools.Logbook]:
    """``eaSimple(population, toolbox, cxpb, mutpb, ngen)`` for the block GA described above.

    The logbook has ``gen``, ``nevals`` and the ``min``, ``avg`` and ``max``
    fitness; ``halloffame`` receives the best grid ever seen; ``rng`` (a numpy
    ``Generator``) draws everything.  Returns the final population as
    individuals, like ``eaSimple``.
    """
    stack = np.stack([np.asarray(ind) for ind in population])
    fitness = np.array([ind.fitness.values[0] if ind.fitness.valid else -1 for ind in population])
    invalid = fitness < 0
    fitness[invalid] = eval_collisions.batch(stack[invalid], puzzle)
    logbook = tools.Logbook()
    logbook.header = ["gen", "nevals", "min", "avg", "max"]
    best_grid, best_fit = stack[np.argmin(fitness)].copy(), fitness.min()

    def record(generation: int, nevals: int) -> None:
        logbook.record(
            gen=generation, nevals=nevals, min=float(fitness.min()), avg=float(fitness.mean()), max=float(fitness.max())
        )

    record(0, int(invalid.sum()))
    size = len(population)
    for generation in range(1, ngen + 1):
        chosen = sel_tournament_batched(fitness, size, tournsize, rng)
        stack, fitness = stack[chosen], fitness[chosen]
        changed = np.zeros(size, dtype=bool)
        pairs = np.flatnonzero(rng.random(size // 2) < cxpb)
        first, second = stack[2 * pairs], stack[2 * pairs + 1]
        cx_block_uniform_batched(first, second, puzzle, rng)
        stack[2 * pairs], stack[2 * pairs + 1] = first, second
        changed[2 * pairs] = changed[2 * pairs + 1] = True
        mutants = np.flatnonzero(rng.random(size) < mutpb)
        part = stack[mutants]
        mut_swap_in_box_batched(part, puzzle, rng)
        stack[mutants] = part
        changed[mutants] = True
        fitness[changed] = eval_collisions.batch(stack[changed], puzzle)
        if fitness.min() < best_fit:
            best_grid, best_fit = stack[np.argmin(fitness)].copy(), fitness.min()
        record(generation, int(changed.sum()))
    individuals = [Individual(row) for row in stack]
    for ind, value in zip(individuals, fitness.tolist()):
        ind.fitness.values = (value,)
    if halloffame is not None:
        best = Individual(best_grid)
        best.fitness.values = (int(best_fit),)
        halloffame.update([best])
    return individuals, logbook
