"""Constraint propagation: the one kernel that exact search, the initialisers and the memetic repair share.

Candidate bitmasks (bit ``v - 1`` for value ``v``), naked and hidden singles
and box-line reduction, on per-shape tables computed once
(:mod:`~deap_sudoku.propagation.tables`): a pure-Python reference
(:mod:`~deap_sudoku.propagation.kernel`) and its numba twin
(:mod:`~deap_sudoku.propagation.kernel_compiled`, imported on first use), equal on
the same inputs.  :mod:`~deap_sudoku.propagation.analyzer` is the documented
"constraint analyzer", sweep by sweep.
"""

from __future__ import annotations

from .analyzer import Analysis, analyze
from .kernel import Propagation, initial_masks, mask_sets, mask_values, propagate, propagate_masks
from .tables import Arrays, Tables, arrays, tables

__all__ = [
    "Propagation",
    "propagate",
    "Analysis",
    "analyze",
    "initial_masks",
    "propagate_masks",
    "propagate_arrays",
    "mask_values",
    "mask_sets",
    "Tables",
    "Arrays",
    "tables",
    "arrays",
]


def propagate_arrays(cands, queue, shape, *, hidden: bool = True, locked: bool = False, dirty=None) -> bool:
    """The compiled twin of :func:`propagate_masks` on an ``int64`` array of bitmasks (numba is
    imported on the first call); see :func:`deap_sudoku.propagation.kernel_compiled.propagate_arrays`."""
    from .kernel_compiled import propagate_arrays as compiled

    return compiled(cands, queue, shape, hidden=hidden, locked=locked, dirty=dirty)
