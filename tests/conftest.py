"""Shared fixtures: the benchmark data beside the repo, and small puzzles of every shape."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("DEAP_SUDOKU_SHARED_DATA", REPO.parent / "shared" / "data"))

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5)]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; missing, it skips locally and fails in CI (which sets CI=true)."""
    if not (SHARED_DATA / "SOURCES.md").is_file():
        message = f"benchmark data not found at {SHARED_DATA}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return SHARED_DATA
