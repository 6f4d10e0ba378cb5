import runpy
import subprocess
import sys

from deap_sudoku import read
from deap_sudoku.solvers import verify

from .conftest import REPO


def test_exact_baselines_example_solves_the_default_puzzle(capsys):
    module = runpy.run_path(str(REPO / "examples" / "exact_baselines.py"))
    puzzle = read(REPO / "data" / "9x9.txt")[0]
    solution = module["main"](puzzle)
    assert verify(solution, puzzle)
    assert "the solution is unique" in capsys.readouterr().out


def test_exact_baselines_example_runs_as_a_script():
    result = subprocess.run([sys.executable, str(REPO / "examples" / "exact_baselines.py"),
                             str(REPO / "data" / "6x6.txt")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "search nodes" in result.stdout
