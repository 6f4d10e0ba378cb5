"""Start-up: a command imports what it needs, not what the other commands need.  The command line's
modules are imported when their command runs (``deap_sudoku.cli.commands``), so ``--version`` loads
neither numpy nor DEAP, and ``samples``, ``check`` and ``convert`` neither DEAP nor the algorithms
and runs that ``solve`` and ``bench`` import (0.1-0.3 s of every command before)."""

import ast
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
