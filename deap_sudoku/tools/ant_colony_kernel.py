"""The ant colony's construction, as plain functions over arrays: the Python twin of
:mod:`deap_sudoku.tools.ant_colony_compiled`, which compiles these same functions (``PARTS``).

A cell's candidates are a bitmask (bit ``v - 1`` for value ``v``); a cell is *fixed* when one
bit is left and *failed* when none is.  Propagation follows Lloyd & Amos's released solver
(``Board::SetCell`` and ``Board::ConstrainCell`` of ``huwlloyd-mmu/sudoku_acs``), so that the
colony sees the same grids: fixing a cell constrains each of its peers, visited box, column and
row alternately; a peer loses the values fixed around it, is fixed when one is left (a naked
single) or when one of its values has no other place in its row, column or box (a hidden single),
and a peer so fixed constrains its own peers first, depth first, as the recursion there does.
The recursion is an explicit stack here, so that numba compiles it.  :func:`constrain` and
:func:`steps` are each one loop, as the compiled twin runs fastest.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PARTS", "single", "constrain", "set_cell", "fix_givens", "initial_domains", "steps", "values"]

PARTS = ("single", "constrain", "set_cell", "fix_givens", "initial_domains", "steps", "values")
"""The functions :mod:`~deap_sudoku.tools.ant_colony_compiled` compiles, callees first."""


def single(mask):
    """Whether ``mask`` holds exactly one value."""
    return mask != 0 and (mask & (mask - 1)) == 0


def constrain(domains, cell, units, cell_units, full):
    """Constrain ``cell`` by its peers (``ConstrainCell``): return the value mask to fix it to (a
    naked single, else a hidden single of its row, column or box, in that order), or 0, having
    removed the values fixed around it.  A fixed or failed cell is left as it is."""
    mask = domains[cell]
    if mask == 0 or single(mask):
        return 0
    n = units.shape[1]
    fixed = 0
    row = 0
    column = 0
    box = 0
    for kind in range(3):
        unit = cell_units[cell, kind]
        union = 0
        for j in range(n):
            other = units[unit, j]
            if other != cell:
                value = domains[other]
                union |= value
                if single(value):
                    fixed |= value
        if kind == 0:
            row = union
        elif kind == 1:
            column = union
        else:
            box = union
    allowed = full & ~fixed
    if single(allowed):
        return allowed
    mask &= allowed
    domains[cell] = mask
    for union in (row, column, box):
        hidden = mask & ~union
        if single(hidden):
            return hidden
    return 0


def set_cell(domains, cell, mask, order, units, cell_units, full, stack_cells, stack_next):
    """Fix ``cell`` to ``mask`` (``SetCell``) and propagate: each peer, in ``order`` (box, column
    and row cells alternately), is constrained, and one that is fixed by it propagates in turn
    before the next peer is visited.  A cell already fixed is left as it is."""
    if single(domains[cell]):
        return
    domains[cell] = mask
    stack_cells[0] = cell
    stack_next[0] = 0
    top = 1
    width = order.shape[1]
    while top > 0:
        here = stack_cells[top - 1]
        j = stack_next[top - 1]
        if j == width:
            top -= 1
            continue
        stack_next[top - 1] = j + 1
        peer = order[here, j]
        if peer == here:
            continue
        fix = constrain(domains, peer, units, cell_units, full)
        if fix != 0 and not single(domains[peer]):
            domains[peer] = fix
            stack_cells[top] = peer
            stack_next[top] = 0
            top += 1


def fix_givens(domains, givens, first, last, order, units, cell_units, full):
    """Fix the givens of cells ``first`` to ``last - 1`` in cell order, each propagated, in
    ``domains``: the givens of cells ``0`` to ``first - 1`` fixed by earlier calls, the next call
    goes on from ``last``, and the candidates are those of one call over every cell."""
    cells = givens.shape[0]
    stack_cells = np.empty(cells + 1, dtype=np.int64)
    stack_next = np.empty(cells + 1, dtype=np.int64)
    for cell in range(first, last):
        if givens[cell] > 0:
            bit = np.int64(1) << np.int64(givens[cell] - 1)
            set_cell(domains, cell, bit, order, units, cell_units, full, stack_cells, stack_next)


def initial_domains(givens, order, units, cell_units, full):
    """Every cell's candidates once the givens are fixed one by one in cell order, each propagated
    (the released solver's ``Board`` constructor): :func:`fix_givens` over every cell."""
    cells = givens.shape[0]
    domains = np.full(cells, full, dtype=np.int64)
    fix_givens(domains, givens, 0, cells, order, units, cell_units, full)
    return domains


def steps(
    boards, position, first, last, pheromone, constants, draws, cursor, sequential, order, units, cell_units, full
):
    """Take steps ``first`` to ``last - 1`` of a colony's construction: ``boards`` (``(ants,
    cells)`` candidate masks, from the propagated givens) and ``position`` (each ant's next cell)
    go on from where the last call left them.

    Each ant visits every cell once, in order from its start, wrapping round; the ants take one
    step each in turn.  A failed cell (no candidate left) and a fixed one are passed; an open one
    takes a value by a draw: greedy (the highest ``pheromone`` among its candidates, the first of
    equals) when the draw is above the threshold ``constants[3]``, else by roulette over the
    candidates' pheromone at a second draw's point of their sum.  The value is fixed and
    propagated, and its pheromone decays towards ``tau0`` at once (the local update:
    ``tau * constants[1] + constants[2] * tau0``, ``tau0 = constants[0]``).

    Every sum and product is taken in the type of ``pheromone`` (float32 as the authors' solver
    computes, or float64): ``constants`` (``tau0``, ``1 - xi``, ``xi``, the threshold, 0) and
    ``draws`` have that type.  ``draws`` is flat: with ``sequential`` the draws are taken in turn
    from ``cursor[0]`` (one for each open cell, a second for a roulette, as the authors' solver
    draws them; ``cursor[0]`` is left after the last one taken), else ant ``a``'s step ``s`` reads
    ``draws[2 * (a * cells + s)]`` and the one after it."""
    ants, cells = boards.shape
    n = units.shape[1]
    stack_cells = np.empty(cells + 1, dtype=np.int64)
    stack_next = np.empty(cells + 1, dtype=np.int64)
    tau0 = constants[0]
    keep = constants[1]
    xi = constants[2]
    threshold = constants[3]
    zero = constants[4]
    for step in range(first, last):
        for a in range(ants):
            cell = position[a]
            mask = boards[a, cell]
            if mask != 0 and not single(mask):
                if sequential:
                    at = cursor[0]
                    if at >= draws.shape[0]:
                        raise IndexError("the colony's stream of draws ran out")
                    cursor[0] = at + 1
                else:
                    at = 2 * (a * cells + step)
                draw = draws[at]
                chosen = -1
                if draw > threshold:
                    most = -1.0
                    for v in range(n):
                        if (mask >> v) & 1 and pheromone[cell, v] > most:
                            most = pheromone[cell, v]
                            chosen = v
                else:
                    if sequential:
                        at = cursor[0]
                        if at >= draws.shape[0]:
                            raise IndexError("the colony's stream of draws ran out")
                        cursor[0] = at + 1
                    else:
                        at += 1
                    total = zero
                    for v in range(n):
                        if (mask >> v) & 1:
                            total = total + pheromone[cell, v]
                    point = total * draws[at]
                    running = zero
                    for v in range(n):
                        if (mask >> v) & 1:
                            chosen = v  # the last candidate, should rounding leave the sum short of the point
                            running = running + pheromone[cell, v]
                            if running > point:
                                break
                bit = np.int64(1) << np.int64(chosen)
                set_cell(boards[a], cell, bit, order, units, cell_units, full, stack_cells, stack_next)
                pheromone[cell, chosen] = pheromone[cell, chosen] * keep + xi * tau0
            position[a] = cell + 1 if cell + 1 < cells else 0


def values(boards, grids):
    """Write each fixed cell's value into ``grids`` (same shape as ``boards``), 0 for the others."""
    ants, cells = boards.shape
    for a in range(ants):
        for cell in range(cells):
            mask = boards[a, cell]
            value = 0
            if single(mask):
                while mask > 1:
                    mask >>= 1
                    value += 1
                value += 1
            grids[a, cell] = value
