"""The command line keeps its word: options checked before any work, time budgets for every
algorithm, progress on a terminal, clean streams, SCOOP from an installed package, plots, and
consistent options (issue 13)."""

import dataclasses
import json
import os
import re
import subprocess
import sys
import time

import click
import pytest
from click.testing import CliRunner

from deap_sudoku import load_sample, loads, read, write
from deap_sudoku.cli import main
from deap_sudoku.exact import verify
from deap_sudoku.propagation import choice
from deap_sudoku.runs import kernels, registry

from tests.cli.test_cli import SCOOP_BENCH, SCOOP_KEYS, _scoop_runs
from tests.conftest import REPO, SCOOP_LAUNCHER, said, scoop_exits_with, unsolvable, wide_puzzle
from tests.timing import kept, timed

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
NINE = str(REPO / "data" / "9x9.txt")


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def refused_before_work(result, *fragments):
    """Exit 2, the message, and nothing solved: no grid, no status line."""
    assert result.exit_code == 2, result.output
    for fragment in fragments:
        assert fragment in said(result.output)
    assert "solved" not in result.output and "|" not in result.stdout and "Traceback" not in result.output


@pytest.fixture
def watchdog():
    """Fail, instead of hanging, when a budget is not kept: SIGALRM after 30 s ends the run."""
    import signal

    def expire(signum, frame):
        raise AssertionError("the run ignored its time budget (30 s watchdog)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(30)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


# -- validate before work ---------------------------------------------------------------------


def test_outputs_that_cannot_be_written_are_refused_before_any_puzzle_is_solved(tmp_path):
    refused_before_work(
        run("solve", NINE, "--plot", str(tmp_path / "conv.xyz")),
        "unknown image extension .xyz; use one of",
        ".png",
        ".svg",
    )
    refused_before_work(run("solve", NINE, "--plot", str(tmp_path / "conv")), "no image extension")
    refused_before_work(run("solve", NINE, "--out", str(tmp_path / "nodir" / "x.txt")), "does not exist")
    refused_before_work(run("solve", NINE, "--out", str(tmp_path)), "is a directory")
    (tmp_path / "kept.txt").write_text("mine")
    refused_before_work(run("solve", NINE, "--out", str(tmp_path / "kept.txt")), "use --force")
    assert (tmp_path / "kept.txt").read_text() == "mine"
    refused_before_work(
        run("bench", NINE, "--json", "-", "--csv", "-"), "--json and --csv both write to standard output"
    )
    refused_before_work(
        run("solve", str(REPO / "data" / "6x6.txt"), "--out", "-", "--out-format", "lloyd"),
        "--out-format lloyd: the lloyd format holds square boxes only",
    )


def test_plot_without_matplotlib_is_refused_with_the_install_command(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    refused_before_work(
        run("solve", NINE, "--plot", str(tmp_path / "c.png")),
        "plots need matplotlib",
        'pip install "deap_sudoku[plot]"',
    )
    refused_before_work(run("bench", NINE, "--plot", str(tmp_path / "b.png")), 'pip install "deap_sudoku[plot]"')


@pytest.mark.parametrize(
    "args, message",
    [
        (["-a", "tabu", "--population", "5"], "--population does not apply to tabu; it applies to memetic, block-ga"),
        (["-a", "memetic", "--max-steps", "5"], "--max-steps does not apply to memetic; it applies to tabu, tabu-swap"),
        (["-a", "propagation", "--max-seconds", "1"], "--max-seconds does not apply to propagation"),
        (["-a", "block-ga", "--tournsize", "3"], "--tournsize does not apply to block-ga; it applies to row-ga"),
        (["-a", "memetic", "--fitness", "closeness"], "--fitness does not apply to memetic; it applies to block-ga"),
        (["-a", "block-ga", "--select", "sus", "--fitness", "distinct"], "Invalid value for '--fitness'"),
        (["-a", "backtracking", "--progress"], "--progress does not apply to backtracking"),
        (["-a", "analyzer", "--plot", "x.png"], "--plot does not apply to analyzer; it applies to memetic"),
        (["-a", "tabu", "--checkpoint", "x.ckpt"], "--checkpoint does not apply to tabu"),
        (["--checkpoint-every", "3"], "--checkpoint-every needs --checkpoint"),
    ],
)
def test_an_option_the_algorithm_does_not_take_is_a_usage_error(args, message, tmp_path):
    refused_before_work(run("solve", NINE, *args), message)


def test_bench_refuses_options_no_chosen_algorithm_takes_and_says_which_take_the_others(tmp_path):
    refused_before_work(run("bench", NINE, "-a", "tabu", "--population", "5"), "--population does not apply to tabu")
    refused_before_work(
        run("bench", NINE, "-a", "tabu", "-a", "backtracking", "--population", "5"),
        "--population applies to none of tabu, backtracking",
    )
    mixed = run(
        "bench",
        str(REPO / "data" / "4x4.txt"),
        "-a",
        "tabu",
        "-a",
        "backtracking",
        "--max-steps",
        "50",
        "--json",
        str(tmp_path / "b.json"),
    )
    assert mixed.exit_code == 0 and "note: --max-steps applies to tabu only" in mixed.stderr
    refused_before_work(run("bench", NINE, "--hosts", "127.0.0.1"), "--hosts and --hostfile need --workers")


def test_generate_refuses_what_it_cannot_make_at_once_and_bounds_the_rest(tmp_path, watchdog):
    run("generate", "--box", "2x2", "--difficulty", "expert")  # what a first command imports, not timed
    easy, calibration = timed(lambda: run("generate", "--box", "2x2", "--difficulty", "easy"))  # one made
    refused, took = timed(lambda: run("generate", "--box", "2x2", "--difficulty", "expert"))
    assert refused.exit_code == 2 and "no 4x4 (2x2 boxes) puzzle is expert" in refused.output
    assert easy.exit_code == 0 and took.cpu < 2 * calibration.cpu + 0.05, (took, calibration)  # before any work
    assert run("generate", "--difficulty", "hard", "--any").exit_code == 2
    assert run("generate", "--givens", "30", "--max-seconds", "5").exit_code == 0  # a budget for any puzzle
    assert run("generate", "--box", "2x2", "--givens", "17").exit_code == 2
    _, calibration = timed(lambda: run("generate", "--box", "4x4", "--difficulty", "hard", "--max-seconds", "0.01"))
    bounded, took = timed(lambda: run("generate", "--box", "4x4", "--difficulty", "hard", "--max-seconds", "2"))
    assert kept(took, 2.0, calibration), (took, calibration)
    assert bounded.exit_code == 1 and "no hard 16x16 (4x4 boxes) puzzle in" in bounded.stderr
    assert "within 2 s; try a larger --max-seconds" in bounded.stderr and bounded.stdout == ""
    assert bounded.stderr.startswith("making 1 hard 16x16 (4x4 boxes) puzzle, up to 2 s each")  # said at once


# -- budgets ----------------------------------------------------------------------------------


def _reported_seconds(stderr: str) -> float:
    return float(re.search(r"after ([0-9.]+) s", stderr).group(1))


@pytest.mark.parametrize(
    "algorithm, extra",
    [
        ("memetic", []),
        ("block-ga", []),
        ("restart-ga", []),
        ("cell-ga", []),
        ("row-ga", []),
        ("tabu", ["--max-steps", "100000000"]),
        ("tabu-swap", ["--max-steps", "100000000"]),
    ],
)
def test_max_seconds_stops_every_heuristic_within_the_tolerance(algorithm, extra, tmp_path, watchdog):
    """A puzzle with no solution keeps every GA and tabu running until the time budget (the block
    GA may stop earlier, on stagnation, its documented criterion)."""
    path = tmp_path / "none.txt"
    path.write_text(unsolvable().format())
    budget = [] if extra else ["--max-generations", "100000000"]
    # the calibration pays the first step: a GA's first generation (a 0.01 s budget ended before
    # it, and a cell GA's 0.6 s run once failed 0.197 s late against it); tabu's first moves
    first = ["--max-seconds", "0.01", *extra] if extra else ["--max-generations", "1"]
    _, calibration = timed(lambda: run("solve", str(path), "-a", algorithm, *first))
    result, took = timed(lambda: run("solve", str(path), "-a", algorithm, "--max-seconds", "0.6", *budget, *extra))
    assert result.exit_code == 1
    seconds = _reported_seconds(result.stderr)
    assert seconds <= took.wall and kept(took, 0.6, calibration), (seconds, took, calibration)  # against the machine
    if "stagnation" in result.stderr:
        assert algorithm == "block-ga"
    else:
        assert "stopped by the time budget" in result.stderr and took.wall >= 0.6  # not before its budget


def test_max_seconds_stops_backtracking_within_the_tolerance(tmp_path, watchdog):
    path = tmp_path / "36x36.txt"  # 45 % givens at random: exact search takes far longer than seconds
    made = run("generate", "--box", "6x6", "--givens", "583", "--any", "--format", "grid", "--out", str(path))
    assert made.exit_code == 0
    _, calibration = timed(lambda: run("solve", str(path), "-a", "backtracking", "--max-seconds", "0.01"))
    result, took = timed(lambda: run("solve", str(path), "-a", "backtracking", "--max-seconds", "0.5"))
    assert result.exit_code == 1 and "no answer within 0.5 s" in result.stderr
    seconds = float(re.search(r"not solved after ([0-9.]+) s", result.stderr).group(1))
    assert seconds <= took.wall and took.wall >= 0.5 and kept(took, 0.5, calibration), (seconds, took, calibration)
    assert "the puzzle has no solution" not in result.stderr


def test_a_slow_warm_up_of_cached_kernels_says_it_loads_them(monkeypatch):
    """Under load, a benchmark's loading of cached kernels can take past the second after which a
    warm-up is announced: it said "compiling ... (first run only ...)" of kernels it only loaded."""
    record = registry.ALGORITHMS["backtracking"]

    def slow(puzzle, compiled):
        time.sleep(1.2)

    monkeypatch.setitem(registry.ALGORITHMS, "backtracking", dataclasses.replace(record, warm_up=slow))
    monkeypatch.setattr(kernels, "_WARM", set())
    monkeypatch.setattr(kernels, "compiled_before", lambda name, part="": True)  # in numba's cache
    result = run("bench", NINE, "-a", "backtracking", "--runs", "1", "--limit", "1")  # loads all before its clocks
    assert result.exit_code == 0
    assert "loading the propagation kernels from numba's cache ..." in result.stderr, result.stderr
    assert "loading the propagation kernels from numba's cache: done in " in result.stderr
    assert "compiling" not in result.stderr


def test_kernel_warm_up_is_announced_and_never_counted(monkeypatch):
    """A warm-up that takes 1.5 s is announced on stderr, where it is no terminal in a line when it
    starts and one with its duration when it ends, and kept out of the reported time."""
    record = registry.ALGORITHMS["backtracking"]
    record.warm_up(read(NINE)[0], True)  # the real kernels loaded: the runs below time solving alone
    calls = []

    def slow(puzzle, compiled):
        calls.append(puzzle.shape)
        time.sleep(1.5)

    monkeypatch.setitem(
        registry.ALGORITHMS,
        "backtracking",
        dataclasses.replace(record, warm_up=slow, warm_up_message="compiling the test kernel"),
    )
    monkeypatch.setattr(kernels, "_WARM", set())
    monkeypatch.setattr(kernels, "compiled_before", lambda name: False)  # as on a machine that never compiled
    monkeypatch.setattr(kernels, "compile_elsewhere", lambda name, puzzle: False)  # and cannot keep a stamp
    monkeypatch.setattr(choice, "_spent", [choice.LOADING_SECONDS])  # a 9x9 that would run compiled
    result, took = timed(lambda: run("solve", NINE, "-a", "backtracking", "--max-seconds", "60"))  # warm up all
    assert result.exit_code == 0 and len(calls) == 1
    said = [line for line in result.stderr.splitlines() if "compiling the test kernel" in line]
    assert said[0] == "compiling the test kernel ..." and len(said) == 2
    warm_up = float(re.fullmatch(r"compiling the test kernel: done in ([0-9.]+) s", said[1]).group(1))
    assert 1.5 <= warm_up <= took.wall  # its own duration, within the command's
    times = [float(t) for t in re.findall(r"solved in ([0-9.]+) s", result.stderr)]
    assert len(times) == 5 and sum(times) <= took.wall - warm_up, (times, warm_up, took)  # none holds the warm-up
    quiet = run("solve", NINE, "-a", "backtracking", "--quiet")  # warmed up already in this process
    assert "compiling" not in quiet.stderr and len(calls) == 1


@pytest.fixture
def warm_ups(monkeypatch, tmp_path) -> list:
    """The backtracking record's warm-up calls, ``(side, compiled)``, in a process where nothing is
    warm yet, numba is not loaded, and the stamps of a first compilation go to ``tmp_path``; a
    background compilation is not started but noted as ``("elsewhere", side)``."""
    calls = []
    monkeypatch.setitem(
        registry.ALGORITHMS,
        "backtracking",
        dataclasses.replace(
            registry.ALGORITHMS["backtracking"], warm_up=lambda puzzle, compiled: calls.append((puzzle.n, compiled))
        ),
    )
    monkeypatch.setattr(kernels, "_WARM", set())
    monkeypatch.setattr(kernels, "compile_elsewhere", lambda name, puzzle: not calls.append(("elsewhere", puzzle.n)))
    monkeypatch.setattr(kernels, "compiling_elsewhere", lambda name: ("elsewhere", 16) in calls)
    monkeypatch.setattr(choice, "_held", [])
    monkeypatch.setattr(choice, "HOLD_POLL_SECONDS", 0.0)
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(choice, "_spent", [0.0])
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    return calls


def test_a_first_run_that_starts_in_python_waits_for_no_warm_up(warm_ups):
    calls = warm_ups
    assert not kernels.warm_up("backtracking", read(NINE)[0], None)
    assert not kernels.warm_up("backtracking", read(NINE)[0], True)  # the run's own call: this shape is settled
    assert calls == [] and not kernels.compiled_before("backtracking")


def test_a_first_ever_run_leaves_the_compiling_to_a_background_process_and_runs_python_until_it_is_done(warm_ups):
    calls = warm_ups
    assert kernels.warm_up("backtracking", read(REPO / "data" / "16x16.txt")[0], None)
    assert calls == [("elsewhere", 16)]  # nothing compiled here
    assert not choice.prefer_compiled(256, 16)  # held on the Python twins ...
    kernels.mark_compiled("backtracking")  # ... until the background process leaves its stamp
    assert choice.prefer_compiled(256, 16) and not kernels.compiled_before("memetic")


def test_a_first_ever_command_under_a_time_budget_takes_the_kernels_up_only_where_it_asks_its_budget(warm_ups):
    """Taking the compiled kernels up in a kernel call would load numba where no budget check
    reaches (a 0.5 s budget ran 0.35 s over): a budgeted run takes them up where it asks its
    budget, with time left to load them, and says when."""
    calls, told = warm_ups, []
    sixteen = read(REPO / "data" / "16x16.txt")[0]
    assert kernels.warm_up("backtracking", sixteen, None, budgeted=True, taken_up=lambda *seconds: told.append(seconds))
    assert not choice.take_up_compiled(None) and calls == [("elsewhere", 16)]  # not cached yet
    kernels.mark_compiled("backtracking")
    assert not choice.prefer_compiled(256, 16)  # a kernel call does not take them up
    assert not choice.take_up_compiled(time.perf_counter() + choice.TAKE_UP_SECONDS / 2)  # too late to load
    assert choice.take_up_compiled(time.perf_counter() + 60)
    assert calls == [("elsewhere", 16), (16, True)] and len(told) == 1  # loaded by the warm-up, and said
    assert choice.prefer_compiled(256, 16)


def test_a_budgeted_clause_learning_run_takes_up_its_own_kernel_before_the_exact_search_is_cached(
    warm_ups, monkeypatch
):
    """cdcl's background compile does its loop first (25 s of 59 s) and stamps it: a run under a
    budget takes that up and loads the loop alone; ``--unique``'s exact search comes later."""
    calls = []
    record = dataclasses.replace(
        registry.ALGORITHMS["cdcl"],
        warm_up=lambda puzzle, compiled: calls.append(("all", compiled)),
        warm_up_first=lambda puzzle, compiled: calls.append(("first", compiled)),
    )
    monkeypatch.setitem(registry.ALGORITHMS, "cdcl", record)
    monkeypatch.setattr(kernels, "compile_elsewhere", lambda name, puzzle: True)
    assert kernels.warm_up("cdcl", read(REPO / "data" / "16x16.txt")[0], None, budgeted=True)
    assert not choice.take_up_compiled(None)
    kernels.mark_compiled("cdcl", "first")
    assert choice.take_up_compiled(None) and calls == [("first", True)]


def test_a_first_ever_run_that_cannot_compile_elsewhere_compiles_here(warm_ups, monkeypatch):
    calls = warm_ups
    monkeypatch.setattr(kernels, "compile_elsewhere", lambda name, puzzle: False)  # a read-only cache folder
    assert not kernels.warm_up("backtracking", read(REPO / "data" / "16x16.txt")[0], None)
    assert calls == [(16, True)] and kernels.compiled_before("backtracking")  # the twins runs use
    assert choice.prefer_compiled(256, 16)


def test_a_first_run_on_a_machine_that_compiled_before_loads_the_kernels_on_its_own_clock(
    warm_ups, monkeypatch, tmp_path
):
    """Once the kernels are in numba's cache, a large grid's first run is not warmed up: its exact
    search tries in Python first and may never need numba; when it does, loading counts."""
    calls = warm_ups
    sixteen = read(REPO / "data" / "16x16.txt")[0]
    kernels.mark_compiled("backtracking")
    kernels.warm_up("backtracking", sixteen, None)
    assert calls == []
    kernels.warm_up("backtracking", read(REPO / "data" / "25x25.txt")[0], True)  # a benchmark: always loaded
    assert calls == [(25, True)]
    for stamp in tmp_path.iterdir():  # the cache cleared: the stamp goes with it
        stamp.unlink()
    monkeypatch.setattr(kernels, "_WARM", set())
    kernels.warm_up("backtracking", sixteen, None)
    assert calls == [(25, True), ("elsewhere", 16)]


def _kernels_loaded_by_warm_up(name: str, sample: str, compiled: bool | None) -> dict[str, int]:
    """In a fresh process on a machine that never compiled them, ``kernels.warm_up(name, sample,
    compiled)``, then how many signatures each compiled kernel has loaded (imported only afterwards,
    so that numba is not loaded before the warm-up chooses)."""
    code = (
        "from deap_sudoku import load_sample\n"
        "from deap_sudoku.runs import kernels\n"
        "kernels.compiled_before = lambda name: False\n"
        "kernels.compile_elsewhere = lambda name, puzzle: False\n"
        f"kernels.warm_up({name!r}, load_sample({sample!r}), {compiled!r})\n"
        "from deap_sudoku.algorithms.repair_kernel_compiled import fill_boxes, rebuild\n"
        "from deap_sudoku.exact.backtracking_compiled import depth_first\n"
        "print(len(rebuild.signatures), len(fill_boxes.signatures), len(depth_first.signatures))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return dict(zip(("rebuild", "fill_boxes", "depth_first"), map(int, done.stdout.split())))


def test_the_memetic_warm_up_loads_every_kernel_its_runs_use_even_when_its_seed_solves_the_puzzle():
    """The warm-up puzzle is one the seed's search solves, which ends a run before any repair: the
    warm-up must still load the repair kernels, or a run's first repair would compile them on its
    clock (4.6 s of one 9x9 run in benchmarks/memetic_targets.sh)."""
    loaded = _kernels_loaded_by_warm_up("memetic", "9x9.txt", True)
    assert all(count >= 1 for count in loaded.values()), loaded


def test_a_warm_up_left_to_choose_loads_the_compiled_search_not_a_python_probe():
    """solve's warm-up passes compiled=None; a 16x16 search left to choose first probes in Python,
    which settled the warm-up's one-node search without loading the compiled one."""
    assert _kernels_loaded_by_warm_up("backtracking", "16x16.txt", None)["depth_first"] >= 1


@pytest.mark.parametrize("algorithm", ["memetic", "backtracking"])
def test_a_grid_wider_than_the_compiled_kernels_is_solved_in_python(algorithm, tmp_path):
    """A time budget warms up every kernel before the clock starts; an 81x81 grid has none to warm
    up, so it runs on the Python twins (the warm-up used to force the compiled repair: OverflowError)."""
    puzzle = wide_puzzle(40)
    path = tmp_path / "wide.txt"
    write(path, [puzzle], format="lloyd")
    out = tmp_path / "solved.txt"
    result = run(
        "solve",
        str(path),
        "-a",
        algorithm,
        "--max-seconds",
        "60",
        "--quiet",
        "--out",
        str(out),
        "--out-format",
        "lloyd",
    )
    assert result.exit_code == 0, result.output
    assert verify(read(out)[0], puzzle)


# -- progress ---------------------------------------------------------------------------------


def _on_a_terminal(args: list[str]) -> tuple[str, str]:
    """Run the command with standard error on a pseudo-terminal; (stdout, what the terminal showed)."""
    import pty

    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "deap_sudoku", *args], stdout=subprocess.PIPE, stderr=follower, text=True
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    stdout = process.stdout.read()
    process.wait(timeout=120)
    os.close(leader)
    return stdout, shown.decode(errors="replace")


@pytest.mark.slow
def test_bench_and_multi_puzzle_solve_show_a_progress_bar_only_on_a_terminal(tmp_path):
    stdout, terminal = _on_a_terminal(
        ["bench", str(REPO / "data" / "testdata" / "easy.txt"), "-a", "backtracking", "--runs", "2"]
    )
    assert re.search(r"20 runs .*20/20", terminal) and "runs/s" in terminal
    assert stdout.splitlines()[1].startswith("dataset  ")
    stdout, terminal = _on_a_terminal(["solve", NINE, "-a", "backtracking"])
    assert re.search(r"solving with backtracking .*5/5", terminal) and "puzzles/s" in terminal
    assert stdout.count("-+-") == 4 * 5 and "puzzle 5 of 5: solved" in terminal
    stdout, terminal = _on_a_terminal(["solve", NINE, "-a", "backtracking", "--quiet"])
    assert "puzzles/s" not in terminal and "puzzle 5 of 5: solved" in terminal
    stdout, terminal = _on_a_terminal(["generate", "--count", "3", "--givens", "30"])
    assert "making 3 puzzles" in terminal and "3/3" in terminal and len(stdout.splitlines()) == 3
    piped = subprocess.run(
        [sys.executable, "-m", "deap_sudoku", "solve", NINE, "-a", "backtracking"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "puzzles/s" not in piped.stderr and "solving with" not in piped.stderr


@pytest.mark.slow
def test_a_single_puzzle_counts_its_seconds_on_a_terminal_and_clears_the_count(tmp_path):
    """Issue 63: one puzzle has no bar, and a long run of it (a first-ever 36x36 on the Python twins,
    18 s) was a still screen; now a line counts the seconds from the first on, and is cleared before
    the line that says how the run ended.  Not on a pipe."""
    path = tmp_path / "none.txt"
    path.write_text(unsolvable().format())
    command = ["solve", str(path), "-a", "tabu", "--max-seconds", "2.5", "--max-steps", "100000000"]
    _, terminal = _on_a_terminal(command)
    assert "\r\033[Ksolving with tabu ... 1 s" in terminal, terminal
    assert "\r\033[Kno solution found within the budget" in terminal and terminal.endswith("\n"), terminal
    assert "solving with" not in run(*command).stderr


def test_each_puzzle_has_its_header_before_its_grid_and_one_status_line():
    result = run("solve", NINE, "-a", "backtracking")
    headers = [i for i, line in enumerate(result.stdout.splitlines()) if line.startswith("puzzle ")]
    assert headers == [0, 12, 24, 36, 48]  # each header, then its 11-line picture
    assert result.stdout.splitlines()[0] == "puzzle 1 of 5, 9x9 (3x3 boxes), 26 givens:"
    assert [line.split(":")[0] for line in result.stderr.splitlines()] == [f"puzzle {i} of 5" for i in range(1, 6)]


# -- streams ----------------------------------------------------------------------------------


def test_out_dash_and_json_dash_give_parseable_standard_output():
    answer = run("solve", "-", "--out", "-", input=EASY + "\n")
    assert answer.exit_code == 0
    [solution] = loads(answer.stdout)
    assert verify(solution, loads(EASY)[0]) and answer.stdout.count("\n") == 1
    assert "solved in" in answer.stderr
    several = run("solve", NINE, "--out", "-", "-a", "backtracking")
    assert len(loads(several.stdout)) == 5 and "puzzle 1 of 5, 9x9" in several.stderr
    document = run("bench", str(REPO / "data" / "4x4.txt"), "-a", "backtracking", "--json", "-")
    assert document.exit_code == 0 and len(json.loads(document.stdout)["runs"]) == 3
    table = run("bench", str(REPO / "data" / "4x4.txt"), "-a", "backtracking", "--csv", "-")
    assert table.stdout.startswith("dataset,algorithm,series,runs")


# -- SCOOP from an installed package ----------------------------------------------------------

BENCH, KEYS, _runs = SCOOP_BENCH, SCOOP_KEYS, _scoop_runs  # the SCOOP tests' bench, as test_cli runs it


def test_bench_workers_starts_scoop_on_the_installed_entry_with_the_same_options(monkeypatch, tmp_path):
    """The hostfile route: the command SCOOP is given, without the SCOOP options, --hosts or
    --hostfile before -n (SCOOP's --hosts would take every word up to the next option)."""
    from deap_sudoku.cli import scoop

    started = []
    monkeypatch.setattr(
        scoop.subprocess,
        "Popen",
        lambda command, env, **_: started.append(command) or scoop_exits_with(env, 0, command),
    )
    hosts = tmp_path / "hosts.txt"
    hosts.write_text("127.0.0.1 3\n")
    data = str(REPO / "data" / "4x4.txt")
    result = run(
        "bench",
        data,
        "-a",
        "tabu",
        "--runs",
        "2",
        "--max-steps",
        "50",
        "--quiet",
        "--workers",
        "3",
        "--hostfile",
        str(hosts),
    )
    assert result.exit_code == 0 and len(started) == 1
    command = started[0]
    assert command[:8] == [*SCOOP_LAUNCHER, "--quiet", "--hostfile", str(hosts), "-n", "3"]
    assert command[8].endswith(os.path.join("deap_sudoku", "__main__.py"))
    assert command[9].startswith("deap-sudoku-scoop:")  # the starter's variables, which ssh does not pass
    assert command[10] == "bench" and command[-2:] == ["--", data]
    options = command[11:-2]
    assert "--workers" not in options and "--hostfile" not in options and "--quiet" in options
    assert options[options.index("--algorithm") + 1] == "tabu" and options[options.index("--runs") + 1] == "2"
    assert options[options.index("--max-steps") + 1] == "50"
    run("bench", data, "--workers", "2", "--hosts", "127.0.0.1,10.0.0.2")
    assert started[1][3:7] == ["--quiet", "--hosts", "127.0.0.1", "10.0.0.2"] and started[1].index("-n") >= 7


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory):
    """Build the wheel, install it into a fresh virtual environment (its dependencies borrowed from
    this one, the checkout out of reach); return its python and an unrelated folder to run in."""
    import compileall
    import shutil
    import sysconfig
    import zipfile

    tmp_path = tmp_path_factory.mktemp("wheel")
    source = tmp_path / "source"  # a copy: pip builds in place, and build/ must not outlive a deleted module
    for name in ("deap_sudoku", "pyproject.toml", "setup.cfg", "README.md", "PACKAGE_INDEX.md", "LICENSE"):
        copy = shutil.copytree if (REPO / name).is_dir() else shutil.copy
        copy(
            REPO / name,
            source / name,
            **({"ignore": shutil.ignore_patterns("__pycache__")} if (REPO / name).is_dir() else {}),
        )
    wheels = tmp_path / "wheels"
    subprocess.run(  # with this environment's setuptools and wheel (the [test] extra): an isolated
        # build installs them anew each time (8.5 s against 2.8); .ci/run builds the release isolated
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    fresh = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(fresh)], check=True, timeout=120)
    python = fresh / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    with zipfile.ZipFile(next(wheels.glob("deap_sudoku-*.whl"))) as wheel:
        wheel.extractall(site)  # installing a pure wheel is unpacking it, and byte-compiling it as pip does
    compileall.compile_dir(os.path.join(site, "deap_sudoku"), quiet=1)  # (each process would compile it again)
    with open(os.path.join(site, "borrowed.pth"), "w") as borrowed:
        borrowed.write(sysconfig.get_path("purelib") + "\n")  # a path line: its own .pth files stay unread
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(python), "-c", "import deap_sudoku; print(deap_sudoku.__file__)"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(site), where
    return python, elsewhere


@pytest.mark.slow
def test_an_example_runs_from_an_installed_wheel_on_the_puzzles_packaged_inside_it(installed_wheel):
    """No puzzle path: the example reads the bundled 9x9-easy.txt through importlib.resources, with
    no checkout and no data/ folder in reach."""
    import shutil

    python, elsewhere = installed_wheel
    shutil.copy(REPO / "examples" / "deap_primitives.py", elsewhere / "deap_primitives.py")
    assert not (elsewhere / "data").exists()
    completed = subprocess.run(
        [str(python), "deap_primitives.py", "--ngen", "60"], capture_output=True, text=True, timeout=300, cwd=elsewhere
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "Traceback" not in completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[-1] == "solved, fitness 0"
    grid = [int(v) for line in lines[-12:-1] for v in line.split() if v.isdigit()]
    assert verify(grid, load_sample())  # solved, givens intact
    listed = subprocess.run(
        [str(python), "-c", "from deap_sudoku.io import sample_names; print(sample_names())"],
        capture_output=True,
        text=True,
        check=True,
        cwd=elsewhere,
    ).stdout
    assert "testdata/hard.txt" in listed and "sources/report-example.txt" in listed


@pytest.mark.slow
def test_bench_workers_from_an_installed_wheel_in_a_fresh_venv_gives_the_serial_results(installed_wheel, tmp_path):
    """``bench --workers 2`` from an unrelated folder, on the installed package's ``__main__``."""
    python, elsewhere = installed_wheel
    serial, parallel = tmp_path / "serial.json", tmp_path / "scoop.json"
    assert run(*BENCH, "--json", str(serial)).exit_code == 0
    completed = subprocess.run(
        [str(python), "-m", "deap_sudoku", *BENCH, "--workers", "2", "--json", str(parallel)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=elsewhere,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "Traceback" not in completed.stdout + completed.stderr
    assert "Launching" not in completed.stderr and "INFO" not in completed.stderr  # SCOOP quiet without -v
    assert completed.stdout.splitlines()[1].startswith("dataset  ")
    assert _runs(serial) == _runs(parallel) and len(_runs(serial)) == 8


# -- plots ------------------------------------------------------------------------------------


def _figure_of(monkeypatch, args):
    """Run the command and keep the Figure it draws."""
    from deap_sudoku.experiments import plots as experiment_plots
    from deap_sudoku.runs import plots

    drawn = []
    for module, name in ((plots, "plot_convergence"), (experiment_plots, "plot_summary")):
        original = getattr(module, name)

        def keep(*a, _original=original, **k):
            drawn.append(_original(*a, **k))
            return drawn[-1]

        monkeypatch.setattr(module, name, keep)
    result = run(*args)
    assert len(drawn) == 1, result.output
    return result, drawn[0]


@pytest.mark.parametrize(
    "algorithm, unit, series, fitness",
    [
        ("restart-ga", "generation", ["best", "mean"], "fitness: 108 - threats (higher is better)"),
        ("tabu", "step", ["current", "best"], "fitness: collisions (lower is better)"),
        ("memetic", "generation", ["best", "mean"], "fitness: collisions (lower is better)"),
    ],
)
def test_every_heuristic_plots_its_course_with_the_fitness_named_and_its_target(
    algorithm, unit, series, fitness, monkeypatch, tmp_path
):
    path = tmp_path / "course.png"
    result, figure = _figure_of(
        monkeypatch,
        [
            "solve",
            NINE,
            "-a",
            algorithm,
            "--plot",
            str(path),
            *{"restart-ga": ["--max-generations", "5"], "tabu": ["--max-steps", "100"]}.get(algorithm, []),
        ],
    )
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    [axis] = figure.axes
    assert axis.get_title() == f"{algorithm} on 9x9.txt"
    assert axis.get_xlabel() == f"{unit} (count)" and axis.get_ylabel() == fitness
    legend = [text.get_text() for text in axis.get_legend().get_texts()]
    assert legend[:5] == [f"puzzle {i}" for i in range(1, 6)] and legend[5:7] == series
    assert re.fullmatch(r"target \d+ \(solved\)", legend[7])
    lines = [line for line in axis.get_lines() if line.get_linestyle() != ":"]  # all but the target
    assert len(lines) >= 2 * 5
    if algorithm == "memetic":  # solved in generation 0: one point each, so drawn with markers
        assert all(line.get_marker() not in ("", "None") for line in lines)
        assert axis.get_ylim()[1] - axis.get_ylim()[0] >= 2


def test_bench_plots_categories_as_bars_and_points_with_a_readable_log_axis(monkeypatch, tmp_path):
    files = [str(REPO / "data" / "testdata" / f"{level}.txt") for level in ("easy", "hard")]
    result, figure = _figure_of(
        monkeypatch,
        [
            "bench",
            *files,
            "-a",
            "backtracking",
            "-a",
            "propagation",
            "--limit",
            "3",
            "--plot",
            str(tmp_path / "b.png"),
            "--plot-by",
            "dataset",
        ],
    )
    rate, seconds = figure.axes
    assert figure._suptitle.get_text() == "backtracking, propagation on easy.txt, hard.txt"
    assert len(rate.patches) == 4  # grouped bars: 2 datasets x 2 algorithms
    assert all(line.get_linestyle() == "None" for line in seconds.get_lines() if len(line.get_xdata()) > 1)
    assert [t.get_text() for t in seconds.get_xticklabels()] == ["easy.txt", "hard.txt"]
    figure.canvas.draw()
    labelled = [
        t.get_text()
        for t in seconds.get_yticklabels()
        if t.get_text() and seconds.get_ylim()[0] <= t.get_position()[1] <= seconds.get_ylim()[1]
    ]
    assert len(labelled) >= 2, labelled
    assert seconds.get_ylabel() == "median wall time per run (s)"


def test_lines_of_series_with_equal_values_stay_apart(monkeypatch, tmp_path):
    files = []
    for i, puzzle in enumerate(read(REPO / "data" / "9x9.txt")[:2]):
        files.append(tmp_path / f"{i}.txt")
        files[-1].write_text(puzzle.format())
    result, figure = _figure_of(
        monkeypatch,
        [
            "bench",
            *map(str, files),
            "-a",
            "backtracking",
            "-a",
            "memetic",
            "--group-by",
            "givens",
            "--plot",
            str(tmp_path / "p.png"),
        ],
    )
    rate = figure.axes[0]
    drawn = [line for line in rate.get_lines() if line.get_marker() != "_"]  # not the error bars' caps
    xs = {tuple(line.get_xdata()) for line in drawn}
    assert len(xs) == 2 and len({line.get_marker() for line in drawn}) == 2  # both at 100 %, side by side


# -- consistency ------------------------------------------------------------------------------


def test_every_command_takes_h_and_every_option_has_help():
    assert run("-h").exit_code == 0
    for name, command in main.commands.items():
        assert run(name, "-h").exit_code == 0
        for param in command.params:
            if isinstance(param, click.Option) and param.name != "help":
                assert param.help, f"{name} {param.opts[0]} has no help text"


def test_solve_defaults_to_auto_bench_to_the_memetic_ga_and_both_take_the_ga_settings(tmp_path):
    """solve's default answers fastest (auto, issue 52 item 4); bench compares GAs unless asked."""
    defaults = {
        name: next(p.default for p in main.commands[name].params if p.name.startswith("algorithm"))
        for name in ("solve", "bench")
    }
    assert defaults["solve"] == "auto" and defaults["bench"] == ("memetic",)
    result = run(
        "solve",
        str(REPO / "data" / "4x4.txt"),
        "-a",
        "row-ga",
        "--population",
        "30",
        "--cxpb",
        "0.5",
        "--mutpb",
        "0.5",
        "--tournsize",
        "2",
    )
    assert result.exit_code == 0
    block = run(
        "solve",
        str(REPO / "data" / "testdata" / "expert.txt"),
        "-a",
        "block-ga",
        "--select",
        "sus",
        "--fitness",
        "closeness",
        "--population",
        "20",
        "--max-generations",
        "2",
    )
    assert block.exit_code == 1 and "best fitness: closeness" in block.stderr
    assert (
        run(
            "bench",
            str(REPO / "data" / "4x4.txt"),
            "-a",
            "block-ga",
            "--select",
            "sus",
            "--fitness",
            "closeness",
            "--population",
            "20",
            "--max-generations",
            "5",  # with its default 1,000 generations it solved none of them either, in 5-10 s
        ).exit_code
        == 0
    )


def test_counts_have_their_plurals():
    one = run("check", "-", input=EASY + "\n")
    assert "1 valid puzzle, 0 errors" in one.output
    single = run("check", "-", input="1" + "." * 80 + "\n")
    assert ", 1 given (1 %)" in single.output
