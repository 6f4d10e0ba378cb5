"""Simulated annealing's parts: the Metropolis acceptance rule and a cooling schedule with reheats.

After R. Lewis, "Metaheuristics can solve sudoku puzzles", Journal of Heuristics 13(4), 2007: the
initial temperature is the standard deviation of the cost over a small sample of neighbourhood
moves, the temperature is multiplied by ``alpha`` after each Markov chain, and after
``reheat_after`` chains without an improvement it goes back to the initial value.  Any search can
use them: :func:`deap_sudoku.algorithms.simulated_annealing` does, with its moves scored
incrementally.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["metropolis", "initial_temperature", "GeometricSchedule"]


def metropolis(delta: float, temperature: float, *, rng: random.Random) -> bool:
    """Whether to take a move that changes a minimised cost by ``delta``: always when it does not
    make it worse, else with probability ``exp(-delta / temperature)`` (never at temperature 0).
    ``rng`` is drawn from only for a worsening move at a positive temperature."""
    if delta <= 0:
        return True
    return temperature > 0 and rng.random() < math.exp(-delta / temperature)


def initial_temperature(costs: Iterable[float]) -> float:
    """The standard deviation (population form) of ``costs``, the costs seen over a sample of
    neighbourhood moves; 0 for fewer than two.

    :raises TypeError: or ``ValueError`` for costs that are not numbers."""
    import statistics  # here, not at start-up: it brings decimal and fractions along (about 5 ms)

    values = [float(cost) for cost in costs]
    return statistics.pstdev(values) if len(values) >= 2 else 0.0


@dataclass
class GeometricSchedule:
    """A temperature that starts at ``initial``, is multiplied by ``alpha`` at the end of each Markov
    chain, and goes back to ``initial`` once ``reheat_after`` chains in a row have not improved: a
    chain improves when its lowest cost is below the chain before it's (``None``: never reheat).
    While the search wanders, some chain soon goes lower than the one before; once it is stuck in a
    local minimum none does.

    The search reports each chain's lowest cost to :meth:`end_chain`; :attr:`temperature` is the one
    to use for the next chain.  :attr:`chains`, :attr:`reheats` and :attr:`stale` (chains without an
    improvement since the last one, or the last reheat) say where it is.
    """

    initial: float
    alpha: float = 0.99
    reheat_after: int | None = None
    temperature: float = field(init=False)
    previous: float = field(init=False, default=math.inf)
    chains: int = field(init=False, default=0)
    stale: int = field(init=False, default=0)
    reheats: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        if not 0 < self.alpha <= 1:
            raise ValueError(f"alpha is in (0, 1]; got {self.alpha}")
        if self.reheat_after is not None and self.reheat_after < 1:
            raise ValueError(f"reheat_after is at least 1 chain, or None; got {self.reheat_after}")
        self.temperature = self.initial

    def end_chain(self, lowest: float) -> float:
        """End a chain whose lowest cost was ``lowest``: cool, or reheat; return the new temperature."""
        self.chains += 1
        self.stale = 0 if lowest < self.previous else self.stale + 1
        self.previous = lowest
        if self.reheat_after is not None and self.stale >= self.reheat_after:
            self.temperature, self.stale, self.previous = self.initial, 0, math.inf
            self.reheats += 1
        else:
            self.temperature *= self.alpha
        return self.temperature
