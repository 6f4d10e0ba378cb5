"""The rebuild at the heart of propagation repair, twice: a pure-Python reference and a numba kernel.

Both take the same inputs, random choices included (drawn beforehand by
:meth:`Draws.new`), and return the same grid, which the tests check; the
compiled one is what the memetic GA runs (``benchmarks/repair_kernel.py``
measures the difference).  Candidates are bitmasks, bit ``v - 1`` for value
``v``, as in :mod:`deap_sudoku.solvers`, whose propagation rules (naked and
hidden singles, box-line reduction) the kernel repeats.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numba
import numpy as np

from .shape import Shape
from .solvers import _context, _propagate

__all__ = ["Tables", "tables", "Draws", "rebuild_reference", "rebuild_compiled", "fill_boxes"]


@dataclass(frozen=True)
class Tables:
    """A shape's tables as padded int64 arrays (-1 pads), the form the kernel indexes."""

    n: int
    peers: np.ndarray        # (cells, peers)
    units: np.ndarray        # (3n, n)
    cell_units: np.ndarray   # (cells, 3)
    segments: np.ndarray     # (line-box intersections, longest), with segment_len
    segment_len: np.ndarray
    line_segs: np.ndarray    # the line's other segments, per segment
    box_segs: np.ndarray     # the box's other segments, per segment
    line_rest: np.ndarray    # the line's cells outside the segment
    box_rest: np.ndarray     # the box's cells outside the segment


def _padded(rows) -> np.ndarray:
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), max(width, 1)), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


@functools.lru_cache(maxsize=None)
def tables(shape: Shape) -> Tables:
    ctx = _context(shape)
    parts = list(zip(*ctx.intersections))
    return Tables(ctx.n, _padded(ctx.peers), _padded(ctx.units), _padded(ctx.cell_units), _padded(ctx.segments),
                  np.array([len(s) for s in ctx.segments], dtype=np.int64), *(_padded(p) for p in parts[1:]))


@dataclass(frozen=True)
class Draws:
    """The random choices of one rebuild: the order in which equally constrained cells are taken
    (a permutation of the open cells), a rank per cell and value (lower is tried first) and, per
    cell, whether to ignore the individual's own value."""

    order: np.ndarray
    ranks: np.ndarray
    ignore: np.ndarray

    @classmethod
    def new(cls, rng: np.random.Generator, open_cells: np.ndarray, cells: int, n: int, noise: float) -> Draws:
        return cls(rng.permutation(open_cells), rng.random((cells, n)),
                   rng.random(cells) < noise if noise > 0 else np.zeros(cells, dtype=bool))


def _choices(mask: int, n: int, ranks: list[float], preferred: int, ignore: bool) -> list[int]:
    values = sorted((v for v in range(1, n + 1) if mask >> (v - 1) & 1), key=lambda v: ranks[v - 1])
    if not ignore and preferred in values:
        values.remove(preferred)
        values.insert(0, preferred)
    return values


def rebuild_reference(root: list[int], values: list[int], keep: list[int], draws: Draws, shape: Shape,
                      locked: bool = True) -> tuple[list[int], int]:
    """Rebuild a grid under propagation; the pure-Python specification of :func:`rebuild_compiled`.

    The ``keep`` cells are fixed to ``values`` first in one propagation (all
    dropped if that contradicts).  Then, until every cell is decided, the most
    constrained open cell (first in ``draws.order`` among equals) takes the
    first value in its order (its own ``values[cell]`` first unless
    ``draws.ignore``, then by ``draws.ranks``) that propagation accepts; if
    none does, the cell *fails*: it takes the first value unpropagated (a
    collision) and its undecided peers lose that value.  Nothing is undone.
    Returns the values (0 where a cell lost every candidate) and the failures.
    """
    ctx = _context(shape)
    n = ctx.n
    cands = list(root)
    if keep:
        queue = []
        for c in keep:
            bit = 1 << (values[c] - 1)
            if cands[c] & bit and cands[c] != bit:
                cands[c] = bit
                queue.append(c)
        if not _propagate(cands, queue, ctx, True, locked, {u for c in queue for u in ctx.cell_units[c]}):
            cands = list(root)
    ranks, ignore = draws.ranks.tolist(), draws.ignore.tolist()
    open_cells = draws.order.tolist()
    failed = 0
    while True:
        open_cells = [c for c in open_cells if cands[c] & (cands[c] - 1)]
        if not open_cells:
            break
        cell = min(open_cells, key=lambda c: cands[c].bit_count())
        choices = _choices(cands[cell], n, ranks[cell], values[cell], ignore[cell])
        for v in choices:
            trial = cands.copy()
            trial[cell] = 1 << (v - 1)
            if _propagate(trial, [cell], ctx, True, locked, set(ctx.cell_units[cell])):
                cands = trial
                break
        else:
            failed += 1
            bit = 1 << (choices[0] - 1)
            cands[cell] = bit
            for p in ctx.peers[cell]:
                if cands[p] & bit and cands[p] & (cands[p] - 1):
                    cands[p] &= ~bit
    return [m.bit_length() if m and not m & (m - 1) else 0 for m in cands], failed


# -- the compiled twin ----------------------------------------------------------------

@numba.njit(cache=True)
def _popcount(m):
    count = 0
    while m:
        m &= m - 1
        count += 1
    return count


@numba.njit(cache=True)
def _mark(dirty, cell_units, cell):
    for k in range(cell_units.shape[1]):
        dirty[cell_units[cell, k]] = True


@numba.njit(cache=True)
def _eliminate(cands, cell, mask, stack, top, dirty, cell_units):
    """Remove ``mask`` from ``cell``; returns the new stack top, or -1 when the cell is left empty."""
    m = cands[cell] & ~mask
    if m == 0:
        return -1
    cands[cell] = m
    _mark(dirty, cell_units, cell)
    if (m & (m - 1)) == 0:
        stack[top] = cell
        top += 1
    return top


@numba.njit(cache=True)
def _propagate_nb(cands, stack, top, dirty, unions, full, peers, units, cell_units, segments, segment_len,
                  line_segs, box_segs, line_rest, box_rest, locked):
    n = units.shape[1]
    while True:
        while top > 0:
            top -= 1
            cell = stack[top]
            mask = cands[cell]
            for j in range(peers.shape[1]):
                p = peers[cell, j]
                if p >= 0 and cands[p] & mask:
                    top = _eliminate(cands, p, mask, stack, top, dirty, cell_units)
                    if top < 0:
                        return False
        for u in range(units.shape[0]):
            if not dirty[u]:
                continue
            dirty[u] = False
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
                        _mark(dirty, cell_units, c)
                        stack[top] = c
                        top += 1
        if top > 0:
            continue
        if not locked:
            return True
        for s in range(segments.shape[0]):
            acc = 0
            for i in range(segment_len[s]):
                acc |= cands[segments[s, i]]
            unions[s] = acc
        changed = False
        for s in range(segments.shape[0]):
            in_line = 0
            in_box = 0
            for i in range(line_segs.shape[1]):
                if line_segs[s, i] >= 0:
                    in_line |= unions[line_segs[s, i]]
            for i in range(box_segs.shape[1]):
                if box_segs[s, i] >= 0:
                    in_box |= unions[box_segs[s, i]]
            for side in range(2):
                if side == 0:
                    confined = unions[s] & ~in_line & in_box
                    rest = box_rest[s]
                else:
                    confined = unions[s] & ~in_box & in_line
                    rest = line_rest[s]
                if confined:
                    for i in range(rest.shape[0]):
                        c = rest[i]
                        if c >= 0 and cands[c] & confined:
                            top = _eliminate(cands, c, confined, stack, top, dirty, cell_units)
                            if top < 0:
                                return False
                            changed = True
        if not changed:
            return True


@numba.njit(cache=True)
def _rebuild_nb(root, values, keep, order, ranks, ignore, full, peers, units, cell_units, segments, segment_len,
                line_segs, box_segs, line_rest, box_rest, locked):
    cells = root.shape[0]
    n = units.shape[1]
    stack = np.empty(2 * cells + 1, dtype=np.int64)
    dirty = np.zeros(units.shape[0], dtype=np.bool_)
    unions = np.empty(segments.shape[0], dtype=np.int64)
    cands = root.copy()
    top = 0
    for c in keep:
        bit = np.int64(1) << (values[c] - 1)
        if cands[c] & bit and cands[c] != bit:
            cands[c] = bit
            stack[top] = c
            top += 1
            _mark(dirty, cell_units, c)
    if top > 0 and not _propagate_nb(cands, stack, top, dirty, unions, full, peers, units, cell_units, segments,
                                     segment_len, line_segs, box_segs, line_rest, box_rest, locked):
        cands[:] = root
    open_cells = order.copy()
    n_open = open_cells.shape[0]
    trial = np.empty_like(cands)
    choices = np.empty(n, dtype=np.int64)
    failed = 0
    while True:
        best = -1
        fewest = n + 1
        kept = 0
        for i in range(n_open):
            c = open_cells[i]
            m = cands[c]
            if m & (m - 1):
                open_cells[kept] = c
                kept += 1
                count = _popcount(m)
                if count < fewest:
                    fewest = count
                    best = c
        n_open = kept
        if best < 0:
            break
        m = cands[best]
        count = 0
        for v in range(1, n + 1):
            if (m >> (v - 1)) & 1:
                j = count  # insertion sort by rank: ties keep value order, like Python's sorted
                while j > 0 and ranks[best, choices[j - 1] - 1] > ranks[best, v - 1]:
                    choices[j] = choices[j - 1]
                    j -= 1
                choices[j] = v
                count += 1
        preferred = values[best]
        if not ignore[best] and preferred > 0 and (m >> (preferred - 1)) & 1:
            j = 0
            while choices[j] != preferred:
                j += 1
            while j > 0:
                choices[j] = choices[j - 1]
                j -= 1
            choices[0] = preferred
        placed = False
        for i in range(count):
            trial[:] = cands
            trial[best] = np.int64(1) << (choices[i] - 1)
            dirty[:] = False
            _mark(dirty, cell_units, best)
            stack[0] = best
            if _propagate_nb(trial, stack, 1, dirty, unions, full, peers, units, cell_units, segments, segment_len,
                             line_segs, box_segs, line_rest, box_rest, locked):
                cands, trial = trial, cands
                placed = True
                break
        if not placed:
            failed += 1
            bit = np.int64(1) << (choices[0] - 1)
            cands[best] = bit
            for j in range(peers.shape[1]):
                p = peers[best, j]
                if p >= 0 and cands[p] & bit and cands[p] & (cands[p] - 1):
                    cands[p] &= ~bit
    out = np.zeros(cells, dtype=np.int64)
    for c in range(cells):
        m = cands[c]
        if m != 0 and (m & (m - 1)) == 0:
            v = 0
            while m:
                m >>= 1
                v += 1
            out[c] = v
    return out, failed


def rebuild_compiled(root: np.ndarray, values: np.ndarray, keep: np.ndarray, draws: Draws, shape: Shape,
                     locked: bool = True) -> tuple[np.ndarray, int]:
    """:func:`rebuild_reference` compiled with numba: int64 arrays in, the same grid out."""
    t = tables(shape)
    return _rebuild_nb(root, values, keep, draws.order, draws.ranks, draws.ignore, np.int64((1 << t.n) - 1),
                       t.peers, t.units, t.cell_units, t.segments, t.segment_len, t.line_segs, t.box_segs,
                       t.line_rest, t.box_rest, locked)


@numba.njit(cache=True)
def fill_boxes(values, boxes, keys):
    """Make every box of ``values`` (int64, in place) a permutation of 1..n.

    ``boxes`` lists each box's cells in priority order: of two equal cells the
    earlier keeps its value.  Empty and repeated cells take the box's missing
    values, ordered by ``keys`` (one random float per box cell).
    """
    n = boxes.shape[1]
    seen = np.zeros(n + 1, dtype=np.bool_)
    redo = np.empty(n, dtype=np.int64)
    missing = np.empty(n, dtype=np.int64)
    for b in range(boxes.shape[0]):
        seen[:] = False
        count = 0
        for i in range(n):
            c = boxes[b, i]
            v = values[c]
            if 0 < v <= n and not seen[v]:
                seen[v] = True
            else:
                redo[count] = c
                count += 1
        if count == 0:
            continue
        k = 0
        for v in range(1, n + 1):
            if not seen[v]:
                missing[k] = v
                k += 1
        order = np.argsort(keys[b, :count])
        for i in range(count):
            values[redo[i]] = missing[order[i]]
