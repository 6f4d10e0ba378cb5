"""One registry of the algorithms a run can use: how to run each, which budgets it honours, whether it
can be checkpointed and whether it stops cleanly on request.

The command line, ``bench`` and the checkpoint identity all read this table;
adding a bundled algorithm is one :class:`Algorithm` record here.  A user's
algorithm is as first-class: :func:`algorithm` also finds it by import path
(``mymod:my_ga``, the convention of uvicorn and celery) or by the name an
installed plug-in gives it in the ``deap_sudoku.algorithms`` entry-point
group; :mod:`deap_sudoku.runs.user` makes records from a toolbox factory, a
function, or a bundled GA with operators replaced.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import itertools
import math
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..exact import SearchBudgetExceeded, solve
from ..grid.puzzle import Puzzle
from ..propagation import analyze, propagate
from ..tools.fitness import fitness_weights, optimum
from . import recipes

__all__ = ["Algorithm", "Objective", "Trace", "Outcome", "ALGORITHMS", "OPTIONS", "ENTRY_POINTS", "algorithm", "names",
           "takes", "plugins", "plugin_errors", "budgets", "from_function", "generation_progress"]

ENTRY_POINTS = "deap_sudoku.algorithms"
"""The entry-point group through which installed packages add algorithms (an :class:`Algorithm`, or
a function as :func:`deap_sudoku.runs.user.from_function` takes it)."""

OPTIONS = ("population", "cxpb", "mutpb", "select", "fitness", "tournament_size", "max_generations", "max_seconds",
           "max_evaluations", "max_steps", "max_nodes")
"""Every option a record may take, by its command-line name (``--max-seconds`` is ``max_seconds``)."""


@dataclass(frozen=True)
class Objective:
    """What a run optimised: the fitness's name, the value of a solved grid and its direction."""

    name: str
    target: float
    lower_is_better: bool

    @classmethod
    def of(cls, evaluate: Callable, puzzle: Puzzle | None = None) -> Objective:
        """The objective of an ``eval_*`` function, or of a ``toolbox.evaluate`` registered with ``puzzle=``:
        its name without ``eval_``, its :func:`~deap_sudoku.tools.fitness.optimum` and its direction."""
        name = getattr(evaluate, "func", evaluate).__name__.removeprefix("eval_")
        return cls(name, float(optimum(evaluate, puzzle)), fitness_weights(evaluate)[0] < 0)

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

    @classmethod
    def from_logbook(cls, logbook, lower_is_better: bool) -> Trace:
        """The course a logbook with ``gen``, ``nevals``, ``min``, ``avg`` and ``max`` records
        (``fitness_statistics()``) holds: the best of each generation, the mean, and the evaluations."""
        nevals = logbook.select("nevals")
        spent = tuple(itertools.accumulate(int(n) for n in nevals)) if None not in nevals else None
        return cls("generation", tuple(logbook.select("gen")),
                   {"best": tuple(map(float, logbook.select("min" if lower_is_better else "max"))),
                    "mean": tuple(map(float, logbook.select("avg")))}, spent)


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
    not count them; ``warm_up_message`` says what it does.
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
    source: str = "bundled"
    """Where the record comes from: ``bundled``, ``plug-in <distribution>`` or ``import path``."""

    @property
    def traced(self) -> bool:
        """Whether a run's :class:`Outcome` has an objective and a trace to plot (GAs and tabu search)."""
        return self.kind != "exact"


def generation_progress(progress: Callable[[str], None] | None, every: int) -> Callable | None:
    """A loop's ``callback`` that hands ``progress`` a line every ``every`` generations (None without one)."""
    if progress is None:
        return None

    def callback(generation, population, logbook):
        if generation % every == 0:
            progress(f"generation {generation}: best fitness {max(i.fitness for i in population).values[0]:g}")
    return callback


def _ga(recipe: Callable, **renamed: str) -> Callable[..., Outcome]:
    """A GA's ``run``: command-line option names become the recipe's keywords (``renamed`` maps the
    ones that differ, e.g. ``population="population_size"``)."""
    renamed = {"population": "population_size", **renamed}

    def run(puzzle: Puzzle, *, seed: int, requested=None, progress=None, progress_every: int = 1, checkpoint=None,
            **options) -> Outcome:
        keywords = {renamed.get(name, name): value for name, value in options.items()}
        _, logbook, hof = recipe(puzzle, seed=seed, requested=requested, checkpoint=checkpoint,
                                 callback=generation_progress(progress, progress_every), **keywords)
        lower = hof[0].fitness.weights[0] < 0
        objective = Objective(logbook.fitness, float(logbook.target), lower)
        trace = Trace.from_logbook(logbook, lower)
        return Outcome(np.asarray(hof[0]), float(hof[0].fitness.values[0]), int(logbook[-1]["gen"]), 0,
                       int(sum(logbook.select("nevals"))), logbook.stop_reason, objective, trace)
    run.__doc__ = f"Run :func:`{recipe.__module__}.{recipe.__name__}` and summarise it as an :class:`Outcome`."
    return run


def _tabu(**variant) -> Callable[..., Outcome]:
    def run(puzzle: Puzzle, *, seed: int, requested=None, progress=None, progress_every: int = 1000,
            **options) -> Outcome:
        callback = None
        if progress is not None:
            def callback(step, score, best):
                progress(f"step {step}: score {score}, best {best}")
        _, logbook, hof = recipes.tabu(puzzle, seed=seed, requested=requested, callback=callback,
                                       report_every=progress_every, **variant, **options)
        steps, score, best = zip(*logbook.trace)
        trace = Trace("step", steps, {"current": tuple(map(float, score)), "best": tuple(map(float, best))})
        return Outcome(np.asarray(hof[0]), float(hof[0].fitness.values[0]), 0, int(logbook[-1]["steps"]),
                       int(logbook[-1]["evaluations"]), logbook.stop_reason, Objective("collisions", 0.0, True),
                       trace)
    run.__doc__ = f"Run :func:`recipes.tabu` with {variant or 'its documented defaults'} as an :class:`Outcome`."
    return run


def _backtracking(puzzle: Puzzle, *, seed: int, max_nodes: int | None = None, max_seconds: float | None = None,
                  **_: object) -> Outcome:
    try:
        solution = solve(puzzle, max_nodes=max_nodes, max_seconds=max_seconds, rng=random.Random(seed))
        note = "exhausted" if solution is None else ""
    except SearchBudgetExceeded as exc:
        solution, note = None, str(exc)
    grid = puzzle.cells if solution is None else solution.cells
    return Outcome(grid, 0.0 if solution is not None else math.nan, 0, 0, 0, note)


def _warm_up_backtracking(puzzle: Puzzle, compiled: bool | None) -> None:
    try:
        solve(puzzle, max_nodes=1, compiled=compiled)
    except SearchBudgetExceeded:
        pass


def _warm_up_memetic(puzzle: Puzzle, compiled: bool | None) -> None:
    # the GA alone, or a seed that solves the puzzle would leave the repair kernels to the first run
    recipes.memetic(puzzle, max_generations=1, compiled=compiled, seed_nodes=None)
    _warm_up_backtracking(puzzle, compiled)  # the seed's search


def _analyzer(puzzle: Puzzle, **_: object) -> Outcome:
    result = analyze(puzzle)
    note = ("the analyzer met a square with no possible value" if result.contradiction
            else f"the analyzer filled {result.filled} cells in {result.sweeps} sweep{'s' * (result.sweeps != 1)}")
    return Outcome(result.values, 0.0 if result.solved else math.nan, 0, 0, 0, note)


def _propagation(puzzle: Puzzle, **_: object) -> Outcome:
    result = propagate(puzzle)
    note = "propagation found a contradiction" if result.contradiction else f"propagation filled {result.filled} cells"
    return Outcome(result.values, 0.0 if result.solved else math.nan, 0, 0, 0, note)


_GA = ("population", "max_generations", "max_seconds", "max_evaluations")
_COMPILED = "compiling the {name} kernels (first run only; later runs load them from numba's cache)"

ALGORITHMS: dict[str, Algorithm] = {a.name: a for a in (
    Algorithm("memetic", "ga", "the project's best solver: memetic GA with propagation repair",
              _ga(recipes.memetic), _GA + ("cxpb",), checkpointable=True, stoppable=True,
              warm_up=_warm_up_memetic, warm_up_message=_COMPILED.format(name="repair")),
    Algorithm("block-ga", "ga", "block GA as the C++ \"Sudoku Löser\" documents it", _ga(recipes.block_ga),
              _GA + ("mutpb", "select", "fitness"),
              {"select": ("truncation", "sus"), "fitness": tuple(recipes.BLOCK_GA_FITNESSES)},
              checkpointable=True, stoppable=True),
    Algorithm("restart-ga", "ga", "block GA with random restart as the Python GA documents it",
              _ga(recipes.block_ga_restart), _GA + ("mutpb",), checkpointable=True, stoppable=True),
    Algorithm("cell-ga", "ga", "cell GA as the report's Implementation 1 documents it", _ga(recipes.cell_ga),
              _GA + ("cxpb", "mutpb"), checkpointable=True, stoppable=True),
    Algorithm("row-ga", "ga", "row-permutation GA as the report's Implementation 2 documents it",
              _ga(recipes.row_permutation_ga, tournament_size="k"), _GA + ("cxpb", "mutpb", "tournament_size"),
              checkpointable=True, stoppable=True),
    Algorithm("tabu", "local search", "tabu search as documented: one-value moves, a table of visited boards",
              _tabu(), ("max_steps", "max_seconds"), stoppable=True),
    Algorithm("tabu-swap", "local search", "our tabu search: in-box swaps, cell tenure, start narrowed by propagation",
              _tabu(moves="swap", memory="cells", restrict=True), ("max_steps", "max_seconds"), stoppable=True),
    Algorithm("backtracking", "exact", "backtracking with propagation and restarts", _backtracking,
              ("max_nodes", "max_seconds"), warm_up=_warm_up_backtracking,
              warm_up_message=_COMPILED.format(name="propagation")),
    Algorithm("analyzer", "exact", "the documented constraint analyzer: naked singles, sweep by sweep", _analyzer),
    Algorithm("propagation", "exact", "constraint propagation only: naked and hidden singles", _propagation),
)}


def takes(option: str) -> tuple[str, ...]:
    """The bundled algorithms that take ``option`` (one of :data:`OPTIONS`)."""
    return tuple(a.name for a in ALGORITHMS.values() if option in a.options)


def budgets(record: Algorithm) -> tuple[str, ...]:
    """The budgets (``max_*`` options) ``record`` honours."""
    return tuple(option for option in record.options if option.startswith("max_"))


def names(*, kind: str | None = None, **flags: bool) -> tuple[str, ...]:
    """The registered names, optionally only those of one ``kind`` and those whose named flags
    (``checkpointable``, ``stoppable``, ``traced``) have the given values."""
    return tuple(a.name for a in ALGORITHMS.values()
                 if (kind is None or a.kind == kind) and all(getattr(a, f) == v for f, v in flags.items()))


def algorithm(name: str) -> Algorithm:
    """The record of ``name``: a bundled algorithm, an installed plug-in's, or ``module:attribute``,
    an :class:`Algorithm` or a function (see :func:`deap_sudoku.runs.user.from_function`) imported
    by that path, the current folder first on the import path, as ``python -m`` would have it.

    :raises ValueError: for a name that is none of these, or a path that does not import or names
        something that is no algorithm, in one line.
    """
    record = ALGORITHMS.get(name)
    if record is not None:
        return record
    if ":" in name:
        return _imported(name)
    found = plugins().get(name)
    if found is None:
        raise ValueError(f"unknown algorithm {name!r}; choose from {', '.join([*ALGORITHMS, *plugins()])}, "
                         "or name your own as module:attribute")
    return found


@functools.lru_cache(maxsize=None)
def _imported(path: str) -> Algorithm:
    module_name, _, attribute = path.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"algorithm {path!r}: an import path is module:attribute, e.g. mymod:my_ga")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        target = importlib.import_module(module_name)
    except Exception as exc:  # a user's module may fail in any way: say so in one line
        raise ValueError(f"algorithm {path!r}: module {module_name!r} does not import: "
                         f"{type(exc).__name__}: {exc}") from None
    try:
        target = functools.reduce(getattr, attribute.split("."), target)
    except AttributeError:
        raise ValueError(f"algorithm {path!r}: module {module_name!r} has no {attribute!r}") from None
    return _as_algorithm(target, path, "import path")


def _as_algorithm(target: object, name: str, source: str) -> Algorithm:
    if isinstance(target, Algorithm):
        return dataclasses.replace(target, name=name, source=source)
    if callable(target) and not isinstance(target, type):
        return dataclasses.replace(from_function(target, name=name), source=source)
    raise ValueError(f"algorithm {name!r} is a {type(target).__name__}, not an algorithm: give an Algorithm "
                     "(deap_sudoku.runs.user.from_toolbox or from_function makes one) or a function "
                     "fn(puzzle, *, rng, max_seconds=None, ...)")


def from_function(function: Callable, *, name: str, kind: str = "user", description: str = "") -> Algorithm:
    """An algorithm that calls ``function(puzzle, *, rng, **budgets)`` once per run, with
    ``rng = random.Random(seed)`` (also given as ``seed=`` if it has that parameter).

    The budgets it honours are the options of :data:`~deap_sudoku.runs.registry.OPTIONS` it has as
    parameters (``max_seconds=None``, ...); any other is refused before a run.  It returns an
    :class:`~deap_sudoku.runs.registry.Outcome`, a grid (the best it found), or ``(grid, evaluations)``.
    """
    parameters = inspect.signature(function).parameters
    any_keyword = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    takes_rng, takes_seed = "rng" in parameters or any_keyword, "seed" in parameters
    if not (takes_rng or takes_seed):
        raise ValueError(f"algorithm {name!r}: {getattr(function, '__name__', function)} takes neither rng= "
                         "nor seed=; an algorithm is fn(puzzle, *, rng, max_seconds=None, ...)")
    options = tuple(option for option in OPTIONS if option in parameters)

    def run(puzzle: Puzzle, *, seed: int, **given) -> Outcome:
        extras = {"rng": random.Random(seed)} if takes_rng else {}
        if takes_seed:
            extras["seed"] = seed
        return _outcome(function(puzzle, **extras, **given), puzzle)

    return Algorithm(name, kind, description or (inspect.getdoc(function) or "").split("\n")[0], run, options,
                     source="user")


def _outcome(result: object, puzzle: Puzzle) -> Outcome:
    """A function algorithm's result as an :class:`Outcome`."""
    if isinstance(result, Outcome):
        return result
    evaluations = 0
    if isinstance(result, tuple) and len(result) == 2 and np.ndim(result[1]) == 0:
        result, evaluations = result
    grid = np.asarray(result)
    if grid.shape != (puzzle.shape.cells,):
        raise ValueError(f"an algorithm returned {type(result).__name__} of shape {grid.shape}; return an Outcome, "
                         f"a grid of {puzzle.shape.cells} cells, or (grid, evaluations)")
    return Outcome(grid, float("nan"), 0, 0, int(evaluations), "")


@functools.lru_cache(maxsize=1)
def plugins() -> dict[str, Algorithm]:
    """The algorithms installed packages register in the :data:`ENTRY_POINTS` group, by entry-point
    name; one that fails to load is left out (:func:`plugin_errors` says why)."""
    import importlib.metadata  # here, not at start-up: it brings the email and socket modules along
    found = {}
    for entry in importlib.metadata.entry_points(group=ENTRY_POINTS):
        if entry.name in ALGORITHMS:
            _PLUGIN_ERRORS[entry.name] = "its name is a bundled algorithm's"
            continue
        try:
            distribution = getattr(entry.dist, "name", "?")
            found[entry.name] = _as_algorithm(entry.load(), entry.name, f"plug-in {distribution}")
        except Exception as exc:  # a broken plug-in must not break the command line
            _PLUGIN_ERRORS[entry.name] = f"{type(exc).__name__}: {exc}"
    return found


_PLUGIN_ERRORS: dict[str, str] = {}


def plugin_errors() -> dict[str, str]:
    """Why each plug-in :func:`plugins` left out did not load."""
    plugins()
    return dict(_PLUGIN_ERRORS)
