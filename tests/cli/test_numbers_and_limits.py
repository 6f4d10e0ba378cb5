"""Numbers validated before any work, and memory limits met with one line, never a traceback."""

from __future__ import annotations

import random
import resource
import subprocess
import sys

import pytest
from click.testing import CliRunner

from deap_sudoku.cli import main
from deap_sudoku.exact.generate import dig_puzzle, random_solution
from deap_sudoku.grid import Shape
from tests.conftest import REPO, messages

EASY = str(REPO / "data" / "testdata" / "easy.txt")
HUGE = "100000000000000000000000"


@pytest.mark.parametrize(
    "command, option, value",
    [
        ("bench", "--max-seconds", "nan"),
        ("bench", "--max-seconds", "inf"),
        ("solve", "--max-seconds", "nan"),
        ("bench", "--cxpb", "nan"),
        ("bench", "--mutpb", "-inf"),
        ("bench", "--runs", HUGE),
        ("bench", "--seed", HUGE),
        ("bench", "--tournsize", HUGE),
        ("bench", "--population", HUGE),
        ("bench", "--max-generations", HUGE),
        ("bench", "--max-evaluations", HUGE),
        ("solve", "--max-nodes", HUGE),
        ("solve", "--seed", HUGE),
        ("generate", "--count", HUGE),
        ("generate", "--max-seconds", "nan"),
        ("check", "--max-nodes", HUGE),
    ],
)
def test_a_number_no_run_can_use_is_refused_in_one_line(command, option, value):
    arguments = {"generate": ["generate", "--box", "2x2"], "check": ["check", EASY]}.get(command, [command, EASY])
    if command in ("bench", "solve") and option in ("--cxpb", "--mutpb", "--tournsize"):
        arguments += ["-a", "row-ga"]
    done = CliRunner().invoke(main, [*arguments, option, value])
    assert done.exit_code == 2 and "Traceback" not in done.output
    assert f"Invalid value for '{option}'" in done.stderr and ("finite" in done.stderr or "range" in done.stderr)


def test_a_tournament_larger_than_the_population_and_a_plan_too_large_to_count_are_refused():
    tournament = CliRunner().invoke(main, ["bench", EASY, "-a", "row-ga", "--tournsize", "10" * 9])
    assert tournament.exit_code == 2 and "is more than row-ga's population, 200" in tournament.stderr
    plan = CliRunner().invoke(main, ["bench", EASY, "--runs", "9223372036854775807"])
    assert plan.exit_code == 2 and "more than this machine can count" in plan.stderr


def test_row_ga_refuses_a_tournament_larger_than_its_population_before_any_work():
    from deap_sudoku.io.samples import load_sample
    from deap_sudoku.runs.catalogue.ga_recipes import row_permutation_ga

    with pytest.raises(ValueError, match="tournsize 11 is more than the population, 10"):
        row_permutation_ga(load_sample("testdata/easy.txt"), population_size=10, tournsize=11)


@pytest.mark.slow
def test_under_ulimit_v_the_python_twins_run_and_one_line_says_why():
    """Loading numba under ulimit -v 300-400 MiB was a traceback, and under 400-600 MiB LLVM aborts
    the process or OpenBLAS retries a mapping for ever (450 MiB hung): below 1 GiB the kernels'
    Python twins run."""
    mebibytes = 450

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (mebibytes << 20, resource.RLIM_INFINITY))

    command = [sys.executable, "-m", "deap_sudoku", "bench", str(REPO / "data" / "25x25.txt"), "-a", "cdcl"]
    command += ["-a", "backtracking", "--baseline", "backtracking"]  # scipy, and its OpenBLAS, loaded too
    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=limited, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert messages(done.stderr)[0] == (
        f"numba could not be loaded (ulimit -v {mebibytes} MiB is less than the 1024 MiB it takes to load): the "
        "compiled kernels run as their Python twins, the same answers but slower on 16x16 and larger grids"
    )
    assert "| 25x25.txt | cdcl | 2/2 |" in done.stdout


def test_check_says_what_it_found_when_its_time_runs_out(tmp_path):
    """`check` on a 100x100 took 299 s: it takes a time budget per puzzle, 60 s by default."""
    from deap_sudoku import write
    from tests.conftest import pattern_puzzle

    path = tmp_path / "large.txt"
    write(path, [pattern_puzzle(10, 5000)], format="lloyd")
    done = CliRunner().invoke(main, ["check", str(path), "--max-seconds", "0.5"])
    assert done.exit_code == 1
    assert "100x100 (10x10 boxes), 5,000 givens (50 %), undecided: no answer within 0.5 s (" in done.stdout


def test_generate_takes_a_time_budget_for_any_puzzle_and_says_how_far_it_got(tmp_path):
    """`generate --box 9x9 --any` made no puzzle in 600 s, and --max-seconds was refused without --difficulty."""
    out = tmp_path / "grids.txt"
    grid = CliRunner().invoke(
        main, ["generate", "--box", "9x9", "--any", "--max-seconds", "0.5", "--format", "lloyd", "--out", str(out)]
    )
    assert grid.exit_code == 1 and "puzzle 1: no solved grid drawn in time (within 0.5 s)" in grid.stderr
    assert not out.exists()
    box = Shape(4, 5)  # its kernels loaded first (their loading is no part of what is tested), the
    dig_puzzle(random_solution(box, random.Random(0)), 390, random.Random(0))  # digging takes 3-7 s
    dug = CliRunner().invoke(
        main,
        ["generate", "--box", "4x5", "--givens", "30%", "--count", "3", "--max-seconds", "0.5", "--out", str(out)],
    )
    assert dug.exit_code == 1 and "puzzle 1: out of time while emptying cells, at " in dug.stderr
    assert "givens of the 120 asked (within 0.5 s); try a larger --max-seconds" in dug.stderr
