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
best-so-far fitness at the last evaluation of the generation that found it (the finest the runs
record), a solved run's target at the evaluation that first scored it.  Runs that trace no fitness
against evaluations (tabu search, the exact solvers) cannot be replayed and are left out.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from ..runs.task import RunResult

__all__ = ["export_iohprofiler", "problem_id", "problem_name", "INSTALL"]

INSTALL = 'pip install "deap_sudoku[experiments]"'


def _ioh():
    try:
        import ioh
    except ImportError:
        raise ImportError(f"the IOHprofiler export needs the ioh package: {INSTALL}") from None
    return ioh


def _identifier(text: str) -> str:
    return re.sub(r"\W+", "_", text).strip("_") or "dataset"


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
    results: Iterable[RunResult], folder: str | os.PathLike, *, provenance: dict | None = None
) -> list[str]:
    """Write the runs that trace fitness against evaluations under ``folder`` (one sub-folder per
    algorithm, as IOHanalyzer takes them), with ``provenance``
    (:func:`~deap_sudoku.experiments.provenance.provenance`) as experiment attributes; return a line
    for each algorithm left out, saying why.

    :raises FileExistsError: if ``folder`` exists and is not empty: an export never mixes with old files.
    :raises ValueError: when two problems of the export get the same id (before anything is written).
    :raises ImportError: without the ``ioh`` package, naming the extra to install.
    """
    ioh = _ioh()
    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise FileExistsError(f"{folder} exists and is not empty; export into a new folder")
    traced: dict[str, list[RunResult]] = {}
    left_out: dict[str, str] = {}
    problems: dict[int, tuple[str, str, bool]] = {}
    for result in results:
        if result.trace is None or not result.trace.evaluations or result.objective is None:
            left_out.setdefault(result.algorithm, "left out: it traces no fitness against evaluations")
            continue
        traced.setdefault(result.algorithm, []).append(result)
        problem = (result.dataset, result.objective.name, result.objective.lower_is_better)
        other = problems.setdefault(problem_id(*problem), problem)
        if other != problem:
            raise ValueError(
                f"the problems {problem_name(*other[:2])} and {problem_name(*problem[:2])} get the same id, "
                f"{problem_id(*problem)}; rename one of the datasets to export both"
            )
    folder.mkdir(parents=True, exist_ok=True)
    for algorithm, runs in traced.items():
        logger = ioh.logger.Analyzer(
            root=str(folder),
            folder_name=_identifier(algorithm),
            algorithm_name=algorithm,
            algorithm_info="deap_sudoku runs: instance = puzzle index + 1",
        )
        for key, value in (provenance or {}).items():
            logger.add_experiment_attribute(key, str(value))
        for result in sorted(runs, key=lambda r: (r.dataset, r.index, r.seed)):
            _replay(ioh, logger, result)
        logger.close()
    return [f"{algorithm}: {why}" for algorithm, why in left_out.items()]


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
    spent, before = 0, float(trace.series["mean"][0])  # the first generation's: its mean, then its best
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
