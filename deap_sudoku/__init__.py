"""deap_sudoku: Sudoku parts for DEAP — puzzle model, file formats, exact solvers and evolutionary operators."""

from .errors import PuzzleError, PuzzleFileError
from .formats import FORMATS, detect_format, dumps, loads, read, write
from .individual import Individual, MaxIndividual
from .puzzle import Conflict, Puzzle, find_conflicts
from .shape import Shape
from .toolbox import make_toolbox

__all__ = [
    "Puzzle", "Shape", "Conflict", "find_conflicts",
    "PuzzleError", "PuzzleFileError",
    "FORMATS", "detect_format", "loads", "dumps", "read", "write",
    "Individual", "MaxIndividual", "make_toolbox",
]
__version__ = "0.1.0"
