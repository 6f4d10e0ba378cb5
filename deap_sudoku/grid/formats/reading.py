"""What every format's reader and writer share: the alphabets, the :class:`Reader` that checks
each puzzle a format's ``read`` hands it (and reports every bad one with its line and column), the
:class:`Draft` a puzzle is read into, and the line and symbol helpers.  A format of a user's own is
written with these public names alone (see :mod:`deap_sudoku.grid.formats`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ..conflicts import problems
from ..errors import PuzzleError
from ..shape import MAX_SIDE, MIN_SIDE, Shape, box_shapes_for_side

__all__ = [
    "ALPHABETS",
    "MAX_ERRORS",
    "MAX_CELLS",
    "TILED_SIDES",
    "Draft",
    "Reader",
    "TooManyErrors",
    "content_lines",
    "grid_rows",
    "known_alphabet",
    "shape_statement",
    "symbol_table",
    "symbols_for",
]

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
ALPHABETS = {
    # name: (symbols for 1, 2, ...; symbols read as empty; symbol written for empty)
    "digits": ("123456789" + _LETTERS.upper(), "0.", "0"),
    "hex": ("0123456789" + _LETTERS, ".", "."),
    "letters": (_LETTERS, ".", "."),
}
MAX_ERRORS = 100
"""A file stops being read after this many errors (the last one says so)."""
MAX_CELLS = MAX_SIDE * MAX_SIDE
TILED_SIDES = frozenset(n for n in range(MIN_SIDE, MAX_SIDE + 1) if box_shapes_for_side(n))
"""The sides of the grids that boxes tile, the sizes a reader may assume.

:meta hide-value:
"""


@dataclass
class Draft:
    """A puzzle being read: its values and where each came from."""

    values: list[int] = field(default_factory=list)
    places: list[tuple[int, int]] = field(default_factory=list)
    start: int = 0

    def add(self, value: int, line: int, column: int) -> None:
        self.values.append(value)
        self.places.append((line, column))


class TooManyErrors(Exception):
    """Ends the reading of a file that has more than :data:`MAX_ERRORS` errors."""


class Reader:
    """Turns drafts into checked grids ``(line, shape, values)`` or located errors for one source,
    kept in file order until the reading generator hands them on (:meth:`drain`).

    A format's ``read`` gives it each puzzle's :class:`Draft` (:meth:`finish`), each problem of its
    own syntax (:meth:`error`, with the line and column) and each comment line (:meth:`statement`,
    which knows ``# box RxC``), and yields what :meth:`drain` returns after each puzzle."""

    def __init__(self, source: str, box: tuple[int, int] | None):
        self.source = source
        self.box = Shape(*box) if box is not None else None
        self.stated: tuple[Shape, int] | None = None  # the shape the file states, and the line it does so on
        self.pending: list[tuple[int, Shape, np.ndarray] | PuzzleError] = []
        self.errors = 0

    def drain(self) -> list[tuple[int, Shape, np.ndarray] | PuzzleError]:
        """What was read since the last call, in file order."""
        done, self.pending = self.pending, []
        return done

    def error(self, problem: str, line: int, column: int | None = None) -> None:
        """Record an error; past :data:`MAX_ERRORS`, stop reading the file."""
        self.pending.append(PuzzleError(problem, source=self.source, line=line, column=column))
        self.errors += 1
        if self.errors >= MAX_ERRORS:
            self.pending.append(
                PuzzleError(f"more than {MAX_ERRORS} errors: stopped reading here", source=self.source, line=line)
            )
            raise TooManyErrors

    def statement(self, stripped: str, line: int) -> bool:
        """Whether ``stripped`` (a comment line without its surrounding blanks) is a ``# box RxC``
        line; if it is, the shape it states holds for the puzzles after it (or an error is recorded)."""
        match = _STATEMENT.fullmatch(stripped)
        if match is None:
            return False
        try:
            shape = Shape(int(match[1]), int(match[2]))
        except ValueError as exc:
            self.error(f"{stripped!r} states no Sudoku box shape: {exc}", line, 1)
            return True
        if self.box is not None and shape != self.box:
            self.error(
                f"the file states box {shape} here, but box {self.box} was asked for "
                f"(--box {self.box}); drop one of them",
                line,
                1,
            )
            return True
        self.stated = shape, line
        return True

    def shape_for(self, size: int, line: int) -> Shape | None:
        """The shape of a grid of ``size`` cells (the given box's, the one the file states, or the
        squarest), or None after recording why there is none."""
        if self.box is not None:
            if size == self.box.cells:
                return self.box
            self.error(f"wrong number of cells: {size}, a {self.box.name} grid has {self.box.cells}", line)
            return None
        if self.stated is not None:
            shape, stated_at = self.stated
            if size == shape.cells:
                return shape
            self.error(
                f"wrong number of cells: {size}, but line {stated_at} states box {shape} for the "
                f"puzzles after it, and a {shape.name} grid has {shape.cells}",
                line,
            )
            return None
        try:
            return Shape.for_cells(size)
        except ValueError:
            self.error(
                f"wrong number of cells: {size} is not the cell count of a grid "
                f"tiled by boxes ({_valid_sizes_hint(size)})",
                line,
            )
            return None

    def finish(self, draft: Draft, drawn: tuple[Shape, int] | None = None) -> None:
        """Turn a draft into a puzzle, or record what is wrong with it; ``drawn`` is the box shape
        the puzzle's own borders draw, with the line they start on."""
        shape = self.shape_for(len(draft.values), draft.start) if drawn is None else self.drawn_shape(*drawn)
        if shape is None:
            return
        values = np.asarray(draft.values, dtype=np.int64)
        found = problems(shape, values)
        if found and self.box is None and self.stated is None and drawn is None:
            other = _clean_shape(shape, values)
            if other is not None:
                problem, cell = found[0]
                self.error(
                    f"{problem}, with the {shape} boxes assumed for a {shape.n}x{shape.n} grid; it reads "
                    f"cleanly with {other} boxes: give --box {other} (box=({other.box_rows}, "
                    f"{other.box_cols}) in Python) or put a '# box {other}' line before it",
                    *draft.places[cell],
                )
                return
        for problem, cell in found:
            self.error(problem, *draft.places[cell])
        if not found:
            self.pending.append((draft.start, shape, values))

    def drawn_shape(self, shape: Shape, line: int) -> Shape | None:
        """``shape``, drawn by a grid's box borders from ``line`` on, unless the caller or the file
        states another (recorded as an error)."""
        if self.box is not None and self.box != shape:
            self.error(f"the box borders draw {shape} boxes, but box {self.box} was asked for (--box {self.box})", line)
            return None
        if self.stated is not None and self.stated[0] != shape:
            self.error(
                f"the box borders draw {shape} boxes, but line {self.stated[1]} states box {self.stated[0]}", line
            )
            return None
        return shape


def _clean_shape(shape: Shape, values: np.ndarray) -> Shape | None:
    """Another box shape of ``shape``'s side under which ``values`` has no clash, if there is one."""
    for rows, cols in box_shapes_for_side(shape.n):
        other = Shape(rows, cols)
        if other != shape and not problems(other, values):
            return other
    return None


_STATEMENT = re.compile(r"#\s*box\s*:?\s*(\d{1,4})\s*[xX]\s*(\d{1,4})", re.IGNORECASE)
"""A comment line that states the box shape of the puzzles after it: ``# box 3x2``."""


def shape_statement(shape: Shape) -> str:
    """The line that states ``shape`` for the puzzles after it in the line, grid and dash formats."""
    return f"# box {shape}\n"


def _valid_sizes_hint(size: int) -> str:
    near = sorted(TILED_SIDES, key=lambda n: abs(n * n - size))[:2]
    return "nearest: " + ", ".join(f"{n * n} for {n}x{n}" for n in sorted(near))


def content_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` with line endings (LF or CRLF) and trailing blanks removed, one at a
    time: a file of millions of tiny lines never becomes a list of millions of strings."""
    start, number = 0, 1
    while True:
        end = text.find("\n", start)
        yield number, text[start : len(text) if end < 0 else end].rstrip()
        if end < 0:
            return
        start, number = end + 1, number + 1


def known_alphabet(alphabet: str | None) -> str:
    """``alphabet`` (``digits`` when not given).

    :raises ValueError: for an unknown one.
    """
    alphabet = alphabet or "digits"
    if alphabet not in ALPHABETS:
        raise ValueError(f"unknown alphabet {alphabet!r}; choose from {', '.join(ALPHABETS)}")
    return alphabet


def symbol_table(alphabet: str) -> tuple[dict[str, int], str]:
    symbols, empties, _ = ALPHABETS[known_alphabet(alphabet)]
    table = {ch: v for v, ch in enumerate(symbols, start=1)}
    table.update({ch.swapcase(): v for ch, v in list(table.items())})
    table.update({ch: 0 for ch in empties})
    return table, symbols


def symbols_for(alphabet: str, n: int) -> tuple[str, str]:
    symbols, _, empty = ALPHABETS[alphabet]
    if n > len(symbols):
        raise ValueError(
            f"the {alphabet} alphabet has symbols for up to {len(symbols)} values, not {n}; use the grid format"
        )
    return symbols, empty


def grid_rows(shape: Shape, cells: np.ndarray) -> list[list[int]]:
    return np.asarray(cells).reshape(shape.n, shape.n).tolist()
