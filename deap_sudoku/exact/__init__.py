"""Exact baselines on the propagation layer: search, solve, count, verify, generate and grade puzzles."""

from .generate import (
    DIFFICULTIES,
    GenerationBudgetExceeded,
    dig_puzzle,
    generate_graded,
    generate_puzzle,
    grade,
    random_solution,
    reachable,
)
from .backtracking import SearchBudgetExceeded, SearchResult, count_solutions, is_unique, search, solve
from .clause_learning import solve_learning
from .verification import verify

__all__ = [
    "SearchResult",
    "SearchBudgetExceeded",
    "search",
    "solve",
    "solve_learning",
    "count_solutions",
    "is_unique",
    "verify",
    "random_solution",
    "dig_puzzle",
    "generate_puzzle",
    "grade",
    "generate_graded",
    "reachable",
    "GenerationBudgetExceeded",
    "DIFFICULTIES",
]
