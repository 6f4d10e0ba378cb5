"""``auto``: the algorithm that answers a puzzle fastest, chosen by its size and share of givens.

``deap-sudoku solve`` runs it when no ``-a`` is given.  The rule comes from paired runs of the
candidates (the memetic GA, backtracking, clause learning) on the same puzzles, one worker
(``python benchmarks/solve_default.py``; docs/performance.md, "The default of solve"):

* up to 25x25, backtracking: on every set measured (the bundled samples, Lloyd & Amos's 9x9,
  16x16 and 25x25 at 40, 45 and 50 % givens, the forum's hardest 9x9s) its median run is the
  shortest but one (25x25 at 45 %, where clause learning's is 0.03 s against 0.15 s), and the
  whole command is: clause learning loads its compiled kernels first (about 0.9 s more at 16x16
  and 25x25), the GA runs its seed search and then the GA;
* from 36x36, clause learning below :data:`EASY_SHARE` givens, where near the phase transition
  (45-50 %) it solves what the others do not within a minute; at :data:`EASY_SHARE` or more,
  backtracking, which propagation all but settles there.

The memetic GA stays the evolutionary flagship (``-a memetic``); ``auto`` is for the answer.
"""

from __future__ import annotations

from ..grid.puzzle import Puzzle

__all__ = ["AUTO", "AUTO_RULE", "EASY_SHARE", "LARGE_SIDE", "choose_algorithm"]

AUTO = "auto"
"""The name ``solve``'s ``-a`` takes for :func:`choose_algorithm`'s choice."""
LARGE_SIDE = 36
"""From this side on (36x36), a grid near the phase transition takes clause learning."""
EASY_SHARE = 0.6
"""From this share of givens on, a large grid is settled by backtracking in under a millisecond."""
AUTO_RULE = (
    f"backtracking up to 25x25; from {LARGE_SIDE}x{LARGE_SIDE}, cdcl below {EASY_SHARE:.0%} givens "
    "and backtracking from there"
)
"""The rule in words, for help texts."""


def choose_algorithm(puzzle: Puzzle) -> str:
    """The name of the bundled algorithm that answers ``puzzle`` fastest, by its side and its share
    of givens (the module's rule)."""
    share = puzzle.num_givens / puzzle.shape.cells
    if puzzle.shape.n < LARGE_SIDE or share >= EASY_SHARE:
        return "backtracking"
    return "cdcl"
