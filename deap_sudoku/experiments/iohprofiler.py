"""An experiment in IOHprofiler's data format, written by the ``ioh`` package's own logger, so that
IOHanalyzer and the other IOHprofiler tools read it unchanged.

Each dataset and fitness is a problem (``easy_txt__collisions``: the names made identifiers, the
cell collisions of the block GA a problem apart from the collisions of the memetic GA), each puzzle
an instance (its index + 1), the grid's cell count the dimension, each algorithm a folder of its
own.  A problem's id is a function of what it is (:func:`problem_id`: the dataset's name, the
fitness and its direction), never of the order problems were met in, so exports made by separate
commands, on other days, with other algorithms, merge in IOHanalyzer: ``f`` ids mean the same
problem in all of them.  IOHprofiler's readers keep an id in 16 bits, so it is a digest from 1 to
65,535: two problems of one export that get the same id are refused, naming both (a dataset
renamed parts them); for 30 problems that happens about once in 150 exports.  The experiment's
provenance is in every file's ``experiment_attributes``.

A run is replayed into the logger: one call per fitness evaluation it spent, each improvement of its
best-so-far fitness at the last evaluation of the generation (or traced step of a local search:
annealing, the iterated local search) that found it (the finest the runs record), a solved run's
target at the evaluation that first scored it.  Runs that trace no fitness against evaluations
(tabu search, which has no evaluation budget and traces steps only; the exact solvers) cannot be
replayed and are left out.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from ..io.fileio import TEMPORARY
from ..runs.task import RunResult

__all__ = ["export_iohprofiler", "problem_id", "problem_name", "INSTALL"]

INSTALL = 'pip install "deap_sudoku[experiments]"'


def _ioh():
    try:
        import ioh
    except ImportError:
        raise ImportError(f"the IOHprofiler export needs the ioh package: {INSTALL}") from None
    return ioh


NAME_BYTES = 80
"""The longest identifier an export makes of a name (ioh puts problem names in file and folder
names, which a file system bounds at 255 bytes); a longer one is cut and given a digest of the whole."""


def _identifier(text: str) -> str:
    """``text`` as a name ioh and file systems take: word characters and underscores, at most
    :data:`NAME_BYTES` long (a longer one cut, with a digest of the whole so that two stay apart)."""
    name = re.sub(r"\W+", "_", text, flags=re.ASCII).strip("_") or "dataset"
    if len(name) > NAME_BYTES:
        name = f"{name[: NAME_BYTES - 9]}_{hashlib.sha256(text.encode()).hexdigest()[:8]}"
    return name


def problem_name(dataset: str, fitness: str) -> str:
    """The problem's name in the export: ``easy_txt__collisions``."""
    return f"{_identifier(dataset)}__{_identifier(fitness)}"


ID_RANGE = 65_535
"""Problem ids run from 1 to this: IOHprofiler's readers (iohinspector) keep an id in 16 bits."""


def problem_id(dataset: str, fitness: str, lower_is_better: bool) -> int:
    """The problem's id in the export, from 1 to :data:`ID_RANGE`: a digest of the dataset's name,
    the fitness and its direction, the same in every export."""
    key = f"{dataset}\n{fitness}\n{'min' if lower_is_better else 'max'}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % ID_RANGE + 1


def export_iohprofiler(
    results: Iterable[RunResult],
    folder: str | os.PathLike,
    *,
    provenance: dict | None = None,
    replace: bool = False,
) -> list[str]:
    """Write the runs that trace fitness against evaluations under ``folder`` (one sub-folder per
    algorithm, as IOHanalyzer takes them; a run that spent none is left out, said in a line), with ``provenance``
    (:func:`~deap_sudoku.experiments.provenance.provenance`) as experiment attributes; return a line
    for each algorithm left out, saying why.

    The export is written into a new folder beside ``folder``, checked whole (every information
    file reads, every data file is complete), and only then put in its place, so that ``folder``
    holds a whole export or what it held before, whatever happens (a full disk, a kill).

    :raises FileExistsError: if ``folder`` exists and is not empty, unless ``replace``: an export
        never mixes with old files.
    :raises ValueError: when two problems of the export get the same id (before anything is written).
    :raises OSError: when the export could not be written whole (nothing of it is left).
    :raises ImportError: without the ``ioh`` package, naming the extra to install.
    """
    ioh = _ioh()
    folder = Path(folder)
    _refuse_existing(folder, replace)
    traced, left_out, unspent = _sort_for_export(results)
    building = Path(
        tempfile.mkdtemp(
            prefix=f".{folder.name[:NAME_BYTES]}.{os.getpid()}.", suffix=TEMPORARY, dir=folder.absolute().parent
        )
    )
    try:
        for algorithm, runs in traced.items():
            logger = ioh.logger.Analyzer(
                root=str(building),
                folder_name=_identifier(algorithm),
                algorithm_name=algorithm,
                algorithm_info="deap_sudoku runs: instance = puzzle index + 1",
            )
            for key, value in (provenance or {}).items():
                logger.add_experiment_attribute(key, str(value))
            for result in sorted(runs, key=lambda r: (r.dataset, r.index, r.seed)):
                _replay(ioh, logger, result)
            logger.close()
        _check_whole(building, sum(len(runs) for runs in traced.values()))
        _put_in_place(building, folder, replace)
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    spent_none = [
        f"{name}: {count} run{'s' * (count > 1)} left out: it spent no evaluation" for name, count in unspent.items()
    ]
    return [f"{algorithm}: {why}" for algorithm, why in left_out.items()] + spent_none


def _sort_for_export(results: Iterable[RunResult]) -> tuple[dict[str, list[RunResult]], dict[str, str], dict[str, int]]:
    """The runs an export replays by algorithm, why an algorithm is left out, and how many runs of
    each spent no evaluation; two problems of one id refused before anything is written."""
    traced: dict[str, list[RunResult]] = {}
    left_out: dict[str, str] = {}
    unspent: dict[str, int] = {}
    problems: dict[int, tuple[str, str, bool]] = {}
    for result in results:
        if result.trace is None or not result.trace.evaluations or result.objective is None:
            left_out.setdefault(result.algorithm, "left out: it traces no fitness against evaluations")
            continue
        if result.trace.evaluations[-1] < 1:  # nothing to replay: IOHprofiler keeps no run without a call
            unspent[result.algorithm] = unspent.get(result.algorithm, 0) + 1
            continue
        traced.setdefault(result.algorithm, []).append(result)
        problem = (result.dataset, result.objective.name, result.objective.lower_is_better)
        other = problems.setdefault(problem_id(*problem), problem)
        if other != problem:
            raise ValueError(
                f"the problems {problem_name(*other[:2])} and {problem_name(*problem[:2])} get the same id, "
                f"{problem_id(*problem)}; rename one of the datasets to export both"
            )
    return traced, left_out, unspent


def _refuse_existing(folder: Path, replace: bool) -> None:
    if folder.exists() and (not folder.is_dir() or (any(folder.iterdir()) and not replace)):
        raise FileExistsError(f"{folder} exists and is not an empty folder; export into a new folder")


def _check_whole(building: Path, runs: int) -> None:
    """:class:`OSError` unless every information file under ``building`` reads and names data files
    that are there, complete, and the files hold ``runs`` runs in all (a full disk leaves ioh's
    files empty or cut without a word)."""
    found = 0
    for info in building.rglob("IOHprofiler_*.json"):
        try:
            data = json.loads(info.read_text())
            for scenario in data["scenarios"]:
                found += len(scenario["runs"])
                dat = info.parent / scenario["path"]
                text = dat.read_bytes()
                if not text.endswith(b"\n") or text.count(b"\n") < 2 * len(scenario["runs"]):
                    raise ValueError(f"{dat.name} is cut short")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise OSError(
                f"the export could not be written whole ({info.name}: {exc}); nothing of it is kept"
            ) from None
    if found != runs:
        raise OSError(f"the export holds {found} of its {runs} runs; nothing of it is kept")


def _put_in_place(building: Path, folder: Path, replace: bool) -> None:
    """Rename the finished export to ``folder``; an existing one (``replace``) goes only once the new
    one stands beside it."""
    _refuse_existing(folder, replace)  # again: it may have appeared while the runs ran
    if folder.exists() and any(folder.iterdir()):
        old = Path(
            tempfile.mkdtemp(
                prefix=f".{folder.name[:NAME_BYTES]}.{os.getpid()}.", suffix=TEMPORARY, dir=folder.absolute().parent
            )
        )
        os.rename(folder, old / "old")
        os.rename(building, folder)
        shutil.rmtree(old, ignore_errors=True)
    else:
        if folder.exists():
            folder.rmdir()
        os.rename(building, folder)


_WRAPPED: dict[int, dict] = {}
"""The problems this process has wrapped, by id: ioh keeps a wrapped problem for the process, under
the name it was wrapped with, so each is wrapped once and given its export name and id."""


def _replay(ioh, logger, result: RunResult) -> None:
    """Call the problem once per evaluation ``result`` spent, returning its best-so-far fitness."""
    objective, trace = result.course()
    number = problem_id(result.dataset, objective.name, objective.lower_is_better)
    state = _WRAPPED.get(number)
    if state is None:
        state = _WRAPPED[number] = {"y": 0.0}
        kind = ioh.OptimizationType.MIN if objective.lower_is_better else ioh.OptimizationType.MAX
        ioh.wrap_problem(
            lambda x, s=state: s["y"], name=f"deap_sudoku_{number}", optimization_type=kind, lb=0.0, ub=float(100)
        )
    problem = ioh.get_problem(f"deap_sudoku_{number}", instance=result.index + 1, dimension=len(result.grid))
    problem.set_id(number)
    problem.set_name(problem_name(result.dataset, objective.name))
    problem.attach_logger(logger)
    best = np.asarray(trace.series["best"], dtype=float)
    running = np.minimum.accumulate(best) if objective.lower_is_better else np.maximum.accumulate(best)
    spent_by = [int(e) for e in trace.evaluations or ()]
    solved_at = next((i for i, value in enumerate(running) if value == objective.target), None)
    if result.solved and result.first_hit is not None and solved_at is not None:  # where it was first scored
        spent_by[solved_at] = result.first_hit
    point = np.zeros(len(result.grid))
    # before the first point's best: a GA's first generation's mean, a local search's start (its current score)
    spent, before = 0, float(trace.series["mean" if "mean" in trace.series else "current"][0])
    for evaluations, value in zip(spent_by, running):
        calls = max(evaluations - spent, 0)
        if calls:
            state["y"] = before
            for _ in range(calls - 1):
                problem(point)
            state["y"] = float(value)
            problem(point)
        spent, before = max(spent, evaluations), float(value)
    problem.reset()
