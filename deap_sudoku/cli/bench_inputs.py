"""What ``bench`` is given, checked before any run: the datasets and the names the outputs give
them, each algorithm's share of the options, the baseline, the IOHprofiler folder and the results
file."""

from __future__ import annotations

import itertools
import os
from typing import TYPE_CHECKING

import click

from ..io.fileio import name_problem
from ..runs import registry
from .errors import InputError
from .inputs import PuzzleInput
from .options import flag, options_for
from .outputs import check_outputs, hold_lock

if TYPE_CHECKING:
    from ..experiments import Experiment

__all__ = [
    "open_results",
    "Limited",
    "check_ioh_folder",
    "check_baseline",
    "algorithm_options",
    "dataset_names",
    "datasets_title",
]


def open_results(experiment: Experiment, path: str | None, datasets: tuple[str, ...], *, lock: bool = True) -> list:
    """The runs of the plan the --results file already holds, the file read and checked against the
    experiment before any work: one line for a file that cannot serve it (another experiment, another
    run in one of its places, not a results file, one of the datasets, a name that cannot be written)."""
    if path is None:
        return []
    from ..experiments.store import StoreError

    check_outputs({"--results": path}, False, resumable=("--results",), inputs=datasets)
    try:
        if lock:
            hold_lock(path)  # one experiment per results file
        return experiment.open(path, lock=False)
    except StoreError as exc:
        raise InputError(f"--results {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"--results {path}: {getattr(exc, 'strerror', None) or exc}") from None


class Limited:
    """The first ``limit`` puzzles of a file (all of them without a limit), read again each time."""

    def __init__(self, puzzles: PuzzleInput, limit: int | None) -> None:
        self.puzzles, self.count = puzzles, len(puzzles) if limit is None else min(len(puzzles), limit)

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        return itertools.islice(self.puzzles, self.count)


def check_ioh_folder(folder: str | None, replace: bool = False) -> None:
    """Refuse, before any work, an --iohprofiler folder that holds files (unless ``replace``: the
    command's own, or --force), or the ioh package missing."""
    if folder is None:
        return
    parent = os.path.dirname(os.path.abspath(folder))
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
        raise InputError(f"--iohprofiler {folder}: the folder {parent} does not exist or is not writable")
    problem = name_problem(folder)
    if problem is not None:
        raise InputError(f"--iohprofiler {folder}: {problem}")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise InputError(f"--iohprofiler {folder}: exists and is not a folder; export into a new one")
    if os.path.exists(folder) and os.listdir(folder) and not replace:
        raise InputError(f"--iohprofiler {folder}: exists and is not an empty folder; export into a new one")
    from ..experiments.iohprofiler import INSTALL

    try:
        import ioh  # noqa: F401
    except ImportError:
        raise InputError(f"--iohprofiler needs the ioh package: {INSTALL}") from None


def check_baseline(baseline: str | None, algorithms: tuple[str, ...]) -> None:
    """Refuse, before any work, a --baseline that is not one of the -a algorithms, or one with no
    other algorithm to compare, or scipy missing."""
    if baseline is None:
        return
    if baseline not in algorithms:
        raise click.UsageError(f"--baseline {baseline} is not one of the -a algorithms ({', '.join(algorithms)})")
    if len(algorithms) < 2:
        raise click.UsageError("--baseline needs at least one other -a algorithm to compare with it")
    from ..experiments.analysis import INSTALL

    try:
        import scipy.stats  # noqa: F401
    except ImportError:
        raise InputError(f"--baseline needs scipy: {INSTALL}") from None


def algorithm_options(records: tuple[registry.Algorithm, ...], options: dict) -> dict[str, dict]:
    """Each algorithm's share of the run options, by name.  An option none of them takes is a usage
    error; one that only some take goes to those, and standard error says so."""
    shares = {}
    for record in records:
        shares[record.name] = options_for(
            record, {k: v for k, v in options.items() if k in record.options or len(records) == 1}
        )
    algorithms = tuple(shares)
    for name in options:
        takers = [a for a in algorithms if name in shares[a]]
        if not takers:
            raise click.UsageError(
                f"{flag(name)} applies to none of {', '.join(algorithms)}; it applies to "
                f"{', '.join(registry.takes(name))}"
            )
        if len(takers) < len(algorithms):
            click.echo(f"note: {flag(name)} applies to {', '.join(takers)} only", err=True)
    return shares


def dataset_names(datasets: tuple[str, ...]) -> list[str]:
    """What tables, JSON and plots call each dataset: its file name, or its path as given when two
    datasets share a file name (their runs must never merge).  A file given twice is refused."""
    seen: dict[str, str] = {}
    for path in datasets:
        if os.path.realpath(path) in seen:
            raise click.UsageError(f"{path} is given twice (as {seen[os.path.realpath(path)]}); give each dataset once")
        seen[os.path.realpath(path)] = path
    names = [os.path.basename(p) for p in datasets]
    return [name if names.count(name) == 1 else os.path.normpath(path) for name, path in zip(names, datasets)]


def datasets_title(datasets: tuple[str, ...]) -> str:
    names = dataset_names(datasets)
    return ", ".join(names) if len(names) <= 3 else f"{', '.join(names[:2])} and {len(names) - 2} more files"
