"""A pheromone matrix over (cell, value) and the ants that read it: the parts of an ant colony
system for Sudoku (Lloyd & Amos, IEEE Trans. Games 2019), usable in a colony of your own.

:class:`Pheromone` holds ``tau0`` on every (cell, value) to begin with.  :meth:`Pheromone.colony`
builds a colony's grids, DEAP individuals like any population's: each ant walks every cell once
from a random start, takes a value for each open cell (greedy or by roulette over the pheromone,
``q0``), propagates it (naked and hidden singles, as the authors' solver does), and leaves an
empty cell (0) where propagation left no value: a *failed* cell.  A grid's fitness under
:func:`~deap_sudoku.tools.eval_collisions` is then its failed cells, since placements never
clash, and 0 means solved.  Each placement decays its pheromone towards ``tau0`` (the local
update); :meth:`Pheromone.deposit` is the global update a colony makes with its best grid.

The construction runs on a compiled kernel where numba pays (the same results as its Python
twin, :mod:`~deap_sudoku.tools.ant_colony_kernel`): see :mod:`deap_sudoku.propagation.choice`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

import numpy as np

from ..grid.puzzle import Puzzle
from ..propagation.choice import charged, check_compiled, interrupted_kernel, prefer_compiled
from . import ant_colony_kernel as kernel

__all__ = ["Pheromone", "DrawStream", "GREEDY_RULES", "POLL_STEPS", "PRECISIONS"]

POLL_STEPS = 4
"""How many steps of a colony the Python twin takes between two polls."""

GREEDY_RULES = ("code", "paper")
"""When an ant takes the greedy choice: ``"code"``, when a uniform draw is *above* ``q0`` (with
probability ``1 - q0``, as the authors' released solver does), or ``"paper"``, with probability
``q0`` (the rule as the paper states it): when the draw is above ``1 - q0``, which is the
released solver run with ``--q0`` set to ``1 - q0``, draw for draw."""

PRECISIONS = ("float32", "float64")
"""The floating-point type a colony computes in: ``"float32"``, as the authors' solver does (its
pheromone, ``tau0``, both updates, the best value and the roulette's sums are C++ ``float``; its
draws are ``float`` uniforms), or ``"float64"``."""


class DrawStream:
    """A recorded stream of uniform draws in [0, 1) that a colony takes in place of its generator
    (the ``rng`` of :meth:`Pheromone.colony` and of the ``acs`` recipe), draw for draw in the order
    the authors' solver draws: each iteration, one draw per ant for its start cell
    (``int(u * cells)``, in float64), then, as the ants step, one draw per open cell and a second
    for a roulette.  A colony takes the draws at its precision (``float32``: give values a float32
    holds, such as :meth:`from_seed` makes).  ``benchmarks/acs_replay.py`` feeds the same stream
    to the authors' solver, patched, and compares the two colony by colony.

    ``getstate()`` / ``setstate()`` are the position in the stream, so that a checkpointed run
    resumes from where it was."""

    def __init__(self, values) -> None:
        values = np.asarray(values, dtype=np.float64)
        if values.ndim != 1 or not ((values >= 0) & (values < 1)).all():
            raise ValueError("a stream of draws is a flat sequence of numbers in [0, 1)")
        self.values = values
        self.position = 0

    @classmethod
    def from_seed(cls, seed: int, count: int) -> DrawStream:
        """``count`` float32 uniforms of numpy's generator seeded with ``seed`` (as float64)."""
        return cls(np.random.default_rng(seed).random(count, dtype=np.float32).astype(np.float64))

    def take(self, count: int) -> np.ndarray:
        """The next ``count`` draws (fewer at the end of the stream), and the position past them."""
        taken = self.values[self.position : self.position + count]
        self.position += taken.size
        return taken

    def integers(self, high: int, count: int) -> np.ndarray:
        """``count`` whole numbers ``int(u * high)``, one draw each: a start cell when ``high`` is
        the cells.

        :raises IndexError: when the stream holds fewer than ``count`` draws more."""
        taken = self.take(count)
        if taken.size < count:
            raise IndexError("the colony's stream of draws ran out")
        return (taken * high).astype(np.int64)

    def getstate(self) -> int:
        return self.position

    def setstate(self, state: int) -> None:
        self.position = int(state)


@functools.lru_cache(maxsize=16)
def _layout(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The kernel's tables for ``puzzle``: each cell's peers in the order propagation visits them
    (box, column and row cells alternately, itself included), the units, each cell's row, column
    and box unit, and the mask of all values."""
    shape = puzzle.shape
    n = shape.n
    units = shape.units.astype(np.int64)
    cell_units = shape.cell_units.astype(np.int64)
    rows, cols, boxes = units[cell_units[:, 0]], units[cell_units[:, 1]], units[cell_units[:, 2]]
    order = np.stack([boxes, cols, rows], axis=2).reshape(shape.cells, 3 * n)
    for array in (order, units, cell_units):
        array.flags.writeable = False
    return order, units, cell_units, (1 << n) - 1


class _Givens:
    """The givens of a puzzle fixed and propagated in cell order (:func:`~.ant_colony_kernel.fix_givens`)
    by the ``compiled`` twin or the Python one, one given at a time on the Python twin when asked to
    stop between them (a 36x36 takes it seconds): the candidates so far and the first cell not
    reached, kept for the puzzle (:func:`_givens`), so that a propagation stopped goes on where it
    stopped at the next call."""

    def __init__(self, puzzle: Puzzle, compiled: bool) -> None:
        self.puzzle, self.compiled = puzzle, compiled
        self.givens = puzzle.cells.astype(np.int64)
        self.state = (np.full(self.givens.size, _layout(puzzle)[3], dtype=np.int64), 0)
        """The candidates and the first cell whose given is not fixed yet, replaced together."""

    def advance(self, until: Callable[[], bool] | None = None) -> tuple[np.ndarray, int]:
        """Fix the givens not fixed yet, asking ``until()`` between two givens on the Python twin
        (the compiled one fixes them all in one call, milliseconds on a 36x36): once it answers true,
        stop there.  An exception it raises passes on, the givens fixed kept.  Returns the
        candidates (read-only once every given is fixed) and the first cell not reached (every
        cell: done)."""
        domains, reached = self.state
        cells = self.givens.size
        if reached == cells:
            return domains, reached
        if self.compiled or until is None:
            ends = [cells]
        else:  # a chunk of cells ends with each given
            ends = [int(cell) + 1 for cell in np.flatnonzero(self.givens[reached:]) + reached]
            ends += [cells] if not ends or ends[-1] < cells else []
        for chunk, last in enumerate(ends):
            if chunk and until is not None and until():
                break
            done = domains.copy()  # a chunk broken off (Ctrl-C inside the Python twin) leaves no half of it
            _run(self.compiled, "fix_givens", done, self.givens, reached, last, *_layout(self.puzzle))
            done.flags.writeable = last < cells
            domains, reached = self.state = done, last
        return domains, reached


@functools.lru_cache(maxsize=16)
def _givens(puzzle: Puzzle, compiled: bool) -> _Givens:
    """The propagation of ``puzzle``'s givens by the ``compiled`` twin or the Python one (the same
    candidates), kept for the puzzle."""
    return _Givens(puzzle, compiled)


def _run(compiled: bool, name: str, *args):
    """Call the kernel function ``name``, compiled or in Python (its time then charged)."""
    if compiled:
        from . import ant_colony_compiled

        try:
            return getattr(ant_colony_compiled, name)(*args)
        except SystemError as error:
            interrupted_kernel(error)
    with charged():
        return getattr(kernel, name)(*args)


class Pheromone:
    """The pheromone on each (cell, value) of ``puzzle``, ``tau0`` everywhere to begin with
    (default ``1 / cells``, the authors' choice), and the colony it guides.

    ``local_evaporation`` (``xi``) is the local update's rate: each value an ant places decays
    its pheromone to ``(1 - xi) * tau + xi * tau0``.  ``precision`` (:data:`PRECISIONS`) is the
    type of :attr:`matrix` and of every sum and product over it: ``"float32"`` as the authors'
    solver computes (a placed value's ``0.9 tau0 + 0.1 tau0`` then falls one rounding step below
    ``tau0`` at 81 and 625 cells, and loses greedy ties to the values no ant tried), or
    ``"float64"``.  ``compiled`` chooses the construction kernel's twin: ``True`` numba,
    ``False`` Python, ``None`` whichever pays; the same results."""

    def __init__(
        self,
        puzzle: Puzzle,
        *,
        tau0: float | None = None,
        local_evaporation: float = 0.1,
        precision: str = "float32",
        compiled: bool | None = None,
    ) -> None:
        check_compiled(compiled, puzzle.n)
        if not 0 <= local_evaporation <= 1:
            raise ValueError(f"local_evaporation is a rate 0..1, not {local_evaporation!r}")
        if precision not in PRECISIONS:
            raise ValueError(f"precision is one of {PRECISIONS}, not {precision!r}")
        self.puzzle = puzzle
        self.precision = precision
        real = np.dtype(precision).type
        self.tau0 = float(real(1) / real(puzzle.shape.cells) if tau0 is None else real(tau0))
        if not self.tau0 > 0:
            raise ValueError(f"tau0 must be positive, not {tau0!r}")
        self.local_evaporation = float(local_evaporation)
        self.compiled = compiled
        self.matrix = np.full((puzzle.shape.cells, puzzle.n), self.tau0, dtype=precision)
        """``matrix[cell, value - 1]``: the pheromone on ``value`` in ``cell``."""

    def _compiled(self) -> bool:
        shape = self.puzzle.shape
        return prefer_compiled(shape.cells, shape.n) if self.compiled is None else self.compiled

    def _givens(self) -> _Givens:
        return _givens(self.puzzle, self._compiled())

    @property
    def domains(self) -> np.ndarray:
        """Each cell's candidates (bit ``v - 1`` for value ``v``) once the givens are propagated:
        where every ant starts from."""
        return self._givens().advance()[0]

    def start(self, icls: Callable, *, until: Callable[[], bool] | None = None):
        """The grid every ant starts from as an ``icls`` individual: the givens propagated, the
        cells propagation leaves open 0 (the released solver's "initial constrained grid", which
        is the solution of a puzzle that propagation solves).

        ``until()`` is asked between two givens while the Python twin propagates them (a 36x36 takes
        it seconds; the compiled twin, ms, is not asked): once it answers true, the propagation
        stops there (the next call, or :meth:`colony`, goes on from it) and the grid is the givens
        propagated so far, with the givens not reached yet written in unpropagated."""
        domains, reached = self._givens().advance(until)
        givens = self.puzzle.cells.astype(np.int64)
        if reached < givens.size:
            domains = domains.copy()
            fixed = (domains != 0) & ((domains & (domains - 1)) == 0)
            rest = (np.arange(givens.size) >= reached) & (givens > 0) & ~fixed  # as fix_givens would set them
            domains[rest] = np.left_shift(1, givens[rest] - 1)
        grids = np.empty((1, givens.size), dtype=np.int64)
        kernel.values(domains[None, :], grids)
        return icls(grids[0].astype(self.puzzle.cells.dtype))

    def colony(
        self,
        icls: Callable,
        *,
        ants: int = 10,
        q0: float = 0.9,
        greedy: str = "code",
        rng: random.Random | DrawStream,
        poll: Callable[[], None] | None = None,
    ) -> list:
        """Build ``ants`` grids as ``icls`` individuals (fitness not set), the ants stepping in turn,
        each from a cell drawn from ``rng``; the local update changes :attr:`matrix` as they go.
        ``rng`` seeds a numpy generator for the colony, or is a :class:`DrawStream` the colony
        draws from in turn as the authors' solver does.  See :data:`GREEDY_RULES` for ``greedy``.
        ``poll()`` is called every few steps while the Python twin builds (a 25x25 colony takes it
        a second or more; the compiled one, ms), and between two givens while it propagates those
        :meth:`start` left unpropagated: an exception it raises, a stop, leaves the colony unbuilt."""
        if greedy not in GREEDY_RULES:
            raise ValueError(f"greedy is one of {GREEDY_RULES}, not {greedy!r}")
        if isinstance(ants, bool) or not isinstance(ants, int) or ants < 1:
            raise ValueError(f"a colony has a whole number of ants, at least 1, not {ants!r}")
        if not 0 <= q0 <= 1:
            raise ValueError(f"q0 is a probability 0..1, not {q0!r}")
        cells = self.puzzle.shape.cells
        domains = self.domains if poll is None else self._givens().advance(lambda: bool(poll()))[0]
        real = self.matrix.dtype.type
        stream = rng if isinstance(rng, DrawStream) else None
        sequential = stream is not None
        start = 0
        if stream is not None:
            position = stream.integers(cells, ants)
            start = stream.position
            uniform = stream.values[start : start + 2 * ants * cells].astype(self.matrix.dtype)
        else:
            assert isinstance(rng, random.Random)
            draws = np.random.default_rng(rng.getrandbits(64))
            position = draws.integers(0, cells, ants).astype(np.int64)
            uniform = draws.random((ants, cells, 2), dtype=self.matrix.dtype).reshape(-1)
        cursor = np.zeros(1, dtype=np.int64)
        xi = self.local_evaporation
        threshold = real(q0) if greedy == "code" else real(1.0 - q0)  # the solver run with --q0 1-q0
        constants = np.array([self.tau0, 1.0 - xi, xi, threshold, 0.0], dtype=self.matrix.dtype)
        boards = np.tile(domains, (ants, 1))
        tables = (self.matrix, constants, uniform, cursor, sequential, *_layout(self.puzzle))
        compiled = self._compiled()
        chunk = cells if compiled or poll is None else POLL_STEPS
        try:
            for first in range(0, cells, chunk):
                if first and poll is not None:
                    poll()
                _run(compiled, "steps", boards, position, first, min(first + chunk, cells), *tables)
        finally:
            if stream is not None:
                stream.position = start + int(cursor[0])
        grids = np.empty_like(boards)
        _run(compiled, "values", boards, grids)
        dtype = self.puzzle.cells.dtype
        return [icls(grid.astype(dtype)) for grid in grids]

    def deposit(self, grid: np.ndarray, amount: float, *, rho: float = 0.9) -> None:
        """The global update: each value ``grid`` holds (0, a failed cell, holds none) moves its
        pheromone to ``tau * (1 - rho) + rho * amount``, at the matrix's precision (``1 - rho``
        too, as the authors' ``1.0f - rho``)."""
        if not 0 <= rho <= 1:
            raise ValueError(f"rho is a rate 0..1, not {rho!r}")
        real = self.matrix.dtype.type
        values = np.asarray(grid, dtype=np.int64)
        cells = np.flatnonzero(values)
        chosen = self.matrix[cells, values[cells] - 1]
        self.matrix[cells, values[cells] - 1] = chosen * (real(1) - real(rho)) + real(rho) * real(amount)
