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

import numpy as np

from ..exact.verification import unsolved_because
from ..runs.record import Objective, Trace
from ..runs.task import RunResult, Task

__all__ = ["ResultsFile", "StoreError", "identity", "read_results", "fingerprint", "add_digests"]

FORMAT = "deap_sudoku.run/1"
"""The ``format`` field of every run line, so that a later layout can still read this one."""
HEADER = "deap_sudoku.experiment/1"
"""The ``format`` field of a header line: the experiment and its session's provenance."""
OUTPUTS = "deap_sudoku.outputs/1"
"""The ``format`` field of the line a session writes last: the outputs it wrote, each with a
fingerprint of what it holds, which the same command may replace when it goes on or is run again."""


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
        self.outputs: dict[str, str] = {}
        """The outputs the last session wrote (:meth:`note_outputs`): absolute path to
        fingerprint (:func:`fingerprint`)."""
        self.done: dict[tuple, RunResult] = {}
        self._places: dict[tuple, tuple[tuple, int]] = {}
        self._header_written = False
        self._torn: int | None = None  # where a record cut short by a kill begins
        self._unterminated = False  # the last record lacks its newline
        if self.path.exists():
            self._load()

    def _load(self) -> None:
        """Read the file, a line at a time, each line at most :data:`MAX_LINE` bytes.  The first
        line must be a record of this package, or the file is refused untouched: a file of anything
        else is never read on, cut or appended to.  A last line cut short by a kill (one that
        begins as this package's records do) is noted, and cut when this session first writes; a
        complete last record that only lacks its newline is kept.  Every record's digest is checked:
        a damaged one is refused, never believed."""
        if not self.path.is_file():
            raise StoreError(f"{self.path}: not a regular file")
        offset = 0
        with open(self.path, "rb") as handle:
            for number, raw in enumerate(iter(lambda: handle.readline(MAX_LINE + 1), b""), start=1):
                complete = raw.endswith(b"\n")
                text = raw.rstrip(b"\r\n")
                if text.strip():
                    record = _parsed(text) if len(raw) <= MAX_LINE else None
                    if record is not None and not self._places and not self.headers:
                        record = record if record.get("format") in (HEADER, FORMAT, OUTPUTS) else None  # ours?
                    if record is None:
                        if not complete and text.startswith(RECORD_STARTS):
                            self._torn = offset  # a record cut short by a kill: cut when this session writes
                            return
                        raise StoreError(self._not_ours(number))
                    self._take(record, number)
                    self._unterminated = not complete
                offset += len(raw)

    def _not_ours(self, number: int) -> str:
        if number == 1:
            return (
                f"{self.path}: not a results file of deap_sudoku (its first line is not one of its records); "
                "it is left as it is: give the experiment a file of its own"
            )
        return f"{self.path}:{number}: not a record of deap_sudoku; the file is left as it is"

    def _take(self, record: dict, number: int) -> None:
        """Check a parsed line's digest and take it in: a header, or a run."""
        if "digest" not in record:
            raise StoreError(
                f"{self.path}:{number}: a record without a digest (written before results files carried one, "
                "or its digest removed); it is not believed: remove that line to have its run done again, or, "
                "for a file you trust whole, give every line its digest once: "
                f"python -c 'from deap_sudoku.experiments import add_digests; add_digests({str(self.path)!r})'"
            )
        given = record.pop("digest")
        if given != _digest(record):
            raise StoreError(
                f"{self.path}:{number}: a damaged record (its digest does not match what it holds); "
                "it is not believed: remove that line to have its run done again"
            )
        try:
            if record.get("format") == HEADER:
                self._header(record, number)
                return
            if record.get("format") == OUTPUTS:
                self.outputs = {str(path): str(mark) for path, mark in record["outputs"].items()}
                return
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

    @property
    def places(self) -> set[tuple]:
        """The places (dataset, puzzle index, algorithm, seed) the file holds runs for."""
        return set(self._places)

    def check(self, task: Task) -> bool:
        """Whether ``task`` is done; :class:`StoreError` if the file holds its place for another run."""
        key = identity(task)
        self._refuse_another(key)
        return key in self.done

    def result(self, task: Task) -> RunResult:
        """The run the file holds for ``task``, its claim of a solution checked against the task's
        puzzle.

        :raises StoreError: for a record that says solved and holds a grid that does not solve it.
        """
        key = identity(task)
        result = self.done[key]
        if result.solved:
            why = unsolved_because(np.asarray(result.grid), task.puzzle)
            if why:
                raise StoreError(
                    f"{self.path}:{self._places[key[:4]][1]}: says {task.algorithm} solved {task.dataset} puzzle "
                    f"{task.index + 1}, seed {task.seed}, but its grid does not ({why}); it is not believed: "
                    "remove that line to have its run done again"
                )
        return result

    def write_as(self, experiment: dict, provenance: dict | Callable[[], dict] | None) -> None:
        """Head this session's runs with ``experiment`` and ``provenance``, for a caller that checked
        the file against its runs itself (a ``solve --out`` journal)."""
        self.experiment, self.provenance = _as_stored(experiment), provenance

    def results(self) -> list[RunResult]:
        """Every run the file holds, in the order of its lines."""
        return list(self.done.values())

    def append(self, task: Task, result: RunResult) -> None:
        """Add one finished run, on disk before this returns (flushed and synced); the first of a
        session comes after the session's header line, and cuts away a record a kill left torn.
        Every line carries the digest of what it holds."""
        key = identity(task)
        self._write([{"format": FORMAT, "identity": list(key), "result": _record(result)}])
        self._remember(key, result, -1)

    def note_outputs(self, paths: list[str]) -> None:
        """Keep, after this session's runs, the outputs it wrote (files, or an export's folder) with
        their :func:`fingerprint`, so that the same command, going on after a cut or run again (a
        resubmitted batch job), may replace them without ``--force`` while they are as it left them."""
        marks = {os.path.abspath(path): fingerprint(path) for path in paths}
        self._write([{"format": OUTPUTS, "outputs": marks}])
        self.outputs = marks

    def replaceable(self, path: str) -> bool:
        """Whether ``path`` is an output the last session wrote (cut short, or finished: a resubmitted
        job goes on or rewrites it), unchanged since."""
        mark = self.outputs.get(os.path.abspath(path))
        return mark is not None and os.path.exists(path) and fingerprint(path) == mark

    def _write(self, lines: list[dict]) -> None:
        if not self._header_written and self.experiment is not None:
            made = self.provenance() if callable(self.provenance) else self.provenance
            lines.insert(0, {"format": HEADER, "experiment": self.experiment, "provenance": made})
        text = "".join(json.dumps({**line, "digest": _digest(line)}, allow_nan=True) + "\n" for line in lines)
        with open(self.path, "r+b" if self.path.exists() else "wb") as handle:
            if self._torn is not None:
                handle.truncate(self._torn)
                self._torn = None
            handle.seek(0, os.SEEK_END)
            if self._unterminated:
                handle.write(b"\n")
                self._unterminated = False
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        self._header_written = True


def fingerprint(path: str | os.PathLike) -> str:
    """A digest of what the file at ``path`` holds, or, for a folder, of every file in it with its
    name: it changes when anything in it does."""
    digest = hashlib.sha256()
    root = Path(path)
    files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
    for file in files:
        if root.is_dir():
            digest.update(str(file.relative_to(root)).encode() + b"\0")
        with open(file, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:32]


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


MAX_LINE = 64 << 20
"""The longest line a results file may hold, in bytes: a run's record is a few KiB (a 49x49 run
with its trace some tens), so a longer line is no record of this package, and is never read whole."""
RECORD_STARTS = (
    b'{"format": "deap_sudoku.run/',
    b'{"format": "deap_sudoku.experiment/',
    b'{"format": "deap_sudoku.outputs/',
)
"""How every line of a results file begins: a cut-short last line that does not is not ours to cut."""


def add_digests(path: str | os.PathLike) -> int:
    """Give every line of the results file at ``path`` that has none its digest, once, and return how
    many lines got one: the migration of a file written before results files carried digests, which
    they are refused without (:class:`ResultsFile`).  Calling it is the user's word that the file
    holds what its runs gave: nothing can check a line without a digest.  A line with a digest that
    does not match, or that is no record of this package, is refused naming it, and the file is left
    as it was; otherwise the file is replaced whole (written beside it, then renamed).

    :raises StoreError: for a line that is no record of deap_sudoku or is damaged."""
    path = Path(path)
    lines, added = [], 0
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        if not raw.strip():
            continue
        record = _parsed(raw)
        if record is None or record.get("format") not in (HEADER, FORMAT, OUTPUTS):
            raise StoreError(f"{path}:{number}: not a record of deap_sudoku; the file is left as it is")
        if "digest" in record:
            if record.pop("digest") != _digest(record):
                raise StoreError(
                    f"{path}:{number}: a damaged record (its digest does not match what it holds); the file is "
                    "left as it is: remove that line first"
                )
        else:
            added += 1
        lines.append(json.dumps({**record, "digest": _digest(record)}, allow_nan=True) + "\n")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.digests")
    try:
        with open(temporary, "wb") as handle:
            handle.write("".join(lines).encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    ResultsFile(path)  # reads whole, every run checked as any session checks it
    return added


def _parsed(text: bytes) -> dict | None:
    """A line's record, or None for a line that is no JSON object."""
    try:
        record = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _digest(record: dict) -> str:
    """The digest of a record as a line holds it (its keys sorted): any change to what it says
    changes it."""
    canonical = json.dumps(record, sort_keys=True, allow_nan=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


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
