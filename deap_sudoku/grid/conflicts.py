"""Conflicts between givens: values repeated in a unit, and values out of range, found on plain arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .shape import Shape

__all__ = ["Conflict", "find_conflicts", "clashing_cells", "problems", "value_dtype", "have_conflicts"]


def value_dtype(n: int) -> np.dtype:
    """The smallest unsigned dtype that holds the values ``0..n``."""
    return np.dtype(np.uint8 if n < 256 else np.uint16)


@dataclass(frozen=True)
class Conflict:
    """A value that stands more than once in one unit: which unit, value and cells."""

    unit: int
    value: int
    cells: tuple[int, ...]

    def describe(self, shape: Shape) -> str:
        cells = " and ".join(shape.cell_name(c) for c in self.cells)
        times = "twice" if len(self.cells) == 2 else f"{len(self.cells)} times"
        return f"{shape.unit_name(self.unit)} has {self.value} {times}: {cells}"


def find_conflicts(shape: Shape, cells: np.ndarray) -> list[Conflict]:
    """Every value repeated inside a unit (empty cells ignored), in unit order."""
    conflicts = []
    unit_values = cells[shape.units]
    # A quick vectorised count first: most grids have no conflict at all.  (bincount, not np.add.at:
    # a tenth of the time, and a solver's answer passes through here on its way out.)
    units, width = len(shape.units), max(shape.n, int(cells.max(initial=0))) + 1
    slots = (np.arange(units) * width)[:, None] + unit_values
    counts = np.bincount(slots.ravel(), minlength=units * width).reshape(units, width)
    counts[:, 0] = 0
    for unit, value in zip(*np.nonzero(counts > 1)):
        where = shape.units[unit][unit_values[unit] == value]
        conflicts.append(Conflict(int(unit), int(value), tuple(int(c) for c in where)))
    return conflicts


def have_conflicts(shape: Shape, grids: np.ndarray) -> np.ndarray:
    """One bool per row of ``grids`` (``(k, n*n)`` values in range): whether that grid repeats a
    non-zero value in a unit.  The readers' batched test; :func:`find_conflicts` says which."""
    units = np.sort(grids[:, shape.units], axis=-1)  # (k, 3n, n)
    repeated = (units[..., 1:] == units[..., :-1]) & (units[..., 1:] > 0)
    return repeated.any(axis=(1, 2))


def clashing_cells(shape: Shape, cells: np.ndarray) -> np.ndarray:
    """One bool per cell: whether another cell of its row, column or box holds its (non-zero) value,
    i.e. whether it is in one of :func:`find_conflicts`'s conflicts."""
    result = np.zeros(shape.cells, dtype=bool)
    for conflict in find_conflicts(shape, np.asarray(cells).ravel()):
        result[list(conflict.cells)] = True
    return result


def problems(shape: Shape, cells: np.ndarray) -> list[tuple[str, int]]:
    """What makes ``cells`` an invalid puzzle: ``(message, cell)`` pairs, the cell to blame."""
    found = []
    for cell in np.flatnonzero(cells > shape.n):
        found.append(
            (
                f"value {int(cells[cell])} at {shape.cell_name(int(cell))} is out of range "
                f"1..{shape.n} for a {shape.name} grid",
                int(cell),
            )
        )
    if not found:
        found = [(c.describe(shape), c.cells[-1]) for c in find_conflicts(shape, cells)]
    return found
