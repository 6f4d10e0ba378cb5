"""Runs: the algorithm registry and recipes, running one task (serially or over SCOOP), plots of a
run, checkpoints and graceful interrupts.  Many runs, compared, are :mod:`deap_sudoku.experiments`."""

from .checkpoint import Checkpoint, CheckpointError, CheckpointWarning, run_identity, saved_state
from .interrupt import INTERRUPTED, exit_code, graceful, requested
from .record import Algorithm, Outcome
from .registry import ALGORITHMS, algorithm, names
from .task import RunResult, Task, run_all, run_task, scoop_is_running

__all__ = [
    "ALGORITHMS",
    "Algorithm",
    "Outcome",
    "algorithm",
    "names",
    "Task",
    "RunResult",
    "run_task",
    "run_all",
    "scoop_is_running",
    "Checkpoint",
    "CheckpointError",
    "CheckpointWarning",
    "run_identity",
    "saved_state",
    "graceful",
    "requested",
    "exit_code",
    "INTERRUPTED",
]
