"""Defer DEAP's one import the package never uses, so a command answers sooner.

DEAP 1.4's ``deap.tools`` imports ``moocore`` (for its hypervolume indicators) when it is imported, and
loading moocore, with the urllib, http and email modules it pulls in, costs about 0.07 s of a
one-puzzle ``deap-sudoku solve`` (``python benchmarks/first_answer.py``).  Sudoku is single objective,
so until somebody uses moocore, ``sys.modules`` holds a stand-in that imports the real module on its
first attribute access and hands every attribute on.  Only the command line (and the example
scripts, whose front end it is) puts it there, when :mod:`deap_sudoku.cli` loads: a library does not
change the modules of a user's process, so ``import deap_sudoku`` leaves moocore to DEAP.
(:class:`importlib.util.LazyLoader` does not help: on Python 3.11 the ``import`` statement itself
reads the lazy module's ``__spec__`` and loads it.)
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types


class _StandIn(types.ModuleType):
    """A module that imports the real one, under the same name, when one of its attributes is read."""

    def __getattr__(self, attribute: str) -> object:
        real = self.__dict__.get("_real_module")
        if real is None:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            real = importlib.import_module(self.__name__)
            self._real_module = real
        return getattr(real, attribute)


def defer_import(name: str) -> None:
    """Make ``import name`` cheap until the module is used; nothing happens if it is loaded or missing."""
    if name in sys.modules or importlib.util.find_spec(name) is None:
        return
    sys.modules[name] = _StandIn(name)
