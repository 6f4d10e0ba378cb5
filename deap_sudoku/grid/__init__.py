"""The grid: box shapes and their unit tables, the immutable puzzle, text codecs, how grids show
themselves (text and HTML) and errors."""

from .conflicts import Conflict, clashing_cells, find_conflicts
from .display import GridView, format_grid, grid_html, show
from .errors import PuzzleError, PuzzleFileError
from .puzzle import Puzzle
from .shape import MAX_SIDE, MIN_SIDE, Shape, box_shapes_for_side

__all__ = [
    "Shape",
    "MIN_SIDE",
    "MAX_SIDE",
    "box_shapes_for_side",
    "Puzzle",
    "format_grid",
    "grid_html",
    "show",
    "GridView",
    "clashing_cells",
    "Conflict",
    "find_conflicts",
    "PuzzleError",
    "PuzzleFileError",
]
