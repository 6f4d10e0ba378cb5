"""The numba twin of the ant colony's construction: the functions of
:mod:`deap_sudoku.tools.ant_colony_kernel`, compiled as they are.

Each part (``PARTS``) is compiled from its own code in one namespace where the other parts are
their compiled selves, so compiled parts call compiled parts and the Python twin stays untouched
(as :mod:`deap_sudoku.exact.clause_learning_compiled` does).  Imported only when a compiled
construction is first asked for (see :mod:`deap_sudoku.propagation.choice`); cached on disk.
"""

from __future__ import annotations

import types

from . import ant_colony_kernel as kernel
from ..propagation.choice import load_numba
from ..propagation.numba_cache import guard

numba = load_numba()  # an unloadable numba is one clear error (NumbaUnavailable), not a traceback

__all__ = ["fix_givens", "initial_domains", "steps", "values"]

_namespace = dict(vars(kernel))
for _name in kernel.PARTS:
    _code = getattr(kernel, _name).__code__
    _namespace[_name] = numba.njit(cache=True)(types.FunctionType(_code, _namespace, _name))
guard(_namespace)  # numba's cache files sealed: a damaged one is compiled again, never loaded

fix_givens = _namespace["fix_givens"]
initial_domains = _namespace["initial_domains"]
steps = _namespace["steps"]
values = _namespace["values"]
