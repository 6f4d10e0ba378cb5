"""An experiment's runs kept as they finish: one JSON line per run, appended and synced, so a killed
experiment loses at most the runs in progress, and the same command started again skips every run the
file holds.  Files from several machines or workers merge by concatenation (``cat a.jsonl b.jsonl``).

A line holds the run's :class:`~deap_sudoku.runs.task.RunResult` and what makes it that run: dataset,
puzzle index, algorithm, seed, the algorithm's options and the puzzle's cells.  A run is done when a
line with the same identity is in the file; a line with the same place (dataset, index, algorithm,
seed) but other options or another puzzle is refused, so that two experiments never mix.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import asdict, fields
from pathlib import Path

from ..runs.record import Objective, Trace
from ..runs.task import RunResult, Task

__all__ = ["ResultsFile", "StoreError", "identity"]

FORMAT = "deap_sudoku.run/1"
"""The ``format`` field of every line, so that a later layout can still read this one."""


class StoreError(ValueError):
    """A results file that cannot serve this experiment; the message names the file and line."""


def identity(task: Task) -> tuple:
    """What makes a task that run: where it sits in the plan, its options and its puzzle (a digest
    of its box shape and cells)."""
    puzzle = hashlib.sha256(f"{task.puzzle.shape}:".encode() + task.puzzle.cells.tobytes()).hexdigest()[:20]
    return task.dataset, task.index, task.algorithm, task.seed, _canonical(task.options), puzzle


def _canonical(options: dict) -> str:
    return json.dumps(options, sort_keys=True, default=str)


class ResultsFile:
    """The runs of an experiment in the JSON-lines file at ``path`` (created on the first run)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.done: dict[tuple, RunResult] = {}
        self._places: dict[tuple, tuple[tuple, int]] = {}
        if self.path.exists():
            self._load()

    def _load(self) -> None:
        if not self.path.is_file():
            raise StoreError(f"{self.path}: not a regular file")
        data = self.path.read_bytes()
        whole = data.rfind(b"\n") + 1
        if whole < len(data):  # a line cut short by a kill: dropped, and the file made whole again
            with open(self.path, "r+b") as handle:
                handle.truncate(whole)
        for number, line in enumerate(data[:whole].decode("utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if record.get("format") != FORMAT:
                    raise ValueError(f"format {record.get('format')!r}, not {FORMAT!r}")
                key = tuple(record["identity"])
                result = _result(record["result"])
            except (ValueError, KeyError, TypeError) as exc:
                raise StoreError(f"{self.path}:{number}: not a run record of deap_sudoku ({exc})") from None
            self._remember(key, result, number)

    def _refuse_another(self, key: tuple, line: int | None = None) -> None:
        """:class:`StoreError` when the file holds ``key``'s place (dataset, puzzle, algorithm, seed)
        for another run; ``line`` is where ``key`` itself stands in the file, if it does."""
        held = self._places.get(key[:4])
        if held is not None and held[0] != key:
            dataset, index, algorithm, seed = key[:4]
            also = f" than line {line}" if line else ""
            raise StoreError(
                f"{self.path}:{held[1]}: holds {algorithm} on {dataset} puzzle {index + 1}, seed {seed} "
                f"with other options or another puzzle{also}; give this experiment a file of its own"
            )

    def _remember(self, key: tuple, result: RunResult, line: int) -> None:
        self._refuse_another(key, line)
        self._places.setdefault(key[:4], (key, line))
        self.done.setdefault(key, result)

    def check(self, task: Task) -> bool:
        """Whether ``task`` is done; :class:`StoreError` if the file holds its place for another run."""
        key = identity(task)
        self._refuse_another(key)
        return key in self.done

    def result(self, task: Task) -> RunResult:
        return self.done[identity(task)]

    def append(self, task: Task, result: RunResult) -> None:
        """Add one finished run, on disk before this returns (flushed and synced)."""
        key = identity(task)
        line = json.dumps({"format": FORMAT, "identity": list(key), "result": _record(result)}, allow_nan=True)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        self._remember(key, result, -1)


def _record(result: RunResult) -> dict:
    record = {f.name: getattr(result, f.name) for f in fields(result) if f.name not in ("objective", "trace")}
    record["objective"] = asdict(result.objective) if result.objective else None
    record["trace"] = asdict(result.trace) if result.trace else None
    return record


def _result(record: dict) -> RunResult:
    values = dict(record)
    objective, trace = values.pop("objective"), values.pop("trace")
    values["objective"] = Objective(**objective) if objective else None
    if trace:
        evaluations = trace.get("evaluations")
        values["trace"] = Trace(
            trace["unit"],
            tuple(trace["x"]),
            {k: tuple(v) for k, v in trace["series"].items()},
            tuple(evaluations) if evaluations is not None else None,
        )
    else:
        values["trace"] = None
    values["fitness"] = float(values["fitness"]) if values["fitness"] is not None else math.nan
    return RunResult(**values)
