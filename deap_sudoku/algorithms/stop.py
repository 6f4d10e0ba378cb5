"""When a run ends: :class:`Stop`, its criteria and budgets, the poll that keeps them inside a
generation, and the reason a run ended (``logbook.stop_reason``)."""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..propagation.choice import take_up_compiled

__all__ = ["Stop", "Abandoned", "stop_reason", "no_poll", "given_stop", "INTERRUPTED", "HALTED", "POLL_SECONDS"]

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
    max_steps: int | None = None
    """Moves of a local search (tabu, annealing, the iterated local search); a GA has none."""
    max_nodes: int | None = None
    """Nodes of an exact search (:meth:`search_limits` hands it on); a GA has none."""

    def begun(self, now: float | None = None) -> Stop:
        """This stop with its clock started (:attr:`started`) now, or at ``now``, unless it already is:
        a loop calls it on entry, so that a caller's earlier start (``deap-sudoku solve`` counts the
        loading of the kernels) is kept."""
        if self.started is not None:
            return self
        return dataclasses.replace(self, started=time.perf_counter() if now is None else now)

    def elapsed(self) -> float:
        """Seconds since :attr:`started` (0 on a stop whose clock has not begun)."""
        return 0.0 if self.started is None else time.perf_counter() - self.started

    def seconds_left(self) -> float | None:
        """What is left of :attr:`max_seconds` since :attr:`started` (negative once overrun), None
        without a time budget: the one place a run's time left is worked out."""
        if self.max_seconds is None:
            return None
        return self.max_seconds - self.elapsed()

    def out_of_time(self) -> bool:
        """Whether :attr:`max_seconds` have passed since :attr:`started`."""
        left = self.seconds_left()
        return left is not None and left <= 0

    def spent(self, steps: int | None = None, evaluations: int | None = None, ask: bool = False) -> str:
        """Which budget a local search has spent, asked between its moves: ``"steps"`` (of
        :attr:`max_steps`, when ``steps`` is given), ``"evaluations"`` (likewise), ``"time"``, and,
        when ``ask`` (a loop asks every so many moves: ``requested`` may look at a file),
        :data:`INTERRUPTED` on a stop requested; ``""`` to go on."""
        if steps is not None and steps >= self.limit("max_steps"):
            return "steps"
        if evaluations is not None and evaluations >= self.limit("max_evaluations"):
            return "evaluations"
        if self.out_of_time():
            return "time"
        if ask and self.requested is not None and self.requested():
            return INTERRUPTED
        return ""

    def limit(self, name: str) -> float:
        """The budget ``name`` (``"max_steps"``, ``"max_evaluations"``, ...) as a number to compare
        counts with: infinity when it is unset."""
        value = getattr(self, name)
        return math.inf if value is None else value

    def search_limits(self, nodes: str | None = "max_nodes") -> dict[str, Any]:
        """This stop as an exact search's limits, the adapter between a run and
        :func:`~deap_sudoku.exact.solve` or :func:`~deap_sudoku.exact.solve_learning` (which lie
        below it and know no Stop): :attr:`max_nodes` under the solver's name for it, ``nodes``
        (None: the solver takes none), :attr:`max_seconds` and ``started``, the clock they count from."""
        limits: dict[str, Any] = {"max_seconds": self.max_seconds, "started": self.started}
        if nodes is not None:
            limits[nodes] = self.max_nodes
        return limits

    def deadline(self) -> float | None:
        """The :func:`time.perf_counter` reading at which the time budget runs out, None without one
        (or before the clock has begun, :meth:`begun`)."""
        if self.max_seconds is None or self.started is None:
            return None
        return self.started + self.max_seconds

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

    def poller(self) -> Callable[[], None]:
        """A function to call between children: it raises :class:`Abandoned` once :attr:`requested`
        answers true, asking at most every :data:`POLL_SECONDS` (``requested`` may look at a file),
        and, once its clock has begun (:attr:`started`), once ``max_seconds`` have passed since
        then (:meth:`deadline`), so that a time budget is kept inside a long generation too.  A run
        held on the kernels' Python twins takes the compiled ones up here once they are cached
        (:func:`~deap_sudoku.propagation.choice.take_up_compiled`)."""
        requested = self.requested
        deadline = self.deadline()
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
        """Whether any criterion a generation loop reads, other than :attr:`requested`, is set (a run
        needs one to end): :attr:`max_steps` and :attr:`max_nodes` are local and exact searches'."""
        return any(
            value is not None and value is not False
            for name, value in vars(self).items()
            if name not in ("requested", "started", "max_steps", "max_nodes")
        )


def no_poll() -> None:
    """The poll of a run without stop requests or a time budget."""


def stop_reason(
    stop: Stop,
    population: list,
    generation: int,
    evaluations: int,
    since_improvement: int,
) -> str | None:
    """The first criterion of ``stop`` that the evaluated ``population`` meets (``"solved"``,
    ``"stagnation"``, ``"no improvement"``, ``"generations"``, ``"evaluations"``, ``"time"``), or None.
    The time is counted from ``stop``'s :attr:`~Stop.started` (:meth:`Stop.out_of_time`)."""
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
    if stop.out_of_time():
        return "time"
    return None


def given_stop(stop: Stop | None, loop: str, defaults: dict[str, object], **loose: object) -> Stop:
    """The :class:`Stop` a loop reads, its clock begun (:meth:`Stop.begun`): ``stop`` as given, or,
    without one, a Stop of the loose budget keywords of a user's call (``max_steps=``,
    ``max_seconds=``, ``requested=``, ``started=``, ...), the edge where a run's stop is built.

    :raises TypeError: for ``stop`` given beside a loose keyword that is not at its default
        (``defaults``): the run's budgets are one or the other."""
    if stop is None:
        return Stop(**loose).begun()  # type: ignore[arg-type]
    clash = [name for name, value in loose.items() if value != defaults.get(name)]
    if clash:
        raise TypeError(f"{loop}: give the budgets in stop=Stop(...) or as keywords, not both ({', '.join(clash)})")
    return stop.begun()
