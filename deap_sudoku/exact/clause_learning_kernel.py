"""The loop of the clause-learning search: one plain function that numba compiles as it is.

:func:`run` is written in the subset of Python that numba compiles, and it calls nothing but
numpy, so that the same function is the Python twin (run as it is) and the compiled one
(:mod:`deap_sudoku.exact.clause_learning_compiled` wraps it in ``numba.njit``); that is why the
activity heap's sift-up and sift-down are written out where they are used.  All its state lives
in the arrays it is given, so a run can pause, let Python look at the clock or grow the clause
store, and go on where it stopped.  :mod:`deap_sudoku.exact.clause_learning` builds the state and
explains the method.

The variable of cell ``c`` holding value ``v`` (0-based) is ``c * n + v``; its literal is twice
that, and the literal "cell ``c`` does not hold ``v``" is one more.  The clauses that say a cell
holds at most one value and a unit holds a value at most once are never stored: setting a variable
true sets its cell's other values and its peers' same value false at once, and such a literal's
reason is the variable that set it (stored as ``-2 - variable``).  Stored clauses: a cell holds a
value, a unit holds each value (hidden singles), and the learnt ones.

The layout, for a reader who knows MiniSat:

- ``assign[var]`` is 1 (true), -1 (false) or 0 (unset); a literal ``lit``'s value is
  ``assign[lit >> 1]``, negated when ``lit & 1``.  ``level`` and ``reason`` are per variable; a
  reason ``>= 0`` is the clause that implied the value, ``-1`` a decision.
- The trail: ``trail[:tsize]`` the literals made true, in order; ``trail_lim[d]`` where decision
  level ``d`` starts; ``qhead`` the next literal to propagate.
- The clause store: ``arena`` holds the clauses one after another as ``[length, lbd, lit, lit,
  ...]`` (:data:`HEADER` is the two leading numbers); clause ``ci`` starts at ``cstart[ci]``; the
  first ``noriginal`` clauses are the puzzle's, the rest are learnt.  Its first two literals are
  the watched ones.
- The watches, two per clause: watch ``w = 2 * ci + slot`` is clause ``ci``'s watch on its literal
  in position ``slot`` (0 or 1), so ``w >> 1`` is the clause and ``w & 1`` the slot.  They form one
  linked list per literal: ``head[lit]`` is the first watch on ``lit`` (-1: none) and ``nxt[w]`` the
  next on the same literal.  When ``lit`` becomes false, its list is walked: a clause whose other
  watched literal is true stays; one with another literal not false moves its watch there; one
  with none left implies its other watched literal, or is a conflict.
- Conflict analysis (first UIP, with recursive minimisation) marks variables in ``seen`` and builds
  the learnt clause in ``learnt``; ``stack``, ``toclear`` and ``lvl_mark`` are its scratch.
- Decisions: VSIDS activities ``act`` (bumped by ``inc``, which grows by ``1 / DECAY`` per
  conflict), a binary max-heap ``heap[:hsize]`` of variables with ``pos[var]`` its place (-1 when
  out); a decision takes the phase the variable had in the fullest assignment yet (``target``).
- The scalars live in ``ctl``, at the indices named below (``CONFLICTS``, ``RESTARTS``, ...), read
  into locals on entry and written back on exit.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "run",
    "PAUSED",
    "FOUND",
    "EXHAUSTED",
    "GROW",
    "TSIZE",
    "QHEAD",
    "DLEVEL",
    "HSIZE",
    "TOP",
    "NCLAUSES",
    "NORIGINAL",
    "CONFLICTS",
    "RESTARTS",
    "SINCE_RESTART",
    "NEXT_RESTART",
    "TARGET_SIZE",
    "STAMP",
    "REPHASES",
    "NEXT_REPHASE",
    "REDUCES",
    "NEXT_REDUCE",
    "PAUSE_WORK",
    "CONTROLS",
    "HEADER",
]

PAUSED, FOUND, EXHAUSTED, GROW = 0, 1, 2, 3
"""What :func:`run` returns: the conflict budget of this call is spent; every cell holds a value;
the puzzle has no solution; the clause store needs more room (grow it and call again)."""

# The scalars of the state, by index in the ``ctl`` array.
TSIZE, QHEAD, DLEVEL, HSIZE, TOP, NCLAUSES, NORIGINAL = 0, 1, 2, 3, 4, 5, 6
CONFLICTS, RESTARTS, SINCE_RESTART, NEXT_RESTART, TARGET_SIZE, STAMP = 7, 8, 9, 10, 11, 12
REPHASES, NEXT_REPHASE, REDUCES, NEXT_REDUCE = 13, 14, 15, 16
PAUSE_WORK = 17
"""The most literals a call may propagate before it pauses, besides ``pause_at`` conflicts, even in
the middle of a propagation (it goes on from its queue at the next call): on a 100x100 grid in
Python the propagation of the givens alone takes a second, and the caller asks the clock only when
the loop pauses."""
CONTROLS = 18

HEADER = 2
"""Every stored clause is ``[length, lbd, literal, literal, ...]``; its first two literals are watched."""

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


def run(
    cells_n,
    peers,
    assign,
    level,
    reason,
    trail,
    trail_lim,
    target,
    act,
    heap,
    pos,
    arena,
    cstart,
    head,
    nxt,
    seen,
    learnt,
    toclear,
    stack,
    lvl_mark,
    ctl,
    inc,
    pause_at,
):
    """Search until a solution (FOUND), a proof that there is none (EXHAUSTED), ``pause_at``
    conflicts in all or ``ctl[PAUSE_WORK]`` literals propagated in this call (PAUSED) or a full
    clause store (GROW); see the module's docstring."""
    n = cells_n[1]
    N = cells_n[0]
    V = N * n
    P = peers.shape[1]
    H = HEADER
    tsize = ctl[TSIZE]
    qhead = ctl[QHEAD]
    dlevel = ctl[DLEVEL]
    hsize = ctl[HSIZE]
    top = ctl[TOP]
    nclauses = ctl[NCLAUSES]
    noriginal = ctl[NORIGINAL]
    conflicts = ctl[CONFLICTS]
    restarts = ctl[RESTARTS]
    since_restart = ctl[SINCE_RESTART]
    next_restart = ctl[NEXT_RESTART]
    target_size = ctl[TARGET_SIZE]
    stamp = ctl[STAMP]
    rephases = ctl[REPHASES]
    next_rephase = ctl[NEXT_REPHASE]
    reduces = ctl[REDUCES]
    next_reduce = ctl[NEXT_REDUCE]
    max_work = ctl[PAUSE_WORK]
    work = 0
    status = PAUSED
    while True:
        if conflicts >= pause_at or work >= max_work:
            status = PAUSED
            break
        if top + H + V > arena.shape[0] or nclauses + 1 > cstart.shape[0]:
            status = GROW
            break
        # ---- propagate: a true variable empties its cell and its peers' value; watched clauses
        confl = -1
        bin_a = -1
        bin_b = -1
        while qhead < tsize and confl == -1 and bin_a == -1 and work < max_work:
            t = trail[qhead]
            qhead += 1
            work += 1
            tv = t >> 1
            if (t & 1) == 0:
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
            false_lit = t ^ 1
            prev = -1
            w = head[false_lit]
            while w != -1:
                ci = w >> 1
                slot = w & 1
                after = nxt[w]
                s = cstart[ci] + H
                other = arena[s + 1 - slot]
                other_value = assign[other >> 1] if (other & 1) == 0 else -assign[other >> 1]
                if other_value == 1:
                    prev = w
                    w = after
                    continue
                moved = False
                for k in range(2, arena[cstart[ci]]):
                    q = arena[s + k]
                    q_value = assign[q >> 1] if (q & 1) == 0 else -assign[q >> 1]
                    if q_value != -1:
                        arena[s + k] = false_lit
                        arena[s + slot] = q
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
        if confl == -1 and bin_a == -1 and qhead < tsize:  # the work of this call is done mid-propagation
            status = PAUSED
            break
        if confl == -1 and bin_a == -1:
            back_to = -1
            if since_restart >= next_restart:
                back_to = 0
            elif conflicts >= next_reduce and nclauses - noriginal > 1:
                # ---- clean up: keep the half of the learnt clauses with the fewest levels, every
                # clause of two levels or fewer, and every clause that is the reason of a value set
                reduces += 1
                next_reduce = conflicts + REDUCE_FIRST + REDUCE_INC * reduces
                nl = nclauses - noriginal
                lbds = np.empty(nl, np.int64)
                for i in range(nl):
                    lbds[i] = arena[cstart[noriginal + i] + 1]
                cut = np.sort(lbds)[nl // 2]
                renumbered = np.full(nl, -1, np.int64)
                kept = noriginal
                new_top = cstart[noriginal]
                for i in range(nl):
                    ci = noriginal + i
                    s = cstart[ci]
                    w0 = arena[s + H] >> 1  # a clause that set a value watches it
                    w1 = arena[s + H + 1] >> 1
                    locked = (assign[w0] != 0 and reason[w0] == ci) or (assign[w1] != 0 and reason[w1] == ci)
                    if lbds[i] < cut or lbds[i] <= 2 or locked:
                        length = arena[s] + H
                        for k in range(length):
                            arena[new_top + k] = arena[s + k]
                        cstart[kept] = new_top
                        renumbered[i] = kept
                        new_top += length
                        kept += 1
                for y in range(V):
                    if reason[y] >= noriginal:
                        reason[y] = renumbered[reason[y] - noriginal]
                top = new_top
                nclauses = kept
                head[:] = -1
                for ci in range(nclauses):
                    for slot in range(2):
                        q = arena[cstart[ci] + H + slot]
                        nxt[2 * ci + slot] = head[q]
                        head[q] = 2 * ci + slot
                continue
            else:
                # ---- decide: the most active open variable, set as in the fullest assignment yet
                x = -1
                while hsize > 0:
                    y = heap[0]
                    hsize -= 1
                    pos[y] = -1
                    if hsize > 0:
                        last = heap[hsize]
                        i = 0
                        while True:
                            child = 2 * i + 1
                            if child >= hsize:
                                break
                            if child + 1 < hsize and act[heap[child + 1]] > act[heap[child]]:
                                child += 1
                            if act[heap[child]] <= act[last]:
                                break
                            heap[i] = heap[child]
                            pos[heap[i]] = i
                            i = child
                        heap[i] = last
                        pos[last] = i
                    if assign[y] == 0:
                        x = y
                        break
                if x == -1:
                    status = FOUND
                    break
                dlevel += 1
                trail_lim[dlevel] = tsize
                value = target[x]
                assign[x] = 1 if value == 1 else -1
                level[x] = dlevel
                reason[x] = -1
                trail[tsize] = 2 * x + 1 - value
                tsize += 1
                continue
        else:
            # ---- learn: the first-UIP clause, minimised (MiniSat's recursive rule)
            if tsize > target_size:  # remember the fullest assignment yet, as decisions' phases
                target_size = tsize
                for i in range(tsize):
                    target[trail[i] >> 1] = 1 - (trail[i] & 1)
            conflicts += 1
            since_restart += 1
            if dlevel == 0:
                status = EXHAUSTED
                break
            nlearnt = 1
            pathc = 0
            p = -1
            index = tsize - 1
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
                        q = arena[cstart[r] + H + k]
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
                        act[qv] += inc[0]
                        if pos[qv] >= 0:
                            i = pos[qv]
                            while i > 0:
                                parent = (i - 1) >> 1
                                if act[heap[parent]] >= act[qv]:
                                    break
                                heap[i] = heap[parent]
                                pos[heap[i]] = i
                                i = parent
                            heap[i] = qv
                            pos[qv] = i
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
                            z = -2 - r if r <= -2 else arena[cstart[r] + H + k] >> 1
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
            nlearnt = j
            # the level to go back to, watched second; the clause's count of levels (LBD)
            back_to = 0
            second = 1
            for i in range(1, nlearnt):
                if level[learnt[i] >> 1] > back_to:
                    back_to = level[learnt[i] >> 1]
                    second = i
            stamp += 1
            lbd = 0
            for i in range(nlearnt):
                lv = level[learnt[i] >> 1]
                if lvl_mark[lv] != stamp:
                    lvl_mark[lv] = stamp
                    lbd += 1
            q = learnt[1]
            learnt[1] = learnt[second]
            learnt[second] = q
            inc[0] /= DECAY
            if inc[0] > 1e100:
                act *= 1e-100
                inc[0] *= 1e-100
        # ---- go back to level back_to (a restart goes back to 0)
        if dlevel > back_to:
            for i in range(tsize - 1, trail_lim[back_to + 1] - 1, -1):
                x = trail[i] >> 1
                assign[x] = 0
                if pos[x] < 0:
                    i_heap = hsize
                    hsize += 1
                    while i_heap > 0:
                        parent = (i_heap - 1) >> 1
                        if act[heap[parent]] >= act[x]:
                            break
                        heap[i_heap] = heap[parent]
                        pos[heap[i_heap]] = i_heap
                        i_heap = parent
                    heap[i_heap] = x
                    pos[x] = i_heap
            tsize = trail_lim[back_to + 1]
            qhead = tsize
            dlevel = back_to
        if confl == -1 and bin_a == -1:
            # ---- a restart: the next Luby term, and when it is time, rephasing
            since_restart = 0
            restarts += 1
            size = 1
            seq = 0
            x = restarts
            while size < x + 1:
                seq += 1
                size = 2 * size + 1
            while size - 1 != x:
                size = (size - 1) >> 1
                seq -= 1
                x = x % size
            next_restart = RESTART_UNIT * (1 << seq)
            if conflicts >= next_rephase:
                rephases += 1
                next_rephase = conflicts + REPHASE * rephases
                target_size = 0
            continue
        # ---- keep the learnt clause (a unit one holds at level 0) and assert its first literal
        first = learnt[0]
        fv = first >> 1
        ci = -1
        if nlearnt > 1:
            ci = nclauses
            nclauses += 1
            cstart[ci] = top
            arena[top] = nlearnt
            arena[top + 1] = lbd
            for i in range(nlearnt):
                arena[top + H + i] = learnt[i]
            top += H + nlearnt
            for slot in range(2):
                q = learnt[slot]
                nxt[2 * ci + slot] = head[q]
                head[q] = 2 * ci + slot
        assign[fv] = 1 if (first & 1) == 0 else -1
        level[fv] = dlevel
        reason[fv] = ci
        trail[tsize] = first
        tsize += 1
    ctl[TSIZE] = tsize
    ctl[QHEAD] = qhead
    ctl[DLEVEL] = dlevel
    ctl[HSIZE] = hsize
    ctl[TOP] = top
    ctl[NCLAUSES] = nclauses
    ctl[CONFLICTS] = conflicts
    ctl[RESTARTS] = restarts
    ctl[SINCE_RESTART] = since_restart
    ctl[NEXT_RESTART] = next_restart
    ctl[TARGET_SIZE] = target_size
    ctl[STAMP] = stamp
    ctl[REPHASES] = rephases
    ctl[NEXT_REPHASE] = next_rephase
    ctl[REDUCES] = reduces
    ctl[NEXT_REDUCE] = next_reduce
    return status
