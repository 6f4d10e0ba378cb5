"""The package does not load moocore, which DEAP imports and Sudoku never uses, until somebody uses it."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
import deap_sudoku.cli
import deap.tools
print(type(sys.modules["moocore"]).__name__, "moocore._moocore" in sys.modules)
import numpy as np
from deap.tools.indicator import hypervolume
class Fit:
    def __init__(self, values): self.wvalues = values
class Ind:
    def __init__(self, values): self.fitness = Fit(values)
print(hypervolume([Ind((-1.0, -2.0)), Ind((-2.0, -1.0))]), type(sys.modules["moocore"]).__name__)
import moocore
print(moocore.hypervolume(np.array([[1.0, 2.0], [2.0, 1.0]]), ref=[3, 3]))
"""


def test_moocore_waits_until_used_and_then_works_whole():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    deferred, used, direct = done.stdout.splitlines()
    assert deferred == "_StandIn False"  # imported by deap.tools, not loaded
    assert used.split()[1] == "module"  # the hypervolume indicator loaded the real one
    assert float(direct) == 3.0


def test_the_library_leaves_moocore_alone():
    """``import deap_sudoku`` put the stand-in into a user's process (issue 52, item 10)."""
    probe = "import sys, deap_sudoku, deap_sudoku.tools; print(type(sys.modules['moocore']).__name__)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "module"
