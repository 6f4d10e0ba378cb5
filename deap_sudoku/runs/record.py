"""What an algorithm is to a run: its record, what a run gives back, and :func:`bundled`, which
declares a bundled algorithm where it is defined.

The modules of the catalogue (:mod:`deap_sudoku.runs.catalogue`) declare theirs with :func:`bundled`
and :func:`bundled_ga`; the registry, the command line's choices and option checks, and the tests
take the list from :data:`BUNDLED`, so adding an algorithm lists it nowhere else.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from ..algorithms.stop import Stop
from ..grid.puzzle import Puzzle
from ..tools.fitness import fitness_name, fitness_weights, optimum
from .composition import GA_ALIASES
from .memory import POPULATION_BYTES

__all__ = [
    "Algorithm",
    "Objective",
    "Trace",
    "Outcome",
    "BUNDLED",
    "bundled",
    "ga_run",
    "tabu_run",
    "generation_progress",
    "seeded_globals",
    "OPTIONS",
    "bundled_ga",
    "GA_OPTIONS",
    "STOP_OPTIONS",
    "recipe_stop",
    "COMPILING",
    "FOUND_BY",
    "KINDS",
    "found_by_run",
]

OPTIONS = (
    "population_size",
    "cxpb",
    "mutpb",
    "select",
    "fitness",
    "tournsize",
    "max_generations",
    "max_seconds",
    "max_evaluations",
    "max_steps",
    "max_nodes",
)
"""Every option a record may take, by its Python name, which is also the recipes' keyword (the
command line's flags are these with dashes, ``--max-seconds``, but for ``--population``)."""
GA_OPTIONS = ("population_size", "max_generations", "max_seconds", "max_evaluations")
"""The options every bundled GA takes."""
STOP_OPTIONS = ("max_generations", "max_seconds", "max_evaluations")
"""The options a GA recipe takes as fields of its ``stop``
(:class:`~deap_sudoku.algorithms.stop.Stop`), not as keywords."""
KINDS = ("ga", "local search", "colony", "exact", "auto", "user")
"""The kinds an algorithm can be, a closed set checked when its record is made (:class:`Algorithm`):
each has its "found by" phrase (:func:`found_by_run`) and the command line reads them, so a kind
outside it (a user's ``"swarm"``) is refused there with the kinds named, never run with an empty
``found_by``.  ``"auto"`` is ``solve``'s chooser (its answer says which algorithm found it); a
user's algorithm of no bundled kind is ``"user"`` (found by ``"algorithm"``)."""
FOUND_BY = {
    "seed search": "by the GA's exact-search seed",
    "first population": "in the GA's first population",
    "evolution": "by evolution",
    "propagation": "by propagation alone",
    "exact search": "by exact search",
    "start": "in the local search's start, before any move",
    "local search": "by local search",
    "ant colony": "by the ant colony",
    "algorithm": "",
}
"""What can find a run's answer: the memetic GA's exact-search seed (before any generation), a GA's
first population (the memetic GA's repaired by propagation), a GA's generations, propagation
alone (an exact solver's, or the propagated givens an ant colony or a local search starts from), an
exact search, a local search's start before any move, a local search's moves, an ant colony's ants,
and, for an algorithm of a kind none of these describes (a user's function), the algorithm; each
with the phrase ``solve``'s line says it with (the last names the algorithm instead)."""
COMPILING = "compiling the {name} kernels (first run only; later runs load them from numba's cache)"
"""A record's ``warm_up_message``, with ``name`` the kernels'."""


@dataclass(frozen=True)
class Objective:
    """What a run optimised: the fitness's name, the value of a solved grid and its direction."""

    name: str
    target: float
    lower_is_better: bool

    @classmethod
    def of(cls, evaluate: Callable, puzzle: Puzzle | None = None) -> Objective:
        """The objective of an ``eval_*`` function, or of a ``toolbox.evaluate`` registered with ``puzzle=``:
        its name without ``eval_``, its :func:`~deap_sudoku.tools.fitness.optimum` and its direction.

        :raises ValueError: for a fitness of several objectives: a run's record, its summaries and its
            plots compare runs on one."""
        name = fitness_name(evaluate)
        weights = fitness_weights(evaluate)
        if len(weights) != 1:
            raise ValueError(
                f"{name} has {len(weights)} objectives (weights {weights}); a run's record compares runs on one: "
                "register an evaluate of one objective (their sum, say) to run it as an algorithm"
            )
        return cls(name, float(optimum(evaluate, puzzle)), weights[0] < 0)  # type: ignore[arg-type]  # one objective

    def describe(self, value: float) -> str:
        """``fitness collisions 3 (target 0, lower is better)``."""
        direction = "lower" if self.lower_is_better else "higher"
        return f"{self.name} {value:g} (target {self.target:g}, {direction} is better)"


@dataclass(frozen=True)
class Trace:
    """A run's course for plots: ``x`` counts ``unit`` (generations or steps); each named series
    (``best`` and ``mean`` fitness of the population, or tabu's ``current`` and ``best`` score)
    has one value per ``x``."""

    unit: str
    x: tuple[int, ...]
    series: dict[str, tuple[float, ...]]
    evaluations: tuple[int, ...] | None = None
    """Fitness evaluations spent by each ``x`` (cumulative), where the algorithm counts them."""

    def within(self, budget: int) -> Trace:
        """The course up to ``budget`` evaluations: the points spent by then (the first at least)."""
        if self.evaluations is None:
            return self
        kept = max(1, sum(spent <= budget for spent in self.evaluations))
        return replace(
            self,
            x=self.x[:kept],
            series={name: values[:kept] for name, values in self.series.items()},
            evaluations=self.evaluations[:kept],
        )

    @classmethod
    def from_logbook(cls, logbook, lower_is_better: bool) -> Trace:
        """The course a logbook with ``gen``, ``nevals``, ``min``, ``avg`` and ``max`` records
        (``fitness_statistics()``) holds: the best of each generation, the mean, and the evaluations."""
        nevals = logbook.select("nevals")
        spent = tuple(itertools.accumulate(int(n) for n in nevals)) if None not in nevals else None
        return cls(
            "generation",
            tuple(logbook.select("gen")),
            {
                "best": tuple(map(float, logbook.select("min" if lower_is_better else "max"))),
                "mean": tuple(map(float, logbook.select("avg"))),
            },
            spent,
        )


@dataclass(frozen=True)
class Outcome:
    """What an algorithm gave: the best grid, its fitness (NaN for the exact solvers without an
    answer), generations (GAs), steps (tabu) and evaluations (fitness evaluations, or moves scored
    by tabu), what was optimised and how the run went (``None`` for exact solvers), and why it stopped."""

    grid: np.ndarray
    fitness: float
    generations: int
    steps: int
    evaluations: int
    note: str
    objective: Objective | None = None
    trace: Trace | None = None
    first_hit: int | None = None
    """The evaluation that first scored a solved grid's fitness (the first hitting time), counted from
    1; None when none did or the algorithm does not say."""
    found_by: str = ""
    """Which part of the algorithm found the answer, where it says (one of :data:`FOUND_BY`); left
    empty (or another word), :func:`found_by_run` tells it from the run."""


@dataclass(frozen=True)
class Algorithm:
    """One algorithm as runs see it.

    ``run(puzzle, seed=..., requested=..., progress=..., progress_every=..., checkpoint=..., **options)``
    returns an :class:`Outcome`; ``options`` are the names in ``options`` (see :data:`OPTIONS`), and
    ``choices`` lists the values a named option takes.  ``checkpointable``: takes ``checkpoint=``.
    ``stoppable``: asks ``requested()`` at safe points and returns its best so far (the others are
    stopped by ``KeyboardInterrupt``); ``progress(line)`` then receives a line every
    ``progress_every`` generations (GAs) or steps (tabu).  ``warm_up(puzzle, compiled)`` compiles
    or loads the compiled kernels a run on such a puzzle needs (``compiled=None``: only those
    :mod:`~deap_sudoku.propagation.choice` would use from the start), so that the run's clock does
    not count them; ``warm_up_message`` says what it does.  ``warm_up_first``, where a run needs only
    part of those kernels from its start (cdcl: its loop, not the exact search ``--unique`` asks
    after it), warms that part up: a first-ever compilation in the background does it first, and a
    run under a time budget takes those kernels up as soon as they are cached.  A run given ``started=`` (a
    :func:`time.perf_counter` reading; only when a caller of
    :func:`~deap_sudoku.runs.task.run_task` gives one) counts ``max_seconds`` from then.
    """

    name: str
    kind: str
    description: str
    run: Callable[..., Outcome]
    options: tuple[str, ...] = ()
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    checkpointable: bool = False
    stoppable: bool = False
    warm_up: Callable[[Puzzle, bool | None], None] | None = None
    warm_up_message: str = ""
    warm_up_first: Callable[[Puzzle, bool | None], None] | None = None
    source: str = "bundled"
    """Where the record comes from, ``bundled``, ``plug-in <distribution>`` or ``import path``."""
    function: Callable | None = None
    """The function the record was declared on with :func:`bundled`, a recipe or the run itself."""
    example: str | None = None
    """The script in ``examples/`` that writes the recipe's composition out (``memetic``)."""
    operators: tuple[str, ...] = ()
    """A GA recipe's toolbox aliases, those :func:`~deap_sudoku.runs.user.with_operators` may replace."""
    memory: str = "ga"
    """The family whose figures say what one individual costs a run (a key of
    :data:`~deap_sudoku.runs.memory.POPULATION_BYTES`): the command line's ``--population`` guard."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(
                f"algorithm {self.name!r} is of kind {self.kind!r}, not one of {', '.join(map(repr, KINDS))}"
                ' (a kind of your own: "user")'
            )
        if self.memory not in POPULATION_BYTES:
            raise ValueError(
                f"algorithm {self.name!r} names the memory family {self.memory!r}, not one of "
                f"{', '.join(map(repr, POPULATION_BYTES))}"
            )

    @property
    def watchable(self) -> bool:
        """Whether a run takes ``watch=``, a hook called as ``watch(generation, population, logbook)``
        after every generation (the GAs and the ant colonies), to show the population evolving."""
        try:
            return "watch" in inspect.signature(self.run).parameters
        except (TypeError, ValueError):
            return False

    @property
    def traced(self) -> bool:
        """Whether a run's :class:`Outcome` has an objective and a trace to plot (GAs and tabu search)."""
        return self.kind != "exact"


def generation_progress(
    progress: Callable[[str], None] | None, every: int, watch: Callable[[int, list, object], object] | None = None
) -> Callable | None:
    """A loop's ``callback`` that hands ``progress`` a line every ``every`` generations and ``watch``
    (a DEAP-style hook, ``watch(generation, population, logbook)``) every generation; None without
    either."""
    if progress is None and watch is None:
        return None

    def callback(generation, population, logbook):
        if progress is not None and generation % every == 0:
            progress(f"generation {generation}: best fitness {max(i.fitness for i in population).values[0]:g}")
        if watch is not None:
            watch(generation, population, logbook)

    return callback


def recipe_stop(recipe: Callable, **fields) -> Stop:
    """A GA recipe's default ``stop`` with ``fields`` replaced: ``recipe_stop(block_ga,
    max_seconds=5)`` keeps the block GA's documented stagnation test and generation budget.

    :raises TypeError: for a recipe without a ``stop`` or a name that is not a field of Stop."""
    default = inspect.signature(recipe).parameters.get("stop")
    if default is None or not isinstance(default.default, Stop):
        raise TypeError(f"{getattr(recipe, '__name__', recipe)} takes no stop=Stop(...)")
    return replace(default.default, **fields)


def ga_run(recipe: Callable) -> Callable[..., Outcome]:
    """A GA recipe's ``run``: the budgets among the run options (:data:`STOP_OPTIONS`) replace those
    of the recipe's default ``stop``, with ``requested`` asked between generations; ``progress`` and
    ``watch`` make the recipe's ``callback`` (:func:`generation_progress`); the other run options
    are the recipe's keywords."""

    def run(
        puzzle: Puzzle,
        *,
        seed: int,
        requested=None,
        progress=None,
        progress_every: int = 1,
        checkpoint=None,
        started: float | None = None,
        watch=None,
        **options,
    ) -> Outcome:
        budgets = {name: options.pop(name) for name in STOP_OPTIONS if name in options}
        _, logbook, hof = recipe(
            puzzle,
            seed=seed,
            stop=recipe_stop(recipe, requested=requested, started=started, **budgets),
            checkpoint=checkpoint,
            callback=generation_progress(progress, progress_every, watch),
            **options,
        )
        lower = hof[0].fitness.weights[0] < 0
        return ga_outcome(hof, logbook, Objective(logbook.fitness, float(logbook.target), lower))

    run.__doc__ = f"Run :func:`{recipe.__module__}.{recipe.__name__}` and summarise it as an :class:`Outcome`."
    return run


def ga_outcome(hof, logbook, objective: Objective) -> Outcome:
    """A GA run's :class:`Outcome`, from its hall of fame and logbook: the best grid and fitness,
    generations, evaluations, the stop reason, the trace, the first hit and who found it."""
    return Outcome(
        np.asarray(hof[0]),
        float(hof[0].fitness.values[0]),
        int(logbook[-1]["gen"]),
        0,
        int(sum(logbook.select("nevals"))),
        logbook.stop_reason,
        objective,
        Trace.from_logbook(logbook, objective.lower_is_better),
        getattr(logbook, "first_hit", None),
        found_by(logbook),
    )


def found_by(logbook) -> str:
    """What a GA loop says found a run's answer (``logbook.found_by``, the memetic GA's ``"seed
    search"``), or ``""``: :func:`found_by_run` then tells it from the run."""
    return getattr(logbook, "found_by", "") or ""


def found_by_run(kind: str, outcome: Outcome) -> str:
    """What found the answer of a solved run of an algorithm of ``kind``: what the algorithm says
    (``outcome.found_by``, one of :data:`FOUND_BY`), else what the run did.  A GA solved at
    generation 0 found it in its first population, later by evolution; an ant colony solved at
    generation 0 (the givens propagated) by propagation, later by its ants; a local search with no
    step taken by its start; an exact solver by its search; anything else by the algorithm itself.
    The one place a run's ``found_by`` is decided (:func:`~deap_sudoku.runs.task.run_task`)."""
    if outcome.found_by in FOUND_BY:
        return outcome.found_by
    if kind == "ga":
        return "evolution" if outcome.generations else "first population"
    if kind == "colony":
        return "ant colony" if outcome.generations else "propagation"
    if kind == "local search":
        return "local search" if outcome.steps else "start"
    if kind == "exact":
        return "exact search"
    return "algorithm"


def local_stop(recipe: Callable, requested, started: float | None, options: dict) -> Stop:
    """A local search recipe's :class:`Stop`: its budget keywords' defaults, those among the run
    ``options`` taken out of them instead, ``requested`` and the run's ``started``."""
    parameters = inspect.signature(recipe).parameters
    budgets = {
        name: options.pop(name, parameters[name].default)
        for name in ("max_steps", "max_evaluations", "max_seconds")
        if name in parameters
    }
    return Stop(requested=requested, started=started, **budgets)


def tabu_run(recipe: Callable, **variant) -> Callable[..., Outcome]:
    """A tabu recipe's ``run``, with ``variant`` fixing some of its settings."""

    def run(
        puzzle: Puzzle,
        *,
        seed: int,
        requested=None,
        progress=None,
        progress_every: int = 1000,
        started: float | None = None,
        **options,
    ) -> Outcome:
        callback = None
        if progress is not None:

            def callback(step, score, best):
                progress(f"step {step}: score {score}, best {best}")

        _, logbook, hof = recipe(
            puzzle,
            seed=seed,
            callback=callback,
            report_every=progress_every,
            stop=local_stop(recipe, requested, started, options),
            **variant,
            **options,
        )
        steps, score, best, *spent = zip(*logbook.trace)  # a search counting evaluations traces them fourth
        series = {"current": tuple(map(float, score)), "best": tuple(map(float, best))}
        trace = Trace("step", steps, series, tuple(map(int, spent[0])) if spent else None)
        return Outcome(
            np.asarray(hof[0]),
            float(hof[0].fitness.values[0]),
            0,
            int(logbook[-1]["steps"]),
            int(logbook[-1]["evaluations"]),
            logbook.stop_reason,
            Objective("collisions", 0.0, True),
            trace,
            found_by=getattr(logbook, "found_by", ""),
        )

    run.__doc__ = (
        f"Run :func:`{recipe.__module__}.{recipe.__name__}` with {variant or 'its documented defaults'} "
        "as an :class:`Outcome`."
    )
    return run


@contextlib.contextmanager
def seeded_globals(seed: int) -> Iterator[None]:
    """The ``random`` module and numpy's legacy global generator seeded with ``seed`` for one run, and
    given back to the caller as they were.  DEAP's ``varAnd`` and stock operators, the package's
    operators registered without ``rng=``, and a user's function may draw from them: seeded here,
    every run is a function of its seed alone, whatever ran before it in the process.  A run is an
    edge of the program, like the command line, where seeding belongs."""
    saved, saved_numpy = random.getstate(), np.random.get_state()
    random.seed(seed)
    np.random.seed(seed % 2**32)
    try:
        yield
    finally:
        random.setstate(saved)
        np.random.set_state(saved_numpy)


BUNDLED: dict[str, Algorithm] = {}
"""The bundled algorithms by name, in the order they are declared (:func:`bundled`)."""


def bundled(
    name: str,
    kind: str,
    description: str,
    options: tuple[str, ...] = (),
    *,
    run: Callable[[Callable], Callable[..., Outcome]] | None = None,
    **record: object,
) -> Callable:
    """Declare the decorated function the bundled algorithm ``name``: ``run(function)`` makes its
    ``run`` (:func:`ga_run` for a GA recipe, :func:`tabu_run` for tabu search; without ``run`` the
    function is the run itself), and ``record`` holds the other fields of :class:`Algorithm`
    (``checkpointable``, ``example``, ...).  Stacked, it declares several algorithms on one function
    (``tabu`` and ``tabu-swap``).  Returns the function unchanged.

    :raises ValueError: for a name declared twice.
    """

    def declare(function: Callable) -> Callable:
        if name in BUNDLED:
            raise ValueError(f"two bundled algorithms are called {name!r}")
        runner = function if run is None else run(function)
        BUNDLED[name] = Algorithm(name, kind, description, runner, options, function=function, **record)  # type: ignore[arg-type]
        return function

    return declare


def bundled_ga(name: str, description: str, options: tuple[str, ...], *, example: str, **more):
    """:func:`~deap_sudoku.runs.record.bundled` for a GA recipe: the GA options, run by
    :func:`~deap_sudoku.runs.record.ga_run`, checkpointable and stoppable, its example named, the
    generational GAs' operator aliases unless ``more`` says otherwise.  The public helper a GA's
    catalogue declaration uses (issue 61: it was ``runs.recipes._bundled_ga``, imported across modules)."""
    more.setdefault("operators", GA_ALIASES)
    return bundled(
        name,
        "ga",
        description,
        GA_OPTIONS + options,
        run=ga_run,
        checkpointable=True,
        stoppable=True,
        example=example,
        **more,
    )
