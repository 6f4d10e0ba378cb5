"""The numba twin of the clause-learning loop: the functions of
:mod:`deap_sudoku.exact.clause_learning_kernel` and :mod:`deap_sudoku.exact.clause_learning_state`,
compiled as they are.

Each part (the two modules' ``PARTS``) is compiled from its own code in one namespace where the
other parts are their compiled selves, so that compiled parts call compiled parts and the Python
twin stays untouched; numba inlines the parts into ``run``, the one entry point.  Imported only
when a compiled search is first asked for (see :mod:`deap_sudoku.propagation.choice`); the compiled
functions are cached on disk like the other kernels.
"""

from __future__ import annotations

import types

from . import clause_learning_kernel as kernel
from . import clause_learning_state as state
from ..propagation.choice import load_numba
from ..propagation.numba_cache import guard

numba = load_numba()  # an unloadable numba is one clear error (NumbaUnavailable), not a traceback

__all__ = ["run"]

_namespace = {**vars(state), **vars(kernel)}
for _module in (state, kernel):
    for _name in _module.PARTS:
        _code = getattr(_module, _name).__code__
        # every part inlined into run at numba's own level: one compiled loop, as fast as the single
        # function it was (separately compiled parts cost 4-15 % more time and 2 s more compiling)
        _inline = "never" if _name == "run" else "always"
        _namespace[_name] = numba.njit(cache=True, inline=_inline)(types.FunctionType(_code, _namespace, _name))
guard(_namespace)  # numba's cache files sealed: a damaged one is compiled again, never loaded

run = _namespace["run"]
