"""An experiment's runs kept as they finish: one JSON line per run, appended and synced, so a killed
experiment loses at most the runs in progress, and the same command started again skips every run the
file holds.

Each session that appends to the file first writes a header line: the experiment (its algorithms
with their options, and its datasets) and where the session came from (its
:func:`~deap_sudoku.experiments.provenance.provenance`: versions, revision, command, host, date).
A file of another experiment is refused, with one line saying what differs; more runs or seeds of
the same experiment are the same experiment, so files of one experiment split over machines
(``--seed``, ``--runs``) merge by concatenation (``cat a.jsonl b.jsonl``), headers and all.

A run line holds the run's :class:`~deap_sudoku.runs.task.RunResult` and what makes it that run:
dataset, puzzle index, algorithm, seed, the algorithm's options and the puzzle's cells.  A run is
done when a line with the same identity is in the file; a line with the same place (dataset, index,
algorithm, seed) but other options or another puzzle is refused, so that two experiments never mix.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable
from dataclasses import asdict, fields
from pathlib import Path

from ..runs.record import Objective, Trace
from ..runs.task import RunResult, Task

__all__ = ["ResultsFile", "StoreError", "identity", "read_results"]

FORMAT = "deap_sudoku.run/1"
"""The ``format`` field of every run line, so that a later layout can still read this one."""
HEADER = "deap_sudoku.experiment/1"
"""The ``format`` field of a header line: the experiment and its session's provenance."""


class StoreError(ValueError):
    """A results file that cannot serve this experiment; the message names the file and line."""


def identity(task: Task) -> tuple:
    """What makes a task that run: where it sits in the plan, its options and its puzzle (a digest
    of its box shape and cells)."""
    puzzle = hashlib.sha256(f"{task.puzzle.shape}:".encode() + task.puzzle.cells.tobytes()).hexdigest()[:20]
    return task.dataset, task.index, task.algorithm, task.seed, _canonical(task.options), puzzle


def _canonical(options: dict) -> str:
    return json.dumps(options, sort_keys=True, default=str)


def _as_stored(value: dict) -> dict:
    """``value`` as a JSON line keeps it, so that what is compared is what the file holds."""
    return json.loads(json.dumps(value, default=str))


class ResultsFile:
    """The runs of an experiment in the JSON-lines file at ``path`` (created on the first run).

    ``experiment`` (``{"algorithms": {name: options}, "datasets": [names]}``) is the experiment this
    file is to serve: a file whose header names another is refused (:class:`StoreError`).  Without
    it the file is only read (:func:`read_results`).  ``provenance`` (or a function that gives it,
    asked once, when the first run is kept) is written, with the experiment, in a header line
    before this session's first run.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        experiment: dict | None = None,
        provenance: dict | Callable[[], dict] | None = None,
    ) -> None:
        self.path = Path(path)
        self.experiment = _as_stored(experiment) if experiment is not None else None
        self.provenance = provenance
        self.headers: list[dict] = []
        """The header lines read: each session's experiment and provenance."""
        self.done: dict[tuple, RunResult] = {}
        self._places: dict[tuple, tuple[tuple, int]] = {}
        self._header_written = False
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
                if record.get("format") == HEADER:
                    self._header(record, number)
                    continue
                if record.get("format") != FORMAT:
                    raise ValueError(f"format {record.get('format')!r}, not {FORMAT!r}")
                key = tuple(record["identity"])
                result = _result(record["result"])
            except StoreError:
                raise
            except (ValueError, KeyError, TypeError) as exc:
                raise StoreError(f"{self.path}:{number}: not a run record of deap_sudoku ({exc})") from None
            self._remember(key, result, number)

    def _header(self, record: dict, line: int) -> None:
        """Take a header line in; :class:`StoreError` if it names another experiment than this one."""
        if not isinstance(record.get("experiment"), dict):
            raise ValueError("a header without its experiment")
        self.headers.append(record)
        if self.experiment is None:
            return
        theirs = _as_stored(record["experiment"])
        if _difference(theirs, self.experiment):
            raise StoreError(
                f"{self.path}:{line}: holds another experiment: {_difference(theirs, self.experiment)}; "
                "give this experiment a file of its own"
            )

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

    def results(self) -> list[RunResult]:
        """Every run the file holds, in the order of its lines."""
        return list(self.done.values())

    def append(self, task: Task, result: RunResult) -> None:
        """Add one finished run, on disk before this returns (flushed and synced); the first of a
        session comes after the session's header line."""
        key = identity(task)
        lines = [json.dumps({"format": FORMAT, "identity": list(key), "result": _record(result)}, allow_nan=True)]
        if not self._header_written and self.experiment is not None:
            made = self.provenance() if callable(self.provenance) else self.provenance
            header = {"format": HEADER, "experiment": self.experiment, "provenance": made}
            lines.insert(0, json.dumps(header, allow_nan=True))
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in lines))
            handle.flush()
            os.fsync(handle.fileno())
        self._header_written = True
        self._remember(key, result, -1)


def read_results(*paths: str | os.PathLike) -> list[RunResult]:
    """Every run of the results files at ``paths``, of one experiment or several (a new algorithm's
    runs beside earlier ones), for the summaries, tests, plots and exports.

    :raises StoreError: for a file that is not a results file, naming the file and line.
    """
    return [result for path in paths for result in ResultsFile(path).results()]


def _difference(theirs: dict, ours: dict) -> str:
    """What differs between two experiments, in words (algorithms, an algorithm's options, datasets;
    not their order), or ``""`` when they are the same experiment."""
    try:
        mine, yours = ours["algorithms"], theirs["algorithms"]
        if sorted(yours) != sorted(mine):
            return f"its algorithms are {', '.join(yours)}; this one's are {', '.join(mine)}"
        for name, options in mine.items():
            if yours[name] != options:
                return f"its {name} runs with {_options(yours[name])}; this one's with {_options(options)}"
        if sorted(theirs["datasets"]) != sorted(ours["datasets"]):
            return f"its datasets are {', '.join(theirs['datasets'])}; this one's are {', '.join(ours['datasets'])}"
    except (KeyError, TypeError, AttributeError):
        return "its header does not describe an experiment"
    return ""


def _options(options: dict) -> str:
    return ", ".join(f"{key}={value}" for key, value in sorted(options.items())) or "no options"


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
