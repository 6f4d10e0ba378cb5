"""Without numba (a Python it has no wheel for yet, an install without it) every command works on the
Python twins, after one notice line at most, and never with a traceback."""

import subprocess
import sys

import pytest

from tests.conftest import REPO, sitecustomize_env

NOTICE = "numba is not installed"
COMMANDS = {
    "solve 9x9": ["solve", "data/9x9.txt"],
    "solve 16x16 with a budget": ["solve", "data/16x16.txt", "--max-seconds", "30"],
    "memetic 16x16 with a budget": ["solve", "data/16x16.txt", "-a", "memetic", "--max-seconds", "30"],
    "memetic 25x25 with a budget": ["solve", "data/25x25.txt", "-a", "memetic", "--max-seconds", "60"],
    "solve 25x25 with a budget": ["solve", "data/25x25.txt", "--max-seconds", "60"],
    "bench 9x9 (issue 52)": ["bench", "data/testdata/easy.txt", "--runs", "1"],
    "bench 16x16": ["bench", "data/16x16-lloyd.txt", "--runs", "2", "--max-seconds", "30"],
    "backtracking 25x25": ["solve", "data/25x25.txt", "-a", "backtracking"],
    "bench the ant colony": ["bench", "data/16x16-lloyd.txt", "data/25x25.txt", "-a", "acs", "--runs", "1"],
    "bench cdcl": ["bench", "data/25x25.txt", "-a", "cdcl", "--runs", "1"],
    "generate 16x16": ["generate", "--box", "4x4", "--count", "1", "--seed", "0"],
    "check 25x25": ["check", "data/25x25.txt"],
    "convert 16x16": ["convert", "data/16x16.txt", "-", "--to", "lloyd"],
    "samples": ["samples"],
    "algorithms": ["algorithms"],
}
QUIET = {"solve 9x9", "convert 16x16", "samples", "algorithms"}
"""The commands that would use no compiled kernel (a 9x9 solve starts in Python): no notice.  (bench
compiles before its clocks start, whatever the grid.)"""


def test_every_subcommand_is_tried():
    from deap_sudoku.cli import main

    assert set(main.commands) == {command[0] for command in COMMANDS.values()}


@pytest.fixture(scope="module")
def without_numba(tmp_path_factory):
    """A child environment in which ``import numba`` fails, as where it is not installed."""
    return sitecustomize_env(tmp_path_factory.mktemp("no-numba"), "import sys\nsys.modules['numba'] = None\n")


def test_numba_is_unimportable_in_the_child(without_numba):
    done = subprocess.run([sys.executable, "-c", "import numba"], env=without_numba, capture_output=True, text=True)
    assert done.returncode == 1 and "ModuleNotFoundError: import of numba halted" in done.stderr


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_runs_on_the_python_twins(name, without_numba):
    done = subprocess.run(
        [sys.executable, "-m", "deap_sudoku", *COMMANDS[name]],
        cwd=REPO,
        env=without_numba,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and done.stderr.count(NOTICE) == (name not in QUIET)
    notices = [
        line for line in done.stderr.splitlines() if not line.startswith(("puzzle ", "  ")) and "solved in" not in line
    ]
    assert len(notices) <= 1, notices


def test_asking_for_the_compiled_kernels_without_numba_is_refused_in_one_line(without_numba):
    code = (
        "from deap_sudoku import load_sample\nfrom deap_sudoku.exact import solve\n"
        "try:\n    solve(load_sample(), compiled=True)\nexcept ValueError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=without_numba, capture_output=True, text=True)
    assert done.stdout.strip() == "compiled=True needs numba, which is not installed here (pip install numba)"
