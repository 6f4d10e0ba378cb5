"""The rebuild at the heart of propagation repair, twice: a pure-Python reference and a numba kernel.

Both take the same inputs, random choices included (drawn beforehand by
:meth:`Draws.new`), and return the same grid, which the tests check; the
compiled one (in :mod:`deap_sudoku.algorithms.repair_kernel_compiled`, imported on first use) is
what the memetic GA runs (``benchmarks/repair_kernel.py`` measures the
difference).  Both propagate with the propagation layer's kernel and its twin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..grid.shape import Shape
from ..propagation import Tables, arrays, propagate_masks, tables
from ..propagation.choice import interrupted_kernel

__all__ = ["Draws", "rebuild_reference", "rebuild_compiled", "fill_boxes_reference", "fill_boxes"]


@dataclass(frozen=True)
class Draws:
    """The random choices of one rebuild: the order in which equally constrained cells are taken
    (a permutation of the open cells), a rank per cell and value (lower is tried first) and, per
    cell, whether to ignore the individual's own value."""

    order: np.ndarray
    ranks: np.ndarray
    ignore: np.ndarray

    @classmethod
    def new(cls, rng: np.random.Generator, open_cells: np.ndarray, cells: int, n: int, noise: float) -> Draws:
        return cls(
            rng.permutation(open_cells),
            rng.random((cells, n)),
            rng.random(cells) < noise if noise > 0 else np.zeros(cells, dtype=bool),
        )


def _choices(mask: int, n: int, ranks: list[float], preferred: int, ignore: bool) -> list[int]:
    values = sorted((v for v in range(1, n + 1) if mask >> (v - 1) & 1), key=lambda v: ranks[v - 1])
    if not ignore and preferred in values:
        values.remove(preferred)
        values.insert(0, preferred)
    return values


def rebuild_reference(
    root: list[int], values: list[int], keep: list[int], draws: Draws, shape: Shape, locked: bool = True
) -> tuple[list[int], int]:
    """Rebuild a grid under propagation; the pure-Python specification of :func:`rebuild_compiled`.

    The ``keep`` cells are fixed to ``values`` first in one propagation (all
    dropped if that contradicts).  Then, until every cell is decided, the most
    constrained open cell (first in ``draws.order`` among equals) takes the
    first value in its order (its own ``values[cell]`` first unless
    ``draws.ignore``, then by ``draws.ranks``) that propagation accepts; if
    none does, the cell *fails*: it takes the first value unpropagated (a
    collision) and its undecided peers lose that value.  Nothing is undone.
    Returns the values (0 where a cell lost every candidate) and the failures.
    """
    t = tables(shape)
    n = t.n
    cands = _kept(root, values, keep, t, locked)
    ranks, ignore = draws.ranks.tolist(), draws.ignore.tolist()
    open_cells = draws.order.tolist()
    failed = 0
    while True:
        open_cells = [c for c in open_cells if cands[c] & (cands[c] - 1)]
        if not open_cells:
            break
        cell = min(open_cells, key=lambda c: cands[c].bit_count())
        choices = _choices(cands[cell], n, ranks[cell], values[cell], ignore[cell])
        for v in choices:
            trial = cands.copy()
            trial[cell] = 1 << (v - 1)
            if propagate_masks(trial, [cell], t, hidden=True, locked=locked, dirty=set(t.cell_units[cell])):
                cands = trial
                break
        else:
            failed += 1
            bit = 1 << (choices[0] - 1)
            cands[cell] = bit
            for p in t.peers[cell]:
                if cands[p] & bit and cands[p] & (cands[p] - 1):
                    cands[p] &= ~bit
    return [m.bit_length() if m and not m & (m - 1) else 0 for m in cands], failed


def _kept(root: list[int], values: list[int], keep: list[int], t: Tables, locked: bool) -> list[int]:
    """The ``root`` candidates with the ``keep`` cells fixed to ``values`` in one propagation (those
    whose value ``root`` rules out left as they are), or ``root`` itself if that contradicts."""
    cands = list(root)
    if keep:
        queue = []
        for c in keep:
            bit = 1 << (values[c] - 1)
            if cands[c] & bit and cands[c] != bit:
                cands[c] = bit
                queue.append(c)
        if not propagate_masks(
            cands, queue, t, hidden=True, locked=locked, dirty={u for c in queue for u in t.cell_units[c]}
        ):
            cands = list(root)
    return cands


def rebuild_compiled(
    root: np.ndarray, values: np.ndarray, keep: np.ndarray, draws: Draws, shape: Shape, locked: bool = True
) -> tuple[np.ndarray, int]:
    """:func:`rebuild_reference` compiled with numba: int64 arrays in, the same grid out."""
    from .repair_kernel_compiled import rebuild

    t = arrays(shape)
    try:
        return rebuild(root, values, keep, draws.order, draws.ranks, draws.ignore, t.full, *t.kernel_args(), locked)
    except SystemError as error:
        interrupted_kernel(error)


def fill_boxes_reference(values: np.ndarray, boxes: np.ndarray, keys: np.ndarray) -> None:
    """Make every box of ``values`` (int64, in place) a permutation of 1..n: the pure-Python
    specification of :func:`fill_boxes`.

    ``boxes`` lists each box's cells in priority order: of two equal cells the
    earlier keeps its value.  Empty and repeated cells take the box's missing
    values, ordered by ``keys`` (one random float per box cell).
    """
    n = boxes.shape[1]
    for cells, box_keys in zip(boxes.tolist(), keys.tolist()):
        seen, redo = set(), []
        for c in cells:
            v = int(values[c])
            if 0 < v <= n and v not in seen:
                seen.add(v)
            else:
                redo.append(c)
        if redo:
            missing = [v for v in range(1, n + 1) if v not in seen]
            order = sorted(range(len(redo)), key=box_keys.__getitem__)
            for c, i in zip(redo, order):
                values[c] = missing[i]


def fill_boxes(values: np.ndarray, boxes: np.ndarray, keys: np.ndarray) -> None:
    """Make every box of ``values`` (int64, in place) a permutation of 1..n: compiled, see
    :func:`deap_sudoku.algorithms.repair_kernel_compiled.fill_boxes`."""
    from .repair_kernel_compiled import fill_boxes as compiled

    compiled(values, boxes, keys)
