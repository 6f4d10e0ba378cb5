"""The numba twin of :func:`deap_sudoku.algorithms.repair_kernel.rebuild_reference`, and box filling.

Imported only when a compiled rebuild is first asked for (see
:mod:`deap_sudoku.propagation.kernel_compiled` for why); it propagates with the
propagation layer's compiled kernel.
"""

from __future__ import annotations

import numpy as np

from ..propagation.kernel_compiled import box_line_scratch, mark_units, popcount, propagate_nb
from ..propagation.choice import load_numba
from ..propagation.numba_cache import guard

numba = load_numba()  # an unloadable numba is one clear error (NumbaUnavailable), not a traceback

__all__ = ["rebuild", "fill_boxes"]


@numba.njit(cache=True)
def rebuild(root, values, keep, order, ranks, ignore, full, peers, units, cell_units, geometry, locked):
    cells = root.shape[0]
    n = units.shape[1]
    stack = np.empty(2 * cells + 1, dtype=np.int64)
    dirty = np.zeros(units.shape[0], dtype=np.bool_)
    scanning = np.zeros(units.shape[0], dtype=np.bool_)
    unions = box_line_scratch(geometry)
    cands = root.copy()
    # typed values, never literals: numba compiles propagate_nb (and mark_units) once more for each literal
    top, one, hidden = np.int64(0), np.int64(1), np.bool_(True)
    for c in keep:
        bit = np.int64(1) << (values[c] - 1)
        if cands[c] & bit and cands[c] != bit:
            cands[c] = bit
            stack[top] = c
            top += 1
            mark_units(dirty, cell_units, c)
    if top > 0 and not propagate_nb(
        cands, stack, top, dirty, scanning, unions, full, peers, units, cell_units, geometry, hidden, locked
    ):
        for c in range(cells):  # loops, not slice assignments (see propagate_nb)
            cands[c] = root[c]
    open_cells = order.copy()
    n_open = open_cells.shape[0]
    trial = np.empty_like(cands)
    choices = np.empty(n, dtype=np.int64)
    failed = 0
    while True:
        best = np.int64(-1)
        fewest = n + 1
        kept = 0
        for i in range(n_open):
            c = open_cells[i]
            m = cands[c]
            if m & (m - 1):
                open_cells[kept] = c
                kept += 1
                count = popcount(m)
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
            for c in range(cells):
                trial[c] = cands[c]
            trial[best] = np.int64(1) << (choices[i] - 1)
            for u in range(dirty.shape[0]):
                dirty[u] = False
            mark_units(dirty, cell_units, best)
            stack[0] = best
            if propagate_nb(
                trial, stack, one, dirty, scanning, unions, full, peers, units, cell_units, geometry, hidden, locked
            ):
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
            out[c] = popcount(m - 1) + 1  # bit v - 1 has v - 1 bits below it (value 64's too)
    return out, failed


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
    order = np.empty(n, dtype=np.int64)
    for b in range(boxes.shape[0]):
        for v in range(n + 1):  # a loop, not a slice assignment (see propagate_nb)
            seen[v] = False
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
        # a stable insertion sort of the redone cells' keys, as the reference's ``sorted`` (ties
        # in order); np.argsort is not stable, and compiling it took 2.8 of the GA kernels' 17 s
        for i in range(count):
            j = i
            while j > 0 and keys[b, order[j - 1]] > keys[b, i]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
        for i in range(count):
            values[redo[i]] = missing[order[i]]


guard(globals())  # numba's cache files sealed: a damaged one is compiled again, never loaded
