"""Runs: the algorithm registry and recipes, running tasks serially or over SCOOP, bench summaries,
plots, checkpoints and graceful interrupts."""

from .bench import Plan, summarise, to_csv, to_json, to_markdown, wilson_interval
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
    "Plan",
    "summarise",
    "wilson_interval",
    "to_json",
    "to_csv",
    "to_markdown",
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
