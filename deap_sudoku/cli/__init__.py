"""The command line and the example scripts' front end: click commands that parse, call :mod:`deap_sudoku.runs`
and print.  The only layer that prints."""

from .commands import main

__all__ = ["main"]
