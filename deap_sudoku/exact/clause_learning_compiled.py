"""The numba twin of the clause-learning loop: :func:`deap_sudoku.exact.clause_learning_kernel.run`,
compiled as it is.

Imported only when a compiled search is first asked for (see
:mod:`deap_sudoku.propagation.choice`); the compiled function is cached on disk like the other kernels.
"""

from __future__ import annotations


from . import clause_learning_kernel
from ..propagation.choice import load_numba

numba = load_numba()  # an unloadable numba is one clear error (NumbaUnavailable), not a traceback

__all__ = ["run"]

run = numba.njit(cache=True)(clause_learning_kernel.run)
