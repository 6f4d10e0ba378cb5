"""--max-seconds keeps its word in wall time (issue 34, item 1): the whole solve command ends within its
budget plus the command's own start-up plus 0.2 s, with a margin for a busy machine.  A check of the
word kept, not a speed benchmark."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deap_sudoku import read
from tests.conftest import REPO, sitecustomize_env, unsolvable

pytestmark = pytest.mark.slow

MARGIN = 0.2  # for a loaded test machine; the promise is 0.2 s (this change took 0.6-1.2 s over to 0.0-0.15); a
# planted 0.5 s overrun in run_task fails 3 to 6 of the budget tests, every run (measured at 0.1 and 0.2)


def _run(*args: str) -> tuple[float, subprocess.CompletedProcess]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "deap_sudoku", *args], capture_output=True, text=True, timeout=120)
    return time.perf_counter() - started, done


def _wall(*args: str) -> float:
    return _run(*args)[0]


def _over(budget: float, *args: str) -> tuple[float, subprocess.CompletedProcess]:
    """How far past its promise (``budget`` + the command's own start-up + 0.2 s) the command ran,
    and what it did.  The start-up is timed beside it, just before and just after, so that a machine
    busy with other work slows both alike: the test answers for the budget, not for the load.  A
    command past :data:`MARGIN` is timed once more and the better time kept: a burst of other work
    stretches one run (2 of 8 tests, once in three suites beside a CPU-bound process), a real
    overrun stretches both.  The start-up is ``solve --help``'s: it imports what ``solve`` imports
    (``--version`` no longer does, the commands' modules being imported only when they run)."""
    best = None
    for _ in range(2):
        before = _wall("solve", "--help")
        wall, done = _run(*args)
        start_up = max(before, _wall("solve", "--help"))
        over = wall - (budget + start_up + 0.2)
        if best is None or over < best[0]:
            best = (over, done)
        if over <= MARGIN:
            break
    assert best is not None
    return best


# the two that ran over
@pytest.mark.parametrize("algorithm", [("block-ga", "--max-generations", "1000000"), ("tabu",)])
def test_a_time_budget_ends_the_whole_command_in_time(algorithm, tmp_path):
    """A 25x25 block GA given 2 s took 3.3-3.5 s: generations ran past the budget, and an exact
    search after the run loaded numba to say whether the puzzle had a solution."""
    puzzle = tmp_path / "one.txt"
    puzzle.write_text("\n".join((REPO / "data" / "25x25.txt").read_text().splitlines()[:25]) + "\n")
    assert _over(1.0, "solve", str(puzzle), "-a", *algorithm, "--max-seconds", "1", "-q")[0] <= MARGIN


def test_a_population_of_two_hundred_thousand_ends_within_the_budget(tmp_path):
    """`solve -a block-ga --population 200000 --max-seconds 5` on a 36x36 ran 155.6 s: the budget was
    not asked while the first population was made (issue 49)."""
    puzzle = tmp_path / "one.txt"
    puzzle.write_text((REPO / "data" / "testdata" / "hard.txt").read_text().splitlines()[0] + "\n")
    command = ["solve", str(puzzle), "-a", "block-ga", "--population", "200000", "--max-seconds", "1", "-q"]
    assert _over(1.0, *command)[0] <= MARGIN


@pytest.fixture(scope="module")
def unsettled(tmp_path_factory) -> Path:
    """A 36x36 at 50 % givens (seed 0) that none of cdcl, backtracking and the memetic GA settles in
    a few seconds: every timed run below lasts its whole budget."""
    puzzle = tmp_path_factory.mktemp("unsettled") / "one.txt"
    make = ["generate", "--box", "6x6", "--any", "--givens", "50%", "--count", "1", "--seed", "0", "--format", "lloyd"]
    subprocess.run([sys.executable, "-m", "deap_sudoku", *make, "--out", str(puzzle)], check=True, timeout=120)
    return puzzle


def _cached(algorithm: str, puzzle: Path) -> None:
    """Compile (on a fresh machine, in a background process) and cache ``algorithm``'s kernels; where
    this machine compiled them before (an earlier test or command did), they are already cached."""
    from deap_sudoku.runs import kernel_cache

    if kernel_cache.compiled_before(algorithm):
        return
    _wall("solve", str(puzzle), "-a", algorithm, "--max-seconds", "1", "-q")
    deadline = time.monotonic() + 180
    while kernel_cache.compiling_elsewhere(algorithm) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert kernel_cache.compiled_before(algorithm)


SLOW_NUMBA = """
import importlib.abc, sys, time
class _Slow(importlib.abc.MetaPathFinder):  # numba's import 1 s slower, as on a machine busy with other work
    def find_spec(self, name, path=None, target=None):
        if name == "numba":
            sys.meta_path.remove(self)
            time.sleep(1.0)
        return None
sys.meta_path.insert(0, _Slow())
"""


@pytest.mark.parametrize("algorithm", ["memetic", "backtracking"])
def test_loading_the_cached_kernels_counts_inside_the_budget(algorithm, unsettled, tmp_path, monkeypatch):
    """The run loads numba and the cached kernels on its own clock (the machine compiled them
    before, in the untimed first command), and still ends in time.  The loading is made 1 s longer
    here (on a machine busy with other work it took 0.6-1.1 s): inside a 2 s budget the run still
    ends in time, and a loading left off the run's clock overruns by that second, whatever the load
    (the start-up it is judged against, ``solve --help``'s, never imports numba)."""
    _cached(algorithm, unsettled)
    monkeypatch.setenv("PYTHONPATH", sitecustomize_env(tmp_path, SLOW_NUMBA)["PYTHONPATH"])
    over, done = _over(2.0, "solve", str(unsettled), "-a", algorithm, "--max-seconds", "2", "-q")
    assert done.returncode == 1 and "solved in" not in done.stderr, done.stderr  # it ran to its budget
    assert over <= MARGIN


SLOW_LOADING = """
import importlib.abc, sys, time
class _Slow(importlib.abc.MetaPathFinder):  # loading numba 1 s slower; finding it (numba_available) is not
    def find_spec(self, name, path=None, target=None):
        if name == "llvmlite":  # imported by numba's own import alone
            sys.meta_path.remove(self)
            time.sleep(1.0)
        return None
sys.meta_path.insert(0, _Slow())
"""


def test_a_run_that_starts_on_the_python_twins_takes_the_kernels_up_only_where_it_asks_its_budget(
    tmp_path, monkeypatch
):
    """`solve -a memetic --max-seconds 1` on a 9x9 ended 0.3-0.45 s late: its repairs start on the
    Python twins, and once those had cost what loading numba would (0.4 s), the next repair loaded
    numba and the cached kernels inside itself (0.8 s), where no budget check reaches.  Loading is made
    1 s longer here, so that a load inside the run overruns on any machine; the run now takes them up
    where it asks its budget, with time left to load them (none, in 1 s: the twins go on)."""
    puzzle = tmp_path / "unsolvable.txt"
    puzzle.write_text("".join(map(str, unsolvable().cells.tolist())) + "\n")
    _cached("memetic", puzzle)
    monkeypatch.setenv("PYTHONPATH", sitecustomize_env(tmp_path, SLOW_LOADING)["PYTHONPATH"])
    over, done = _over(1.0, "solve", str(puzzle), "-a", "memetic", "--max-seconds", "1", "-q")
    assert done.returncode == 1 and "stopped by the time budget" in done.stderr, done.stderr  # it ran to its budget
    assert over <= MARGIN


def test_clause_learning_keeps_its_budget_on_a_puzzle_it_does_not_settle(unsettled):
    """Clause learning does not settle it within a minute: the compiled loop returns to ask the
    clock every few hundredths of a second."""
    _cached("cdcl", unsettled)
    over, done = _over(1.0, "solve", str(unsettled), "-a", "cdcl", "--max-seconds", "1")
    assert done.returncode == 1 and "no answer within 1 s" in done.stderr, done.stderr
    assert over <= MARGIN


ENDING = """
import atexit, sys
{numba}
atexit.register(lambda: sys.stdout.write("an exit handler ran\\n"))  # unflushed: the ending flushes it
class Probe:  # a module global: the interpreter's teardown finalises it, a quick ending does not
    def __del__(self):
        sys.stderr.write("torn down\\n")
probe = Probe()
sys.argv = ["deap-sudoku", "solve", {puzzle!r}, "--out", {out!r}, "-q"]
from deap_sudoku.__main__ import launch
launch()
"""


@pytest.mark.parametrize("numba", [True, False])
def test_a_command_that_loaded_numba_ends_without_the_teardown(numba, tmp_path):
    """With numba's compiled code loaded, the interpreter's object-by-object teardown took 0.2-0.3 s
    after the command was done, past a budget's promise; such a command now skips it, and ends as
    the interpreter would otherwise: its exit handlers run, standard output flushed, its file
    written, its exit code."""
    puzzle, out = tmp_path / "one.txt", tmp_path / "answer.txt"
    puzzle.write_text("\n".join((REPO / "data" / "9x9.txt").read_text().splitlines()[:9]) + "\n")
    script = ENDING.format(numba="import numba" if numba else "", puzzle=str(puzzle), out=str(out))
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=buffered)
    assert done.returncode == 0, done.stderr
    assert ("torn down" in done.stderr) is not numba
    assert done.stdout.count("|") >= 9 * 2 and done.stdout.endswith("an exit handler ran\n"), done.stdout
    assert len(read(out)) == 5
