"""The command line and the example scripts' front end: click commands that parse, call :mod:`deap_sudoku.runs`
and print.  The only layer that prints."""

from .._deferred import defer_import

defer_import("moocore")  # before deap.tools imports it (see _deferred): the command line's, not the library's

from .commands import main  # noqa: E402 (after defer_import, on purpose)

__all__ = ["main"]
