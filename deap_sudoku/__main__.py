"""``python -m deap_sudoku`` runs the command line; so does ``python -m scoop -n 2 deap_sudoku/__main__.py``.

SCOOP has no ``-m``: it starts a file, so this module imports absolutely and
only runs the command line as the main program (SCOOP workers import it too).
"""

from deap_sudoku.cli import main

if __name__ == "__main__":
    main()
