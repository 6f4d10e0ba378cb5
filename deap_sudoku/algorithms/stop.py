"""When a run ends: :class:`Stop`, its criteria and budgets, the poll that keeps them inside a
generation, and the reason a run ended (``logbook.stop_reason``)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..propagation.choice import take_up_compiled

__all__ = ["Stop", "Abandoned", "stop_reason", "no_poll", "INTERRUPTED", "HALTED", "POLL_SECONDS"]

INTERRUPTED = "interrupted"
"""``logbook.stop_reason`` of a run ended by :attr:`Stop.requested`."""
HALTED = "callback"
"""``logbook.stop_reason`` of a run ended by its callback returning a true value."""
POLL_SECONDS = 0.05
"""How often, at most, a generation asks :attr:`Stop.requested` between its children: a generation
of a large population takes seconds (a 36x36 memetic one of 5,000 took 6-13 s), and a stop
request is honoured within about this long plus one child's time, at any population size."""


class Abandoned(Exception):
    """A stop request met inside a generation (:meth:`Run.poll`): the generation is dropped and the
    run ends as it was when that generation began."""


@dataclass(frozen=True)
class Stop:
    """When a run ends; every criterion that is set applies, the first one met wins.

    ``solved``: the fitness of a solved grid: a number for a fitness of one objective (0 for
    collisions, 243 for distinct values of a 9x9), a tuple with a value per objective for one of
    several (:meth:`meets`). ``stagnation``: the best equals the population
    mean (the block GA's local-minimum test). ``patience``: generations without
    improvement of the best ever. ``max_*`` are budgets; ``started`` is the
    :func:`time.perf_counter` reading ``max_seconds`` counts from (by default, when the loop
    begins; a recipe sets it on entry, so that building the first population is on the clock).  ``requested``: asked
    between generations; a true answer ends the run with reason
    :data:`INTERRUPTED` (``deap_sudoku.runs.interrupt.requested`` turns Ctrl-C
    into one).
    """

    solved: float | tuple[float, ...] | None = None
    stagnation: bool = False
    patience: int | None = None
    max_generations: int | None = None
    max_evaluations: int | None = None
    max_seconds: float | None = None
    started: float | None = None
    requested: Callable[[], object] | None = None

    def with_defaults(self, **fields) -> Stop:
        """This stop with ``fields`` where it leaves them unset (None): a recipe fills in what only it
        knows, the fitness of a solved grid and when its clock started, and keeps what its caller set.

        :raises TypeError: for a name that is not a field."""
        unset = {name: value for name, value in fields.items() if getattr(self, name, None) is None}
        return dataclasses.replace(self, **unset)

    def meets(self, values: tuple) -> bool:
        """Whether fitness ``values`` are those of a solved grid (:attr:`solved`), every objective
        judged: a number judges a fitness of one objective, a tuple one of as many.

        :raises ValueError: when :attr:`solved` cannot judge ``values``: a number for a fitness of
            several objectives (a grid whose first objective is 0 may still clash in another unit),
            or a tuple of another length.
        """
        if self.solved is None:
            return False
        if isinstance(self.solved, tuple):
            if len(self.solved) != len(values):
                raise ValueError(
                    f"Stop(solved={self.solved}) judges {len(self.solved)} objectives, but this fitness has "
                    f"{len(values)} ({tuple(values)})"
                )
            return tuple(values) == self.solved
        if len(values) != 1:
            raise ValueError(
                f"Stop(solved={self.solved:g}) judges one objective, but this fitness has {len(values)} "
                f"({tuple(values)}): give solved a tuple with the value of a solved grid for every objective, "
                f"e.g. solved={(self.solved,) * len(values)}"
            )
        return values[0] == self.solved

    def poller(self, started: float | None = None) -> Callable[[], None]:
        """A function to call between children: it raises :class:`Abandoned` once :attr:`requested`
        answers true, asking at most every :data:`POLL_SECONDS` (``requested`` may look at a file),
        and, given the run's ``started``, once ``max_seconds`` have passed since then, so that a time
        budget is kept inside a long generation too.  A run held on the kernels' Python twins takes
        the compiled ones up here once they are cached
        (:func:`~deap_sudoku.propagation.choice.take_up_compiled`)."""
        requested = self.requested
        deadline = started + self.max_seconds if started is not None and self.max_seconds is not None else None
        if requested is None and deadline is None:
            return no_poll
        due = [time.perf_counter() + POLL_SECONDS]

        def poll() -> None:
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                raise Abandoned
            if requested is not None and now >= due[0]:
                due[0] = now + POLL_SECONDS
                if requested():
                    raise Abandoned
            take_up_compiled(deadline)

        return poll

    def criteria(self) -> bool:
        """Whether any criterion other than :attr:`requested` is set (a run needs one to end)."""
        return any(
            value is not None and value is not False
            for name, value in vars(self).items()
            if name not in ("requested", "started")
        )


def no_poll() -> None:
    """The poll of a run without stop requests or a time budget."""


def stop_reason(
    stop: Stop, population: list, generation: int, evaluations: int, since_improvement: int, started: float
) -> str | None:
    """The first criterion of ``stop`` that the evaluated ``population`` meets (``"solved"``,
    ``"stagnation"``, ``"no improvement"``, ``"generations"``, ``"evaluations"``, ``"time"``), or None."""
    best = max(population, key=lambda ind: ind.fitness).fitness.values
    if stop.solved is not None and stop.meets(best):
        return "solved"
    values = [ind.fitness.values[0] for ind in population]
    if stop.stagnation and generation > 0 and best[0] == sum(values) / len(values):
        return "stagnation"
    if stop.patience is not None and since_improvement >= stop.patience:
        return "no improvement"
    if stop.max_generations is not None and generation >= stop.max_generations:
        return "generations"
    if stop.max_evaluations is not None and evaluations >= stop.max_evaluations:
        return "evaluations"
    if stop.max_seconds is not None and time.perf_counter() - started >= stop.max_seconds:
        return "time"
    return None
