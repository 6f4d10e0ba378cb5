"""The run options: which algorithm takes which option (refused before any work for one that does
not), the ``-a`` choice, and the memory a population would take."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable

import click

from ..grid import Puzzle
from ..runs import memory, registry
from .errors import KEEP, InputError
from .numbers import Number, count


ALGORITHMS = tuple(registry.ALGORITHMS)
DEFAULT_ALGORITHM = registry.BENCH_DEFAULT


class AlgorithmName(click.ParamType):
    """``-a``: a bundled algorithm, an installed plug-in's, or a user's as ``module:attribute``,
    resolved (imported) when the option is read, so a bad one is one line before any work; the
    command gets its record, which travels down from here (its name crosses to other processes)."""

    name = "NAME|module:attribute"

    def convert(self, value, param, ctx):
        if isinstance(value, registry.Algorithm):
            return value
        try:
            return registry.algorithm(value)
        except ValueError as exc:
            raise click.BadParameter(did_you_mean(value, str(exc)), ctx, param) from None

    def shell_complete(self, ctx, param, incomplete):
        """The bundled names and the installed plug-ins' (their entry points are read, not loaded)."""
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in completion_names() if name.startswith(incomplete)]


def did_you_mean(name: str, message: str) -> str:
    """The message about an unknown algorithm ``name`` (the registry's ``message``, which names them
    all, for a ``module:attribute`` that failed): a short line, then the closest known names
    (:mod:`difflib`, at most :data:`CLOSE_NAMES`), then where the others are listed."""
    if ":" in name:
        return message
    import difflib  # here, not at start-up: 4-6 ms that only a mistyped name needs

    close = difflib.get_close_matches(name, completion_names(), n=CLOSE_NAMES, cutoff=0.6)
    guess = f"\nDid you mean {' or '.join([', '.join(close[:-1]), close[-1]] if close[1:] else close)}?"
    return (
        f"unknown algorithm {name!r}{guess if close else ''}\n"
        f"'deap-sudoku{KEEP}algorithms' lists them all; or name your own as module:attribute."
    )


CLOSE_NAMES = 3
"""How many known names a mistyped ``-a`` is offered, closest first."""


def completion_names() -> list[str]:
    """Every ``-a`` name: the bundled ones and those of the ``deap_sudoku.algorithms`` entry points."""
    from importlib.metadata import entry_points

    names = list(ALGORITHMS)
    with contextlib.suppress(Exception):  # a broken installation never breaks a completion
        names += [ep.name for ep in entry_points(group=registry.ENTRY_POINTS) if ep.name not in names]
    return names


ALGORITHM = AlgorithmName()

KINDS = {"ga": "GAs", "local search": "local searches", "colony": "ant colonies", "exact": "exact"}
"""How help pages name each kind of algorithm, in the order they list them."""


def _kinds() -> dict[str, list[str]]:
    """The bundled algorithms' names, kind by kind in the registry's order."""
    kinds: dict[str, list[str]] = {}
    for record in registry.ALGORITHMS.values():
        kinds.setdefault(record.kind, []).append(record.name)
    return kinds


def by_kind() -> str:
    """The bundled algorithms' names by kind, for help pages: ``GAs: memetic, ...; exact: ...``."""
    return "; ".join(f"{KINDS.get(kind, kind)}: {', '.join(names)}" for kind, names in _kinds().items())


def takers(option: str) -> str:
    """The bundled algorithms that take ``option``, in few words: whole kinds by name ("the GAs and
    ant colonies"), "all but ..." for nearly all, else their names."""
    taking = registry.takes(option)
    left = [name for name in registry.ALGORITHMS if name not in taking]
    if 0 < len(left) <= 3:
        return "all but " + ", ".join(left)
    kinds = _kinds()
    whole = [kind for kind, names in kinds.items() if all(name in taking for name in names)]
    exceptions: dict[str, list[str]] = {}
    rest = [name for name in taking if registry.ALGORITHMS[name].kind not in whole]
    plain = ", ".join([KINDS.get(kind, kind) for kind in whole] + rest)
    for kind, names in kinds.items():  # "GAs except block-ga": most of a kind, and what it leaves out
        missing = [name for name in names if name not in taking]
        if kind not in whole and 0 < len(missing) <= 2 and len(missing) < len(names) - len(missing):
            rest = [name for name in rest if name not in names]
            whole.append(kind)
            exceptions[kind] = missing
    named = [
        KINDS.get(kind, kind) + (" except " + " and ".join(exceptions[kind]) if kind in exceptions else "")
        for kind in whole
    ]
    return min(plain, ", ".join(named + rest), key=len)


ALGORITHM_HELP = f"{by_kind()}; or yours as module:attribute ('deap-sudoku algorithms' describes them)"


# -- run options: which algorithm takes which -------------------------------------------------

_RUN_OPTIONS = {
    "population_size": dict(type=count(2), help="Population size"),
    "cxpb": dict(type=Number(0, 1), help="Crossover probability"),
    "mutpb": dict(type=Number(0, 1), help="Mutation probability"),
    "select": dict(
        type=click.Choice(sorted({c for a in registry.ALGORITHMS.values() for c in a.choices.get("select", ())})),
        help="Selection",
    ),
    "fitness": dict(
        type=click.Choice(sorted({c for a in registry.ALGORITHMS.values() for c in a.choices.get("fitness", ())})),
        metavar="NAME",
        help="Fitness: "
        + ", ".join(sorted({c for a in registry.ALGORITHMS.values() for c in a.choices.get("fitness", ())})),
    ),
    "tournsize": dict(type=count(1), help="Tournament size, at most the population"),
    "max_generations": dict(type=count(1), help="Generation budget"),
    "max_seconds": dict(
        type=Number(min=0, min_open=True),
        help="Wall-time budget per puzzle, in seconds",
    ),
    "max_evaluations": dict(type=count(1), help="Evaluation budget"),
    "max_steps": dict(type=count(1), help="Step budget"),
    "max_nodes": dict(type=count(1), help="Search-node budget"),
}
assert set(_RUN_OPTIONS) == set(registry.OPTIONS), "every registry option has its command-line flag"


FLAGS = {"population_size": "--population"}
"""Run options whose flag is not their name with dashes."""


def flag(name: str) -> str:
    """The command-line flag of the run option ``name``."""
    return FLAGS.get(name) or "--" + name.replace("_", "-")


def run_options(command):
    """The options of :data:`deap_sudoku.runs.registry.OPTIONS`, for ``solve`` and ``bench``; each
    help text names the algorithms that take it (default: the algorithm's own)."""
    for name in reversed(registry.OPTIONS):
        options = dict(_RUN_OPTIONS[name])
        options["help"] += f" ({takers(name)})."
        command = click.option(flag(name), name, default=None, **options)(command)
    return command


def given(params: dict) -> dict:
    """The run options given on the command line (the others are None)."""
    return {name: params[name] for name in registry.OPTIONS if params.get(name) is not None}


def options_for(record: registry.Algorithm, options: dict, called: str | None = None) -> dict:
    """The ``options`` the algorithm of ``record`` takes; a usage error naming the option and the
    algorithms that take it, or the values it allows, for any other (the algorithm ``called`` so
    there: ``auto`` says it is solve's default)."""
    algorithm = called or record.name
    for name, value in options.items():
        if name not in record.options:
            raise click.UsageError(
                f"{flag(name)} does not apply to {algorithm}; it applies to {', '.join(registry.takes(name))}"
            )
        allowed = record.choices.get(name)
        if allowed is not None and value not in allowed:
            raise click.UsageError(f"{flag(name)} {value} does not apply to {algorithm}; it takes {', '.join(allowed)}")
    if "tournsize" in options:
        population = options.get("population_size", _default(record, "population_size"))
        if population is not None and options["tournsize"] > population:
            raise click.UsageError(
                f"--tournsize {options['tournsize']} is more than {algorithm}'s population, {population}: "
                "each tournament draws that many"
            )
    return options


def _default(record: registry.Algorithm, name: str):
    """The default of ``record``'s run option ``name``, where its recipe's signature gives one."""
    import inspect

    try:
        default = inspect.signature(record.function).parameters[name].default  # type: ignore[arg-type]
    except (TypeError, ValueError, KeyError):
        return None
    return None if default is inspect.Parameter.empty else default


MAX_POPULATION_BYTES = 4 << 30


def population_bytes(cells: int, algorithm: str) -> float:
    """Bytes a run of ``algorithm`` allocates per individual on a grid of ``cells`` cells: the figures
    of the family its record names (:data:`deap_sudoku.runs.memory.POPULATION_BYTES`)."""
    return memory.population_bytes(cells, registry.algorithm(algorithm).memory)


def memory_allowed() -> tuple[int, str]:
    """The bytes a run of this process may still allocate, and what sets that: 4 GiB, the address
    space left under ``ulimit -v`` (RLIMIT_AS), or the control group's memory limit (v2 or v1)."""
    allowed = [(MAX_POPULATION_BYTES, "this package's limit")]
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            with open("/proc/self/statm") as handle:
                used = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            allowed.append((soft - used, "the address space that ulimit -v leaves this process"))
    except (ImportError, OSError, ValueError):
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        with contextlib.suppress(OSError, ValueError):
            with open(path) as handle:
                value = handle.read().strip()
            if value != "max" and int(value) < 1 << 60:
                allowed.append((int(value), f"the memory limit of this process's control group ({path})"))
    return min(allowed)


def memory_limits() -> str:
    """The limits on this process's memory, in words (``ulimit -v 391 MiB``), for a message."""
    limits = []
    with contextlib.suppress(ImportError, OSError, ValueError):
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            limits.append(f"ulimit -v {soft / 2**20:.0f} MiB")
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        with contextlib.suppress(OSError, ValueError):
            with open(path) as handle:
                value = handle.read().strip()
            if value != "max" and int(value) < 1 << 60:
                limits.append(f"control group {int(value) / 2**20:.0f} MiB")
    return ", ".join(limits) or "no limit is set on this process"


def refuse_huge_population(population: int | None, puzzles: Iterable[Puzzle], algorithms: Iterable[str]) -> None:
    """Refuse, before allocating anything, a population whose run would need more memory than the
    process may have (:func:`memory_allowed`; :func:`population_bytes` per individual, for the
    costliest of ``algorithms``, the ones a run of this population would be)."""
    if population is None:
        return
    cells = max(p.shape.cells for p in puzzles)
    needed = population * max((population_bytes(cells, name) for name in algorithms), default=0.0)
    allowed, why = memory_allowed()
    if needed > allowed:
        raise InputError(
            f"--population {population} of {cells}-cell grids needs about {needed / 2**30:.1f} GiB; "
            f"{why} is {max(allowed, 0) / 2**30:.1f} GiB"
        )
