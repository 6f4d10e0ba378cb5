"""Statistics as DEAP's examples log them, for any of this package's fitnesses."""

from __future__ import annotations

import numpy as np
from deap import tools

__all__ = ["fitness_statistics"]


def fitness_statistics() -> tools.Statistics:
    """``min``, ``avg`` and ``max`` of the first objective: register it as ``stats=`` of any loop."""
    stats = tools.Statistics(lambda ind: ind.fitness.values[0])
    stats.register("min", np.min)
    stats.register("avg", np.mean)
    stats.register("max", np.max)
    return stats
