"""Checkpoints: DEAP's pickle recipe (population, generation, hall of fame, logbook, the run's own
random generator), written atomically and refused when they belong to another run.

A checkpoint is a pickle, and loading a pickle runs code: load only files you
wrote yourself.  Each file records the package version and the identity of its
run (puzzle, algorithm, seed, options); :meth:`Checkpoint.load` refuses one
whose identity differs, with a message that says what differs.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from pathlib import Path

from .._version import __version__
from ..grid.errors import PuzzleError
from ..io.fileio import write_atomic

__all__ = ["Checkpoint", "CheckpointError", "run_identity"]

FORMAT = "deap_sudoku checkpoint 2"
"""Version 2 holds the run's own generator state instead of the global ones of version 1."""


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: unreadable, not ours, or from another run or version."""


def run_identity(puzzle, algorithm: str, seed: int, options: dict) -> dict:
    """What must match for a checkpoint to be resumed: the version, puzzle, algorithm, seed and the
    options that shape the run.  Budgets (``max_*``) may differ, so a run can be resumed for longer."""
    return {"version": __version__, "puzzle": puzzle.format(format="line").strip(), "box": puzzle.shape.name,
            "algorithm": algorithm, "seed": seed,
            "options": {k: v for k, v in sorted(options.items())
                        if k not in ("verbose", "checkpoint") and not k.startswith("max_")}}


@dataclass
class Checkpoint:
    """Where and how often a run saves itself, and who it is: the
    :class:`~deap_sudoku.algorithms.generational.Checkpointer` the loops take.

    ``every``: save after every ``every``-th generation (and always when
    stopping).  ``identity``: see :func:`run_identity`.
    """

    path: Path
    every: int = 1
    identity: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        if self.every < 1:
            raise ValueError("checkpoint every must be at least 1 generation")

    def due(self, generation: int) -> bool:
        return generation % self.every == 0

    def save(self, state: dict) -> None:
        """Write ``state`` (the loop's, its generator's state included), replacing the previous
        checkpoint only once the new one is complete on disk."""
        write_atomic(self.path, pickle.dumps({"format": FORMAT, "identity": self.identity, "state": state},
                                             protocol=pickle.HIGHEST_PROTOCOL), overwrite=True)

    def read(self) -> dict | None:
        """The saved state, checked to be this run's; None when there is no file yet.

        :raises CheckpointError: for a file that is not a checkpoint, or one of another run or version.
        """
        if not self.path.exists():
            return None
        try:
            with open(self.path, "rb") as handle:
                data = pickle.load(handle)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, IndexError, TypeError,
                ValueError, PuzzleError) as exc:
            raise CheckpointError(f"{self.path}: not a readable deap_sudoku checkpoint ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CheckpointError(f"{self.path}: not a deap_sudoku checkpoint")
        theirs = data.get("identity", {})
        for key, mine in self.identity.items():
            if theirs.get(key) != mine:
                raise CheckpointError(f"{self.path} belongs to another run: its {key} is {theirs.get(key)!r}, "
                                      f"this run's is {mine!r}; use another file or delete it to start afresh")
        return data["state"]

    def load(self) -> dict | None:
        """The state to resume from (:meth:`read`); the loop restores its generator from it."""
        return self.read()
