"""How grids show themselves: bordered text for terminals, bordered HTML tables for notebooks.

Givens are bold and clashing cells (a value another cell of one of its units also
holds) are marked, so the best grid of a run shows at a glance where it is wrong:
``show(best, puzzle)`` in a notebook cell, or ``print(show(best, puzzle))``.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .conflicts import clashing_cells
from .shape import Shape

__all__ = ["format_grid", "grid_html", "GridView", "show"]

CLASH_BACKGROUND = "#f6c4c4"
"""The HTML background of a clashing cell (its value is also dark red, and the cell is described in its title)."""


def format_grid(
    shape: Shape,
    cells: np.ndarray,
    *,
    empty: str = ".",
    marks: np.ndarray | None = None,
    highlight: Callable[[str], str] | None = None,
) -> str:
    """An ASCII picture of a grid with box borders; values right-aligned, ``empty`` for 0.

    With ``marks`` (one bool per cell), each marked cell is followed by ``*``, or, with
    ``highlight``, drawn as ``highlight`` makes it (a terminal's colour, say) in the picture's own
    layout.
    """
    n = shape.n
    starred = marks is not None and highlight is None
    width = len(str(n)) + starred
    values = np.asarray(cells).reshape(n, n).tolist()
    marked = np.zeros((n, n), dtype=bool) if marks is None else np.asarray(marks, dtype=bool).reshape(n, n)

    def text(value: int, mark: bool) -> str:
        shown = str(value) if value else empty
        if starred:
            return (shown + ("*" if mark else " ")).rjust(width)
        if mark and highlight is not None:
            return " " * (width - len(shown)) + highlight(shown)  # padded outside, so escapes do not count
        return shown.rjust(width)

    text_rows = []
    for r, row in enumerate(values):
        if r and r % shape.box_rows == 0:
            stack = "-" * (shape.box_cols * (width + 1) + 1)
            text_rows.append("+".join([stack[1:]] + [stack] * (shape.box_rows - 2) + [stack[:-1]]))
        stacks = [
            " ".join(
                text(v, m)
                for v, m in zip(
                    row[s * shape.box_cols : (s + 1) * shape.box_cols],
                    marked[r, s * shape.box_cols : (s + 1) * shape.box_cols],
                )
            )
            for s in range(shape.box_rows)
        ]
        text_rows.append(" | ".join(stacks).rstrip() if starred else " | ".join(stacks))
    return "\n".join(text_rows)


def _side(shape: Shape, index: int, boxes: int) -> str:
    return "2px solid #222" if index % boxes == 0 else "1px solid #bbb"


def grid_html(
    shape: Shape,
    cells: np.ndarray,
    *,
    givens: np.ndarray | None = None,
    clashes: np.ndarray | None = None,
    caption: str = "",
) -> str:
    """A self-contained HTML table of the grid: box borders, givens bold, clashes on a red background.

    Inline styles only, so notebooks and static pages render it without a stylesheet.
    """
    n = shape.n
    values = np.asarray(cells).ravel()
    bold = np.zeros(shape.cells, dtype=bool) if givens is None else np.asarray(givens, dtype=bool).ravel()
    marked = np.zeros(shape.cells, dtype=bool) if clashes is None else np.asarray(clashes, dtype=bool).ravel()
    size = 1.9 if n <= 16 else 1.5
    rows = []
    for r in range(n):
        tds = []
        for c in range(n):
            cell = r * n + c
            style = [
                f"border-top:{_side(shape, r, shape.box_rows)}",
                f"border-left:{_side(shape, c, shape.box_cols)}",
                "border-bottom:2px solid #222" if r == n - 1 else "",
                "border-right:2px solid #222" if c == n - 1 else "",
                f"width:{size}em",
                f"height:{size}em",
                "text-align:center",
                "padding:0",
                "font-weight:bold" if bold[cell] else "color:#1f4e9c",
                f"background:{CLASH_BACKGROUND};color:#8b0000" if marked[cell] else "",
            ]
            title = shape.cell_name(cell) + (", given" if bold[cell] else "") + (", clashes" if marked[cell] else "")
            text = str(int(values[cell])) if values[cell] else ""
            tds.append(f'<td style="{";".join(s for s in style if s)}" title="{title}">{text}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    caption_style = "caption-side:top;text-align:left;font-family:sans-serif;white-space:nowrap;padding-bottom:4px"
    head = f'<caption style="{caption_style}">{html.escape(caption)}</caption>' if caption else ""
    return (
        f'<table style="border-collapse:collapse;font-family:monospace;font-size:{11 if n > 16 else 14}px">'
        f"{head}{''.join(rows)}</table>"
    )


@dataclass(frozen=True, eq=False)
class GridView:
    """A grid to look at: ``print`` it for bordered text (clashes marked ``*``), or leave it as a
    notebook cell's value for a bordered HTML table (givens bold, clashes red)."""

    shape: Shape
    cells: np.ndarray
    givens: np.ndarray
    clashes: np.ndarray
    caption: str = ""
    changed: np.ndarray | None = None
    """One bool per cell: a given of the puzzle that the grid holds another value in (marked like a clash)."""

    @property
    def clash_count(self) -> int:
        """How many cells clash."""
        return int(self.clashes.sum())

    @property
    def changed_count(self) -> int:
        """How many givens of the puzzle the grid changes."""
        return 0 if self.changed is None else int(self.changed.sum())

    @property
    def empty_count(self) -> int:
        """How many cells are empty."""
        return int(np.count_nonzero(np.asarray(self.cells) == 0))

    def _summary(self) -> str:
        wrong = [
            f"{count} {what}"
            for count, what in (
                (self.clash_count, "cells clash"),
                (self.changed_count, "givens changed"),
                (self.empty_count, "cells empty"),
            )
            if count
        ]
        return ", ".join(part for part in (self.caption, self.shape.name, ", ".join(wrong) or "no clashes") if part)

    def _marked(self) -> np.ndarray:
        return self.clashes if self.changed is None else self.clashes | self.changed

    def __str__(self) -> str:
        marks = self._marked() if self._marked().any() else None
        return f"{self._summary()}\n{format_grid(self.shape, self.cells, marks=marks)}"

    def __repr__(self) -> str:
        return f"<GridView {self._summary()}>"

    def _repr_html_(self) -> str:
        return grid_html(self.shape, self.cells, givens=self.givens, clashes=self._marked(), caption=self._summary())


def show(grid: np.ndarray, puzzle: object | None = None, *, caption: str | None = None) -> GridView:
    """``grid`` (an individual, array or list of the whole grid) as a :class:`GridView`.

    With ``puzzle`` (a :class:`~deap_sudoku.grid.puzzle.Puzzle`, or a
    :class:`~deap_sudoku.grid.shape.Shape`) its box shape and givens are used,
    and a given the grid changes is marked and counted like a clash; empty
    cells are counted too, so "no clashes" means a full grid that keeps them;
    without, the conventional box shape for the grid's size and no givens.  The
    caption defaults to the grid's fitness, when it has a valid one: ``collisions 3``,
    named by the fitness function that scored it (the package's ``eval_*`` functions and
    ``batch_map`` name what they score), else ``fitness 3``.
    """
    cells = np.asarray(grid).ravel()
    shape = puzzle if isinstance(puzzle, Shape) else getattr(puzzle, "shape", None) or Shape.for_cells(cells.size)
    if cells.size != shape.cells:
        raise ValueError(f"a grid of {cells.size} cells does not fit {shape.name}")
    givens = getattr(puzzle, "givens", np.zeros(shape.cells, dtype=bool))
    given_values = getattr(puzzle, "cells", None)
    changed = None if given_values is None else givens & (cells != given_values)
    if caption is None:
        caption = _fitness_caption(getattr(grid, "fitness", None))
    return GridView(shape, cells, givens, clashing_cells(shape, cells), caption, changed)


def _fitness_caption(fitness: Any) -> str:
    """A DEAP fitness as a caption: ``collisions 3`` (its ``name``, which the fitness function that
    scored it gives, and its values as numbers, ``3, 5`` for two objectives), ``fitness 3`` when
    unnamed, nothing when it is missing or invalid."""
    if fitness is None or not getattr(fitness, "valid", False):
        return ""
    values = ", ".join(f"{value:g}" for value in fitness.values)
    return f"{getattr(fitness, 'name', None) or 'fitness'} {values}"
