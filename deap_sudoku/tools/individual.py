"""Individuals: numpy grids carrying a DEAP fitness, without ``creator`` and its traps.

An individual is a flat, row-major ``uint8`` array of the whole grid (givens
included) with a ``fitness`` attribute.  The type closes what ``creator``-made
ndarray individuals get wrong (measured with deap 1.4.4): a slice, copy or
``numpy.sort`` of one gets a fresh, *invalid* fitness instead of the fitness
class, so it is never skipped by evaluation; ``deepcopy`` and pickling keep the
fitness and are fast.

DEAP's stock operators are safe on it: a slice is a copy (DEAP's advice for
numpy individuals, which its ``cxTwoPoint`` needs), ``if ind == other`` asks
whether the whole grids are equal (DEAP's ``HallOfFame``), and a write that
cannot leave a grid (a real number, a value outside ``0..n``, a change of
length, or any write by a DEAP operator meant for permutations, bits or real
vectors) is refused with a message naming the package's operator to use.
"""

from __future__ import annotations

import array
import copy
import math
import os
import sys
from collections.abc import Callable, Iterable, MutableSequence

import numpy as np
from deap import base
from deap import tools as deap_tools

from ..grid.conflicts import value_dtype
from ..grid.shape import MIN_SIDE
from ..grid.display import show
from .fitness import fitness_weights
from .wrapping import wraps

__all__ = ["FitnessMin", "FitnessMax", "Individual", "MaxIndividual", "individual_class", "clone", "grid_operator"]


class FitnessMin(base.Fitness):
    """One objective, minimised (collisions: 0 is solved)."""

    weights = (-1.0,)


class FitnessMax(base.Fitness):
    """One objective, maximised (distinct values, ``108 - threats``)."""

    weights = (1.0,)


class Individual(np.ndarray):
    """A grid individual whose fitness is minimised.  Build one with ``Individual(values)``."""

    fitness_class: type[base.Fitness] = FitnessMin

    def __new__(cls, values: Iterable[int] | np.ndarray) -> Individual:
        """:raises TypeError: for values that are not numbers; :raises ValueError: for values that are
        not whole numbers 0..65535, which a grid's cells never hold (they would wrap or be cut)."""
        try:
            array = np.array(values if isinstance(values, np.ndarray) else list(values))
        except (TypeError, ValueError) as exc:
            raise TypeError(f"values must be numbers: {exc}") from None
        if (
            array.size
            and not (np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating))
            or array.dtype == bool
        ):
            raise TypeError(f"values must be whole numbers, not {array.dtype}")
        if array.size and np.issubdtype(array.dtype, np.floating) and not np.all(np.mod(array, 1) == 0):
            raise ValueError("values must be whole numbers; got a fraction")
        if array.size and (array.min() < 0 or array.max() > np.iinfo(np.uint16).max):
            raise ValueError(f"values must be 0..65535; got {array.min() if array.min() < 0 else array.max()}")
        grid = _narrowed(array).ravel()
        individual = grid.view(cls)
        individual.fitness = cls.fitness_class()
        return individual

    def __array_finalize__(self, obj: np.ndarray | None) -> None:
        # Every new array of this type (view, copy) starts unevaluated, with its source's fitness
        # class (a creator subclass's FitnessMax stays FitnessMax).
        source = getattr(obj, "fitness", None)
        self.fitness = type(source)() if isinstance(source, base.Fitness) else self.fitness_class()

    def __getitem__(self, key):
        # A slice is a copy, as DEAP asks of numpy individuals: its cxTwoPoint swaps two slices in one
        # statement, which with views would write the first child's cells into the second as well.
        if type(key) is slice:
            return np.ndarray.__getitem__(self.view(np.ndarray), key).copy()
        return np.ndarray.__getitem__(self, key)

    def __setitem__(self, key, value) -> None:
        code = sys._getframe(1).f_code
        if code not in _TRUSTED:  # DEAP's and the user's operators are checked; the package's own are trusted
            if code.co_filename.startswith(_PACKAGE):
                _TRUSTED.add(code)
            else:
                _refuse_stock(code)
                _check_values(self, value)
        try:
            np.ndarray.__setitem__(self.view(np.ndarray), key, value)  # (numpy would take the view from
            # our __getitem__, which copies slices)
        except ValueError as exc:
            if "broadcast" not in str(exc):
                raise
            raise ValueError(
                f"a grid individual keeps its {self.size} cells; this write would change how many "
                f"({exc}): DEAP's cxMessyOnePoint is for individuals of varying length, "
                "use cx_band_two_point or cx_block_uniform"
            ) from None

    def __eq__(self, other):
        return _compared(np.asarray(self) == np.asarray(other), _CellsEqual)

    def __ne__(self, other):
        return _compared(np.asarray(self) != np.asarray(other), _CellsDiffer)

    __hash__ = None  # (as numpy's: a mutable grid is no dictionary key)

    def __deepcopy__(self, memo: dict | None = None, /) -> Individual:
        return clone(self)

    def __reduce__(self):
        return (
            _rebuild,
            (
                type(self),
                np.asarray(self).tobytes(),
                self.dtype.str,
                type(self.fitness),
                self.fitness.wvalues,
                _attributes(self),
                getattr(self.fitness, "name", None),
            ),
        )

    def __array_wrap__(self, array: np.ndarray, context=None, return_scalar: bool = False):
        # Reductions and ufunc results (ind.max(), ind == other, ind + 1) are plain numbers and
        # arrays: they are values computed from a grid, not individuals with a fitness.
        return array[()] if return_scalar else np.asarray(array)

    def __repr__(self) -> str:
        if self.ndim != 1 or math.isqrt(self.size) ** 2 != self.size:
            return np.asarray(self).__repr__().replace("array", type(self).__name__, 1)
        side = math.isqrt(self.size)
        fitness = self.fitness.values if self.fitness.valid else "invalid"
        return f"<{type(self).__name__} {side}x{side}, fitness {fitness}>"

    def _repr_html_(self) -> str | None:
        """The bordered grid with its clashing cells marked, for notebooks (``show(ind, puzzle)``
        adds the puzzle's box shape and givens); None, so the plain ``repr`` shows, for an array
        that is no whole grid of a shape that boxes tile."""
        try:
            return show(self)._repr_html_()
        except ValueError:
            return None


class _Comparison(np.ndarray):
    """A cell-by-cell comparison of a grid individual; what is computed from it is plain numpy."""

    def __array_wrap__(self, array: np.ndarray, context=None, return_scalar: bool = False):
        return array[()] if return_scalar else np.asarray(array)


class _CellsEqual(_Comparison):
    """``ind == other`` cell by cell, which in an ``if`` asks whether the whole grids are equal:
    DEAP's ``HallOfFame`` and ``list.index`` ask ``if ind == other`` and get ``numpy.array_equal``
    instead of numpy's "truth value of an array is ambiguous"."""

    def __bool__(self) -> bool:
        return bool(np.all(self.view(np.ndarray)))


class _CellsDiffer(_Comparison):
    """``ind != other`` cell by cell, which in an ``if`` asks whether any cell differs."""

    def __bool__(self) -> bool:
        return bool(np.any(self.view(np.ndarray)))


def _compared(cells, kind: type[np.ndarray]):
    return cells.view(kind) if isinstance(cells, np.ndarray) else cells


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_TRUSTED: set = set()  # code objects of the package that write into individuals

_REFUSED_STOCK = {
    # DEAP operator: (why it cannot apply to a grid, the package's operators to use instead)
    "cxPartialyMatched": ("treats the individual as a permutation of 0..size-1", "cx_block_uniform or cx_bands"),
    "cxUniformPartialyMatched": ("treats the individual as a permutation of 0..size-1", "cx_block_uniform"),
    "cxOrdered": ("treats the individual as a permutation of 0..size-1", "cx_block_uniform or cx_row_uniform"),
    "cxMessyOnePoint": ("changes the individuals' lengths", "cx_band_two_point"),
    "cxBlend": ("writes real numbers", "cx_block_uniform or cx_cell_uniform"),
    "cxESBlend": ("writes real numbers", "cx_block_uniform"),
    "cxSimulatedBinary": ("writes real numbers", "cx_block_uniform"),
    "cxSimulatedBinaryBounded": ("writes real numbers", "cx_block_uniform"),
    "mutGaussian": ("writes real numbers", "mut_swap_in_box or mut_random_reset"),
    "mutPolynomialBounded": ("writes real numbers", "mut_swap_in_box or mut_random_reset"),
    "mutESLogNormal": ("writes real numbers", "mut_swap_in_box"),
    "mutFlipBit": ("flips bits, writing 0s and 1s", "mut_random_reset"),
}
"""DEAP's stock operators that a grid individual refuses at their first write, with a message naming
the package's equivalent (their results would be grids of wrong values, not Sudoku moves)."""
_REFUSED_CODE = {getattr(deap_tools, name).__code__: name for name in _REFUSED_STOCK if hasattr(deap_tools, name)}


def _refuse_stock(code) -> None:
    """Refuse a write by a DEAP operator of :data:`_REFUSED_STOCK` (``code`` is the writer's)."""
    name = _REFUSED_CODE.get(code)
    if name is not None:
        why, instead = _REFUSED_STOCK[name]
        raise TypeError(
            f"deap.tools.{name} does not apply to Sudoku grid individuals: it {why}; use deap_sudoku.tools.{instead}"
        )


def _check_values(individual: Individual, value) -> None:
    """Refuse values that would leave no grid: real numbers, or whole numbers outside 0..n."""
    values = np.asarray(value)
    if values.dtype.kind not in "biu":
        raise TypeError(
            f"a grid individual's cells hold whole numbers, not {values.dtype} ({value!r:.40}); "
            "DEAP's real-valued operators do not apply to grids"
        )
    side = math.isqrt(individual.size)
    if (
        individual.ndim == 1
        and side * side == individual.size
        and side >= MIN_SIDE
        and values.size
        and (values.min() < 0 or values.max() > side)
    ):
        bad = values[(values < 0) | (values > side)].flat[0]
        raise ValueError(f"a {side}x{side} grid individual's cells hold 0..{side}, not {int(bad)}")


class MaxIndividual(Individual):
    """A grid individual whose fitness is maximised."""

    fitness_class = FitnessMax


def individual_class(direction: float | Callable) -> type[Individual]:
    """The individual class for a fitness direction: :class:`Individual` (minimise) or :class:`MaxIndividual`.

    ``direction`` is a weight (negative: minimise) or a fitness function that carries
    DEAP ``weights``, such as ``eval_threats`` or a ``toolbox.register``-ed partial of one:
    ``individual_class(eval_threats)`` is :class:`MaxIndividual`.
    """
    if callable(direction):
        direction = fitness_weights(direction)[0]
    return Individual if direction < 0 else MaxIndividual


def clone(individual):
    """A copy with its own data, the same class, fitness class and values, and copies of every other
    attribute (``History``'s ``history_index``, an ES ``strategy``): DEAP's ``toolbox.clone``, about
    6x faster than ``copy.deepcopy`` for the package's individuals, and ``copy.deepcopy`` for others."""
    if not isinstance(individual, Individual):
        return copy.deepcopy(individual)
    twin = individual.copy()
    twin.fitness.wvalues = individual.fitness.wvalues
    name = getattr(individual.fitness, "name", None)
    if name is not None:  # the objective that scored it (``collisions``), which captions its picture
        twin.fitness.name = name
    if len(individual.__dict__) > 1:
        twin.__dict__.update(copy.deepcopy(_attributes(individual)))
    return twin


def _attributes(individual: Individual) -> dict:
    """What an individual carries besides its cells and fitness."""
    return {name: value for name, value in individual.__dict__.items() if name != "fitness"}


def _rebuild(
    cls: type[Individual],
    data: bytes,
    dtype: str,
    fitness_class: type[base.Fitness],
    wvalues: tuple,
    attributes: dict,
    name: str | None = None,  # (absent from pickles of older versions)
) -> Individual:
    individual = np.frombuffer(data, dtype=np.dtype(dtype)).copy().view(cls)
    individual.fitness = fitness_class()
    individual.fitness.wvalues = wvalues
    if name is not None:
        individual.fitness.name = name
    individual.__dict__.update(attributes)
    return individual


def _in_place(name: str) -> Callable:
    """numpy's in-place operator ``name`` (``__iadd__``, ...), returning the individual itself, as
    numpy's contract says, where the plain result would be an array without a fitness; a result that
    is no grid (outside 0..n) is refused before it is written."""
    operator = getattr(np.ndarray, name)

    def in_place(self, other):
        result = np.array(self.view(np.ndarray))
        operator(result, other)
        _check_values(self, result)
        np.copyto(self.view(np.ndarray), result)
        return self

    in_place.__name__ = name
    return in_place


for _name in (
    "__iadd__",
    "__isub__",
    "__imul__",
    "__itruediv__",
    "__ifloordiv__",
    "__imod__",
    "__ipow__",
    "__ilshift__",
    "__irshift__",
    "__iand__",
    "__ior__",
    "__ixor__",
):
    setattr(Individual, _name, _in_place(_name))


def _narrowed(values: np.ndarray) -> np.ndarray:
    """``values`` in the smallest unsigned dtype that holds them (uint8 up to 255), copied only if needed."""
    return values.astype(value_dtype(max(int(values.max(initial=0)), 1)), copy=False)


def _as_grid(individual: object, operator: str) -> np.ndarray:
    """A ``creator``-made list or ``array.array`` individual as a flat grid array, or a TypeError saying
    what is needed."""
    if not isinstance(individual, MutableSequence):
        raise TypeError(
            f"{operator} changes individuals in place: it needs a numpy array (deap_sudoku.Individual, "
            f"or a creator class based on numpy.ndarray), a list or an array.array, "
            f"not {type(individual).__name__}"
        )
    grid = np.array(individual)
    if grid.ndim != 1 or not np.issubdtype(grid.dtype, np.integer):
        raise TypeError(
            f"{operator} needs a flat grid of whole numbers, one per cell in row-major order; this "
            f"{type(individual).__name__} holds an array of shape {grid.shape} and dtype {grid.dtype}: "
            f"flatten it, e.g. creator.Individual(numpy.ravel(grid).tolist())"
        )
    return _narrowed(grid)


def write_back(individual: MutableSequence | np.ndarray, grid: np.ndarray) -> None:
    """Put the values of ``grid`` into an individual, in place: a numpy array, a list, or an
    ``array.array`` (DEAP's onemax type), whose slices take only arrays of its own type code."""
    if isinstance(individual, np.ndarray):
        individual[:] = grid
        return
    values = np.asarray(grid).tolist()
    if isinstance(individual, array.array):
        individual[:] = array.array(individual.typecode, values)
    else:
        individual[:] = values


def grid_operator(operator: Callable) -> Callable:
    """Let an operator written for numpy individuals take ``creator``-made list individuals too.

    Every positional argument is an individual.  Arrays go straight through; for
    lists the operator works on array copies and the values are written back into
    the lists, so DEAP's contract (change in place, return the individuals as a
    tuple) holds for both kinds.  Anything else gets a TypeError on the first call.
    """

    @wraps(operator)
    def on_grids(*individuals, **options):
        shape = getattr(options.get("puzzle"), "shape", None)
        if shape is not None:  # an operator that knows its puzzle: no kernel may index past a grid
            for number, individual in enumerate(individuals, start=1):
                if isinstance(individual, np.ndarray):
                    try:
                        shape.check_grid(individual)
                    except (TypeError, ValueError):  # again, to name the operator: only on the way out
                        shape.check_grid(individual, f"{operator.__name__}: individual {number}")
        for individual in individuals:
            if not isinstance(individual, np.ndarray):
                break
        else:
            return operator(*individuals, **options)
        grids = [_as_grid(individual, operator.__name__) for individual in individuals]
        operator(*grids, **options)
        for individual, grid in zip(individuals, grids):
            write_back(individual, grid)
        return tuple(individuals)

    return on_grids
