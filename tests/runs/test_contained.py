"""A user's algorithm contained at every door of the library: its import (prints to standard error,
an exit reported), ``run_experiment`` with forked workers (a worker it kills or hangs is a failed
run, replaced, never a hang) and by default for named plug-ins, and the processes it leaves behind
(ended with the experiment)."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from deap_sudoku.experiments import run_experiment
from deap_sudoku.io.samples import load_samples
from deap_sudoku.runs import registry
from deap_sudoku.runs.registry import from_function

EASY = load_samples("testdata/easy.txt")[:1]


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs a second after it was sent SIGKILL (delivered asynchronously)."""
    for _ in range(100):
        try:
            with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone but for its parent's wait
                if stat.read().split(")")[-1].split()[0] == "Z":
                    return False
        except FileNotFoundError:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    """A folder on the import path, where a test writes its plug-in modules."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("plug_")]:
        del sys.modules[name]
    registry._imported.cache_clear()


def test_a_plugins_import_prints_to_standard_error_and_its_exit_is_reported(plugins, capfd):
    """Its print landed in standard output (``--json -``, ``--out -`` data) and its sys.exit(3) ended
    the command with 3 and not a word."""
    (plugins / "plug_prints.py").write_text(
        "import os\nprint('from Python')\nos.write(1, b'from C\\n')\ndef run(puzzle, *, rng):\n    return None\n"
    )
    (plugins / "plug_exits.py").write_text("import sys\nsys.exit(3)\n")
    assert registry.algorithm("plug_prints:run").name == "plug_prints:run"
    printed = capfd.readouterr()
    assert printed.out == "" and "from Python" in printed.err and "from C" in printed.err
    with pytest.raises(ValueError, match=r"module 'plug_exits' exits when imported \(sys.exit\(3\)\)"):
        registry.algorithm("plug_exits:run")


def _ends(puzzle, *, rng):
    os._exit(5)


def _killed(puzzle, *, rng):
    os.kill(os.getpid(), signal.SIGKILL)


def _hangs(puzzle, *, rng, max_seconds=None):
    time.sleep(300)


def _solves(puzzle, *, rng):
    from deap_sudoku.exact import solve

    return solve(puzzle, rng=rng).cells


def _leaves(puzzle, *, rng):
    child = os.fork()
    if child == 0:
        with open(f"child.{os.getpid()}", "w"):
            pass
        time.sleep(300)
        os._exit(0)
    deadline = time.monotonic() + 30  # the child has left its mark before the run returns, however loaded the machine
    while not os.path.exists(f"child.{child}") and time.monotonic() < deadline:
        time.sleep(0.01)
    return _solves(puzzle, rng=rng)


def test_forked_workers_fail_the_runs_of_a_plugin_that_kills_or_hangs_its_worker_and_go_on(plugins, monkeypatch):
    """A multiprocessing pool hung for good on a worker that ended (os._exit, a signal) or never
    returned; now each such run fails saying why, its worker is replaced, the other runs are whole,
    the child a plug-in left is ended, and the result says runs failed (exit_code 3)."""
    monkeypatch.setattr("deap_sudoku.runs.sandbox.GRACE", 0.2)
    arms = [from_function(f, name=f.__name__) for f in (_ends, _killed, _hangs, _leaves, _solves)]
    previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("the experiment hangs"))
    signal.alarm(120)  # a guard against the hang this test is about, not a measure
    try:
        results = run_experiment(arms, {"easy": EASY}, runs=2, workers=2, options={"_hangs": {"max_seconds": 0.1}})
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    errors = {(r.algorithm, r.seed): r.error for r in results}
    assert [(r.algorithm, r.seed) for r in results] == [
        (a, s) for a in map(str, ("_ends", "_killed", "_hangs", "_leaves", "_solves")) for s in (0, 1)
    ]
    assert errors[("_ends", 1)] == "Ended: the algorithm ended its process (exit code 5) without returning a result"
    assert errors[("_killed", 0)] == "Ended: the algorithm ended its process (signal 9) without returning a result"
    assert errors[("_hangs", 1)].startswith("Stopped: no result")
    assert [r.solved for r in results] == [False] * 6 + [True] * 4
    assert results.exit_code == 3 and len(results.failed) == 6
    children = [int(name.split(".")[1]) for name in os.listdir(plugins) if name.startswith("child.")]
    assert len(children) == 2 and not any(map(_alive, children))


def test_a_named_plugin_runs_contained_by_default(plugins):
    """run_experiment ran it in the caller's process, which its os._exit ended (here: the test
    process, with a code that is no success)."""
    (plugins / "plug_ends.py").write_text("import os\ndef run(puzzle, *, rng):\n    os._exit(7)\n")
    results = run_experiment(["plug_ends:run", from_function(_solves, name="solves")], {"easy": EASY}, runs=1)
    assert results[0].error.startswith("Ended:") and results[1].solved and results.exit_code == 3
