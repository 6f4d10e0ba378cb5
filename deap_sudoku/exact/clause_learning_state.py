"""The state of the clause-learning search, laid out for a reader who knows MiniSat, and the small
parts that keep it: a literal's value, a clause's watch, the activity heap and going back on the trail.

Its functions (:data:`PARTS`) are parts of the loop in
:mod:`deap_sudoku.exact.clause_learning_kernel`: plain functions that numba compiles as they are.

The variable of cell ``c`` holding value ``v`` (0-based) is ``c * n + v``; its literal is twice
that, and the literal "cell ``c`` does not hold ``v``" is one more.  The clauses that say a cell
holds at most one value and a unit holds a value at most once are never stored: setting a variable
true sets its cell's other values and its peers' same value false at once, and such a literal's
reason is the variable that set it (stored as ``-2 - variable``).  Stored clauses: a cell holds a
value, a unit holds each value (hidden singles), and the learnt ones.

The layout, for a reader who knows MiniSat (the fields of :class:`Search`):

- ``assign[var]`` is 1 (true), -1 (false) or 0 (unset); a literal ``lit``'s value is
  ``assign[lit >> 1]``, negated when ``lit & 1`` (:func:`value`).  ``level`` and ``reason`` are per
  variable; a reason ``>= 0`` is the clause that implied the value, ``-1`` a decision.
- The trail: ``trail[:ctl[TSIZE]]`` the literals made true, in order; ``trail_lim[d]`` where
  decision level ``d`` starts; ``ctl[QHEAD]`` the next literal to propagate.
- The clause store: ``arena`` holds the clauses one after another as ``[length, lbd, lit, lit,
  ...]`` (:data:`HEADER` is the two leading numbers); clause ``ci`` starts at ``cstart[ci]``; the
  first ``ctl[NORIGINAL]`` clauses are the puzzle's, the rest are learnt.  Its first two literals
  are the watched ones.
- The watches, two per clause: watch ``w = 2 * ci + slot`` is clause ``ci``'s watch on its literal
  in position ``slot`` (0 or 1), so ``w >> 1`` is the clause and ``w & 1`` the slot.  They form one
  linked list per literal: ``head[lit]`` is the first watch on ``lit`` (-1: none) and ``nxt[w]`` the
  next on the same literal.  When ``lit`` becomes false, its list is walked: a clause whose other
  watched literal is true stays; one with another literal not false moves its watch there; one
  with none left implies its other watched literal, or is a conflict.
- Conflict analysis (first UIP, with recursive minimisation) marks variables in ``seen`` and builds
  the learnt clause in ``learnt``; ``stack``, ``toclear`` and ``lvl_mark`` are its scratch.
- Decisions: VSIDS activities ``act`` (bumped by ``inc[0]``, which grows by ``1 / DECAY`` per
  conflict), a binary max-heap ``heap[:ctl[HSIZE]]`` of variables with ``pos[var]`` its place (-1
  when out); a decision takes the phase the variable had in the fullest assignment yet (``target``).
- The counters and schedules are the slots of ``ctl`` named below (``CONFLICTS``, ``RESTARTS``, ...).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "Search",
    "PARTS",
    "value",
    "watch",
    "backtrack",
    "sift_up",
    "pop_max",
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

# The slots of ``ctl``: the trail's size and queue head, the decision level, the heap's size, the end
# of the clause store, the clauses stored and the puzzle's among them, then the counters and schedules.
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


class Search(NamedTuple):
    """The whole state of one search: arrays only (numba passes them, a pause keeps them)."""

    geometry: np.ndarray  # [cells, n]
    peers: np.ndarray  # peers[c]: the cells sharing a unit with cell c
    assign: np.ndarray
    level: np.ndarray
    reason: np.ndarray
    trail: np.ndarray
    trail_lim: np.ndarray
    target: np.ndarray
    act: np.ndarray
    heap: np.ndarray
    pos: np.ndarray
    arena: np.ndarray
    cstart: np.ndarray
    head: np.ndarray
    nxt: np.ndarray
    seen: np.ndarray
    learnt: np.ndarray
    toclear: np.ndarray
    stack: np.ndarray
    lvl_mark: np.ndarray
    ctl: np.ndarray
    inc: np.ndarray  # inc[0]: the activity bump


def value(assign, lit):
    """A literal's value: 1 true, -1 false, 0 unset."""
    return assign[lit >> 1] if (lit & 1) == 0 else -assign[lit >> 1]


def watch(s, ci, slot):
    """Put clause ``ci``'s watch on its literal in position ``slot`` at the front of that literal's list."""
    q = s.arena[s.cstart[ci] + HEADER + slot]
    s.nxt[2 * ci + slot] = s.head[q]
    s.head[q] = 2 * ci + slot


def backtrack(s, back_to):
    """Unset everything above decision level ``back_to``, the variables going back into the heap."""
    ctl, heap, pos, act, assign, trail = s.ctl, s.heap, s.pos, s.act, s.assign, s.trail
    if ctl[DLEVEL] <= back_to:
        return
    start = s.trail_lim[back_to + 1]
    size = ctl[HSIZE]  # a local: the loop runs over thousands of variables per conflict on a 36x36
    for i in range(ctl[TSIZE] - 1, start - 1, -1):
        x = trail[i] >> 1
        assign[x] = 0
        if pos[x] < 0:
            sift_up(heap, pos, act, size, x)
            size += 1
    ctl[HSIZE] = size
    ctl[TSIZE] = start
    ctl[QHEAD] = start
    ctl[DLEVEL] = back_to


def sift_up(heap, pos, act, i, x):
    """Place variable ``x`` in the activity heap from position ``i`` towards the root."""
    while i > 0:
        parent = (i - 1) >> 1
        if act[heap[parent]] >= act[x]:
            break
        heap[i] = heap[parent]
        pos[heap[i]] = i
        i = parent
    heap[i] = x
    pos[x] = i


def pop_max(heap, pos, act, size):
    """Take the most active variable out of the heap of ``size`` variables (it then holds one fewer)."""
    y = heap[0]
    size -= 1
    pos[y] = -1
    if size > 0:
        last = heap[size]
        i = 0
        while True:
            child = 2 * i + 1
            if child >= size:
                break
            if child + 1 < size and act[heap[child + 1]] > act[heap[child]]:
                child += 1
            if act[heap[child]] <= act[last]:
                break
            heap[i] = heap[child]
            pos[heap[i]] = i
            i = child
        heap[i] = last
        pos[last] = i
    return y


PARTS = ("value", "watch", "backtrack", "sift_up", "pop_max")
"""The functions here that the loop calls, each compiled as it is by
:mod:`~deap_sudoku.exact.clause_learning_compiled`."""
