"""One registry of the algorithms a run can use: how to run each, which budgets it honours, whether it
can be checkpointed and whether it stops cleanly on request.

The command line, ``bench`` and the checkpoint identity all read this table;
a bundled algorithm declares its record where it is defined
(:func:`~deap_sudoku.runs.record.bundled`), so adding one lists it nowhere else.  A user's
algorithm is as first-class: :func:`algorithm` also finds it by import path
(``mymod:my_ga``, the convention of uvicorn and celery) or by the name an
installed plug-in gives it in the ``deap_sudoku.algorithms`` entry-point
group; :mod:`deap_sudoku.runs.user` makes records from a toolbox factory, a
function, or a bundled GA with operators replaced.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import inspect
import io
import os
import pkgutil
import sys
from collections.abc import Callable, Iterator
from typing import NoReturn

import numpy as np

from ..algorithms import Stop
from . import seeding
from ..grid.puzzle import Puzzle
from . import catalogue
from .record import BUNDLED, KINDS, OPTIONS, Algorithm, Outcome
from .record import Objective as Objective, Trace as Trace, generation_progress as generation_progress  # re-exported

__all__ = [
    "ALGORITHMS",
    "BENCH_DEFAULT",
    "ENTRY_POINTS",
    "EXACT_SEARCH",
    "algorithm",
    "names",
    "takes",
    "plugins",
    "plugin_errors",
    "budgets",
    "from_function",
]
# Algorithm, Objective, Trace, Outcome, OPTIONS and generation_progress live in runs.record; they are
# imported here too, so that code written against this module goes on working.

ENTRY_POINTS = "deap_sudoku.algorithms"
"""The entry-point group through which installed packages add algorithms (an :class:`Algorithm`, or
a function as :func:`deap_sudoku.runs.user.from_function` takes it)."""


def _catalogue() -> dict[str, Algorithm]:
    """Every module of :mod:`~deap_sudoku.runs.catalogue` imported (found with :mod:`pkgutil`, by
    name), its declarations made; the records ordered by kind (:data:`~deap_sudoku.runs.record.KINDS`),
    then by module and by declaration."""
    for module in sorted(m.name for m in pkgutil.iter_modules(catalogue.__path__)):
        importlib.import_module(f"{catalogue.__name__}.{module}")
    ordered = sorted(BUNDLED.values(), key=lambda record: KINDS.index(record.kind))
    BUNDLED.clear()
    BUNDLED.update((record.name, record) for record in ordered)
    return BUNDLED


ALGORITHMS: dict[str, Algorithm] = _catalogue()
"""The bundled algorithms by name: the GAs, the local searches, the ant colonies, the exact
solvers, each kind in the order of the catalogue's modules and of their declarations
(:func:`~deap_sudoku.runs.record.bundled`)."""


BENCH_DEFAULT = "memetic"
"""The algorithm ``bench`` runs when none is named: the GA it compares against (``solve``'s
default, ``auto``, is no algorithm of its own)."""
EXACT_SEARCH = "backtracking"
"""The algorithm whose exact search ``check`` and ``generate`` run: its kernels are the ones they
warm up, as ``solve`` warms up that algorithm's."""


def takes(option: str) -> tuple[str, ...]:
    """The bundled algorithms that take ``option`` (one of :data:`OPTIONS`)."""
    return tuple(a.name for a in ALGORITHMS.values() if option in a.options)


def budgets(record: Algorithm) -> tuple[str, ...]:
    """The budgets (``max_*`` options) ``record`` honours."""
    return tuple(option for option in record.options if option.startswith("max_"))


def names(*, kind: str | None = None, **flags: bool) -> tuple[str, ...]:
    """The registered names, optionally only those of one ``kind`` and those whose named flags
    (``checkpointable``, ``stoppable``, ``traced``) have the given values."""
    return tuple(
        a.name
        for a in ALGORITHMS.values()
        if (kind is None or a.kind == kind) and all(getattr(a, f) == v for f, v in flags.items())
    )


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
        raise ValueError(
            f"unknown algorithm {name!r}; choose from {', '.join([*ALGORITHMS, *plugins()])}, "
            "or name your own as module:attribute"
        )
    return found


@functools.lru_cache(maxsize=None)
def _imported(path: str) -> Algorithm:
    module_name, _, attribute = path.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"algorithm {path!r}: an import path is module:attribute, e.g. mymod:my_ga")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        with _importing_apart():
            target = importlib.import_module(module_name)
    except _EndedAtImport as exc:
        raise ValueError(
            f"algorithm {path!r}: module {module_name!r} ends its process when imported (os._exit({exc.code}))"
        ) from None
    except SystemExit as exc:
        raise ValueError(
            f"algorithm {path!r}: module {module_name!r} exits when imported (sys.exit({exc.code!r}))"
        ) from None
    except Exception as exc:  # a user's module may fail in any way: say so in one line
        raise ValueError(
            f"algorithm {path!r}: module {module_name!r} does not import: {type(exc).__name__}: {exc}"
        ) from None
    try:
        target = functools.reduce(getattr, attribute.split("."), target)
    except AttributeError:
        raise ValueError(f"algorithm {path!r}: module {module_name!r} has no {attribute!r}") from None
    return _as_algorithm(target, path, "import path")


class _EndedAtImport(BaseException):
    """``os._exit(code)``, called by a user's module while it is imported."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


@contextlib.contextmanager
def _importing_apart() -> Iterator[None]:
    """A user's module imported apart from the data: what it prints, from Python or from C, goes to
    standard error (``--json -`` and ``--out -`` hold data alone), and an ``os._exit`` it calls
    while imported is raised as :class:`_EndedAtImport`, to be reported rather than end the
    command without a word."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
    except OSError:  # no standard error: its prints are lost, never the data
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    end = os._exit

    def ended(code: int) -> NoReturn:
        raise _EndedAtImport(code)

    os._exit = ended  # type: ignore[assignment]
    try:
        with contextlib.redirect_stdout(sys.stderr if sys.stderr is not None else io.StringIO()):
            yield
    finally:
        os._exit = end
        if sys.stderr is not None:
            sys.stderr.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _as_algorithm(target: object, name: str, source: str) -> Algorithm:
    if isinstance(target, Algorithm):
        return dataclasses.replace(target, name=name, source=source)
    if callable(target) and not isinstance(target, type):
        return dataclasses.replace(from_function(target, name=name), source=source)
    raise ValueError(
        f"algorithm {name!r} is a {type(target).__name__}, not an algorithm: give an Algorithm "
        "(deap_sudoku.runs.user.from_toolbox or from_function makes one) or a function "
        "fn(puzzle, *, rng, max_seconds=None, ...)"
    )


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
        raise ValueError(
            f"algorithm {name!r}: {getattr(function, '__name__', function)} takes neither rng= "
            "nor seed=; an algorithm is fn(puzzle, *, rng, max_seconds=None, ...)"
        )
    options = tuple(option for option in OPTIONS if option in parameters)

    def run(puzzle: Puzzle, *, seed: int, started: float | None = None, **given) -> Outcome:
        extras: dict[str, object] = {"rng": seeding.generator(seed)} if takes_rng else {}
        if takes_seed:
            extras["seed"] = seed
        if started is not None and given.get("max_seconds") is not None:  # a function knows no clock but its own
            given["max_seconds"] = max(
                Stop(max_seconds=given["max_seconds"], started=started).seconds_left() or 0.0, 1e-3
            )
        return _outcome(function(puzzle, **extras, **given), puzzle)

    return Algorithm(
        name, kind, description or (inspect.getdoc(function) or "").split("\n")[0], run, options, source="user"
    )


def _outcome(result: object, puzzle: Puzzle) -> Outcome:
    """A function algorithm's result as an :class:`Outcome`."""
    if isinstance(result, Outcome):
        return result
    evaluations = 0
    if isinstance(result, tuple) and len(result) == 2 and np.ndim(result[1]) == 0:
        result, evaluations = result
    grid = np.asarray(result)
    if grid.shape != (puzzle.shape.cells,):
        raise ValueError(
            f"an algorithm returned {type(result).__name__} of shape {grid.shape}; return an Outcome, "
            f"a grid of {puzzle.shape.cells} cells, or (grid, evaluations)"
        )
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
