"""Where an operator draws from: the ``random.Random`` it was given, else the ``random`` module.

DEAP's own operators draw from the ``random`` module, so ``random.seed(s)`` before ``eaSimple``
makes a run reproducible; the package's operators do the same when no ``rng`` is registered with
them, and draw from their own generator when one is (``toolbox.register(..., rng=rng)``).
"""

from __future__ import annotations

import random

__all__ = ["random_source"]


def random_source(rng: random.Random | None):
    """``rng``, or the ``random`` module when it is ``None``."""
    return random if rng is None else rng
