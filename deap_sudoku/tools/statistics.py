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


def fitness_statistics() -> tools.Statistics:
    """``min``, ``avg`` and ``max`` of the first objective: register it as ``stats=`` of any loop."""
    stats = tools.Statistics(lambda ind: ind.fitness.values[0])
    stats.register("min", np.min)
    stats.register("avg", np.mean)
    stats.register("max", np.max)
    return stats
