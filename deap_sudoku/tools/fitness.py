"""Fitness functions, each per individual (DEAP's ``evaluate``) and batched over a population.

Every ``eval_*`` function takes one individual and ``puzzle=`` (keyword-only,
like the operators) and returns a one-element tuple; its ``.batch`` attribute
takes a ``(population, cells)`` array and the puzzle and returns one score per
row.  :func:`batch_map`, registered as ``toolbox.map``, uses ``.batch`` so
``eaSimple`` evaluates a whole generation in one numpy call.

Minimised, 0 when solved: :func:`eval_collisions`, :func:`eval_cell_collisions`,
:func:`eval_column_box_collisions`, :func:`eval_closeness`, :func:`eval_closeness_mk`.  Maximised:
:func:`eval_distinct` (``3n*n`` when solved), :func:`eval_threats` (108 for a
solved 9x9).

The direction travels with the function: each carries ``weights`` (DEAP's
fitness weights, ``(-1.0,)`` or ``(1.0,)``) and ``target(puzzle)``, the score
of a solved grid.  :func:`~deap_sudoku.tools.individual.individual_class`
turns ``weights`` into the matching individual class, and every call checks
that the individual's fitness points the same way, so a maximised fitness on a
minimising individual raises :class:`FitnessDirectionError` at the first
evaluation instead of evolving away from the solution.  A fitness function of
your own gets the same check by carrying ``weights`` (see ``docs/extending.md``).

"Solved" means solved: each function also counts a grid's :func:`defects`
(empty cells, changed givens) as cost, so only a full grid that keeps the
puzzle's givens and repeats no value scores ``target(puzzle)``.  For the
package's representations, which never empty a cell or touch a given, the
scores are unchanged.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable

import numpy as np

from ..grid.puzzle import Puzzle, require
from ..grid.shape import Shape
from .wrapping import wraps

__all__ = [
    "eval_collisions",
    "eval_cell_collisions",
    "eval_column_box_collisions",
    "eval_illegal_units",
    "eval_distinct",
    "eval_threats",
    "eval_closeness",
    "eval_closeness_mk",
    "collision_map",
    "closeness_map",
    "cell_map",
    "unit_duplicates",
    "closeness_terms",
    "max_threats",
    "batch_map",
    "batch_kernel",
    "optimum",
    "FitnessDirectionError",
    "check_direction",
    "fitness_weights",
    "fitness_name",
    "defects",
]


def _grids(population: np.ndarray | Iterable[np.ndarray]) -> np.ndarray:
    grids = np.asarray(population)
    return grids[None, :] if grids.ndim == 1 else grids


@functools.lru_cache(maxsize=None)
def _bit_table(n: int) -> np.ndarray:
    """``table[v] = 1 << (v - 1)``, ``table[0] = 0``, in the smallest unsigned dtype that holds n bits."""
    dtype = next(t for t in (np.uint16, np.uint32, np.uint64) if np.iinfo(t).bits >= n)
    table = np.zeros(n + 1, dtype=dtype)
    table[1:] = np.left_shift(np.ones(n, dtype=dtype), np.arange(n, dtype=dtype))
    return table


def _distinct(values: np.ndarray, n: int) -> np.ndarray:
    """Distinct non-zero values along the last axis: a bitmask OR and a popcount up to n = 64."""
    if n <= 64:
        masks = np.bitwise_or.reduce(_bit_table(n)[values], axis=-1)
        return np.bitwise_count(masks).astype(np.int64)
    ordered = np.sort(values, axis=-1)
    starts = (np.diff(ordered, axis=-1) != 0) & (ordered[..., 1:] > 0)
    return (ordered[..., 0] > 0) + np.count_nonzero(starts, axis=-1)


def unit_duplicates(population: np.ndarray, shape: Shape, units: np.ndarray | None = None) -> np.ndarray:
    """``(population, units)``: filled cells minus distinct values in each unit (all units by default)."""
    grids = _grids(population)
    values = grids[:, shape.units if units is None else units]
    return np.count_nonzero(values, axis=-1) - _distinct(values, shape.n)


def _collisions(population: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    return unit_duplicates(population, puzzle.shape).sum(axis=1)


def _same_value_counts(population: np.ndarray, shape: Shape) -> np.ndarray:
    """``(population, 3n, n)``: for every cell of every unit, the other cells of the unit holding its value
    (0 for an empty cell)."""
    values = _grids(population)[:, shape.units]
    same = (values[..., :, None] == values[..., None, :]).sum(axis=-1) - 1
    return np.where(values > 0, same, 0)


def _cell_collisions(population: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    """Each unit's count ``c`` of each value adds ``c(c-1)``: the sum of :func:`_same_value_counts`,
    counted with one ``bincount`` over (individual, unit, value) instead of comparing every pair."""
    n = puzzle.n
    values = _grids(population)[:, puzzle.shape.units].reshape(-1, n).astype(np.intp)
    values += np.arange(len(values), dtype=np.intp)[:, None] * (n + 1)
    counts = np.bincount(values.ravel(), minlength=len(values) * (n + 1)).reshape(-1, 3 * n, n + 1)[..., 1:]
    return (counts * (counts - 1)).sum(axis=(1, 2))


def _column_box_collisions(population: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    return unit_duplicates(population, puzzle.shape, puzzle.shape.units[puzzle.n :]).sum(axis=1)


def _illegal_columns_boxes(population: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    return np.count_nonzero(unit_duplicates(population, puzzle.shape, puzzle.shape.units[puzzle.n :]) > 0, axis=1)


def _distinct_values(population: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    grids = _grids(population)
    return _distinct(grids[:, puzzle.shape.units], puzzle.n).sum(axis=1)


def max_threats(shape: Shape) -> int:
    """Most row and column duplicates a block-permutation can have: 108 for a 9x9."""
    require(shape, Shape, "shape")
    return shape.n * (shape.n - shape.box_cols) + shape.n * (shape.n - shape.box_rows)


def _threats(population: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    lines = puzzle.shape.units[: 2 * puzzle.n]
    return max_threats(puzzle.shape) - unit_duplicates(population, puzzle.shape, lines).sum(axis=1)


# -- closeness after Mantere & Koljonen ---------------------------------------------------


def _in_order(values: np.ndarray, operation: np.ufunc = np.add) -> np.ndarray:
    """``values`` summed (or multiplied) along the last axis, left to right, one element after the
    other: an accumulation is sequential by definition, where numpy's ``sum`` chooses its order
    (pairwise, by blocks) by the array's shape, so that a grid scored alone and in a batch of any
    size gets the same value to the last bit."""
    return operation.accumulate(values, axis=-1)[..., -1]


def _lines(population: np.ndarray, shape: Shape) -> np.ndarray:
    """``(population, 2n, n)``: the rows, then the columns."""
    return _grids(population)[:, shape.units[: 2 * shape.n]]


def _line_statistics(population: np.ndarray, shape: Shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row and column: |sum - n(n+1)/2|, |log product - log n!| and missing values."""
    n = shape.n
    lines = _lines(population, shape).astype(np.int64)
    sum_gap = np.abs(lines.sum(axis=-1) - n * (n + 1) // 2)
    log_gap = np.abs(_in_order(np.log(lines.clip(1))) - math.lgamma(n + 1))
    log_gap[log_gap < 1e-9] = 0.0  # rounding noise: a permutation's product is exactly n!
    missing = n - _distinct(lines, n)
    return sum_gap, log_gap, missing


def closeness_terms(population: np.ndarray, shape: Shape) -> np.ndarray:
    """``(population, 2n, 3)``: the three closeness terms of every row and column, each scaled to 0..1.

    The sum gap is divided by its largest possible value ``n(n-1)/2``, the
    product is compared on a log scale (so ``n!`` cannot swamp the rest) and
    divided by the largest log gap, the missing count by ``n - 1``.
    """
    n = shape.n
    sum_gap, log_gap, missing = _line_statistics(population, shape)
    largest_log_gap = max(math.lgamma(n + 1), n * math.log(n) - math.lgamma(n + 1))
    return np.stack([sum_gap / (n * (n - 1) / 2), log_gap / largest_log_gap, missing / (n - 1)], axis=-1)


def _closeness(population: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    return _in_order(_in_order(closeness_terms(population, puzzle.shape)))  # each line's terms, then the lines


def _closeness_mk(population: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    """Mantere & Koljonen (2007): 10 * sum gaps + sqrt(product gaps) + 50 * missing, rows and columns."""
    n = puzzle.n
    lines = _lines(population, puzzle.shape).astype(np.float64)
    sum_gap = np.abs(lines.sum(axis=-1) - n * (n + 1) / 2)
    product_gap = np.abs(_in_order(lines, np.multiply) - math.factorial(n))
    missing = n - _distinct(lines.astype(np.int64), n)
    return _in_order(10 * sum_gap + np.sqrt(product_gap) + 50 * missing)


# -- the DEAP-facing functions ---------------------------------------------------------


class FitnessDirectionError(TypeError):
    """A fitness function evaluated for an individual whose fitness weights point the other way."""


def _weights(evaluate: Callable) -> tuple[float, ...] | None:
    return getattr(getattr(evaluate, "func", evaluate), "weights", None)


def fitness_weights(evaluate: Callable) -> tuple[float, ...]:
    """The DEAP ``weights`` a fitness function (or a ``toolbox.register``-ed partial of one) carries.

    :raises TypeError: for a function without them, saying how to give it some.
    """
    weights = _weights(evaluate)
    if not weights:
        name = getattr(getattr(evaluate, "func", evaluate), "__name__", evaluate)
        raise TypeError(
            f"{name!r} carries no fitness weights; set its .weights = (-1.0,) to minimise or (1.0,) to maximise"
        )
    return weights


def fitness_name(evaluate: Callable) -> str:
    """The objective a fitness function (or a ``toolbox.register``-ed partial of one) scores: its name
    without ``eval_`` (``collisions``), as run records, plots and grid captions name it."""
    return str(getattr(getattr(evaluate, "func", evaluate), "__name__", "fitness")).removeprefix("eval_")


def _name(individual: object, name: str) -> None:
    """Tell ``individual``'s fitness the objective it is scored by (``fitness.name``), so that its
    picture is captioned ``collisions 3``; a fitness without room for it (``__slots__``) stays unnamed."""
    fitness = getattr(individual, "fitness", None)
    if fitness is not None:
        try:
            fitness.name = name
        except AttributeError:
            pass


def check_direction(evaluate: Callable, individual: object) -> None:
    """Raise :class:`FitnessDirectionError` when ``evaluate`` (or a ``toolbox.register``-ed partial
    of it) carries ``weights`` whose sign differs from those of ``individual.fitness``.

    Individuals without a fitness (plain arrays) and functions without ``weights`` pass.
    """
    wanted = _weights(evaluate)
    fitness = getattr(individual, "fitness", None)
    weights = getattr(fitness, "weights", None)
    if not wanted or not weights or (wanted[0] > 0) == (weights[0] > 0):
        return
    name = getattr(getattr(evaluate, "func", evaluate), "__name__", "this fitness")
    goal, kind = ("maximised", "MaxIndividual") if wanted[0] > 0 else ("minimised", "Individual")
    raise FitnessDirectionError(
        f"{name} is {goal} (weights {wanted}) but the individual's {type(fitness).__name__} has weights "
        f"{tuple(weights)}: selection would evolve away from the solution. Use "
        f"deap_sudoku.tools.individual_class({name}) (here {kind}), make_toolbox(fitness=...), or a "
        f"creator fitness with weights={wanted}"
    )


def defects(grids: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    """For each row of ``grids`` (``(k, cells)``): its empty cells plus the givens of ``puzzle`` it
    changes, what no solution has.  Every ``eval_*`` function counts them as cost, so a grid with an
    empty cell or a changed given never scores the optimum (:func:`optimum`)."""
    given = np.flatnonzero(puzzle.cells)
    return np.count_nonzero(grids == 0, axis=1) + np.count_nonzero(grids[:, given] != puzzle.cells[given], axis=1)


def _no_target(puzzle: Puzzle) -> int:
    return 0


def _all_distinct(puzzle: Puzzle) -> int:
    return 3 * puzzle.n * puzzle.n


def _no_threats(puzzle: Puzzle) -> int:
    return max_threats(puzzle.shape)


class _Batch:
    """A fitness's batch kernel with the population checked and its :func:`defects` counted as cost:
    an object, not a closure, so that a toolbox partial carrying it pickles."""

    def __init__(self, kernel: Callable, cost_sign: int) -> None:
        self.kernel, self.cost_sign = kernel, cost_sign
        self.__name__, self.__doc__ = kernel.__name__, kernel.__doc__
        self.owner: Callable | None = None
        """The ``eval_*`` function this kernel batches: a decorator that copies the attribute onto its
        wrapper (``functools.wraps``) does not make the wrapper its owner."""

    def __call__(self, grids, puzzle: Puzzle, *args, **kwargs) -> np.ndarray:
        grids = puzzle.shape.check_grid(_grids(grids), "population", many=True)
        return self.kernel(grids, puzzle, *args, **kwargs) + self.cost_sign * defects(grids, puzzle)


def _fitness(weight: float, batch: Callable, target: Callable[[Puzzle], float] = _no_target):
    """Give an ``eval_*`` function its direction (``weights``), its ``batch`` kernel and its solved
    score (``target(puzzle)``), check the individual's direction at every call, and count its
    :func:`defects` as cost."""
    cost_sign = 1 if weight < 0 else -1

    def decorate(score: Callable) -> Callable:
        name = fitness_name(score)

        @wraps(score)
        def evaluate(individual, *, puzzle: Puzzle):
            check_direction(evaluate, individual)
            _name(individual, name)
            grid = puzzle.shape.check_grid(individual, "individual")
            (value,) = score(individual, puzzle=puzzle)
            wrong = int(defects(grid[None, :], puzzle)[0])
            return (value + cost_sign * wrong,) if wrong else (value,)

        kernel = _Batch(batch, cost_sign)
        kernel.owner = evaluate
        evaluate.__dict__.update(weights=(weight,), batch=kernel, target=target)
        return evaluate

    return decorate


def _one(individual: np.ndarray) -> np.ndarray:
    return np.asarray(individual)[None, :]


@_fitness(-1.0, _collisions)
def eval_collisions(individual: np.ndarray, *, puzzle: Puzzle) -> tuple[int]:
    """Duplicates summed over all rows, columns and boxes (minimise; 0 is solved)."""
    return (int(_collisions(_one(individual), puzzle)[0]),)


@_fitness(-1.0, _cell_collisions)
def eval_cell_collisions(individual: np.ndarray, *, puzzle: Puzzle) -> tuple[int]:
    """The per-cell :func:`collision_map` summed: the C++ block GA's total ("alle
    Teilkollisionswerte aufsummiert").  A value twice in a unit counts 2, three times 6
    (minimise; 0 is solved)."""
    return (int(_cell_collisions(_one(individual), puzzle)[0]),)


@_fitness(-1.0, _column_box_collisions)
def eval_column_box_collisions(individual: np.ndarray, *, puzzle: Puzzle) -> tuple[int]:
    """Duplicates in columns and boxes only, for row-permutations (minimise; 0 is solved)."""
    return (int(_column_box_collisions(_one(individual), puzzle)[0]),)


@_fitness(-1.0, _illegal_columns_boxes)
def eval_illegal_units(individual: np.ndarray, *, puzzle: Puzzle) -> tuple[int]:
    """Wang et al.'s fitness for row-permutations: the columns and boxes holding a repeated value,
    however many (minimise; 0 is solved)."""
    return (int(_illegal_columns_boxes(_one(individual), puzzle)[0]),)


@_fitness(1.0, _distinct_values, target=_all_distinct)
def eval_distinct(individual: np.ndarray, *, puzzle: Puzzle) -> tuple[int]:
    """Distinct values summed over rows, columns and boxes (maximise; ``3n*n``, 243 for 9x9, is solved)."""
    return (int(_distinct_values(_one(individual), puzzle)[0]),)


@_fitness(1.0, _threats, target=_no_threats)
def eval_threats(individual: np.ndarray, *, puzzle: Puzzle) -> tuple[int]:
    """``108 - threats``: row and column duplicates of a 9x9 block-permutation subtracted from
    their maximum, generalised by :func:`max_threats` (maximise)."""
    return (int(_threats(_one(individual), puzzle)[0]),)


@_fitness(-1.0, _closeness)
def eval_closeness(individual: np.ndarray, *, puzzle: Puzzle) -> tuple[float]:
    """Mantere-Koljonen closeness, normalised: the sum, log-product and missing-value terms of
    every row and column (:func:`closeness_terms`), summed (minimise; 0 is solved)."""
    return (float(_closeness(_one(individual), puzzle)[0]),)


@_fitness(-1.0, _closeness_mk)
def eval_closeness_mk(individual: np.ndarray, *, puzzle: Puzzle) -> tuple[float]:
    """Mantere-Koljonen closeness as published: 10 * sum gaps + sqrt(product gaps) + 50 * missing
    values, over rows and columns (minimise; 0 is solved)."""
    return (float(_closeness_mk(_one(individual), puzzle)[0]),)


def optimum(evaluate: Callable, puzzle: Puzzle | None = None) -> float | tuple[float, ...]:
    """The score of a solved grid for an ``eval_*`` function (``evaluate.target(puzzle)``), or for a
    ``toolbox.register``-ed partial of one, whose own ``puzzle=`` is used when ``puzzle`` is None.

    A function without ``target`` is taken to be minimised to 0, which only a fitness of one
    objective can be judged by: :class:`~deap_sudoku.algorithms.Stop` compares every objective, so
    a fitness of several gives its ``target`` a tuple, a value per objective.

    :raises TypeError: without the puzzle, or for a function of several objectives (its
        ``weights``) without ``target``.
    """
    target = getattr(evaluate, "func", evaluate)
    if puzzle is None:
        puzzle = getattr(evaluate, "keywords", {}).get("puzzle")
    if puzzle is None:
        raise TypeError("optimum() needs the puzzle: pass puzzle=, or a toolbox.evaluate registered with puzzle=")
    if hasattr(target, "target"):
        return target.target(puzzle)
    weights = _weights(evaluate) or ()
    if len(weights) > 1:
        name = getattr(target, "__name__", "this fitness")
        raise TypeError(
            f"optimum() cannot judge {name}, a fitness of {len(weights)} objectives without a target: give it "
            f".target = lambda puzzle: {(0,) * len(weights)}, the values of a solved grid, one per objective"
        )
    return 0


def collision_map(individual: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    """How many collisions each cell takes part in: over its row, column and box, the
    number of other cells holding its value (the C++ block GA's per-cell collision fitness)."""
    shape = puzzle.shape
    counts = _same_value_counts(shape.check_grid(individual, "individual")[None, :], shape)[0]  # (3n, n)
    result = np.zeros(shape.cells, dtype=np.int64)
    np.add.at(result, shape.units.ravel(), counts.ravel())
    return result


def closeness_map(individual: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    """The C++ block GA's per-cell closeness fitness: a cell is 1 when the closeness of its row plus
    that of its column (each the sum of its three normalised terms, :func:`closeness_terms`, so 0..3)
    exceeds 3 of the 6 possible, else 0."""
    n = puzzle.n
    lines = closeness_terms(puzzle.shape.check_grid(individual, "individual")[None, :], puzzle.shape)[0].sum(axis=-1)
    rows, cols = lines[:n], lines[n:]
    return (rows[:, None] + cols[None, :] > 3).astype(np.int64).ravel()


def cell_map(evaluate: Callable) -> Callable[[np.ndarray, Puzzle], np.ndarray]:
    """The per-cell map that belongs to a fitness: :func:`closeness_map` for the closeness
    fitnesses, :func:`collision_map` for the rest (the map the block GA's mutation reads)."""
    target = getattr(evaluate, "func", evaluate)
    return closeness_map if target in (eval_closeness, eval_closeness_mk) else collision_map


BATCH_CELLS = 1 << 16
"""Cells per batched call of :func:`batch_map`: the batch's temporaries stay a few MiB whatever the
population (a 36x36 block GA's collision map took 138 bytes a cell in one call of the whole population)."""


def batch_kernel(func: Callable) -> Callable | None:
    """The batch kernel that computes exactly what ``func`` computes: the ``.batch`` of an ``eval_*``
    function, given the function itself or a ``toolbox.register``-ed partial of it; None otherwise.

    A decorated function is never its kernel's: DEAP's ``DeltaPenalty``, ``ClosestValidPenalty`` and
    any decorator built with ``functools.wraps`` copy the wrapped function's ``__dict__``, ``.batch``
    included, onto a wrapper that computes something else (a penalty, a count of calls).  The
    package's kernels name their function (``owner``); a kernel of yours is taken unless the function
    is a wrapper whose ``__wrapped__`` carries the very same kernel.  Give the wrapper a ``.batch`` of
    its own to have it batched.
    """
    target = func.func if isinstance(func, functools.partial) else func
    batch = getattr(target, "batch", None)
    if batch is None:
        return None
    owner = getattr(batch, "owner", None)
    if owner is not None:
        return batch if owner is target else None
    wrapped = getattr(target, "__wrapped__", None)
    if wrapped is not None and getattr(wrapped, "batch", None) is batch:
        return None
    return batch


def batch_map(func: Callable, individuals: Iterable) -> list:
    """``map`` for ``toolbox.map``: batched calls of at most :data:`BATCH_CELLS` cells when ``func``
    is an ``eval_*`` function or a ``toolbox.register``-ed partial of one (:func:`batch_kernel`),
    the builtin ``map`` otherwise, a decorated ``evaluate`` included, so that what the decorator does
    (a penalty, a count) happens to every individual."""
    items = list(individuals)
    if _weights(func):  # a fitness function: the individuals it scores learn its name (for captions)
        name = fitness_name(func)
        for item in items:
            _name(item, name)
    batch = batch_kernel(func)
    if batch is None or not items:
        return list(map(func, items))
    check_direction(func, items[0])
    args, keywords = getattr(func, "args", ()), getattr(func, "keywords", {})
    chunk = max(1, BATCH_CELLS // np.asarray(items[0]).size)
    return [
        (score,)
        for start in range(0, len(items), chunk)
        for score in batch(
            np.stack([np.asarray(item) for item in items[start : start + chunk]]), *args, **keywords
        ).tolist()
    ]
