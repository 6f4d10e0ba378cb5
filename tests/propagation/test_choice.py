"""The kernel choice: small grids start in Python and switch once Python has cost what loading numba would."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from deap_sudoku.propagation import choice

from tests.conftest import REPO, end_compilers


def test_python_time_is_charged_until_it_pays_to_load_the_compiled_kernels(monkeypatch):
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(choice, "_spent", [0.0])
    assert not choice.prefer_compiled(81, 9)
    assert choice.prefer_compiled(choice.COMPILED_FROM_CELLS, 9)  # 16x16 and up: compiled at once
    assert choice.prefer_compiled(64 * 64, 64)  # value 64 is the sign bit of an int64 mask
    assert not choice.prefer_compiled(81 * 81, 81)  # masks wider than 64 bits: always Python
    started = time.perf_counter()
    with choice.charged():
        time.sleep(0.01)
    assert 0.01 <= choice.python_seconds() <= time.perf_counter() - started  # the block's time, no more
    monkeypatch.setattr(choice, "_spent", [choice.LOADING_SECONDS * 0.99])  # not a loaded machine's 10 ms sleep
    assert not choice.prefer_compiled(81, 9)
    monkeypatch.setattr(choice, "_spent", [choice.LOADING_SECONDS])
    assert choice.prefer_compiled(81, 9)


def test_loaded_numba_makes_every_fitting_grid_compiled(monkeypatch):
    monkeypatch.setattr(choice, "_spent", [0.0])
    monkeypatch.setitem(sys.modules, "numba", sys.modules.get("numba", object()))
    assert choice.prefer_compiled(16, 4)


def _solved_without_numba(path, *options, env=None) -> subprocess.CompletedProcess:
    code = (
        "import sys\nfrom deap_sudoku.cli import main\n"
        f"sys.argv = ['deap-sudoku', 'solve', '-q', {str(path)!r}, *{options!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
        "print('numba' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "False"
    return done


@pytest.mark.slow
def test_one_small_puzzle_is_solved_without_loading_numba(tmp_path):
    puzzle = tmp_path / "one.txt"
    puzzle.write_text("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n")
    done = _solved_without_numba(puzzle)
    assert done.stdout.count("|") >= 18  # the solved grid was printed


@pytest.mark.slow
def test_an_easy_25x25_under_a_budget_is_solved_without_loading_numba(tmp_path, monkeypatch):
    """On a machine that has compiled the kernels before, the memetic GA's seed search settles an
    easy 25x25 in its Python probe: the command never waits for numba."""
    from deap_sudoku.runs import kernels

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # numba's cache and the stamp beside it
    kernels.mark_compiled("memetic")
    try:
        done = _solved_without_numba(REPO / "data" / "25x25.txt", "--max-seconds", "10", env=dict(os.environ))
    finally:  # the exact search's kernels, never compiled in this cache: 14 s of CPU nobody waits for
        end_compilers(tmp_path)
    assert done.stdout.count("|") >= 50


@pytest.mark.slow
def test_loading_a_cached_kernel_skips_numbas_blas_probe_and_leaves_np_dot_to_users():
    """numba's CPU target imports scipy.linalg to probe for a BLAS (0.3-0.7 s of a first cached
    kernel call, a third of solve -a acs on a 16x16); no kernel here calls BLAS, and a user's own
    np.dot in a numba function still works, SciPy imported when it is compiled."""
    pytest.importorskip("numba")
    code = (
        "import sys, numpy as np\n"
        "from deap_sudoku.propagation.choice import load_numba\n"
        "numba = load_numba()\n"
        "numba.njit(lambda x: x + 1)(1)\n"  # numba's CPU target loaded, as by a first cached kernel
        "print('scipy.linalg' in sys.modules)\n"
        "d = numba.njit(lambda a, b: np.dot(a, b))\n"
        "print(d(np.ones(3), np.ones(3)), 'scipy.linalg' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "3.0", "True"], out
