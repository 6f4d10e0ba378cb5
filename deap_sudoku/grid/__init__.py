"""The grid: box shapes and their unit tables, the immutable puzzle, text codecs and errors."""

from .conflicts import Conflict, find_conflicts
from .errors import PuzzleError, PuzzleFileError
from .puzzle import Puzzle, format_grid
from .shape import MAX_SIDE, MIN_SIDE, Shape, box_shapes_for_side

__all__ = ["Shape", "MIN_SIDE", "MAX_SIDE", "box_shapes_for_side", "Puzzle", "format_grid", "Conflict",
           "find_conflicts", "PuzzleError", "PuzzleFileError"]
