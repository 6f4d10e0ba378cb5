"""An experiment in IOHprofiler's data format, written by the ``ioh`` package's own logger, so that
IOHanalyzer and the other IOHprofiler tools read it unchanged.

Each dataset and fitness is a problem (``easy_txt__collisions_1``: the name made an identifier, the
cell collisions of the block GA a problem apart from the collisions of the memetic GA), each puzzle
an instance (its index + 1), the grid's cell count the dimension, each algorithm a folder of its
own. A run is replayed into the logger: one call per fitness evaluation it spent, each improvement
of its best-so-far fitness at the last evaluation of the generation that found it (the finest the
runs record). Runs that trace no fitness against evaluations (tabu search, the exact solvers) cannot
be replayed and are left out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from ..runs.task import RunResult

__all__ = ["export_iohprofiler", "INSTALL"]

INSTALL = 'pip install "deap_sudoku[experiments]"'


def _ioh():
    try:
        import ioh
    except ImportError:
        raise ImportError(f"the IOHprofiler export needs the ioh package: {INSTALL}") from None
    return ioh


def _identifier(text: str) -> str:
    return re.sub(r"\W+", "_", text).strip("_") or "dataset"


def export_iohprofiler(results: Iterable[RunResult], folder: str | os.PathLike) -> list[str]:
    """Write the runs that trace fitness against evaluations under ``folder`` (one sub-folder per
    algorithm, as IOHanalyzer takes them); return a line for each algorithm left out, saying why.

    :raises FileExistsError: if ``folder`` exists and is not empty: an export never mixes with old files.
    :raises ImportError: without the ``ioh`` package, naming the extra to install.
    """
    ioh = _ioh()
    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise FileExistsError(f"{folder} exists and is not empty; export into a new folder")
    folder.mkdir(parents=True, exist_ok=True)
    traced: dict[str, list[RunResult]] = {}
    left_out: dict[str, str] = {}
    for result in results:
        if result.trace is None or not result.trace.evaluations or result.objective is None:
            left_out.setdefault(result.algorithm, "left out: it traces no fitness against evaluations")
            continue
        traced.setdefault(result.algorithm, []).append(result)
    problems: dict[tuple, str] = {}  # (dataset, fitness, direction) -> the problem's name, unique in this process
    for algorithm, runs in traced.items():
        logger = ioh.logger.Analyzer(
            root=str(folder),
            folder_name=_identifier(algorithm),
            algorithm_name=algorithm,
            algorithm_info="deap_sudoku runs: instance = puzzle index + 1",
        )
        for result in sorted(runs, key=lambda r: (r.dataset, r.index, r.seed)):
            objective, _ = result.course()
            key = (result.dataset, objective.name, objective.lower_is_better)
            if key not in problems:
                _COUNT[0] += 1
                problems[key] = f"{_identifier(result.dataset)}__{_identifier(objective.name)}_{_COUNT[0]}"
            _replay(ioh, logger, problems[key], result)
        logger.close()
    return [f"{algorithm}: {why}" for algorithm, why in left_out.items()]


_WRAPPED: dict[str, dict] = {}
_COUNT = [0]  # ioh keeps every wrapped problem for the process: each export's names are new


def _replay(ioh, logger, name: str, result: RunResult) -> None:
    """Call the problem once per evaluation ``result`` spent, returning its best-so-far fitness."""
    objective, trace = result.course()
    state = _WRAPPED.get(name)
    if state is None:
        state = _WRAPPED[name] = {"y": 0.0}
        kind = ioh.OptimizationType.MIN if objective.lower_is_better else ioh.OptimizationType.MAX
        ioh.wrap_problem(lambda x, s=state: s["y"], name=name, optimization_type=kind, lb=0.0, ub=float(100))
    problem = ioh.get_problem(name, instance=result.index + 1, dimension=len(result.grid))
    problem.attach_logger(logger)
    best = np.asarray(trace.series["best"], dtype=float)
    running = np.minimum.accumulate(best) if objective.lower_is_better else np.maximum.accumulate(best)
    point = np.zeros(len(result.grid))
    spent, before = 0, float(trace.series["mean"][0])  # the first generation's: its mean, then its best
    for evaluations, value in zip(trace.evaluations or (), running):
        calls = max(int(evaluations) - spent, 0)
        if calls:
            state["y"] = before
            for _ in range(calls - 1):
                problem(point)
            state["y"] = float(value)
            problem(point)
        spent, before = max(spent, int(evaluations)), float(value)
    problem.reset()
