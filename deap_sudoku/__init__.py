"""deap_sudoku: Sudoku parts for DEAP — puzzle model, file formats, propagation, exact solvers,
evolutionary operators and algorithms.

The layers, each importing only from those before it: :mod:`~deap_sudoku.grid`,
:mod:`~deap_sudoku.io`, :mod:`~deap_sudoku.propagation`, :mod:`~deap_sudoku.exact`,
:mod:`~deap_sudoku.tools`, :mod:`~deap_sudoku.algorithms`, :mod:`~deap_sudoku.runs`,
:mod:`~deap_sudoku.experiments`, :mod:`~deap_sudoku.cli`.  The most used names are here too.

They are loaded on first use (PEP 562), so that importing a part of the package, such as the
command line's entry point, costs only what that part needs: the command line installs its
signal handlers before numpy and DEAP load.
"""

import importlib

from ._version import __version__

_EXPORTS = {
    "grid": (
        "Puzzle",
        "Shape",
        "Conflict",
        "find_conflicts",
        "show",
        "GridView",
        "format_grid",
        "PuzzleError",
        "PuzzleFileError",
    ),
    "io": ("FORMATS", "detect_format", "loads", "dumps", "read", "write", "load_sample"),
    "tools": ("Individual", "MaxIndividual", "individual_class", "HallOfFame", "make_toolbox"),
}
_HOME = {name: layer for layer, names in _EXPORTS.items() for name in names}
_LAYERS = ("grid", "io", "propagation", "exact", "tools", "algorithms", "runs", "experiments", "cli")

__all__ = [*_HOME, "__version__"]


def __getattr__(name: str):
    if name in _LAYERS:
        return importlib.import_module(f".{name}", __name__)
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_LAYERS})
