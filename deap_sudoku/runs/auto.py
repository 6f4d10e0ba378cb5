"""``auto``: the algorithm that answers a puzzle fastest, chosen by its size and share of givens.

``deap-sudoku solve`` runs it when no ``-a`` is given.  The rule comes from paired runs of the
candidates (the memetic GA, backtracking, clause learning) on the same puzzles, one worker, and
from whole ``solve`` commands, the candidates alternating (``python benchmarks/solve_default.py``;
docs/performance.md, "The default of solve: auto"):

* backtracking, everywhere the rule below does not say otherwise: below 25x25 its median run is
  the shortest on every set measured (0.1-0.7 ms on the bundled samples, Lloyd & Amos's 9x9 and
  16x16 at 40-50 % givens and the forum's hardest 9x9s) and so is its whole command, which needs
  no compiled kernel there (clause learning loads its own: 1.8 s against 0.9 s for the 16x16
  sample on the loaded machine);
* clause learning (``cdcl``) on a grid of 25x25 to 35x35 with :data:`PHASE_BAND` givens (35 % to
  under 50 %), where Lloyd & Amos's 25x25 puzzles are hardest: its whole command was the shorter
  in 12 of 12 pairs there, backtracking's in 8 of 8 at 50 and 55 % and in 3 of 4 at 30 %;
* clause learning from 36x36 below :data:`EASY_SHARE` givens: near the phase transition (45-50 %)
  it solves what the others do not within a minute, at 40 % backtracking solved none of 3 within
  20 s, at 55 % its runs were the shortest; from :data:`EASY_SHARE` on, backtracking, which
  propagation all but settles there (0.3 ms against 17 ms).

The memetic GA stays the evolutionary flagship (``-a memetic``); ``auto`` is for the answer.
"""

from __future__ import annotations

from ..grid.puzzle import Puzzle

__all__ = ["AUTO", "AUTO_RULE", "EASY_SHARE", "LARGE_SIDE", "MIDDLE_SIDE", "PHASE_BAND", "choose_algorithm"]

AUTO = "auto"
"""The name ``solve``'s ``-a`` takes for :func:`choose_algorithm`'s choice."""
MIDDLE_SIDE = 25
"""From this side on (25x25), a grid in :data:`PHASE_BAND` takes clause learning."""
PHASE_BAND = (0.35, 0.50)
"""The shares of givens, from the first to under the second, where a 25x25 grid takes clause learning."""
LARGE_SIDE = 36
"""From this side on (36x36), every grid below :data:`EASY_SHARE` givens takes clause learning."""
EASY_SHARE = 0.6
"""From this share of givens on, a large grid is settled by backtracking in under a millisecond."""
AUTO_RULE = (
    f"cdcl from {MIDDLE_SIDE}x{MIDDLE_SIDE} with {PHASE_BAND[0]:.0%} to under {PHASE_BAND[1]:.0%} givens "
    f"and from {LARGE_SIDE}x{LARGE_SIDE} below {EASY_SHARE:.0%}, else backtracking"
)
"""The rule in words, for help texts."""


def choose_algorithm(puzzle: Puzzle) -> str:
    """The name of the bundled algorithm that answers ``puzzle`` fastest, by its side and its share
    of givens (the module's rule)."""
    side, share = puzzle.shape.n, puzzle.num_givens / puzzle.shape.cells
    if side >= LARGE_SIDE and share < EASY_SHARE:
        return "cdcl"
    if side >= MIDDLE_SIDE and PHASE_BAND[0] <= share < PHASE_BAND[1]:
        return "cdcl"
    return "backtracking"
