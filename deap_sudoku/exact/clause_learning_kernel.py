"""The loop of the clause-learning search, in the named parts a SAT solver has, written so that numba
compiles them as they are.

:func:`run` and the parts it calls (:data:`PARTS`: :func:`propagate`, :func:`analyze`,
:func:`minimise`, :func:`learn`, :func:`pick_branch`, :func:`decide`, :func:`restart`,
:func:`reduce_db`, and from :mod:`~deap_sudoku.exact.clause_learning_state` ``backtrack``, the
watches and the activity heap's ``sift_up`` and ``pop_max``) are plain functions in the subset of
Python that numba compiles, calling nothing but numpy and each other: run as they are, they are the
Python twin; :mod:`deap_sudoku.exact.clause_learning_compiled` compiles the very same functions.
The whole state is one :class:`~deap_sudoku.exact.clause_learning_state.Search` of arrays (its
layout is that module's docstring), so a run can pause, let Python look at the clock or grow the
clause store, and go on where it stopped.  :mod:`deap_sudoku.exact.clause_learning` builds the state
and explains the method.
"""

from __future__ import annotations

import numpy as np

from .clause_learning_state import (
    CONFLICTS,
    DLEVEL,
    HEADER,
    HSIZE,
    NCLAUSES,
    NEXT_REDUCE,
    NEXT_REPHASE,
    NEXT_RESTART,
    NORIGINAL,
    PAUSE_WORK,
    QHEAD,
    REDUCES,
    REPHASES,
    RESTARTS,
    SINCE_RESTART,
    STAMP,
    TARGET_SIZE,
    TOP,
    TSIZE,
    backtrack,
    pop_max,
    sift_up,
    value,
    watch,
)

__all__ = [
    "run",
    "PARTS",
    "PAUSED",
    "FOUND",
    "EXHAUSTED",
    "GROW",
    "RESTART_UNIT",
    "DECAY",
    "REPHASE",
    "REDUCE_FIRST",
    "REDUCE_INC",
]

PAUSED, FOUND, EXHAUSTED, GROW = 0, 1, 2, 3
"""What :func:`run` returns: the conflict budget of this call is spent; every cell holds a value;
the puzzle has no solution; the clause store needs more room (grow it and call again)."""

RESTART_UNIT = 100
"""Conflicts per unit of the Luby restart sequence (MiniSat's)."""
DECAY = 0.95
"""Activity decay per conflict (VSIDS, MiniSat's)."""
REPHASE = 1000
"""Conflicts before the first rephasing; the k-th comes this many times k conflicts after the one
before (CaDiCaL's arithmetic schedule).  Rephasing forgets the fullest assignment, so that the
decisions follow the next fullest one: a search stuck near one almost-solution moves on."""
REDUCE_FIRST, REDUCE_INC = 2000, 300
"""The k-th clean-up of the learnt clauses comes ``REDUCE_FIRST + REDUCE_INC * k`` conflicts after
the one before (Glucose's schedule); each drops the half with the most decision levels."""

NO_CONFLICT = -1
"""What :func:`propagate` returns for the conflicting clause when there is none."""


def run(s, pause_at):
    """Search until a solution (FOUND), a proof that there is none (EXHAUSTED), ``pause_at``
    conflicts in all or ``ctl[PAUSE_WORK]`` literals propagated in this call (PAUSED) or a full
    clause store (GROW)."""
    ctl = s.ctl
    variables = s.geometry[0] * s.geometry[1]
    work = 0
    while True:
        if ctl[CONFLICTS] >= pause_at or work >= ctl[PAUSE_WORK]:
            return PAUSED
        if ctl[TOP] + HEADER + variables > s.arena.shape[0] or ctl[NCLAUSES] + 1 > s.cstart.shape[0]:
            return GROW
        confl, bin_a, bin_b, work = propagate(s, work)
        if confl == NO_CONFLICT and bin_a == -1:
            if ctl[QHEAD] < ctl[TSIZE]:  # the work of this call is done mid-propagation
                return PAUSED
            if ctl[SINCE_RESTART] >= ctl[NEXT_RESTART]:
                backtrack(s, 0)
                restart(s)
            elif ctl[CONFLICTS] >= ctl[NEXT_REDUCE] and ctl[NCLAUSES] - ctl[NORIGINAL] > 1:
                reduce_db(s)
            else:
                x = pick_branch(s)
                if x == -1:
                    return FOUND
                decide(s, x)
            continue
        if ctl[TSIZE] > ctl[TARGET_SIZE]:  # remember the fullest assignment yet, as decisions' phases
            ctl[TARGET_SIZE] = ctl[TSIZE]
            for i in range(ctl[TSIZE]):
                s.target[s.trail[i] >> 1] = 1 - (s.trail[i] & 1)
        ctl[CONFLICTS] += 1
        ctl[SINCE_RESTART] += 1
        if ctl[DLEVEL] == 0:
            return EXHAUSTED
        nlearnt = analyze(s, confl, bin_a, bin_b)
        nlearnt = minimise(s, nlearnt)
        learn(s, nlearnt)


def propagate(s, work):
    """Make true what the trail's queue implies, until it is empty, a conflict, or ``ctl[PAUSE_WORK]``
    literals propagated in this call; return ``(clause, a, b, work)``: the conflicting clause (or
    :data:`NO_CONFLICT`) and, for a conflict of the unstored "at most one" rules, its two true
    variables (else -1)."""
    ctl, assign, level, reason, trail, arena, cstart, head, nxt = (
        s.ctl,
        s.assign,
        s.level,
        s.reason,
        s.trail,
        s.arena,
        s.cstart,
        s.head,
        s.nxt,
    )
    n, peers = s.geometry[1], s.peers
    P = peers.shape[1]
    tsize, qhead, dlevel, max_work = ctl[TSIZE], ctl[QHEAD], ctl[DLEVEL], ctl[PAUSE_WORK]
    confl = NO_CONFLICT
    bin_a = -1
    bin_b = -1
    while qhead < tsize and confl == NO_CONFLICT and bin_a == -1 and work < max_work:
        t = trail[qhead]
        qhead += 1
        work += 1
        tv = t >> 1
        if (t & 1) == 0:  # a true variable empties its cell and its peers' value
            c = tv // n
            v = tv - c * n
            for k in range(n - 1 + P):
                y = c * n + k + (k >= v) if k < n - 1 else peers[c, k - n + 1] * n + v
                if assign[y] == 1:
                    bin_a = tv
                    bin_b = y
                    break
                if assign[y] == 0:
                    assign[y] = -1
                    level[y] = dlevel
                    reason[y] = -2 - tv
                    trail[tsize] = 2 * y + 1
                    tsize += 1
            if bin_a != -1:
                break
        false_lit = t ^ 1  # then the watched clauses
        prev = -1
        w = head[false_lit]
        while w != -1:
            ci = w >> 1
            slot = w & 1
            after = nxt[w]
            start = cstart[ci] + HEADER
            other = arena[start + 1 - slot]
            other_value = value(assign, other)
            if other_value == 1:
                prev = w
                w = after
                continue
            moved = False
            for k in range(2, arena[cstart[ci]]):
                q = arena[start + k]
                if value(assign, q) != -1:
                    arena[start + k] = false_lit
                    arena[start + slot] = q
                    if prev == -1:
                        head[false_lit] = after
                    else:
                        nxt[prev] = after
                    nxt[w] = head[q]
                    head[q] = w
                    moved = True
                    break
            if moved:
                w = after
                continue
            prev = w
            if other_value == 0:
                ov = other >> 1
                assign[ov] = 1 if (other & 1) == 0 else -1
                level[ov] = dlevel
                reason[ov] = ci
                trail[tsize] = other
                tsize += 1
            else:
                confl = ci
                break
            w = after
    ctl[TSIZE] = tsize
    ctl[QHEAD] = qhead
    return confl, bin_a, bin_b, work


def analyze(s, confl, bin_a, bin_b):
    """Learn from the conflict: the first-UIP clause in ``learnt[:count]``, its asserting literal
    first; the variables met are bumped and the bump grows.  Returns the count."""
    level, reason, trail, arena, cstart, seen, learnt, stack, act = (
        s.level,
        s.reason,
        s.trail,
        s.arena,
        s.cstart,
        s.seen,
        s.learnt,
        s.stack,
        s.act,
    )
    dlevel = s.ctl[DLEVEL]
    nlearnt = 1
    pathc = 0
    p = -1
    index = s.ctl[TSIZE] - 1
    while True:
        # the literals of the conflict (p == -1) or of p's reason, p's own left out
        if p == -1 and bin_a != -1:
            stack[0] = 2 * bin_a + 1
            stack[1] = 2 * bin_b + 1
            nr = 2
        elif p == -1 or reason[p >> 1] >= 0:
            r = confl if p == -1 else reason[p >> 1]
            nr = 0
            for k in range(arena[cstart[r]]):
                q = arena[cstart[r] + HEADER + k]
                if p == -1 or (q >> 1) != (p >> 1):
                    stack[nr] = q
                    nr += 1
        else:
            stack[0] = 2 * (-2 - reason[p >> 1]) + 1
            nr = 1
        for k in range(nr):
            q = stack[k]
            qv = q >> 1
            if seen[qv] == 0 and level[qv] > 0:
                seen[qv] = 1
                act[qv] += s.inc[0]
                if s.pos[qv] >= 0:
                    sift_up(s.heap, s.pos, act, s.pos[qv], qv)
                if level[qv] >= dlevel:
                    pathc += 1
                else:
                    learnt[nlearnt] = q
                    nlearnt += 1
        while seen[trail[index] >> 1] == 0:
            index -= 1
        p = trail[index]
        index -= 1
        seen[p >> 1] = 0
        pathc -= 1
        if pathc <= 0:
            break
    learnt[0] = p ^ 1
    s.inc[0] /= DECAY
    if s.inc[0] > 1e100:
        act *= 1e-100
        s.inc[0] *= 1e-100
    return nlearnt


def minimise(s, nlearnt):
    """Drop from ``learnt[1:nlearnt]`` every literal its others imply (MiniSat's recursive rule);
    returns the new count."""
    level, reason, arena, cstart, seen, learnt, stack, toclear = (
        s.level,
        s.reason,
        s.arena,
        s.cstart,
        s.seen,
        s.learnt,
        s.stack,
        s.toclear,
    )
    nclear = 0
    levels = 0
    for i in range(1, nlearnt):
        toclear[nclear] = learnt[i] >> 1
        nclear += 1
        levels |= 1 << (level[learnt[i] >> 1] & 63)
    j = 1
    for i in range(1, nlearnt):
        q = learnt[i]
        redundant = reason[q >> 1] != -1
        if redundant:
            sp = 1
            stack[0] = q >> 1
            first_mark = nclear
            while sp > 0 and redundant:
                sp -= 1
                v0 = stack[sp]
                r = reason[v0]
                nr = 1 if r <= -2 else arena[cstart[r]]
                for k in range(nr):
                    z = -2 - r if r <= -2 else arena[cstart[r] + HEADER + k] >> 1
                    if z == v0 or seen[z] == 1 or level[z] == 0:
                        continue
                    if reason[z] != -1 and (levels >> (level[z] & 63)) & 1:
                        seen[z] = 1
                        stack[sp] = z
                        sp += 1
                        toclear[nclear] = z
                        nclear += 1
                    else:
                        for m in range(first_mark, nclear):
                            seen[toclear[m]] = 0
                        nclear = first_mark
                        redundant = False
                        break
        if not redundant:
            learnt[j] = q
            j += 1
    for i in range(nclear):
        seen[toclear[i]] = 0
    return j


def learn(s, nlearnt):
    """Go back to the level the learnt clause asserts at, keep the clause (a unit one holds at level
    0, unstored) with its count of levels (LBD), and make its first literal true."""
    ctl, level, learnt = s.ctl, s.level, s.learnt
    back_to = 0  # the highest level after the asserting literal's, watched second
    second = 1
    for i in range(1, nlearnt):
        if level[learnt[i] >> 1] > back_to:
            back_to = level[learnt[i] >> 1]
            second = i
    ctl[STAMP] += 1
    lbd = 0
    for i in range(nlearnt):
        lv = level[learnt[i] >> 1]
        if s.lvl_mark[lv] != ctl[STAMP]:
            s.lvl_mark[lv] = ctl[STAMP]
            lbd += 1
    q = learnt[1]
    learnt[1] = learnt[second]
    learnt[second] = q
    backtrack(s, back_to)
    first = learnt[0]
    fv = first >> 1
    ci = -1
    if nlearnt > 1:
        ci = ctl[NCLAUSES]
        ctl[NCLAUSES] += 1
        top = ctl[TOP]
        s.cstart[ci] = top
        s.arena[top] = nlearnt
        s.arena[top + 1] = lbd
        for i in range(nlearnt):
            s.arena[top + HEADER + i] = learnt[i]
        ctl[TOP] = top + HEADER + nlearnt
        for slot in range(2):
            watch(s, ci, slot)
    s.assign[fv] = 1 if (first & 1) == 0 else -1
    level[fv] = ctl[DLEVEL]
    s.reason[fv] = ci
    s.trail[ctl[TSIZE]] = first
    ctl[TSIZE] += 1


def pick_branch(s):
    """The most active open variable (VSIDS), or -1 when every variable is set."""
    ctl, heap, pos, act, assign = s.ctl, s.heap, s.pos, s.act, s.assign
    size = ctl[HSIZE]
    y = -1
    while size > 0:
        y = pop_max(heap, pos, act, size)
        size -= 1
        if assign[y] == 0:
            break
        y = -1
    ctl[HSIZE] = size
    return y


def decide(s, x):
    """Open a decision level setting ``x`` as it stood in the fullest assignment yet (the target phase)."""
    ctl = s.ctl
    ctl[DLEVEL] += 1
    s.trail_lim[ctl[DLEVEL]] = ctl[TSIZE]
    phase = s.target[x]
    s.assign[x] = 1 if phase == 1 else -1
    s.level[x] = ctl[DLEVEL]
    s.reason[x] = -1
    s.trail[ctl[TSIZE]] = 2 * x + 1 - phase
    ctl[TSIZE] += 1


def luby(i):
    """The exponent of the ``i``-th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 ...: a power of two."""
    size = 1
    seq = 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i = i % size
    return seq


def restart(s):
    """After going back to level 0: the next restart by the Luby sequence, and when it is time,
    rephasing (the fullest assignment forgotten)."""
    ctl = s.ctl
    ctl[SINCE_RESTART] = 0
    ctl[RESTARTS] += 1
    ctl[NEXT_RESTART] = RESTART_UNIT * (1 << luby(ctl[RESTARTS]))
    if ctl[CONFLICTS] >= ctl[NEXT_REPHASE]:
        ctl[REPHASES] += 1
        ctl[NEXT_REPHASE] = ctl[CONFLICTS] + REPHASE * ctl[REPHASES]
        ctl[TARGET_SIZE] = 0


def reduce_db(s):
    """Clean up: keep the half of the learnt clauses with the fewest levels, every clause of two
    levels or fewer, and every clause that is the reason of a value set; renumber and rewatch."""
    ctl, arena, cstart, assign, reason = s.ctl, s.arena, s.cstart, s.assign, s.reason
    noriginal = ctl[NORIGINAL]
    ctl[REDUCES] += 1
    ctl[NEXT_REDUCE] = ctl[CONFLICTS] + REDUCE_FIRST + REDUCE_INC * ctl[REDUCES]
    nl = ctl[NCLAUSES] - noriginal
    lbds = np.empty(nl, np.int64)
    most = 0
    for i in range(nl):
        lbds[i] = arena[cstart[noriginal + i] + 1]
        most = max(most, lbds[i])
    # the median, np.sort(lbds)[nl // 2], counted: levels are small whole numbers, and compiling
    # numpy's sort took 2.5 of the loop's 15 s
    counts = np.zeros(most + 1, np.int64)
    for i in range(nl):
        counts[lbds[i]] += 1
    cut, below = 0, counts[0]
    while below <= nl // 2:
        cut += 1
        below += counts[cut]
    renumbered = np.full(nl, -1, np.int64)
    kept = noriginal
    new_top = cstart[noriginal]
    for i in range(nl):
        ci = noriginal + i
        start = cstart[ci]
        w0 = arena[start + HEADER] >> 1  # a clause that set a value watches it
        w1 = arena[start + HEADER + 1] >> 1
        locked = (assign[w0] != 0 and reason[w0] == ci) or (assign[w1] != 0 and reason[w1] == ci)
        if lbds[i] < cut or lbds[i] <= 2 or locked:
            length = arena[start] + HEADER
            for k in range(length):
                arena[new_top + k] = arena[start + k]
            cstart[kept] = new_top
            renumbered[i] = kept
            new_top += length
            kept += 1
    for y in range(assign.shape[0]):
        if reason[y] >= noriginal:
            reason[y] = renumbered[reason[y] - noriginal]
    ctl[TOP] = new_top
    ctl[NCLAUSES] = kept
    for x in range(s.head.shape[0]):  # a loop, not a slice assignment (see propagate_nb)
        s.head[x] = -1
    for ci in range(kept):
        for slot in range(2):
            watch(s, ci, slot)


PARTS = (
    "run",
    "propagate",
    "analyze",
    "minimise",
    "learn",
    "pick_branch",
    "decide",
    "luby",
    "restart",
    "reduce_db",
)
"""The functions of the loop defined here, each compiled as it is by
:mod:`~deap_sudoku.exact.clause_learning_compiled` (with the state module's ``PARTS``)."""
