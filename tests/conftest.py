"""Shared fixtures: the benchmark data beside the repo, and small puzzles of every shape."""

from __future__ import annotations

import compileall
import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import pytest

from deap_sudoku import Puzzle
from deap_sudoku.algorithms.repair import PropagationRepair
from deap_sudoku.exact import count_solutions, solve
from deap_sudoku.grid import find_conflicts
from deap_sudoku.runs.checkpoint import CheckpointError, saved_state

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("DEAP_SUDOKU_SHARED_DATA", REPO.parent / "shared" / "data"))

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5)]


def pytest_configure(config) -> None:
    """Byte-compile the package once, before the workers start, where ``PYTHONDONTWRITEBYTECODE`` is
    set (as on the CI machine): the suite starts hundreds of ``deap-sudoku`` processes, and each
    compiled every module it imported from source again (0.15-0.3 s of CPU each; pip does the same
    for an installed wheel).  The test modules are kept as pytest keeps them by default, for each
    worker's collection (7.5 s, then 4-5)."""
    if sys.dont_write_bytecode:
        sys.dont_write_bytecode = False  # this process's imports only: its children keep the setting
        if not hasattr(config, "workerinput"):
            compileall.compile_dir(REPO / "deap_sudoku", quiet=1)
            compileall.compile_dir(REPO / "tests", quiet=1)
    if not hasattr(config, "workerinput") and (config.getoption("numprocesses", None) or 0) > 1:
        _compile_the_kernels_once()


def _compile_the_kernels_once() -> None:
    """Compile every bundled algorithm's kernels into numba's cache before the workers start, where
    this machine never did (a fresh clone), in two processes: the memetic GA's (the longest) and
    the others', the exact search last (the first process has compiled its propagation by then).
    Otherwise both workers compiled the same kernels at once and the commands the tests started ran
    on the Python twins meanwhile: about 30 s here, which the tests then do not spend (README).
    Tests of a first-ever run use a cache folder of their own, cold whatever this does."""
    from deap_sudoku.runs import kernel_cache, registry

    names = [name for name in registry.names() if registry.algorithm(name).warm_up is not None]
    if all(kernel_cache.compiled_before(name) for name in names):
        return
    first = next(line for line in (REPO / "data" / "9x9.txt").read_text().splitlines() if line.strip())
    cells = ",".join(c if c.isdigit() else "0" for c in first.replace(" ", ""))
    others = sorted((name for name in names if name != "memetic"), key=lambda name: name == "backtracking")
    code = (
        "import sys\nfrom deap_sudoku.runs.kernels import compile_here\n"
        "for name in sys.argv[2:]:\n    compile_here(name, '3x3', sys.argv[1])\n"
    )
    sys.stderr.write("compiling numba's kernels once, before the workers start (~30 s)\n")
    compilers = [subprocess.Popen([sys.executable, "-c", code, cells, *group]) for group in (["memetic"], others)]
    for compiler in compilers:
        compiler.wait()


@pytest.fixture(autouse=True)
def _no_hold_on_the_python_twins():
    """A first-ever command holds its process on the kernels' Python twins while a background process
    compiles them (``propagation.choice.hold_compiled``); a command ends its process, a test does not."""
    yield
    from deap_sudoku.propagation import choice

    choice.hold_compiled(None)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; missing, it skips locally and fails in CI (which sets CI=true)."""
    if not (SHARED_DATA / "SOURCES.md").is_file():
        message = f"benchmark data not found at {SHARED_DATA}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return SHARED_DATA


def sitecustomize_env(folder: Path, code: str, **variables: str) -> dict[str, str]:
    """The environment for a child Python that runs ``code`` at start-up, with ``variables`` set:
    ``code`` becomes ``folder/sitecustomize.py`` and ``folder`` goes first on PYTHONPATH, so every
    Python process started from the child (SCOOP's included) imports it too."""
    (folder / "sitecustomize.py").write_text(code)
    return {
        **os.environ,
        **variables,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")])),
    }


FORUM_HARDEST = "..1..4.......6.3.5...9.....8.....7.3.......285...7.6..3...8...6..92......4...1..."


@functools.lru_cache(maxsize=None)
def unsolvable() -> Puzzle:
    """A hard puzzle with one empty cell given a wrong value: no conflicts, no solution,
    and propagation alone does not find that out, so a GA on it runs to its budget."""
    puzzle = Puzzle.parse(FORUM_HARDEST)
    solved = solve(puzzle)
    for cell in np.flatnonzero(~puzzle.givens):
        for value in range(1, 10):
            cells = puzzle.cells.copy()
            cells[cell] = value
            if value == solved.cells[cell] or find_conflicts(puzzle.shape, cells):
                continue
            candidate = Puzzle(cells, box=puzzle.shape)
            if count_solutions(candidate) == 0 and PropagationRepair(candidate).consistent:
                return candidate
    raise AssertionError("no unsolvable variant found")


def pattern_puzzle(box: int, open_cells: int) -> Puzzle:
    """A puzzle with ``box`` x ``box`` boxes: a pattern grid (each row the one above shifted by a box
    width, each band by one more) with ``open_cells`` cells emptied, seeded."""
    side = box * box
    cells = np.array([(box * (row % box) + row // box + col) % side + 1 for row in range(side) for col in range(side)])
    cells[np.random.default_rng(0).choice(side * side, open_cells, replace=False)] = 0
    return Puzzle(cells, box=(box, box))


def wide_puzzle(open_cells: int) -> Puzzle:
    """An 81x81 puzzle, wider than the compiled kernels' 64-bit masks hold."""
    return pattern_puzzle(9, open_cells)


def run_lines(path: Path) -> int:
    """The finished runs a results file (or a journal) holds: its run records, its header lines not counted."""
    return path.read_bytes().count(b'"format": "deap_sudoku.run/1"')


def messages(text: str) -> list[str]:
    """A command's messages, one line each: the command line wraps a long one at the terminal's
    width onto lines indented by two spaces (``cli.errors.wrap``), joined back here."""
    said: list[str] = []
    for line in text.splitlines():
        if line.startswith("  ") and said:
            said[-1] += " " + line.strip()
        else:
            said.append(line)
    return said


def said(text: str) -> str:
    """A command's output with each message that the command line wrapped joined back: one a line."""
    return "\n".join(messages(text))


def end_compilers(cache: Path) -> None:
    """SIGTERM to the background compilers still holding a lock in ``cache`` (a test's own numba
    cache): a compile the test does not wait for is not left running on the suite's cores."""
    for lock in cache.glob("*.compiling"):
        try:
            os.kill(int(lock.read_text()), signal.SIGTERM)
        except (ValueError, OSError):
            pass


def wait_for_runs(results: Path, count: int, process: subprocess.Popen, timeout: float = 180) -> None:
    """Wait until the results file ``results`` holds ``count`` finished runs (or ``process`` ended):
    a signal sent then meets the command in the middle of its runs, however fast or loaded the
    machine.  Not there within ``timeout``: the test fails saying so (under a load of 5 on 2 cores
    a 60 s wait once ran out one run short, and the signal met fewer runs than the test needed)."""
    deadline = time.monotonic() + timeout
    while process.poll() is None:
        if results.exists() and run_lines(results) >= count:
            return
        if time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"{results}: {count} runs not finished within {timeout} s")
        time.sleep(0.02)


def checkpoint_generation(path: Path) -> int | None:
    """The generation a checkpoint file holds, or None while it does not exist or is being replaced."""
    try:
        return saved_state(path)["generation"]
    except CheckpointError:
        return None


SCOOP_LAUNCHER = [sys.executable, "-m", "deap_sudoku.cli.scoop_launch"]
"""How ``--workers`` starts SCOOP's launcher: through the module that keeps the other hosts'
options off this machine's workers, never ``python -m scoop`` itself."""


def scoop_exits_with(env: dict, code: int, command: list) -> subprocess.CompletedProcess:
    """A stand-in for the SCOOP launch in ``cli.scoop.rerun_under_scoop``: what the command run
    under SCOOP leaves behind, its exit code in the file the launch names (SCOOP's launcher itself
    exits 0), and a finished launch to wait for."""
    with open(env["DEAP_SUDOKU_EXIT_FILE"], "w") as handle:
        handle.write(f"{code}\n")
    launched = subprocess.CompletedProcess(command, 0)  # stdout None: nothing to read
    launched.wait = lambda: 0
    launched.pid = None  # no session of SCOOP's to end
    return launched


HOSTILE = """
import os
import sys
import time

import numpy as np

from deap_sudoku.exact import solve


def nan(puzzle, *, rng):
    return np.full(puzzle.shape.cells, np.nan)


def text(puzzle, *, rng):
    return ["x"] * puzzle.shape.cells


def exits(puzzle, *, rng):
    sys.exit(0)


def ends(puzzle, *, rng):
    os._exit(0)


def prints(puzzle, *, rng):
    print("hello from a plug-in")
    os.write(1, b"and from C\\n")
    return solve(puzzle, rng=rng).cells


def moves(puzzle, *, rng):
    os.chdir("/")
    return solve(puzzle, rng=rng).cells


def hangs(puzzle, *, rng, max_seconds=None):
    time.sleep(600)
"""
"""A module of plug-ins that do what a plug-in should not, each by its name (a NaN or text grid,
``sys.exit``, ``os._exit``, printing, ``os.chdir``, hanging), for the tests and the fault campaign."""


def recipe_options(recipe, **options) -> dict:
    """Run options (as ``Task.options`` and the command line give them) as a GA recipe takes them:
    the budgets among them, and ``requested``, moved into its default ``stop``."""
    from deap_sudoku.runs.record import STOP_OPTIONS, recipe_stop

    budgets = {name: options.pop(name) for name in (*STOP_OPTIONS, "requested") if name in options}
    return {**options, "stop": recipe_stop(recipe, **budgets)}
