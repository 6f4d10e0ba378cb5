"""``python -m deap_sudoku`` runs the command line.

``deap-sudoku bench --workers N`` starts SCOOP on this file (SCOOP starts a file, not a module), so
it imports absolutely and runs the command line only as the main program (SCOOP workers import
it too).  Under SCOOP a successful run returns instead of raising ``SystemExit(0)``, which SCOOP
would print as a traceback.
"""

from deap_sudoku.cli import main
from deap_sudoku.runs.task import scoop_is_running

if __name__ == "__main__":
    try:
        main()
    except SystemExit as exc:
        if exc.code not in (0, None) or not scoop_is_running():
            raise
