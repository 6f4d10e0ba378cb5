"""Text formats of grids: parse and format several grids per text, detect the format.

This is the codec under :meth:`Puzzle.parse <deap_sudoku.grid.puzzle.Puzzle.parse>` and
:mod:`deap_sudoku.io.formats`; it works on shapes and value arrays, so it needs nothing above the
grid geometry.  A format is one module here, ending in its :class:`Format` record, which it
registers (:func:`register_format`) when this package imports every module it holds; everything
else reads the records.  The package's formats:

:mod:`~.line`
    One puzzle per line, ``n*n`` symbols row-major.  Symbols come from an alphabet: ``digits``
    (1-9 then A-Z, the default), ``hex`` (0-9 then a-z for 1, 2, ...: the 0-f of 16x16 tools) or
    ``letters`` (a-z for 1, 2, ...: the a-y of 25x25 tools), read in either case.
:mod:`~.grid`
    One grid row per line, values separated by white space, a blank line between puzzles.
:mod:`~.dash`
    One grid row per line as single symbols, ``-`` for empty.
:mod:`~.lloyd`
    The instances of Lloyd & Amos's ACO benchmark.

A format of one's own is a :class:`Format` record made of three functions that use the public
names of :mod:`~.reading` (:class:`Reader`, :class:`Draft`, :func:`content_lines`), given to
:func:`register_format`; ``read``, ``write``, ``loads``, ``dumps``, ``detect_format``,
``Puzzle.parse`` and ``Puzzle.format`` then know it by its name.

Box shapes.  A side alone names a box shape only by convention: 6x6 and 12x12 grids come in 2x3
and 3x2 (3x4 and 4x3) boxes.  Readers assume the squarest shape with fewer rows than columns
(:func:`~deap_sudoku.grid.shape.box_shapes_for_side`) unless told otherwise, by the caller
(``box=``, ``--box``) or by the file:

- a comment line ``# box RxC`` in the line, grid and dash formats states the shape of every
  puzzle after it, up to the next such line; the writers put one before each puzzle whose shape a
  reader would not assume;
- box borders in the grid format (the ``|`` and ``---+---`` lines of ``str(puzzle)``) state the
  shape of the puzzle they draw;
- the lloyd format holds square boxes only, and its writer refuses others.

A puzzle that breaks the shape its file states is an error naming the line; a puzzle with clashes
under the assumed shape and none under another shape of its side is an error that names that
shape and ``--box``.  Every reader reports every bad puzzle of a file at once, each error naming
the source, line and column.
"""

from __future__ import annotations

import importlib
import pkgutil

from .codec import TextWriter, detect_format, iter_grids
from .reading import ALPHABETS, MAX_ERRORS, Draft, Reader, content_lines, shape_statement
from .record import FORMAT_RECORDS, Format, format_record, register_format

__all__ = [
    "Format",
    "FORMAT_RECORDS",
    "FORMATS",
    "ALPHABETS",
    "MAX_ERRORS",
    "Draft",
    "Reader",
    "content_lines",
    "detect_format",
    "iter_grids",
    "format_record",
    "register_format",
    "shape_statement",
    "TextWriter",
]

SHARED = ("codec", "reading", "record", "rows")
"""The modules here that hold no format: every other one is a format, imported (and so registered)
below, so that a new format is one new file."""
for _module in pkgutil.iter_modules(__path__):
    if _module.name not in SHARED:
        importlib.import_module(f"{__name__}.{_module.name}")

FORMATS = tuple(sorted(FORMAT_RECORDS))
"""The package's own formats, by name (the choices of the commands' ``--format``)."""
