"""``functools.wraps`` for operators that DEAP's toolbox must be able to pickle.

``Toolbox.register`` copies a function's ``__dict__`` into its partial, and
pickling the partial (SCOOP's ``futures.map``, ``multiprocessing`` with the
spawn method) pickles that dictionary.  ``functools.wraps`` puts the undecorated
function there as ``__wrapped__``, which pickle cannot find under its own name,
so the wrapper here keeps the name, docstring and signature without it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

__all__ = ["wraps", "claim_invariant"]


def wraps(original: Callable) -> Callable[[Callable], Callable]:
    """Like :func:`functools.wraps`, but the wrapper carries ``__signature__`` (for ``help`` and the
    docs) instead of ``__wrapped__``, so everything in its ``__dict__`` pickles."""

    def decorate(wrapper: Callable) -> Callable:
        functools.update_wrapper(wrapper, original)
        del wrapper.__dict__["__wrapped__"]
        wrapper.__dict__["__signature__"] = inspect.signature(original)
        return wrapper

    return decorate


def claim_invariant(invariant: str, *operators: Callable) -> None:
    """Say that ``operators`` keep the representation's ``invariant`` (``"block"``: every box a
    permutation; ``"row"``: every row), in their ``keeps`` attribute, which
    :func:`~deap_sudoku.tools.checks.check_operator` checks."""
    for operator in operators:
        operator.__dict__["keeps"] = invariant
