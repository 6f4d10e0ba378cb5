"""``bench --scheduler``: a Dask scheduler's workers run the runs (the ``[cluster]`` extra;
:mod:`deap_sudoku.runs.dask_engine`)."""

from __future__ import annotations

from typing import Any

import click


def dask_client(address: str | None) -> Any:
    """A client of the Dask scheduler at ``address`` (None without one), connected now, so that a
    scheduler that does not answer, or Dask not installed, is refused before any run."""
    if address is None:
        return None
    from ..runs import dask_engine

    try:
        return dask_engine.connect(address)
    except dask_engine.DaskMissing as exc:
        raise click.UsageError(f"--scheduler: {exc}") from None
    except (OSError, ValueError) as exc:
        raise click.UsageError(f"--scheduler {address}: no Dask scheduler answers there ({exc})") from None
