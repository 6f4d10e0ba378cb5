"""The portfolio: seeded chains on SCOOP workers, the first verified solution wins and the rest stop."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from deap_sudoku import Puzzle, read
from deap_sudoku.exact import solve as solve_exactly, verify
from deap_sudoku.runs.interrupt import INTERRUPTED
from deap_sudoku.runs.portfolio import _chain, chains
from deap_sudoku.runs.task import Task, run_task
from tests import forked_cli
from tests.timing import kept, timed
from tests.conftest import FORUM_HARDEST, SCOOP_LAUNCHER, scoop_exits_with, sitecustomize_env, unsolvable


def test_chains_are_seeded_one_apart_so_one_worker_is_the_serial_run():
    task = Task("memetic", Puzzle.parse(FORUM_HARDEST), seed=7, options={"max_seconds": 5})
    assert [chain.seed for chain in chains(task, 3)] == [7, 8, 9]
    assert chains(task, 1) == [task]
    assert all(chain.options == task.options and chain.puzzle is task.puzzle for chain in chains(task, 3))
    with pytest.raises(ValueError, match="at least 1"):
        chains(task, 0)


def test_a_chain_stops_within_a_generation_once_the_stop_file_exists(tmp_path):
    stop_file = tmp_path / "stop"
    stop_file.touch()
    one = Task("memetic", unsolvable(), seed=0, options={"max_seconds": 0.01})
    _, calibration = timed(lambda: _chain(one, str(tmp_path / "none")))  # against the machine: no time
    task = Task("memetic", unsolvable(), seed=0, options={"max_seconds": 30})
    result, took = timed(lambda: _chain(task, str(stop_file)))
    assert kept(took, 0.0, calibration) and result.note == INTERRUPTED and not result.solved, (took, calibration)
    stop_file.unlink()
    assert run_task(Task("memetic", unsolvable(), options={"max_generations": 3})).note != INTERRUPTED


@pytest.mark.parametrize("name", ["memetic", "block-ga"])
def test_a_run_that_solves_as_a_stop_is_asked_is_solved_not_interrupted(name):
    """Two chains that solve at once: the one that sees the other's stop file said "interrupted",
    and solve took that for a Ctrl-C and stopped its file."""
    solution = solve_exactly(Puzzle.parse(FORUM_HARDEST))
    cells = np.array(solution.cells)
    cells[:3] = 0  # solved as the first population is made, before the first ask
    result = run_task(Task(name, Puzzle(cells.tolist())), requested=lambda: True)
    assert result.solved and result.note == "solved"


@pytest.mark.slow
def test_solve_workers_returns_the_first_verified_solution_of_every_puzzle(tmp_path):
    path = tmp_path / "hard.txt"
    path.write_text(FORUM_HARDEST + "\n" + FORUM_HARDEST.replace(".", "0") + "\n")
    out = tmp_path / "solved.txt"
    done = forked_cli.run(
        [
            sys.executable,
            "-m",
            "deap_sudoku",
            "solve",
            str(path),
            "-a",
            "memetic",
            "--workers",
            "2",
            "--out",
            str(out),
            "--max-seconds",
            "30",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Launching" not in done.stderr and "Traceback" not in done.stderr  # SCOOP quiet without -v
    assert done.stderr.count("solved in") == 2
    assert all(verify(solution, Puzzle.parse(FORUM_HARDEST)) for solution in read(out))


# Every chain first takes a second of generations and logs where and when it ran: sitecustomize is imported by
# every Python process started with its folder on PYTHONPATH, SCOOP's workers included.
LOG_CHAINS = """
import os
log = os.environ.get("DEAP_SUDOKU_TEST_CHAIN_LOG")
if log:
    import time
    import deap_sudoku.runs.task as runs_task
    _run = runs_task.run_task

    def run_task(task, **options):
        started = time.time()
        for _ in range(20):  # a second of generations, asking between them whether to stop
            time.sleep(0.05)
            options["requested"]()
        result = _run(task, **options)
        with open(log, "a") as handle:
            handle.write(f"{task.puzzle.cells.tobytes().hex()} {os.getpid()} {started} {time.time()}\\n")
        return result

    runs_task.run_task = run_task
"""


@pytest.mark.slow
def test_the_chains_of_a_portfolio_run_at_once_in_different_processes(tmp_path):
    """The root used to wait inside SCOOP, which ran futures there: in 5 of 10 trials both chains
    ran one after the other in one process while the other worker idled.  Now the root runs the
    first chain and sends the other to a worker: for each of four puzzles, two processes at once
    (the old way passed four in a row one time in sixteen)."""
    givens = FORUM_HARDEST.replace(".", "0")
    puzzles = [givens[:k] + "0" + givens[k + 1 :] for k in range(81) if givens[k] != "0"][:4]  # four others
    path = tmp_path / "four.txt"
    path.write_text("\n".join(puzzles) + "\n")
    log = tmp_path / "chains.log"
    env = sitecustomize_env(tmp_path, LOG_CHAINS, DEAP_SUDOKU_TEST_CHAIN_LOG=str(log))
    done = forked_cli.run(
        [
            sys.executable,
            "-m",
            "deap_sudoku",
            "solve",
            str(path),
            "-a",
            "memetic",
            "--workers",
            "2",
            "--max-seconds",
            "20",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    records = [line.split() for line in log.read_text().splitlines()]
    assert len(records) == 8, (log.read_text(), done.stderr[-3000:])
    by_puzzle = {}
    for puzzle, pid, started, ended in records:
        by_puzzle.setdefault(puzzle, []).append((pid, float(started), float(ended)))
    for runs in by_puzzle.values():
        (first, start_1, end_1), (second, start_2, end_2) = runs
        assert first != second and start_1 < end_2 and start_2 < end_1, runs


def test_solve_workers_starts_scoop_keeping_the_number_of_chains_and_dropping_the_hosts(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from deap_sudoku.cli import main, scoop

    started = []
    monkeypatch.setattr(
        scoop.subprocess,
        "Popen",
        lambda command, env, **_: started.append(command) or scoop_exits_with(env, 0, command),
    )
    hosts = tmp_path / "hosts.txt"
    hosts.write_text("127.0.0.1 3\n")
    path = tmp_path / "hard.txt"
    path.write_text(FORUM_HARDEST + "\n")
    result = CliRunner().invoke(
        main, ["solve", str(path), "-a", "memetic", "--workers", "3", "--hostfile", str(hosts), "--max-seconds", "5"]
    )
    assert result.exit_code == 0 and len(started) == 1
    command = started[0]
    assert command[:8] == [*SCOOP_LAUNCHER, "--quiet", "--hostfile", str(hosts), "-n", "3"]
    options = command[10:]  # after the entry and the word that carries the starter's variables
    assert options[0] == "solve" and options[options.index("--workers") + 1] == "3"
    assert "--hostfile" not in options and options[-2:] == ["--", str(path)]
    for refused in (["--checkpoint", str(tmp_path / "c.ckpt")], ["--progress"], ["-a", "backtracking"]):
        assert (
            CliRunner().invoke(main, ["solve", str(path), "-a", "memetic", "--workers", "2", *refused]).exit_code == 2
        )
    assert len(started) == 1  # refused before anything started
