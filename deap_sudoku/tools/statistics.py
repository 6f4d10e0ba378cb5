"""What a run keeps: statistics as DEAP's examples log them, and a hall of fame for grid individuals."""

from __future__ import annotations

import numpy as np
from deap import tools

__all__ = ["fitness_statistics", "HallOfFame"]


class HallOfFame(tools.HallOfFame):
    """DEAP's ``HallOfFame`` that tells grids apart by their values (``numpy.array_equal``).

    DEAP's default ``similar`` is ``operator.eq``, which compares numpy individuals
    cell by cell and fails with "truth value of an array is ambiguous"; this one
    works for numpy and ``creator`` list individuals alike: ``HallOfFame(1)``.
    """

    def __init__(self, maxsize: int, similar=np.array_equal) -> None:
        super().__init__(maxsize, similar)


def _minimum(values) -> float:
    return float(np.min(values))


def _mean(values) -> float:
    return float(np.mean(values))


def _maximum(values) -> float:
    return float(np.max(values))


def fitness_statistics() -> tools.Statistics:
    """``min``, ``avg`` and ``max`` of the first objective: register it as ``stats=`` of any loop.

    The logbook gets plain Python floats, not numpy scalars, so that a logbook left as a notebook
    cell's value (or its ``repr``) reads ``'min': 12.0``, not ``'min': np.float64(12.0)``."""
    stats = tools.Statistics(_first_objective)
    stats.register("min", _minimum)
    stats.register("avg", _mean)
    stats.register("max", _maximum)
    return stats


def _first_objective(individual) -> float:
    return individual.fitness.values[0]
