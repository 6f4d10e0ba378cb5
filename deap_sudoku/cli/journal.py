"""``solve --out``'s journal: every answer on disk as soon as its puzzle is done, in ``OUT.journal``
beside the target, so that a killed run (SIGKILL, the out-of-memory killer, a lost machine) loses at
most the puzzle in progress, and the same command started again continues from there.  The target
itself is written whole at the end, from the journal, which is then removed; until then an existing
target is left as it was.

The journal is an experiment's results file (:class:`~deap_sudoku.experiments.store.ResultsFile`),
headed by the command's provenance, every answer with its digest: a file that is not one is refused
untouched, a damaged answer is not believed, and a kept answer is verified against its puzzle before
it is reported.  A run is known by its puzzle's cells, its place in the file, the algorithm, the
seed and the options, so a journal of another command is refused before any work rather than mixed in.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from ..experiments.provenance import provenance
from ..experiments.store import ResultsFile, StoreError, identity
from ..grid import Puzzle
from ..io.fileio import FileInUse
from ..runs.task import RunResult, Task
from .errors import InputError
from .outputs import hold_lock
from .scoop import started_as

SUFFIX = ".journal"


def journal_path(out: str) -> str:
    """Where ``solve --out OUT`` keeps its answers until OUT is written: ``OUT.journal``."""
    return out + SUFFIX


class Journal:
    """The answers of one ``solve`` command: :meth:`get` a kept one, :meth:`keep` a new one, and
    :meth:`finish` once the target is written."""

    def __init__(self, out: str, puzzles: Iterable[Puzzle], task: Callable[[int, Puzzle], Task]) -> None:
        self.out, self.path = out, journal_path(out)
        try:
            hold_lock(self.path)  # one command per journal: a second would interleave its answers
            self.store = ResultsFile(self.path)
            if self.store.done:
                self._refuse_another_run(puzzles, task)
        except (FileInUse, StoreError) as exc:
            raise InputError(str(exc)) from None
        first = task(0, next(iter(puzzles)))
        self.store.write_as(
            {"algorithms": {first.algorithm: first.options}, "datasets": [first.dataset]},
            lambda: provenance(seed=first.seed, command=started_as()),
        )
        self.kept = len(self.store.done)

    def _refuse_another_run(self, puzzles: Iterable[Puzzle], task: Callable[[int, Puzzle], Task]) -> None:
        ours = set()
        for index, puzzle in enumerate(puzzles):
            ours.add(identity(task(index, puzzle)))
        others = len(set(self.store.done) - ours)
        if others:
            raise StoreError(
                f"{self.path}: holds {others} answer{'s' * (others != 1)} of another solve command "
                "(other puzzles, algorithm, seed or options); finish that command, or remove this "
                "file to start afresh"
            )

    def get(self, task: Task) -> RunResult | None:
        """The answer an earlier run of this command kept for ``task``, if any, a solution verified.

        :raises InputError: for a kept answer that says solved and does not solve its puzzle.
        """
        if identity(task) not in self.store.done:
            return None
        try:
            return self.store.result(task)
        except StoreError as exc:
            raise InputError(str(exc)) from None

    def answer(self, task: Task) -> RunResult:
        """The answer kept for ``task``, which a finished command has for every one."""
        result = self.get(task)
        if result is None:
            raise KeyError(f"{self.path}: no answer kept for puzzle {task.index + 1}")
        return result

    def keep(self, task: Task, result: RunResult) -> None:
        """Put ``result`` on disk (synced) before the next puzzle starts."""
        try:
            self.store.append(task, result)
        except OSError as exc:
            raise InputError(f"{self.path}: cannot keep an answer: {exc.strerror or exc}") from None

    def finish(self) -> None:
        """The target is written: the journal has served."""
        os.unlink(self.path)
