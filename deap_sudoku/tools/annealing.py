"""Simulated annealing's parts: the Metropolis acceptance rule and a cooling schedule with reheats.

After R. Lewis, "Metaheuristics can solve sudoku puzzles", Journal of Heuristics 13(4), 2007: the
initial temperature is the standard deviation of the cost over a small sample of neighbourhood
moves, the temperature is multiplied by ``alpha`` after each Markov chain, and after
``reheat_after`` chains without an improvement it goes back to the initial value; a move swaps two
free cells of one box (:class:`BoxSwaps`).  Any search can use them:
:func:`deap_sudoku.algorithms.simulated_annealing` is composed of them (registered in a toolbox),
with its moves scored incrementally.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..grid.puzzle import Puzzle
from .free_cells import free_cells
from .individual import Individual

__all__ = ["metropolis", "initial_temperature", "GeometricSchedule", "BoxSwaps"]


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


class BoxSwaps:
    """The annealing's neighbourhood on ``puzzle``: a swap of two free cells of one box.

    ``first="cell"`` (Lewis 2007, §2.1): the first cell drawn uniformly over the free cells of the
    grid (of boxes with two or more), "to stop a sampling bias towards squares with less non-fixed
    values"; ``"box"``: a box drawn uniformly first, then a cell of it (each box as likely however
    few its free cells).  The second cell is another free cell of the first one's box, drawn
    uniformly.  :meth:`draw` names a swap (a search that scores it incrementally applies it);
    :meth:`mutate` makes one in place, DEAP's mutation contract.  Every draw comes from ``rng``.
    """

    def __init__(self, puzzle: Puzzle, *, first: str = "cell", rng: random.Random) -> None:
        if first not in ("cell", "box"):
            raise ValueError(f"first is 'cell' or 'box'; got {first!r}")
        self.first, self.rng, self.random = first, rng, rng.random
        self.boxes = [cells.tolist() for cells in free_cells(puzzle).boxes if len(cells) >= 2]
        self.firsts = [(cells, i) for cells in self.boxes for i in range(len(cells))]
        self.draw = self._by_cell if first == "cell" else self._by_box

    def _by_cell(self) -> tuple[int, int]:
        cells, i = self.firsts[int(self.random() * len(self.firsts))]
        j = int(self.random() * (len(cells) - 1))
        return cells[i], cells[j + (j >= i)]  # two distinct cells of the box

    def _by_box(self) -> tuple[int, int]:
        cells = self.boxes[int(self.random() * len(self.boxes))]
        i = int(self.random() * len(cells))
        j = int(self.random() * (len(cells) - 1))
        return cells[i], cells[j + (j >= i)]

    def mutate(self, individual: Individual) -> tuple[Individual]:
        """Swap two free cells of one box of ``individual`` in place (none when no box has two)."""
        if self.boxes:
            a, b = self.draw()
            individual[a], individual[b] = individual[b], individual[a]
        return (individual,)
