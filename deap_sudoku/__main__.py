"""``python -m deap_sudoku`` runs the command line."""

from .cli import main

main()
