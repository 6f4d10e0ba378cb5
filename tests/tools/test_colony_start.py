"""The ant colony's start on a small grid: the givens propagated and the first colony built in
Python while numba is not loaded (``PYTHON_FIRST_CELLS``), the same colonies as the compiled twin."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from deap_sudoku import dumps, read
from deap_sudoku.algorithms import Stop
from deap_sudoku.grid.puzzle import Puzzle
from deap_sudoku.runs.colony import ant_colony
from deap_sudoku.propagation import choice
from deap_sudoku.tools import Pheromone, pheromone

from tests.conftest import REPO

SIXTEEN = REPO / "deap_sudoku" / "data" / "16x16.txt"


def test_a_small_grid_builds_its_first_colony_in_python_and_the_same_run_as_compiled(monkeypatch):
    """Numba is loaded in the test process, so its absence is what ``_compiled`` is told: the
    givens' propagation and colony 1 run the Python twin, colonies 2 and 3 the compiled one, and
    the run is the compiled run seed for seed."""
    first = read(SIXTEEN)[0]
    cells = first.cells.copy()
    cells[np.flatnonzero(cells)[int(0.6 * np.count_nonzero(cells)) :]] = 0  # 3 colonies leave it unsolved
    puzzle = Puzzle(cells, box=first.shape)
    stop = Stop(max_generations=3)
    _, log, hof = ant_colony(puzzle, seed=2, compiled=True, stop=stop)
    twins = []
    run = pheromone._run

    def spy(compiled, name, *args):
        twins.append((compiled, name))
        return run(compiled, name, *args)

    monkeypatch.setattr(pheromone, "_run", spy)
    monkeypatch.setattr(pheromone, "_numba_loaded", lambda: False)
    monkeypatch.setattr(choice, "_spent", [0.0])  # no Python kernel has run in this process
    _, log_left, hof_left = ant_colony(puzzle, seed=2, compiled=None, stop=stop)
    steps = [compiled for compiled, name in twins if name == "steps"]
    assert twins[0] == (False, "initial_domains")
    assert steps == [False] * (puzzle.shape.cells // pheromone.POLL_STEPS) + [True, True]  # polled in Python
    assert log_left.select("min") == log.select("min") == [184.0, 2.0, 2.0, 2.0]
    assert (hof_left[0] == hof[0]).all()


def test_once_python_kernels_have_cost_the_loading_a_new_colony_starts_compiled(monkeypatch):
    """The ski rental across the puzzles of a file: a :class:`Pheromone` made after the Python
    twins have cost ``LOADING_SECONDS`` loads numba for its first colony."""
    puzzle = read(SIXTEEN)[0]
    monkeypatch.setattr(pheromone, "_numba_loaded", lambda: False)
    monkeypatch.setattr(choice, "_spent", [0.0])
    assert not Pheromone(puzzle)._compiled()
    assert Pheromone(read(REPO / "deap_sudoku" / "data" / "25x25.txt")[0])._compiled()  # larger: at once
    monkeypatch.setattr(choice, "_spent", [choice.LOADING_SECONDS])
    assert Pheromone(puzzle)._compiled()


@pytest.mark.slow
def test_solve_acs_on_a_16x16_the_first_colony_solves_loads_no_numba(tmp_path):
    """``deap-sudoku solve -a acs`` on a 16x16 its first colony solves (the first bundled one), on
    a machine that compiled the colony's kernels: neither numba nor the kernels are loaded, which
    cost 0.4 s quietly and 1-2 s under load (``docs/literature.md``)."""
    path = tmp_path / "one.txt"
    path.write_text(dumps(read(SIXTEEN)[:1]))
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))  # numba's cache and the stamp beside it
    code = (
        "import sys\nfrom deap_sudoku.runs.kernel_cache import mark_compiled\nmark_compiled('acs')\n"
        "from deap_sudoku.cli import main\n"
        f"sys.argv = ['deap-sudoku', 'solve', '-q', {str(path)!r}, '-a', 'acs']\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in ('numba', 'llvmlite', 'scipy')),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=environment)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "[]"
    assert done.stdout.count("|") >= 2 * 16 and "1 generation," in done.stderr  # solved by colony 1
