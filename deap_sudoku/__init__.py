"""deap_sudoku: Sudoku parts for DEAP — puzzle model, file formats, propagation, exact solvers,
evolutionary operators and algorithms.

The layers, each importing only from those before it: :mod:`~deap_sudoku.grid`,
:mod:`~deap_sudoku.io`, :mod:`~deap_sudoku.propagation`, :mod:`~deap_sudoku.exact`,
:mod:`~deap_sudoku.tools`, :mod:`~deap_sudoku.algorithms`, :mod:`~deap_sudoku.runs`,
:mod:`~deap_sudoku.cli`.  The most used names are here too.
"""

from ._deferred import defer_import

defer_import("moocore")  # before deap.tools imports it: see _deferred

from ._version import __version__
from .grid import Conflict, GridView, Puzzle, PuzzleError, PuzzleFileError, Shape, find_conflicts, format_grid, show
from .io import FORMATS, detect_format, dumps, load_sample, loads, read, write
from .tools import HallOfFame, Individual, MaxIndividual, individual_class, make_toolbox

__all__ = [
    "Puzzle", "Shape", "Conflict", "find_conflicts", "show", "GridView", "format_grid",
    "PuzzleError", "PuzzleFileError",
    "FORMATS", "detect_format", "loads", "dumps", "read", "write", "load_sample",
    "Individual", "MaxIndividual", "individual_class", "HallOfFame", "make_toolbox", "__version__",
]
