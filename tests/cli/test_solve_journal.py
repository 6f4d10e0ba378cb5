"""``solve --out`` keeps each answer on disk as it finishes (issue 39, item 5): a run killed at any
puzzle loses at most that puzzle, the same command continues from the journal and ends with the file
an uninterrupted run writes, an interrupted ``--force`` run leaves the old file as it was, and a
journal of another command is refused before any work."""

import os
import signal
import sys
import textwrap

import pytest

from tests import forked_cli
from tests.conftest import REPO, messages, run_lines, said

pytestmark = pytest.mark.slow  # each test starts the command as a user does, and kills it

SOLVER = '''
import os

from deap_sudoku.exact import solve


def solver(puzzle, *, rng):
    """An exact solve that logs each call and sends the solve command the signal DIE_WITH on the
    command's call DIE_AT (counted in the log: solve runs a plug-in contained, each call in a child
    of its own, which leads its own session and whose parent is the command)."""
    with open(os.environ["CALLS_LOG"], "a+") as log:
        log.write(f"{puzzle.num_givens}\\n")
        log.seek(0)
        calls = len(log.read().splitlines())
    if os.environ.get("DIE_AT") == str(calls):
        command = os.getppid() if os.getsid(0) == os.getpid() else os.getpid()
        os.kill(command, int(os.environ["DIE_WITH"]))
        os.kill(os.getpid(), int(os.environ["DIE_WITH"]))  # contained, the run ends too
    return solve(puzzle).cells
'''


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "killer.py").write_text(textwrap.dedent(SOLVER))
    (tmp_path / "in.txt").write_bytes((REPO / "data" / "testdata" / "hard.txt").read_bytes())
    return tmp_path


def _solve(folder, out, *extra, die_at=None, die_with=signal.SIGKILL):
    environment = {**os.environ, "CALLS_LOG": str(folder / "calls.log"), "PYTHONPATH": str(REPO)}
    if die_at is not None:
        environment |= {"DIE_AT": str(die_at), "DIE_WITH": str(int(die_with))}
    return forked_cli.run(
        [sys.executable, "-m", "deap_sudoku", "solve", "in.txt", "-a", "killer:solver", "--out", out, "-q", *extra],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _calls(folder):
    log = folder / "calls.log"
    calls = len(log.read_text().splitlines()) if log.exists() else 0
    log.unlink(missing_ok=True)
    return calls


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> bytes:
    """The file an uninterrupted run writes (the same for every test: one run, not one a test)."""
    whole_folder = tmp_path_factory.mktemp("whole")
    (whole_folder / "killer.py").write_text(textwrap.dedent(SOLVER))
    (whole_folder / "in.txt").write_bytes((REPO / "data" / "testdata" / "hard.txt").read_bytes())
    whole = _solve(whole_folder, "whole.txt")
    assert whole.returncode == 0, whole.stderr
    return (whole_folder / "whole.txt").read_bytes()


@pytest.mark.parametrize("die_at", [1, 4, 10])
def test_a_killed_solve_continues_from_its_journal_to_the_uninterrupted_file(folder, die_at, uninterrupted):
    (folder / "whole.txt").write_bytes(uninterrupted)
    killed = _solve(folder, "out.txt", die_at=die_at)
    assert killed.returncode == -signal.SIGKILL
    assert not (folder / "out.txt").exists()
    journal = folder / "out.txt.journal"  # each finished answer kept; none, no journal
    answers = run_lines(journal) if journal.exists() else 0
    assert answers == die_at - 1
    _calls(folder)
    again = _solve(folder, "out.txt")
    assert again.returncode == 0, again.stderr
    if die_at > 1:
        assert f"continuing from out.txt.journal: {die_at - 1} puzzle" in again.stderr
    assert _calls(folder) == 10 - (die_at - 1)  # the kept answers are not solved again
    assert (folder / "out.txt").read_bytes() == (folder / "whole.txt").read_bytes()
    assert sorted(os.listdir(folder)) == ["in.txt", "killer.py", "out.txt", "whole.txt"]  # journal and lock gone


def test_an_interrupted_forced_run_keeps_the_old_file_and_says_where_the_answers_are(folder):
    (folder / "out.txt").write_text("my old results\n")
    stopped = _solve(folder, "out.txt", "--force", die_at=3, die_with=signal.SIGINT)
    assert stopped.returncode == 130, stopped.stderr
    assert (folder / "out.txt").read_text() == "my old results\n"
    assert "the existing file is left as it was: 2 answers so far are kept in out.txt.journal" in stopped.stderr
    assert "Traceback" not in stopped.stderr
    again = _solve(folder, "out.txt", "--force")
    assert again.returncode == 0 and len((folder / "out.txt").read_text().splitlines()) == 10


def test_a_journal_of_another_command_is_refused_before_any_work(folder):
    _solve(folder, "out.txt", die_at=4)
    journal = (folder / "out.txt.journal").read_bytes()
    _calls(folder)
    other = _solve(folder, "out.txt", "--seed", "1")
    assert other.returncode == 2 and _calls(folder) == 0
    assert "out.txt.journal: holds 3 answers of another solve command" in other.stderr
    assert len(messages(other.stderr.strip())) == 1
    assert (folder / "out.txt.journal").read_bytes() == journal


def test_a_journal_that_is_an_input_is_never_written(folder):
    """``solve in.journal --out in``: the journal ``--out`` would keep is the puzzle file read."""
    puzzles = (folder / "in.txt").read_bytes()
    (folder / "in.journal").write_bytes(puzzles.rstrip(b"\n"))  # the last puzzle without its newline
    refused = forked_cli.run(
        [sys.executable, "-m", "deap_sudoku", "solve", "in.journal", "--out", "in"],
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=120,
    )
    assert refused.returncode == 2
    assert "is also an input (in.journal); refusing to write onto it" in said(refused.stderr)
    assert (folder / "in.journal").read_bytes() == puzzles.rstrip(b"\n") and not (folder / "in").exists()


def test_a_changed_answer_in_a_journal_is_not_reported(folder):
    _solve(folder, "out.txt", die_at=4)
    journal = folder / "out.txt.journal"
    text = journal.read_text()
    at = text.index('"grid": [') + len('"grid": [')
    while not text[at].isdigit():
        at += 1
    journal.write_text(text[:at] + str(int(text[at]) % 9 + 1) + text[at + 1 :])  # one cell of the first answer
    again = _solve(folder, "out.txt")
    assert again.returncode == 2 and "a damaged record (its digest does not match" in again.stderr
    assert "solved" not in again.stderr and journal.read_text() != text
