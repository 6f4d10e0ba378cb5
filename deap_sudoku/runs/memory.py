"""What one individual costs a run, by the family of algorithms it belongs to: the figures the
command line's population guard charges (``--population`` refused before any work where the run
would not fit), kept beside the catalogue so that a record names its family
(:attr:`~deap_sudoku.runs.record.Algorithm.memory`) and the command line names no algorithm."""

from __future__ import annotations

__all__ = ["POPULATION_BYTES", "ALLOCATOR_MARGIN", "population_bytes"]

POPULATION_BYTES = {
    "ga": ((16, 2812), (81, 3150), (256, 3740), (625, 4597), (1296, 6740)),
    "lsga": ((16, 3067), (81, 3929), (256, 5907), (625, 9750), (1296, 17402)),
    "colony": ((16, 2238), (81, 4478), (256, 10389), (625, 22933), (1296, 45744)),
}
"""For each family, (cells, bytes): what one individual costs a run at that size (a GA's grid,
fitness and offspring; an ant's grid and its construction), the most of the algorithms whose
records name the family, traced by ``python benchmarks/population_memory.py``.  ``"ga"`` charges
every algorithm whose individuals cost no more than the GAs' (a user's too)."""
ALLOCATOR_MARGIN = 1.25


def population_bytes(cells: int, family: str) -> float:
    """Bytes a run allocates per individual of ``family`` (a key of :data:`POPULATION_BYTES`) on a
    grid of ``cells`` cells, a quarter more for the allocator, linear between the measured sizes
    and along the last slope beyond them."""
    points = POPULATION_BYTES[family]
    (low, low_cost), (high, high_cost) = next(
        ((a, b) for a, b in zip(points, points[1:]) if cells <= b[0]), points[-2:]
    )
    cost = low_cost + (high_cost - low_cost) * max(cells - low, 0) / (high - low)
    return ALLOCATOR_MARGIN * cost
