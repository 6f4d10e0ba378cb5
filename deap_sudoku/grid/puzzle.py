"""The puzzle value object: an immutable grid of givens of any box shape."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from . import formats as codec
from .conflicts import Conflict, find_conflicts, problems, value_dtype
from .display import format_grid, grid_html
from .errors import PuzzleError, PuzzleFileError
from .shape import Shape

__all__ = ["Puzzle", "Conflict", "find_conflicts", "value_dtype", "require"]


class Puzzle:
    """An immutable Sudoku: a shape and the values of its cells, ``0`` for empty.

    ``cells`` is a read-only flat row-major array of a small unsigned dtype.
    Constructing a puzzle checks the values are in range and that no unit holds
    a value twice; a failure raises :class:`PuzzleError`.

    :raises PuzzleError: on a wrong number of cells, a value out of range or
        two equal givens in one unit.
    """

    __slots__ = ("_shape", "_cells")
    _shape: Shape
    _cells: np.ndarray

    def __init__(self, cells: Iterable[int] | np.ndarray, *, box: tuple[int, int] | Shape | None = None):
        values = np.asarray(cells if isinstance(cells, np.ndarray) else list(cells))
        try:
            shape = _shape_of(values.size, box)
        except ValueError as exc:
            raise PuzzleError(str(exc)) from None
        if values.ndim not in (1, 2) or (values.ndim == 2 and values.shape != (shape.n, shape.n)):
            raise PuzzleError(f"cells of shape {values.shape} are not a {shape.name} grid")
        if values.size and (not np.issubdtype(values.dtype, np.integer) or values.min() < 0):
            raise PuzzleError("cell values must be integers 0..n, 0 for empty")
        for problem, _cell in problems(shape, values.ravel()):
            raise PuzzleError(problem)
        self._freeze(shape, values)

    def _freeze(self, shape: Shape, values: np.ndarray) -> None:
        frozen = values.ravel().astype(value_dtype(shape.n), copy=True)
        frozen.flags.writeable = False
        object.__setattr__(self, "_shape", shape)
        object.__setattr__(self, "_cells", frozen)

    @classmethod
    def _checked(cls, shape: Shape, values: np.ndarray) -> Puzzle:
        """A puzzle from values the caller has already run through :func:`problems` (the readers do),
        or proved valid otherwise (an exact search's solution, decided by propagation)."""
        puzzle = cls.__new__(cls)
        puzzle._freeze(shape, values)
        return puzzle

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Puzzle is immutable")

    # -- parsing and formatting come in matching pairs --------------------------------

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        format: str | None = None,
        box: tuple[int, int] | None = None,
        alphabet: str | None = None,
        source: str = "<string>",
    ) -> Puzzle:
        """Read exactly one puzzle from ``text`` in any format :mod:`deap_sudoku.grid.formats` knows.

        :raises PuzzleError: naming line and column of what is wrong.
        """
        items = list(codec.iter_grids(text, format=format, box=box, alphabet=alphabet, source=source))
        errors = [item for item in items if isinstance(item, PuzzleError)]
        found = [item for item in items if not isinstance(item, PuzzleError)]
        if errors:
            raise PuzzleFileError(errors, source=source)
        if len(found) != 1:
            raise PuzzleError(f"expected one puzzle, found {len(found)}", source=source)
        _, shape, values = found[0]
        return cls._checked(shape, values)

    def format(self, format: str = "line", *, alphabet: str | None = None) -> str:
        """This puzzle as text in ``format`` (one of :data:`~deap_sudoku.grid.formats.FORMATS`), newline-terminated."""
        return codec.TextWriter(format, alphabet).text(self._shape, self._cells)

    def __repr__(self) -> str:
        """Short, whatever the size: ``<Puzzle 9x9 (3x3 boxes), 36 givens>``; ``format()`` gives the text."""
        return f"<Puzzle {self._shape.name}, {int(self.givens.sum())} givens>"

    def __str__(self) -> str:
        return format_grid(self._shape, self._cells)

    def _repr_html_(self) -> str:
        """The bordered grid with its givens in bold, for notebooks."""
        return grid_html(self._shape, self._cells, givens=self.givens, caption=repr(self)[1:-1])

    # -- value semantics ---------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return self._shape == other._shape and np.array_equal(self._cells, other._cells)

    def __hash__(self) -> int:
        return hash((self._shape, self._cells.tobytes()))

    def __reduce__(self):
        return (_rebuild, (self._cells.tolist(), (self._shape.box_rows, self._shape.box_cols)))

    # -- views -------------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        return self._shape

    @property
    def n(self) -> int:
        return self._shape.n

    @property
    def cells(self) -> np.ndarray:
        """Flat, row-major, read-only values; ``0`` is empty."""
        return self._cells

    @property
    def grid(self) -> np.ndarray:
        """The values as a read-only ``(n, n)`` array."""
        return self._cells.reshape(self.n, self.n)

    @property
    def givens(self) -> np.ndarray:
        """Boolean mask of the given cells; no operator may change them."""
        return self._cells != 0

    @property
    def num_givens(self) -> int:
        return int(np.count_nonzero(self._cells))

    @property
    def is_complete(self) -> bool:
        """True when every cell holds a value (and, as for every puzzle, no unit repeats one)."""
        return bool(np.all(self._cells))

    def candidates(self) -> tuple[frozenset[int], ...]:
        """For each cell, the values its peers' givens still allow (a given: just itself)."""
        n = self.n
        peers_values = self._cells[self._shape.peers]
        everything = frozenset(range(1, n + 1))
        return tuple(
            frozenset((value,)) if value else everything.difference(peers_values[cell].tolist())
            for cell, value in enumerate(self._cells.tolist())
        )

    def filled(self, values: Sequence[int] | np.ndarray) -> Puzzle:
        """A puzzle with ``values`` in its cells, which must keep every given of this one.

        Used to turn a solver's grid into a printable, verifiable value.
        """
        result = Puzzle(values, box=self._shape)
        changed = self.givens & (result.cells != self._cells)
        if changed.any():
            cell = int(np.flatnonzero(changed)[0])
            raise PuzzleError(f"the grid changes the given {int(self._cells[cell])} at {self._shape.cell_name(cell)}")
        return result


def _rebuild(cells: list[int], box: tuple[int, int]) -> Puzzle:
    return Puzzle(cells, box=box)


def _shape_of(size: int, box: tuple[int, int] | Shape | None) -> Shape:
    if isinstance(box, Shape):
        shape = box
    elif box is not None:
        shape = Shape(*box)
    else:
        return Shape.for_cells(size)
    if shape.cells != size:
        raise ValueError(f"{size} cells do not fit a {shape.name} grid of {shape.cells} cells")
    return shape


def require(value: object, kind: type, name: str) -> object:
    """``value`` when it is a ``kind`` (a :class:`Puzzle` or :class:`Shape`), else a TypeError that
    names the argument, so a wrong argument never surfaces as an AttributeError deep inside."""
    if not isinstance(value, kind):
        hint = (
            " (Puzzle.parse(text), deap_sudoku.read(path) or load_sample())"
            if kind is Puzzle
            else " (Shape(box_rows, box_cols) or puzzle.shape)"
            if kind is Shape
            else ""
        )
        raise TypeError(f"{name} must be a deap_sudoku {kind.__name__}{hint}, not {type(value).__name__}")
    return value
