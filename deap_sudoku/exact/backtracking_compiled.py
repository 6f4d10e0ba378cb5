"""The numba twin of the exact search's depth-first loop: whole searches without a Python call per node.

Imported only when a compiled search is first asked for (see
:mod:`deap_sudoku.propagation.choice`).  Every node propagates with the
propagation layer's compiled kernel, ``propagate_nb``; the tree, the node
count and the solutions are those of the Python loop in
:mod:`deap_sudoku.exact.backtracking` (the tests compare them).
"""

from __future__ import annotations

import numpy as np

from ..propagation.kernel_compiled import mark_units, popcount, propagate_nb
from ..propagation.choice import load_numba
from ..propagation.numba_cache import guard

numba = load_numba()  # an unloadable numba is one clear error (NumbaUnavailable), not a traceback

__all__ = ["depth_first", "EXHAUSTED", "FOUND", "PAUSED"]

EXHAUSTED, FOUND, PAUSED = 0, 1, 2


@numba.njit(cache=True)
def depth_first(
    states,
    branch,
    tries,
    tried,
    counts,
    ctrl,
    keys,
    ranks,
    randomised,
    pause_at,
    stack,
    dirty,
    scanning,
    unions,
    full,
    peers,
    units,
    cell_units,
    geometry,
    hidden,
    locked,
):
    """Search on from the position saved in ``ctrl`` (depth, nodes, whether ``states[depth]`` waits
    to be expanded); return :data:`EXHAUSTED`, :data:`FOUND` (a solution, in ``states[ctrl[0]]``) or
    :data:`PAUSED` (``pause_at`` nodes visited).  After ``FOUND`` or ``PAUSED`` a call goes on.

    ``states[d]`` is the candidate bitmasks at depth ``d``; ``branch[d]`` the cell it branches on,
    ``tries[d, :counts[d]]`` the value bits in the order they are tried and ``tried[d]`` how many
    have been.  The branch cell is the undecided one with the fewest candidates, ties to the
    smallest ``keys``; values are tried in increasing ``ranks[cell]`` when ``randomised``, else in
    increasing order.
    """
    cells = states.shape[1]
    n = units.shape[1]
    depth, nodes, pending = ctrl[0], ctrl[1], ctrl[2]
    status = PAUSED
    while True:
        if pending:
            pending = 0
            state = states[depth]
            best = -1
            fewest = n + 1
            best_key = cells
            for c in range(cells):
                m = state[c]
                if m & (m - 1):
                    count = popcount(m)
                    if count < fewest or (count == fewest and keys[c] < best_key):
                        best, fewest, best_key = c, count, keys[c]
                        if count == 2 and not randomised:
                            break
            if best < 0:
                counts[depth] = 0
                status = FOUND
                break
            else:
                m = state[best]
                count = 0
                for v in range(n):
                    if (m >> v) & 1:
                        j = count
                        if randomised:  # insertion sort by rank
                            while j > 0 and ranks[best, tries[depth, j - 1]] > ranks[best, v]:
                                tries[depth, j] = tries[depth, j - 1]
                                j -= 1
                        tries[depth, j] = v
                        count += 1
                branch[depth] = best
                counts[depth] = count
                tried[depth] = 0
        while depth >= 0 and tried[depth] >= counts[depth]:
            depth -= 1
        if depth < 0:
            status = EXHAUSTED
            break
        if nodes >= pause_at:
            break
        cell = branch[depth]
        v = tries[depth, tried[depth]]
        tried[depth] += 1
        nodes += 1
        child = states[depth + 1]
        for c in range(cells):  # loops, not slice assignments (see propagate_nb)
            child[c] = states[depth, c]
        child[cell] = np.int64(1) << v
        for u in range(dirty.shape[0]):
            dirty[u] = False
        mark_units(dirty, cell_units, cell)
        stack[0] = cell
        if propagate_nb(
            child, stack, np.int64(1), dirty, scanning, unions, full, peers, units, cell_units, geometry, hidden, locked
        ):
            depth += 1
            pending = 1
    ctrl[0], ctrl[1], ctrl[2] = depth, nodes, pending
    return status


guard(globals())  # numba's cache files sealed: a damaged one is compiled again, never loaded
