"""The one place a run's random generator is made from its seed (issue 61).

Every bundled recipe, colony, local search, exact solver and user function of :mod:`deap_sudoku.runs`
draws from the generator :func:`generator` makes, as pymoo seeds once in ``Algorithm.setup``; the
layers below (``tools``, ``exact``, ``algorithms``) only take an ``rng`` and never seed one
themselves.  ``tests/test_architecture.py`` keeps ``random.Random(`` out of every other module of
``runs/`` and ``cli/``.
"""

from __future__ import annotations

import random

__all__ = ["generator"]


def generator(seed: int | None) -> random.Random:
    """The generator a run with ``seed`` draws from: :class:`random.Random` seeded with it, so that
    the same seed gives the same run, draw for draw."""
    return random.Random(seed)
