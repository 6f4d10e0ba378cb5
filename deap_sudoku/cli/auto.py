"""Who answered, in ``solve``'s lines: ``-a auto``, solve's default (the record the option checks
see, the choice it made), and the part of an algorithm that found the answer (:func:`found_by`).

Each puzzle runs the algorithm :func:`~deap_sudoku.runs.auto.choose_algorithm` names for it; the
record here only takes part in the checks made before any work (``auto`` takes ``--max-seconds``
and no other run option, and none of ``--progress``, ``--watch``, ``--checkpoint``, ``--plot`` or
``--workers``, which belong to a named algorithm; :func:`named` says so in the refusals).
"""

from __future__ import annotations


from ..grid import Puzzle
from ..runs import registry
from ..runs.auto import AUTO, AUTO_RULE
from ..runs.record import FOUND_BY
from ..runs.task import RunResult
from .options import AlgorithmName

__all__ = ["AUTO_RECORD", "SolveAlgorithm", "auto_says", "found_by", "named", "size"]


def _chooses(puzzle: Puzzle, **_: object) -> registry.Outcome:
    raise RuntimeError("auto runs the algorithm it chooses for each puzzle, never itself")


AUTO_RECORD = registry.Algorithm(
    AUTO, "auto", f"the fastest answer for each puzzle: {AUTO_RULE}", _chooses, options=("max_seconds",)
)
"""``-a auto``, solve's default: a record for the option checks (it takes ``--max-seconds`` and no
other option, no ``--progress`` or ``--watch``), resolved puzzle by puzzle to the algorithm
:func:`~deap_sudoku.runs.auto.choose_algorithm` names."""


class SolveAlgorithm(AlgorithmName):
    """``solve -a``: ``auto`` or any algorithm ``-a`` takes elsewhere."""

    def convert(self, value, param, ctx):
        return AUTO_RECORD if value in (AUTO, AUTO_RECORD) else super().convert(value, param, ctx)


def named(record: registry.Algorithm) -> str:
    """The algorithm's name in a refusal; for auto, that it is the default and how to name another."""
    if record is AUTO_RECORD:
        return "auto, the default, which runs an exact search (name an algorithm with -a)"
    return record.name


def size(puzzle: Puzzle) -> str:
    """``36x36, 45 % givens``: what auto chooses by."""
    return f"{puzzle.shape.n}x{puzzle.shape.n}, {puzzle.num_givens / puzzle.shape.cells:.0%} givens"


def found_by(result: RunResult, chosen: str = "") -> str:
    """`` by evolution``: which part found a solved run's answer, for its line (nothing where unknown);
    `` by cdcl`` for the exact search ``auto`` ``chosen``."""
    if chosen and result.found_by == "exact search":
        return f" by {chosen}"
    if result.found_by == "algorithm":  # a kind of algorithm none of the phrases describes: named
        return f" by {result.algorithm}"
    phrase = FOUND_BY.get(result.found_by, "")  # the record's words: the command line knows none
    return f" {phrase}" if phrase else ""


def auto_says(result: RunResult, puzzle: Puzzle) -> str:
    """What ends the line of a puzzle ``auto`` ran: what it chose by, `` (auto: 9x9, 32% givens)``,
    naming the algorithm too where the line does not (`` (auto ran cdcl: ...)``)."""
    named_already = result.solved and result.found_by == "exact search"
    return f" (auto: {size(puzzle)})" if named_already else f" (auto ran {result.algorithm}: {size(puzzle)})"
