"""The numba twin of :func:`deap_sudoku.propagation.kernel.propagate_masks`.

Imported only when a compiled kernel is first asked for: importing numba
makes the Python heap about four times larger, which slows every later garbage
collection (measured: a plain eaSimple generation, 9.3 -> 13.1 ms), so users of
the pure-Python parts should not pay for it.  Compiled functions are cached on
disk (``cache=True``): the first run compiles them, later runs load them.
The building blocks are public so that other compiled kernels (the memetic
repair's rebuild) can call them from inside numba.
"""

from __future__ import annotations

import numpy as np

from ..grid.shape import Shape
from .choice import interrupted_kernel
from .tables import arrays
from .choice import load_numba
from .numba_cache import guard

numba = load_numba()  # an unloadable numba is one clear error (NumbaUnavailable), not a traceback

__all__ = [
    "Propagator",
    "propagate_arrays",
    "propagate_nb",
    "given_masks",
    "box_line_scratch",
    "eliminate",
    "mark_units",
    "popcount",
]


@numba.njit(cache=True)
def popcount(m):
    """Set bits of an ``int64`` read as 64 bits (value 64's bit is the sign bit), in constant time
    (the SWAR count: each arithmetic shift's copies of the sign bit are masked off)."""
    m = m - ((m >> 1) & 0x5555555555555555)
    m = (m & 0x3333333333333333) + ((m >> 2) & 0x3333333333333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (m * 0x0101010101010101) >> 56


@numba.njit(cache=True)
def mark_units(dirty, cell_units, cell):
    for k in range(cell_units.shape[1]):
        dirty[cell_units[cell, k]] = True


@numba.njit(cache=True)
def eliminate(cands, cell, mask, stack, top, dirty, cell_units):
    """Remove ``mask`` from ``cell``; returns the new stack top, or -1 when the cell is left empty."""
    m = cands[cell] & ~mask
    if m == 0:
        return -1
    cands[cell] = m
    mark_units(dirty, cell_units, cell)
    if (m & (m - 1)) == 0:
        stack[top] = cell
        top += 1
    return top


@numba.njit(cache=True)
def _segment_unions(cands, unions, base, twice_base, n, along, across, seg_len, group):
    """Each segment's candidates, line by line (line ``l``'s segment ``j`` at ``base + l * segs + j``),
    then per box the values two or more of its segments hold (at ``twice_base + g * segs + j`` for
    the ``g``-th group of ``group`` lines).  Cell ``p`` of line ``l`` is ``l * across + p * along``:
    rows have ``along`` 1 and ``across`` n, columns the other way round."""
    segs = n // seg_len
    for line in range(n):
        for j in range(segs):
            acc = 0
            for q in range(j * seg_len, (j + 1) * seg_len):
                acc |= cands[line * across + q * along]
            unions[base + line * segs + j] = acc
    for g in range(n // group):
        for j in range(segs):
            once = 0
            twice = 0
            for k in range(group):
                m = unions[base + (g * group + k) * segs + j]
                twice |= once & m
                once |= m
            unions[twice_base + g * segs + j] = twice


@numba.njit(cache=True)
def _confine(cands, unions, base, twice_base, n, along, across, seg_len, group, stack, top, dirty, cell_units):
    """Box-line reduction for the rows or the columns (laid out as in :func:`_segment_unions`);
    returns the stack top (-1 on a contradiction) and whether anything was eliminated.  A value
    in a segment that no other segment of its line holds, but another segment of its box does,
    leaves the rest of the box; one no other segment of its box holds leaves the rest of the line."""
    segs = n // seg_len
    changed = False
    for line in range(n):
        first = line - line % group
        once = 0
        twice = 0
        for j in range(segs):
            m = unions[base + line * segs + j]
            twice |= once & m
            once |= m
        for j in range(segs):
            box_twice = unions[twice_base + (line // group) * segs + j]
            here = unions[base + line * segs + j]
            to_box = here & ~twice & box_twice
            to_line = here & ~box_twice & twice
            if to_box:
                for other in range(first, first + group):
                    if other != line:
                        for q in range(j * seg_len, (j + 1) * seg_len):
                            cell = other * across + q * along
                            if cands[cell] & to_box:
                                top = eliminate(cands, cell, to_box, stack, top, dirty, cell_units)
                                if top < 0:
                                    return top, changed
                                changed = True
            if to_line:
                for q in range(n):
                    if q // seg_len != j:
                        cell = line * across + q * along
                        if cands[cell] & to_line:
                            top = eliminate(cands, cell, to_line, stack, top, dirty, cell_units)
                            if top < 0:
                                return top, changed
                            changed = True
    return top, changed


@numba.njit(cache=True)
def box_line_scratch(geometry):
    """Scratch space for :func:`_box_line` (its ``unions``): one mask per line-box segment, two per box."""
    h, w = geometry[0], geometry[1]
    return np.empty(h * w * (h + w + 2), dtype=np.int64)


@numba.njit(cache=True)
def _box_line(cands, unions, geometry, stack, top, dirty, cell_units):
    """One box-line reduction pass over every line-box segment, rows then columns, on the segment
    unions of the pass's start (eliminations only shrink them, so every rule found still holds);
    returns the stack top (-1 on a contradiction) and whether anything was eliminated.  ``unions``
    is :func:`box_line_scratch`, ``geometry`` the box shape ``(h, w)``."""
    h, w = geometry[0], geometry[1]
    n = h * w
    cols, row_twice = n * h, n * (h + w)
    col_twice = row_twice + n
    # typed int64, not the literals 0 and 1: numba compiles a helper once per literal it is called
    # with, and the rows' and columns' calls would compile each helper twice
    first, one = np.int64(0), np.int64(1)
    _segment_unions(cands, unions, first, row_twice, n, one, n, w, h)
    _segment_unions(cands, unions, cols, col_twice, n, n, one, h, w)
    top, by_rows = _confine(cands, unions, first, row_twice, n, one, n, w, h, stack, top, dirty, cell_units)
    if top < 0:
        return top, by_rows
    top, by_cols = _confine(cands, unions, cols, col_twice, n, n, one, h, w, stack, top, dirty, cell_units)
    return top, by_rows or by_cols


@numba.njit(cache=True)
def propagate_nb(cands, stack, top, dirty, scanning, unions, full, peers, units, cell_units, geometry, hidden, locked):
    """:func:`~deap_sudoku.propagation.kernel.propagate_masks` on arrays: ``stack[:top]`` is the queue,
    ``dirty`` the units to scan (a bool per unit), ``scanning`` and ``unions`` scratch space.  The
    same rules and the same fixed point; the box-line pass (:func:`_box_line`) finds its segments
    by arithmetic on ``geometry`` (box rows, box columns), not in the reference's order."""
    n = units.shape[1]
    while True:
        while top > 0:
            top -= 1
            cell = stack[top]
            mask = cands[cell]
            for j in range(peers.shape[1]):
                p = peers[cell, j]
                if p >= 0 and cands[p] & mask:
                    top = eliminate(cands, p, mask, stack, top, dirty, cell_units)
                    if top < 0:
                        return False
        if not hidden:
            return True
        # As propagate_masks: the units dirty now, in increasing order; units changed meanwhile wait
        # for the next pass.  A loop, not ``scanning[:] = dirty``: a slice assignment compiles numpy's
        # broadcasting and its error messages, 7 s of the 18 s the search's kernels took to compile.
        for u in range(dirty.shape[0]):
            scanning[u] = dirty[u]
            dirty[u] = False
        for u in range(units.shape[0]):
            if not scanning[u]:
                continue
            once = 0
            twice = 0
            for i in range(n):
                m = cands[units[u, i]]
                twice |= once & m
                once |= m
            if once != full:
                return False
            single = once & ~twice
            if single:
                for i in range(n):
                    c = units[u, i]
                    m = cands[c]
                    h = m & single
                    if h != 0 and h != m:
                        if h & (h - 1):
                            return False
                        cands[c] = h
                        mark_units(dirty, cell_units, c)
                        stack[top] = c
                        top += 1
        if top > 0:
            continue
        if not locked:
            return True
        top, changed = _box_line(cands, unions, geometry, stack, top, dirty, cell_units)
        if top < 0:
            return False
        if not changed:
            return True


@numba.njit(cache=True)
def given_masks(values, cands, stack, units, cell_units, full):
    """Candidate bitmasks of a puzzle's ``values`` (0: empty) with every given's value already
    removed from its units' empty cells, one pass per unit rather than one per given and peer; the
    cells this leaves decided go on ``stack``.  Returns the stack top, or -1 on a contradiction (a
    value given twice in a unit, or a cell left without candidates).  Propagating on from here
    reaches :func:`propagate_nb`'s fixed point from the givens: the same eliminations, made in
    another order, and a fixed point does not depend on it.
    """
    n = units.shape[1]
    taken = np.zeros(units.shape[0], dtype=np.int64)
    for u in range(units.shape[0]):
        acc = 0
        for i in range(n):
            v = values[units[u, i]]
            if v:
                bit = np.int64(1) << (v - 1)
                if acc & bit:
                    return -1
                acc |= bit
        taken[u] = acc
    top = 0
    for c in range(values.shape[0]):
        v = values[c]
        if v:
            cands[c] = np.int64(1) << (v - 1)
            continue
        m = full & ~(taken[cell_units[c, 0]] | taken[cell_units[c, 1]] | taken[cell_units[c, 2]])
        if m == 0:
            return -1
        cands[c] = m
        if (m & (m - 1)) == 0:
            stack[top] = c
            top += 1
    return top


class Propagator:
    """The compiled kernel for one shape and rule set, its tables and scratch space set up once, for
    callers that propagate again and again (exact search propagates at every node)."""

    def __init__(self, shape: Shape, *, hidden: bool = True, locked: bool = False) -> None:
        t = arrays(shape)
        self._n = shape.n
        self._tables = (t.full, *t.kernel_args(), hidden, locked)
        self._units, self._cell_units, self._full = t.units, t.cell_units, t.full
        self._stack = np.empty(2 * shape.cells + 1, dtype=np.int64)
        self._dirty = np.zeros(t.units.shape[0], dtype=np.bool_)
        self._scanning = np.zeros_like(self._dirty)
        self._unions = box_line_scratch(t.geometry)

    def run(self, cands: np.ndarray, queue, dirty: np.ndarray | None = None) -> bool:
        """Propagate the cells of ``queue`` through ``cands`` in place; ``dirty``: the units to scan
        for hidden singles (a bool per unit; all when not given)."""
        self._check_cands(cands)
        queued = np.asarray(list(queue))
        if queued.size and (not np.issubdtype(queued.dtype, np.integer) or queued.ndim != 1):
            raise TypeError(f"queue must hold cell indices (whole numbers), not {queued.dtype}")
        cells = cands.shape[0]
        if queued.size > cells or queued.size and (queued.min() < 0 or queued.max() >= cells):
            raise ValueError(f"queue must hold at most {cells} cell indices 0..{cells - 1}")
        if dirty is not None:
            dirty = np.asarray(dirty)
            if dirty.shape != self._dirty.shape:
                raise ValueError(f"dirty must be one flag per unit, shape {self._dirty.shape}, not {dirty.shape}")
        self._stack[: queued.shape[0]] = queued
        self._dirty[:] = True if dirty is None else dirty
        return self._propagate(cands, queued.shape[0])

    def _check_cands(self, cands: np.ndarray) -> None:
        """The compiled kernel indexes its tables by cell and bit: refuse what would read past them."""
        cells = self._n * self._n
        if (
            not isinstance(cands, np.ndarray)
            or cands.dtype != np.int64
            or cands.shape != (cells,)
            or not cands.flags.c_contiguous
            or not cands.flags.writeable
        ):
            raise TypeError(f"cands must be a writeable, contiguous int64 array of {cells} bitmasks")
        if self._n < 64 and (cands.min() < 0 or cands.max() >= 1 << self._n):  # at 64 every bit is a value
            raise ValueError(f"cands holds bits beyond the {self._n} values of the grid")

    def run_givens(self, values: np.ndarray) -> tuple[np.ndarray, bool]:
        """The candidate bitmasks of a puzzle's cell ``values`` (0: empty) propagated to a fixed
        point, and False on a contradiction: what :meth:`run` gives on the givens' masks with the
        givens queued, in a fraction of the time (an exact search's root)."""
        values = np.asarray(values)
        if (
            values.shape != (self._n * self._n,)
            or not np.issubdtype(values.dtype, np.integer)
            or values.size
            and (values.min() < 0 or values.max() > self._n)
        ):
            raise ValueError(f"values must be {self._n * self._n} whole numbers 0..{self._n}")
        cands = np.empty(values.shape[0], dtype=np.int64)
        try:
            top = given_masks(values.astype(np.int64), cands, self._stack, self._units, self._cell_units, self._full)
        except SystemError as error:
            interrupted_kernel(error)
        if top < 0:
            return cands, False
        self._dirty[:] = True
        return cands, self._propagate(cands, top)

    def run_cell(self, cands: np.ndarray, cell: int) -> bool:
        """Propagate the one cell just decided (a search node): only its units are scanned."""
        self._check_cands(cands)
        if not 0 <= cell < cands.shape[0]:
            raise ValueError(f"cell {cell} is outside 0..{cands.shape[0] - 1}")
        self._stack[0] = cell
        self._dirty[:] = False
        self._dirty[self._cell_units[cell]] = True
        return self._propagate(cands, 1)

    def scratch(self) -> tuple:
        """The arguments that follow the queue in compiled callers of ``propagate_nb`` (the exact
        search's loop): the stack, the unit flags, the tables and the rules."""
        return (self._stack, self._dirty, self._scanning, self._unions, *self._tables)

    def _propagate(self, cands: np.ndarray, top: int) -> bool:
        try:
            return bool(propagate_nb(cands, self._stack, top, self._dirty, self._scanning, self._unions, *self._tables))
        except SystemError as error:
            interrupted_kernel(error)


def propagate_arrays(
    cands: np.ndarray,
    queue,
    shape: Shape,
    *,
    hidden: bool = True,
    locked: bool = False,
    dirty: np.ndarray | None = None,
) -> bool:
    """Propagate the singletons in ``queue`` through the ``int64`` bitmasks ``cands`` in place.

    The same rules, fixed point and verdict as
    :func:`~deap_sudoku.propagation.kernel.propagate_masks` on the same
    inputs (a rule's eliminations are the same in any order, so a fixed point does not
    depend on it); ``dirty`` is a bool per unit (all units when not given).
    """
    return Propagator(shape, hidden=hidden, locked=locked).run(cands, queue, dirty)


guard(globals())  # numba's cache files sealed: a damaged one is compiled again, never loaded
