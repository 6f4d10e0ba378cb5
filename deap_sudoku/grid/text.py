"""Text formats of grids: parse and format several grids per text, detect the format.

This is the codec under :meth:`Puzzle.parse <deap_sudoku.grid.puzzle.Puzzle.parse>`
and :mod:`deap_sudoku.io.formats`; it works on shapes and value arrays, so it
needs nothing above the grid geometry.  Each format is one :class:`Format`
record in :data:`FORMAT_RECORDS`; everything else reads the records.

``line``
    One puzzle per line, ``n*n`` symbols row-major, ``0`` or ``.`` for empty
    (the format of the 9x9 sets in ``../shared/data``).  Symbols come from an
    alphabet: ``digits`` (1-9 then A-Z, the default), ``hex`` (0-9 then a-z for
    1, 2, ...: the 0-f of 16x16 tools) or ``letters`` (a-z for 1, 2, ...: the
    a-y of 25x25 tools).  Letters are read in either case.
``grid``
    One grid row per line, values separated by white space, ``0`` (or ``.``,
    ``-``) for empty, ``#`` lines ignored, a blank line between puzzles.  The
    box borders of ``str(puzzle)`` (``|`` and ``---+---`` lines) are skipped,
    so the ASCII picture reads back too, and a ``*`` reads as a space: the
    analyzer project's README marks a square as ``0*0*5``, which reads as
    ``0 0 5``.
``dash``
    One grid row per line as single symbols, ``-`` for empty (a solver's
    ``aufgabe.txt`` input and ``loesung.txt`` output).
``lloyd``
    The instances of Lloyd & Amos's ACO benchmark: the box order ``k``, the
    line ``1``, then ``k*k`` rows of tab-separated values with a trailing tab,
    ``-1`` for empty, CRLF line endings.

Box shapes.  A side alone names a box shape only by convention: 6x6 and
12x12 grids come in 2x3 and 3x2 (3x4 and 4x3) boxes.  Readers assume the
squarest shape with fewer rows than columns (:func:`~deap_sudoku.grid.shape.box_shapes_for_side`)
unless told otherwise, by the caller (``box=``, ``--box``) or by the file:

- a comment line ``# box RxC`` in the line, grid and dash formats states the
  shape of every puzzle after it, up to the next such line; the writers put
  one before each puzzle whose shape a reader would not assume;
- box borders in the grid format (the ``|`` and ``---+---`` lines of
  ``str(puzzle)``) state the shape of the puzzle they draw;
- the lloyd format holds square boxes only, and its writer refuses others.

A puzzle that breaks the shape its file states is an error naming the line; a
puzzle with clashes under the assumed shape and none under another shape of
its side is an error that names that shape and ``--box``.

Every reader reports every bad puzzle of a file at once, each error naming
the source, line and column.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from .conflicts import have_conflicts, problems
from .errors import PuzzleError
from .shape import MAX_SIDE, MIN_SIDE, Shape, box_shapes_for_side

__all__ = [
    "Format",
    "FORMAT_RECORDS",
    "FORMATS",
    "ALPHABETS",
    "MAX_ERRORS",
    "detect_format",
    "iter_grids",
    "format_record",
    "shape_statement",
    "TextWriter",
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
_MAX_CELLS = MAX_SIDE * MAX_SIDE


# -- reading ---------------------------------------------------------------------------


@dataclass
class _Draft:
    """A puzzle being read: its values and where each came from."""

    values: list[int] = field(default_factory=list)
    places: list[tuple[int, int]] = field(default_factory=list)
    start: int = 0

    def add(self, value: int, line: int, column: int) -> None:
        self.values.append(value)
        self.places.append((line, column))


class _TooManyErrors(Exception):
    """Ends the reading of a file that has more than :data:`MAX_ERRORS` errors."""


class _Reader:
    """Turns drafts into checked grids ``(line, shape, values)`` or located errors for one source,
    kept in file order until the reading generator hands them on (:meth:`drain`)."""

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
            raise _TooManyErrors

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

    def finish(self, draft: _Draft, drawn: tuple[Shape, int] | None = None) -> None:
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


_TILED_SIDES = frozenset(n for n in range(MIN_SIDE, MAX_SIDE + 1) if box_shapes_for_side(n))


def _valid_sizes_hint(size: int) -> str:
    near = sorted(_TILED_SIDES, key=lambda n: abs(n * n - size))[:2]
    return "nearest: " + ", ".join(f"{n * n} for {n}x{n}" for n in sorted(near))


def _content_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` with line endings (LF or CRLF) and trailing blanks removed, one at a
    time: a file of millions of tiny lines never becomes a list of millions of strings."""
    start, number = 0, 1
    while True:
        end = text.find("\n", start)
        yield number, text[start : len(text) if end < 0 else end].rstrip()
        if end < 0:
            return
        start, number = end + 1, number + 1


def _known_alphabet(alphabet: str | None) -> str:
    """``alphabet`` (``digits`` when not given).  :raises ValueError: for an unknown one."""
    alphabet = alphabet or "digits"
    if alphabet not in ALPHABETS:
        raise ValueError(f"unknown alphabet {alphabet!r}; choose from {', '.join(ALPHABETS)}")
    return alphabet


def _symbol_table(alphabet: str) -> tuple[dict[str, int], str]:
    symbols, empties, _ = ALPHABETS[_known_alphabet(alphabet)]
    table = {ch: v for v, ch in enumerate(symbols, start=1)}
    table.update({ch.swapcase(): v for ch, v in list(table.items())})
    table.update({ch: 0 for ch in empties})
    return table, symbols


_BLOCK_BYTES = 1 << 16
"""The line reader's batch: about this many bytes of lines are parsed and checked at once (64 KiB: its
temporaries, about 20 bytes per byte of 4x4 lines, stay near a megabyte)."""


def _read_line(text: str, reader: _Reader, alphabet: str) -> Iterator:
    """The line format, a batch of lines at a time: lines of plain symbols are decoded and checked
    for conflicts with array operations; any other line (blank, comment, indented, too long,
    unknown symbol, conflict) goes through :func:`_line_puzzle`, which says what is wrong."""
    table, symbols = _symbol_table(alphabet)
    codes = np.full(256, -1, dtype=np.int16)  # byte -> value; -1: not a plain symbol
    for ch, value in table.items():
        if ch.isascii():
            codes[ord(ch)] = value
    sides = [reader.box.n] if reader.box is not None else sorted(_TILED_SIDES)
    shapes = {n * n: reader.box or Shape.for_side(n) for n in sides if n <= len(symbols)}
    data = text.encode("utf-8")
    start, first = 0, 1
    while start < len(data):
        cut = start + _BLOCK_BYTES
        end = len(data) if cut >= len(data) else data.find(b"\n", cut - 1)
        end = len(data) if end < 0 else end
        block = np.frombuffer(data, np.uint8, count=end - start, offset=start)
        breaks = np.flatnonzero(block == 10)
        starts = np.concatenate(([0], breaks + 1))
        lengths = np.concatenate((breaks, [len(block)])) - starts
        filled = np.flatnonzero(lengths)
        lengths[filled] -= block[starts[filled] + lengths[filled] - 1] == 13  # CRLF
        good = np.zeros(len(starts), dtype=bool)
        grids: dict[int, tuple[Shape, np.ndarray, np.ndarray]] = {}
        for size, shape in shapes.items():
            rows = np.flatnonzero(lengths == size)
            if not len(rows):
                continue
            values = codes[block[starts[rows, None].astype(np.int32) + np.arange(size, dtype=np.int32)]]
            plain = ((values >= 0) & (values <= shape.n)).all(axis=1)
            plain[plain] = ~have_conflicts(shape, values[plain])
            good[rows[plain]] = True
            where = np.full(len(starts), -1)
            where[rows] = np.arange(len(rows))
            grids[size] = shape, values, where
        for i in range(len(starts)):
            if good[i] and (reader.stated is None or reader.stated[0] == grids[int(lengths[i])][0]):
                shape, values, where = grids[int(lengths[i])]
                yield first + i, shape, values[where[i]]
            else:  # (a grid under a stated shape other than the one assumed above is read here too)
                line = data[start + starts[i] : start + starts[i] + lengths[i]].decode("utf-8").rstrip()
                _line_puzzle(line, first + i, reader, table, symbols, alphabet)
                yield from reader.drain()
        start, first = end + 1, first + len(starts)


def _line_puzzle(line: str, number: int, reader: _Reader, table: dict[str, int], symbols: str, alphabet: str) -> None:
    """Read one line of the line format into ``reader``: a puzzle, an error, or nothing (blank, comment)."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        reader.statement(stripped, number)
        return
    empties = " or ".join(repr(e) for e in ALPHABETS[alphabet][1])
    indent = len(line) - len(line.lstrip())
    unknown = next(((c, ch) for c, ch in enumerate(stripped, start=indent + 1) if ch not in table), None)
    if unknown:
        reader.error(
            f"unknown character {unknown[1]!r} for the {alphabet} alphabet (empty is {empties})", number, unknown[0]
        )
        return
    if len(stripped) > _MAX_CELLS:
        reader.error(
            f"wrong number of cells: {len(stripped)} is more than the {_MAX_CELLS} of the largest "
            f"grid ({MAX_SIDE}x{MAX_SIDE})",
            number,
        )
        return
    draft = _Draft(start=number)
    for column, ch in enumerate(stripped, start=indent + 1):
        draft.add(table[ch], number, column)
    n = math.isqrt(len(draft.values))
    too_big = next((i for i, v in enumerate(draft.values) if v > n), None)
    if n * n == len(draft.values) and n in _TILED_SIDES and too_big is not None:
        reader.error(
            f"character {stripped[too_big]!r} is not a value of a {n}x{n} grid "
            f"(values {symbols[0]}-{symbols[n - 1]}, empty is {empties})",
            number,
            indent + too_big + 1,
        )
        return
    reader.finish(draft)


_TOKEN = re.compile(r"[^\s|*]+")  # "|" box borders and "*" highlight marks separate values
_BORDER = re.compile(r"^[-+=|\s]*-[-+=|\s]*$")


def _read_rows(text: str, reader: _Reader, alphabet: str, *, spaced: bool) -> Iterator:
    """The grid and dash formats: one grid row per line; a puzzle ends at a blank line or after n rows.
    In the grid format, box borders (``|`` in a row, ``---+---`` lines) are remembered to give the
    puzzle's box shape."""
    table, _ = _symbol_table(alphabet)
    table["-"] = 0
    block: list[_Row] = []
    borders: list[tuple[int, int]] = []  # (rows above it, line) of each border line inside the block
    skipping = False  # after a row too long for any grid, until the next blank line
    for number, line in itertools.chain(_content_lines(text), [(0, "")]):
        yield from reader.drain()
        stripped = line.strip()
        if stripped.startswith("#"):
            reader.statement(stripped, number)
            continue
        if spaced and _BORDER.match(stripped):
            if block:
                borders.append((len(block), number))
            continue
        if stripped:
            if skipping:
                continue
            if spaced:
                found = ((m.start() + 1, m.group()) for m in _TOKEN.finditer(line))
            else:
                found = ((i + 1, ch) for i, ch in enumerate(line) if not ch.isspace())
            tokens = list(itertools.islice(found, MAX_SIDE + 1))
            if len(tokens) > MAX_SIDE:
                reader.error(
                    f"row has more than {MAX_SIDE} values, more than the largest grid ({MAX_SIDE}x{MAX_SIDE}) has",
                    number,
                )
                block, borders, skipping = [], [], True
                continue
            bars = (
                tuple(sum(column <= bar for column, _ in tokens) for bar, ch in enumerate(line) if ch == "|")
                if spaced
                else ()
            )
            block.append(_Row(number, tokens, bars))
            if len(block) == len(block[0].tokens):  # a whole puzzle: finish it now, keep memory flat
                _finish_rows(block, len(block), reader, table, spaced, borders)
                block, borders = [], []
            continue
        if block:
            _finish_rows(block, len(block[0].tokens), reader, table, spaced, borders)
        block, borders, skipping = [], [], False


def _read_grid(text: str, reader: _Reader, alphabet: str) -> Iterator:
    """The grid format (its values are numbers: ``alphabet`` does not apply)."""
    return _read_rows(text, reader, "digits", spaced=True)


def _read_dash(text: str, reader: _Reader, alphabet: str) -> Iterator:
    return _read_rows(text, reader, alphabet, spaced=False)


@dataclass
class _Row:
    """A row of the grid or dash format: its line, its ``(column, token)`` values, and for each
    ``|`` border in it the number of values to its left."""

    line: int
    tokens: list[tuple[int, str]]
    bars: tuple[int, ...]


def _finish_rows(
    rows: list[_Row], side: int, reader: _Reader, table: dict[str, int], spaced: bool, borders: list[tuple[int, int]]
) -> None:
    first_line = rows[0].line
    try:
        Shape.for_side(side)
    except ValueError as exc:
        reader.error(f"rows of {side} values: {exc}", first_line)
        return
    if len(rows) < side:
        reader.error(f"puzzle has {len(rows)} rows, expected {side} rows of {side} values", first_line)
        return
    draft = _Draft(start=first_line)
    for row in rows:
        if len(row.tokens) != side:
            reader.error(
                f"row has {len(row.tokens)} values, expected {side} like the first row "
                f"of this puzzle (line {first_line})",
                row.line,
            )
            return
        for column, token in row.tokens:
            value = _token_value(token, table, spaced)
            if value is None:
                kind = "value" if spaced else "character"
                empty = "0, . or -" if spaced else "-"
                reader.error(f"unknown {kind} {token!r} (empty is {empty})", row.line, column)
                return
            draft.add(value, row.line, column)
    barred = all(row.bars for row in rows)  # a | in some rows only separates values, as a space does
    if not borders and not barred:
        reader.finish(draft)
        return
    drawn = _drawn_shape(rows, barred, side, borders, reader)
    if drawn is not None:
        reader.finish(draft, (drawn, first_line))


def _drawn_shape(
    rows: list[_Row], barred: bool, side: int, borders: list[tuple[int, int]], reader: _Reader
) -> Shape | None:
    """The box shape that a grid's borders draw: ``|`` after every ``box_cols`` values of each row
    (when ``barred``, every row has them), a border line after every ``box_rows`` rows; None after
    recording where the borders are irregular."""
    bars = rows[0].bars if barred else ()
    for row in rows if barred else ():
        if row.bars != bars:
            reader.error(f"the | box borders of this row differ from those of line {rows[0].line}", row.line)
            return None
    # Either kind of border alone gives the shape: the other side of the box is what is left.
    cols = bars[0] if bars else side // max(borders[0][0], 1)
    rows_per_band = borders[0][0] if borders else side // max(cols, 1)
    if bars and (not cols or side % cols or bars != tuple(range(cols, side, cols))):
        reader.error("the | box borders do not cut the rows into boxes of equal width", rows[0].line)
        return None
    if borders and (
        side % rows_per_band or [above for above, _ in borders] != list(range(rows_per_band, side, rows_per_band))
    ):
        reader.error("the border lines do not cut the grid into boxes of equal height", borders[0][1])
        return None
    try:
        shape = Shape(rows_per_band, cols)
    except ValueError as exc:
        reader.error(f"the box borders draw no Sudoku box: {exc}", rows[0].line)
        return None
    if shape.n != side:
        reader.error(f"the box borders draw {shape} boxes, which do not tile rows of {side} values", rows[0].line)
        return None
    return shape


def _token_value(token: str, table: dict[str, int], spaced: bool) -> int | None:
    if spaced:
        if token in (".", "-"):
            return 0
        return int(token) if token.isdecimal() and len(token) <= 4 else None
    return table.get(token)


def _read_lloyd(text: str, reader: _Reader, alphabet: str) -> Iterator:
    """The lloyd format (its values are numbers: ``alphabet`` does not apply)."""
    lines = ((n, ln) for n, ln in _content_lines(text) if ln.strip())
    for number, header in lines:
        yield from reader.drain()
        header = header.strip()
        if not (header.isdecimal() and len(header) <= 3) or int(header) < 2 or int(header) ** 2 > MAX_SIDE:
            reader.error(
                f"expected the box order (2..{int(MAX_SIDE**0.5)}) on a line of its own, found {header[:20]!r}",
                number,
                1,
            )
            return
        order = int(header)
        side = order * order
        constant = next(lines, None)
        if constant is None or constant[1].strip() != "1":
            reader.error("expected the constant line '1' after the box order", number + 1, 1)
            return
        draft = _Draft(start=number)
        rows = 0
        for row_number, row in itertools.islice(lines, side):
            rows += 1
            if row.count("\t") > side + 1:
                reader.error(f"row has more than {side} values, expected {side} for box order {order}", row_number)
                return
            fields = row.split("\t")
            if fields and fields[-1].strip() == "":
                fields = fields[:-1]
            column = 1
            values = []
            for raw in fields:
                token = raw.strip()
                if not re.fullmatch(r"-1|\d{1,4}", token):
                    reader.error(f"unknown value {token!r} (values are 1..{side}, -1 for empty)", row_number, column)
                    return
                values.append((0 if token == "-1" else int(token), column))
                column += len(raw) + 1
            if len(values) != side:
                reader.error(f"row has {len(values)} values, expected {side} for box order {order}", row_number)
                return
            for value, col in values:
                draft.add(value, row_number, col)
        if rows < side:
            reader.error(f"puzzle has {rows} rows, expected {side} for box order {order}", number)
            return
        reader.finish(draft)


# -- writing ---------------------------------------------------------------------------


def _symbols_for(alphabet: str, n: int) -> tuple[str, str]:
    symbols, _, empty = ALPHABETS[alphabet]
    if n > len(symbols):
        raise ValueError(
            f"the {alphabet} alphabet has symbols for up to {len(symbols)} values, not {n}; use the grid format"
        )
    return symbols, empty


def _rows(shape: Shape, cells: np.ndarray) -> list[list[int]]:
    return np.asarray(cells).reshape(shape.n, shape.n).tolist()


def _write_line(shape: Shape, cells: np.ndarray, alphabet: str) -> str:
    symbols, empty = _symbols_for(alphabet, shape.n)
    return "".join(symbols[v - 1] if v else empty for v in np.asarray(cells).ravel().tolist()) + "\n"


def _write_grid(shape: Shape, cells: np.ndarray, alphabet: str) -> str:
    width = len(str(shape.n))
    return "".join(" ".join(str(v).rjust(width) for v in row) + "\n" for row in _rows(shape, cells))


def _write_dash(shape: Shape, cells: np.ndarray, alphabet: str) -> str:
    symbols, _ = _symbols_for(alphabet, shape.n)
    return "".join("".join(symbols[v - 1] if v else "-" for v in row) + "\n" for row in _rows(shape, cells))


def _write_lloyd(shape: Shape, cells: np.ndarray, alphabet: str) -> str:
    if shape.box_rows != shape.box_cols:
        raise ValueError(f"the lloyd format holds square boxes only, not {shape}")
    lines = [str(shape.box_rows), "1"]
    lines += ["".join(f"{v if v else -1}\t" for v in row) for row in _rows(shape, cells)]
    return "\r\n".join(lines) + "\r\n"


# -- recognising -----------------------------------------------------------------------


def _looks_lloyd(lines: list[str], sides: frozenset[int]) -> bool:
    """A box order, then rows of tab-separated values or -1 empties: even if damaged."""
    first = lines[0]
    return (
        first.isdecimal()
        and len(first) <= 3
        and len(lines) > 2
        and (
            (lines[1] == "1" and len(lines[2].split(None, int(first) ** 2)) == int(first) ** 2)
            or "\t" in lines[2]
            or "-1" in lines[2].split()
        )
    )


def _looks_grid(lines: list[str], sides: frozenset[int]) -> bool:
    """Values separated by blanks."""
    return len(lines[0].split(None, 1)) > 1


def _looks_dash(lines: list[str], sides: frozenset[int]) -> bool:
    """A ``-`` for an empty cell, or (a line too short for a whole grid) as many rows of a side's length."""
    first = lines[0]
    if "-" in first:
        return True
    length = len(first)
    if any(length == n * n for n in sides) or length not in sides:
        return False
    return next((i for i, ln in enumerate(lines) if len(ln) != length), len(lines)) >= length


def _looks_line(lines: list[str], sides: frozenset[int]) -> bool:
    """Whatever no other format claims: the line format's own errors then say what is wrong."""
    return True


# -- the formats -----------------------------------------------------------------------


@dataclass(frozen=True)
class Format:
    """One file format: all the code that knows it.  ``read(text, reader, alphabet)`` yields its
    grids and errors through a :class:`_Reader`; ``write(shape, cells, alphabet)`` is one grid's
    text; ``looks_like(lines, sides)`` says whether the first content lines of a text are in this
    format (the records are asked in ``detection`` order); ``separator`` goes between two grids;
    ``alphabets`` says whether the ``alphabet`` argument applies."""

    name: str
    summary: str
    read: Callable[[str, _Reader, str], Iterator]
    write: Callable[[Shape, np.ndarray, str], str]
    looks_like: Callable[[list[str], frozenset[int]], bool]
    detection: int
    separator: str = ""
    alphabets: bool = True


FORMAT_RECORDS: dict[str, Format] = {
    record.name: record
    for record in (
        Format("line", "one puzzle per line, n*n symbols row-major", _read_line, _write_line, _looks_line, 3),
        Format(
            "grid",
            "one row per line, values separated by blanks, a blank line between puzzles",
            _read_grid,
            _write_grid,
            _looks_grid,
            1,
            separator="\n",
            alphabets=False,
        ),
        Format(
            "dash",
            "one row per line as single symbols, - for empty",
            _read_dash,
            _write_dash,
            _looks_dash,
            2,
            separator="\n",
        ),
        Format(
            "lloyd",
            "Lloyd & Amos's instances: box order, 1, tab-separated rows, -1 for empty",
            _read_lloyd,
            _write_lloyd,
            _looks_lloyd,
            0,
            alphabets=False,
        ),
    )
}
"""Every format by name: adding one is one :class:`Format` record here (and its test)."""

FORMATS = tuple(FORMAT_RECORDS)


def format_record(name: str) -> Format:
    """The record of the format called ``name``.  :raises ValueError: for an unknown format."""
    try:
        return FORMAT_RECORDS[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(FORMATS)}") from None


def _lf_lines(text: str) -> str:
    """``text`` with old Mac line endings (a CR alone) made LF, so such a file reads like any other
    instead of as one long line; LF and CRLF files are returned as they are."""
    if "\r" in text and "\r" in text.replace("\r\n", ""):
        return text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def detect_format(text: str, *, box: tuple[int, int] | None = None) -> str:
    """Guess the format of ``text`` from its first lines that are not blank or comments."""
    content = (ln.strip() for _, ln in _content_lines(_lf_lines(text)))
    lines = list(itertools.islice((ln for ln in content if ln and not ln.startswith("#")), MAX_SIDE + 2))
    if not lines:
        return "line"
    sides = frozenset({box[0] * box[1]}) if box else _TILED_SIDES
    return next(
        record.name
        for record in sorted(FORMAT_RECORDS.values(), key=lambda r: r.detection)
        if record.looks_like(lines, sides)
    )


def iter_grids(
    text: str,
    *,
    format: str | None = None,
    box: tuple[int, int] | None = None,
    alphabet: str | None = None,
    source: str = "<string>",
) -> Iterator[tuple[int, Shape, np.ndarray] | PuzzleError]:
    """Every valid grid as ``(line it starts on, shape, values)`` and every error, one at a time in
    file order, so that a file of millions of puzzles never becomes a list of them.  The values are
    checked (:func:`~deap_sudoku.grid.conflicts.problems`); reading stops after :data:`MAX_ERRORS` errors.

    :raises PuzzleError: for a ``box`` that is no Sudoku box shape.
    :raises ValueError: for an unknown format or alphabet.
    """
    if box is not None:
        try:
            Shape(*box)
        except ValueError as exc:
            raise PuzzleError(f"box {box[0]}x{box[1]}: {exc}", source=source) from None
    record = format_record(format or detect_format(text, box=box))
    alphabet = _known_alphabet(alphabet)  # refused now, not when the reading starts
    return _items(_lf_lines(text), record, _Reader(source, box), alphabet)


def _items(text: str, record: Format, reader: _Reader, alphabet: str) -> Iterator:
    try:
        yield from record.read(text, reader, alphabet)
    except _TooManyErrors:
        pass
    yield from reader.drain()


class TextWriter:
    """The text of grids written one after another in one format: the separator between grids, and
    a ``# box RxC`` line (:func:`shape_statement`) before each grid whose box shape a reader of the
    text so far would not assume, so that :func:`iter_grids` reads every grid back with its shape.

    :raises ValueError: for an unknown format or alphabet.
    """

    def __init__(self, format: str, alphabet: str | None = None) -> None:
        self.record, self.alphabet = format_record(format), _known_alphabet(alphabet)
        self.count = 0
        self.stated: Shape | None = None  # the last shape stated, which a reader applies from there on

    def text(self, shape: Shape, cells: np.ndarray) -> str:
        """The text of one more grid.  :raises ValueError: for a grid the format cannot hold."""
        body = self.record.write(shape, cells, self.alphabet)
        assumed = self.stated or Shape.for_side(shape.n)
        head = self.record.separator if self.count else ""
        if shape != assumed:  # (never in lloyd, whose square boxes are always the shape assumed)
            head += shape_statement(shape)
            self.stated = shape
        self.count += 1
        return head + body
