"""What ``solve`` says about a run: how it ended, what it spent and what found the answer, in one line."""

from __future__ import annotations

from ..runs.task import RunResult
from .auto import found_by
from .errors import KEEP, plural

__all__ = ["ending", "spending", "best_fitness", "STOP_REASONS"]


def best_fitness(result: RunResult) -> str:
    """The best fitness of a run, with what it measures where the run says."""
    return result.objective.describe(result.fitness) if result.objective is not None else f"fitness {result.fitness:g}"


def spending(result: RunResult) -> str:
    """What the run spent: generations and evaluations (GAs), steps and moves scored (tabu)."""
    if result.steps or (result.trace is not None and result.trace.unit == "step"):  # a local search, moved or not
        return f"{plural(result.steps, 'step')}, {plural(result.evaluations, 'move')} scored"
    return f"{plural(result.generations, 'generation')}, {plural(result.evaluations, 'evaluation')}"


def ending(result: RunResult, chosen: str = "") -> str:
    """One line on how the run ended (``chosen``: the algorithm ``auto`` ran, to name in it), for
    :func:`~deap_sudoku.cli.errors.wrap`, which prints its :data:`~deap_sudoku.cli.errors.KEEP` as spaces."""
    seconds = f"{result.seconds:.3f}{KEEP}s"  # kept with its unit and the word before it where wrapped
    spent = f" ({spending(result)})" if result.objective is not None else ""
    if result.solved:
        return f"solved in{KEEP}{seconds}{found_by(result, chosen)}{spent}"
    if result.error:  # a user's algorithm that raised, exited, ended its process or hung
        return f"failed after{KEEP}{seconds}: {result.error}"
    if result.note == "exhausted":  # a complete search proved it
        return f"no solution: the search found none in{KEEP}{seconds}"
    if result.note.startswith("no solution"):
        return result.note
    if result.objective is None:
        return f"not solved after{KEEP}{seconds}: {result.note}"
    why = STOP_REASONS.get(result.note, result.note)
    return (
        f"no solution found within the budget: stopped by {why} after{KEEP}{seconds} ({spending(result)}); "
        f"best fitness: {result.objective.describe(result.fitness)}"
    )


STOP_REASONS = {
    "generations": "the generation budget",
    "time": "the time budget",
    "steps": "the step budget",
    "evaluations": "the evaluation budget",
    "stagnation": "stagnation (the best equals the mean)",
    "no improvement": "a run without improvement",
    "no moves": "a board with no move left",
}
