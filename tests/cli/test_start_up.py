"""Start-up: a command imports what it needs, not what the other commands need.  The command line's
modules are imported when their command runs (``deap_sudoku.cli.commands``), so ``--version`` loads
neither numpy nor DEAP, and ``samples``, ``check`` and ``convert`` neither DEAP nor the algorithms
and runs that ``solve`` and ``bench`` import (0.1-0.3 s of every command before)."""

import ast
import os
import subprocess
import sys

import click
import pytest

from deap_sudoku.cli import main
from tests.conftest import REPO

COMMANDS = [["--version"], ["samples"], ["check", "data/9x9.txt"], ["convert", "data/9x9.txt", "-", "--to", "line"]]
HEAVY = ("numpy", "deap", "deap_sudoku.algorithms", "deap_sudoku.runs.registry", "numba")

PROBE = f"""
import runpy, sys
for command in {COMMANDS!r}:
    sys.argv = ["deap-sudoku", *command]
    try:
        runpy.run_module("deap_sudoku", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code
    sys.stdout.flush()
    loaded = [name for name in {HEAVY!r} if name in sys.modules]
    print("loaded:", repr((command[0], code, loaded)), file=sys.__stderr__, flush=True)
"""


@pytest.mark.slow
def test_the_light_commands_load_neither_deap_nor_the_runs():
    """One process runs the commands in turn as ``deap-sudoku`` does (each loads what the one
    before it left loaded, so each is asked only for what the lighter ones before it did not need)."""
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, timeout=120)
    found = [
        ast.literal_eval(line[len("loaded: ") :]) for line in done.stderr.splitlines() if line.startswith("loaded:")
    ]
    assert found == [
        ("--version", 0, []),
        ("samples", 0, ["numpy"]),
        ("check", 0, ["numpy"]),
        ("convert", 0, ["numpy"]),
    ], done.stderr


def test_every_command_is_listed_and_loads_under_its_own_name():
    """The group names its commands without importing them (``main.commands`` keeps click's
    mapping); each, once looked up, is the command of that name (a wrong entry would list one
    command and run another)."""
    assert sorted(main.commands) == main.list_commands(click.Context(main))
    assert sorted(main.commands) == ["algorithms", "bench", "check", "convert", "generate", "samples", "solve"]
    for name, command in main.commands.items():
        assert isinstance(command, click.Command) and command.name == name
        assert main.get_command(click.Context(main), name) is command


@pytest.mark.slow
def test_a_command_starts_numpy_with_one_blas_thread_unless_the_user_asks_for_more():
    """OpenBLAS starts a thread per core when numpy loads, and they spin for a moment: 0.1 s of CPU in
    every command on two cores, for a package that does no linear algebra.  The user's own setting
    stays theirs.  (On a one-core machine OpenBLAS starts no thread either way.)"""
    probe = (
        "import os, runpy, sys\nsys.argv = ['deap-sudoku', 'samples']\n"
        "try:\n    runpy.run_module('deap_sudoku', run_name='__main__', alter_sys=True)\n"
        "except SystemExit:\n    pass\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'], len(os.listdir('/proc/self/task')), file=sys.__stderr__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    for given, expected in ((None, "1 1"), ("2", "2 2")):
        variables = env if given is None else {**env, "OPENBLAS_NUM_THREADS": given}
        done = subprocess.run([sys.executable, "-c", probe], env=variables, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and done.stderr.split("\n")[-2] == expected, (given, done.stderr)
