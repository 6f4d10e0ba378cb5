"""deap_sudoku: Sudoku parts for DEAP — puzzle model, file formats and exact solvers."""

from .errors import PuzzleError, PuzzleFileError
from .formats import FORMATS, detect_format, dumps, loads, read, write
from .puzzle import Conflict, Puzzle, find_conflicts
from .shape import Shape

__all__ = [
    "Puzzle", "Shape", "Conflict", "find_conflicts",
    "PuzzleError", "PuzzleFileError",
    "FORMATS", "detect_format", "loads", "dumps", "read", "write",
]
__version__ = "0.1.0"
