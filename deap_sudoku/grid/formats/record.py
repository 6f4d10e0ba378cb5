"""The record of a file format, and the registry of formats by name that every reader, writer and
command takes them from."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from ..shape import Shape
from .reading import Reader

__all__ = ["Format", "FORMAT_RECORDS", "register_format", "format_record"]


@dataclass(frozen=True)
class Format:
    """One file format: all the code that knows it.  ``read(text, reader, alphabet)`` yields its
    grids and errors through a :class:`Reader`; ``write(shape, cells, alphabet)`` is one grid's
    text; ``looks_like(lines, sides)`` says whether the first content lines of a text are in this
    format (the records are asked in ``detection`` order); ``separator`` goes between two grids;
    ``alphabets`` says whether the ``alphabet`` argument applies."""

    name: str
    summary: str
    read: Callable[[str, Reader, str], Iterator]
    write: Callable[[Shape, np.ndarray, str], str]
    looks_like: Callable[[list[str], frozenset[int]], bool]
    detection: int
    separator: str = ""
    alphabets: bool = True


FORMAT_RECORDS: dict[str, Format] = {}
"""Every format by name, the package's own (each registered at the end of its module) and any a
user registered with :func:`register_format`.

:meta hide-value:
"""


def register_format(record: Format, *, replace: bool = False) -> Format:
    """Make ``record`` a format that ``read``, ``write``, ``loads``, ``dumps``, ``detect_format``,
    ``Puzzle.parse`` and ``Puzzle.format`` know by its name; returns it.

    :raises ValueError: for a name already taken, unless ``replace``.
    """
    if not isinstance(record, Format):
        raise TypeError(f"register_format takes a Format record, not {type(record).__name__}")
    if record.name in FORMAT_RECORDS and not replace:
        raise ValueError(f"a format called {record.name!r} exists; pass replace=True to replace it")
    FORMAT_RECORDS[record.name] = record
    return record


def format_record(name: str) -> Format:
    """The record of the format called ``name``.

    :raises ValueError: for an unknown format.
    """
    try:
        return FORMAT_RECORDS[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; choose from {', '.join(FORMAT_RECORDS)}") from None
