"""Constraint propagation on candidate bitmasks: the pure-Python reference kernel.

Candidates are one integer bitmask per cell (bit ``v - 1`` for value ``v``),
so any side up to :data:`~deap_sudoku.grid.shape.MAX_SIDE` works.  The rules
follow Norvig's "Solving Every Sudoku Puzzle": a cell left with one candidate
takes it and removes it from its peers (naked single), and a value with one
place left in a unit goes there (hidden single); box-line reduction (a value
confined to one line-box intersection) is optional.  Exact search, the
initialisers and the memetic repair all stand on :func:`propagate_masks`; its
compiled twin (:mod:`deap_sudoku.propagation.kernel_compiled`) applies the same rules
and reaches the same fixed point and verdict, which the tests check.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..grid.conflicts import value_dtype
from ..grid.puzzle import Puzzle, require
from .tables import Tables, tables

__all__ = ["Propagation", "propagate", "initial_masks", "propagate_masks", "mask_values", "mask_sets"]


def initial_masks(puzzle: Puzzle) -> tuple[list[int], list[int]]:
    """The candidate bitmasks of the givens alone (a given: its bit; an empty cell: every value),
    and the given cells, which are the queue of singletons to propagate."""
    require(puzzle, Puzzle, "puzzle")
    full = (1 << puzzle.n) - 1
    cells = puzzle.cells.tolist()
    return [1 << (v - 1) if v else full for v in cells], [i for i, v in enumerate(cells) if v]


def propagate_masks(
    cands: list[int],
    queue: list[int],
    t: Tables,
    *,
    hidden: bool = True,
    locked: bool = False,
    dirty: set[int] | None = None,
) -> bool:
    """Propagate the singletons in ``queue`` through ``cands`` in place; False on a contradiction.

    Naked singles always, hidden singles with ``hidden``, box-line reduction
    with ``locked``, to a fixed point.  ``dirty`` holds the units whose cells
    changed since ``cands`` was last at a fixed point (all units when not
    given); only those are scanned for hidden singles, in increasing order
    (as the compiled twin does), which keeps a search node
    cheap on large grids.  ``queue`` and ``dirty`` are consumed.
    """
    if not isinstance(t, Tables):
        raise TypeError(
            f"t must be the Tables of the grid's shape (deap_sudoku.propagation.tables(shape)), not {type(t).__name__}"
        )
    if len(cands) != len(t.peers):
        raise ValueError(f"cands has {len(cands)} bitmasks; a {t.n}x{t.n} grid has {len(t.peers)} cells")
    peers, cell_units = t.peers, t.cell_units
    if dirty is None:
        dirty = set(range(len(t.units)))
    while True:
        while queue:
            cell = queue.pop()
            mask = cands[cell]
            keep = ~mask
            for p in peers[cell]:
                pm = cands[p]
                if pm & mask:
                    pm &= keep
                    if not pm:
                        return False
                    cands[p] = pm
                    dirty.update(cell_units[p])
                    if not pm & (pm - 1):
                        queue.append(p)
        if not hidden:
            return True
        full, units = t.full, t.units
        scan = sorted(dirty)
        dirty.clear()
        for u in scan:
            unit = units[u]
            once = twice = 0
            for c in unit:
                m = cands[c]
                twice |= once & m
                once |= m
            if once != full:
                return False
            single = once & ~twice
            if single:
                for c in unit:
                    m = cands[c]
                    h = m & single
                    if h and h != m:
                        if h & (h - 1):
                            return False  # one cell is the only place for two values
                        cands[c] = h
                        dirty.update(cell_units[c])
                        queue.append(c)
        if queue:
            continue
        if not locked:
            return True
        changed = _box_line_reduction(cands, queue, dirty, t)
        if changed is None:
            return False
        if not changed:
            return True


def _box_line_reduction(cands: list[int], queue: list[int], dirty: set[int], t: Tables) -> bool | None:
    """A value confined to one line-box intersection within the line (or the box) is removed from
    the rest of the box (or the line).  New singletons go to ``queue``.

    Returns whether anything changed, or ``None`` on a contradiction.
    """
    unions = _segment_unions(cands, t.segments)
    changed = False
    for s, line_segs, box_segs, line_rest, box_rest in t.intersections:
        here = unions[s]
        in_line = in_box = 0
        for i in line_segs:
            in_line |= unions[i]
        for i in box_segs:
            in_box |= unions[i]
        for confined, rest in ((here & ~in_line & in_box, box_rest), (here & ~in_box & in_line, line_rest)):
            if confined:
                removed = _remove(cands, confined, rest, queue, dirty, t.cell_units)
                if removed is None:
                    return None
                changed = changed or removed
    return changed


def _segment_unions(cands: list[int], segments) -> list[int]:
    """The candidates of each line-box segment's cells together, on the pass's start (eliminations
    only shrink them, so every rule found on them still holds)."""
    unions = []
    for seg in segments:
        u = 0
        for c in seg:
            u |= cands[c]
        unions.append(u)
    return unions


def _remove(cands: list[int], confined: int, rest, queue: list[int], dirty: set[int], cell_units) -> bool | None:
    """Remove the ``confined`` values from the ``rest`` cells, as a naked single does from its peers:
    whether any cell changed, or ``None`` when one is left empty."""
    keep = ~confined
    changed = False
    for c in rest:
        m = cands[c]
        if m & confined:
            m &= keep
            if not m:
                return None
            cands[c] = m
            dirty.update(cell_units[c])
            changed = True
            if not m & (m - 1):
                queue.append(c)
    return changed


def mask_values(cands: list[int] | np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The value of every decided cell (one candidate left), 0 elsewhere; ``cands`` is a list of
    Python ints or an ``int64`` array (the compiled kernels' form, converted without a loop: a
    single bit ``1 << (v - 1)`` has ``v - 1`` bits below it)."""
    if isinstance(cands, np.ndarray):
        bits = cands.astype(np.uint64)  # the same 64 bits: value 64's bit makes an int64 negative
        return np.where(np.bitwise_count(bits) == 1, np.bitwise_count(bits - np.uint64(1)) + 1, 0).astype(dtype)
    return np.fromiter((m.bit_length() if m and not m & (m - 1) else 0 for m in cands), dtype=dtype, count=len(cands))


def mask_sets(cands) -> tuple[frozenset[int], ...]:
    """The candidates of every cell as a set of values: a readable view of the bitmasks."""
    return tuple(frozenset(v + 1 for v in range(int(m).bit_length()) if int(m) >> v & 1) for m in cands)


@dataclass(frozen=True)
class Propagation:
    """What constraint propagation alone deduced from a puzzle.

    ``values`` holds every cell that propagation fixed (the givens included),
    ``0`` elsewhere; ``masks`` the candidate bitmasks left for each cell (bit
    ``v - 1`` for value ``v``), and :attr:`candidates` the same as sets.  On a
    ``contradiction`` (a cell or a unit without a possible value) the other
    fields describe the state where it was found.
    """

    puzzle: Puzzle
    values: np.ndarray
    masks: tuple[int, ...]
    contradiction: bool

    @property
    def candidates(self) -> tuple[frozenset[int], ...]:
        """The values still possible for each cell."""
        return mask_sets(self.masks)

    @property
    def solved(self) -> bool:
        return not self.contradiction and bool(np.all(self.values))

    @property
    def filled(self) -> int:
        """How many empty cells propagation filled."""
        return int(np.count_nonzero(self.values)) - self.puzzle.num_givens


def propagate(puzzle: Puzzle, *, hidden_singles: bool = True, locked_candidates: bool = False) -> Propagation:
    """Fill every cell that logic alone forces, without guessing.

    With ``hidden_singles=False`` this is the classic "constraint analyzer":
    naked singles repeated to a fixed point.
    """
    require(puzzle, Puzzle, "puzzle")
    t = tables(puzzle.shape)
    cands, queue = initial_masks(puzzle)
    ok = propagate_masks(cands, queue, t, hidden=hidden_singles, locked=locked_candidates)
    return Propagation(puzzle, mask_values(cands, value_dtype(t.n)), tuple(cands), not ok)
