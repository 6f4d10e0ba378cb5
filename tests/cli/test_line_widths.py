"""Every line a command writes fits the terminal's width (issue 63): messages are wrapped at
spaces to ``COLUMNS`` (at most the help pages' 120), names and paths never cut."""

import re

import pytest
from click.testing import CliRunner

from deap_sudoku.cli import main
from deap_sudoku.io.samples import sample_names

LONGEST_BUNDLED = "data/" + max(sample_names(), key=len)

COMMANDS = {
    "a mistyped -a": ["solve", "data/9x9.txt", "-a", "memetc"],
    "algorithms": ["algorithms"],
    "the longest bundled name": ["check", LONGEST_BUNDLED],
    "an unsolved GA watched": [
        "solve",
        "data/9x9-easy.txt",
        *("-a", "row-ga", "--max-generations", "1", "--population", "10", "--watch"),
    ],
    "an option the algorithm does not take": ["solve", "data/9x9.txt", "-a", "tabu", "--population", "10"],
    "a missing file": ["solve", "data/nosuch.txt"],
    "a format too small for the grid": ["generate", "--box", "6x6", "--givens", "5"],
    "a count out of range": ["bench", "data/4x4.txt", "--runs", "0"],
    "a bench table of the longest names": [
        "bench",
        "data/testdata/easy.txt",
        *("-a", "mk-cultural", "-a", "sa-lewis-cp", "-a", "backtracking", "--max-evaluations", "50"),
        *("--runs", "1", "--limit", "1"),
    ],
    **{f"{name} --help": [name, "--help"] for name in ("solve", "bench", "generate", "convert", "check", "samples")},
    "algorithms --help": ["algorithms", "--help"],
    "the command list (--help)": ["--help"],
}


FILE_LINE = re.compile(r"^data/\S+:\d+: ")
"""``check``'s report of a puzzle, ``FILE:LINE: ...`` as compilers write it for editors and grep: never
wrapped, and with ``data/NAME`` as given rather than the bundled copy's path on disk it fits 120."""


def too_wide(text: str, columns: int) -> list[str]:
    return [line for line in text.splitlines() if len(line) > columns and not (columns < 120 and FILE_LINE.match(line))]


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("what", list(COMMANDS))
def test_every_line_fits_the_width(what, columns, monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.chdir(tmp_path)  # data/NAME is the bundled copy
    result = CliRunner().invoke(main, COMMANDS[what])
    assert result.exit_code in (0, 1, 2) and (result.stdout + result.stderr).strip()
    assert too_wide(result.stdout, columns) == [] and too_wide(result.stderr, columns) == [], result.output


def test_a_mistyped_algorithm_is_one_short_line_and_a_few_close_names(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    result = CliRunner().invoke(main, ["solve", "data/9x9.txt", "-a", "memetc"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-3:] == [
        "Error: Invalid value for '--algorithm' / '-a': unknown algorithm 'memetc'",
        "Did you mean memetic?",
        "'deap-sudoku algorithms' lists them all; or name your own as module:attribute.",
    ]
    several = CliRunner().invoke(main, ["solve", "data/9x9.txt", "-a", "mk-cultral"])
    assert "Did you mean mk-cultural?" in several.stderr and "block-ga" not in several.stderr


def test_the_algorithms_listing_keeps_its_information_with_the_name_first(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    listing = CliRunner().invoke(main, ["algorithms"]).stdout
    entries = listing.replace("\n ", " ").splitlines()  # each algorithm's lines joined
    words = [" ".join(entry.split()) for entry in entries]
    assert words[0].startswith("memetic ga ours, the evolutionary flagship")
    assert words[0].endswith("(bundled; budgets: --max-generations, --max-seconds, --max-evaluations)")
    assert any(
        w.startswith("analyzer exact ") and w.endswith("(bundled; budgets: none, runs to the end)") for w in words
    )
    names = [line.split()[0] for line in listing.splitlines() if not line.startswith(" ")]
    from deap_sudoku.runs import registry

    assert names == list(registry.ALGORITHMS)  # grep ^NAME finds each


def test_the_bundled_notice_goes_on_a_second_line_only_when_it_must(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    notice = CliRunner().invoke(main, ["check", LONGEST_BUNDLED]).stderr.splitlines()[:2]
    assert notice == [f"{LONGEST_BUNDLED}: reading the bundled copy", "  (deap-sudoku samples lists them)"]
    monkeypatch.setenv("COLUMNS", "120")
    notice = CliRunner().invoke(main, ["check", LONGEST_BUNDLED]).stderr.splitlines()[0]
    assert notice == f"{LONGEST_BUNDLED}: reading the bundled copy (deap-sudoku samples lists them)"


@pytest.mark.slow
def test_the_help_lengths_the_command_line_page_gives_are_the_helps_lengths():
    """A figure a user can measure is measured (issue 63: the page said 60 lines where they were 69),
    as a user's terminal shows it: the help's width is settled when the command line starts."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from tests.conftest import REPO

    page = " ".join((REPO / "docs" / "command_line.md").read_text().split())
    said = re.search(r"`solve --help` is (\d+) lines at 120 columns and (\d+) at 80", page)
    assert said, "docs/command_line.md no longer gives solve --help's length"
    for columns, lines in zip((120, 80), map(int, said.groups())):
        shown = subprocess.run(
            [str(Path(sys.executable).parent / "deap-sudoku"), "solve", "--help"],  # the name the usage line shows
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": str(columns)},
            timeout=60,
        ).stdout
        assert len(shown.splitlines()) == lines, (columns, len(shown.splitlines()))


@pytest.mark.parametrize("columns", [80, 120])
def test_the_progress_bar_and_the_lines_between_its_redraws_fit_the_terminal(columns, monkeypatch):
    """Issue 63: ``solve data/testdata/hard.txt -a row-ga`` drew an 82-column bar at 80; each redraw
    after a message then left the bar's first line behind (10 stale bars for 10 puzzles)."""
    import io
    import sys

    from deap_sudoku.cli.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(sys, "stderr", terminal)
    with Progress(10, "solving with row-ga", "puzzles") as progress:
        for number in range(1, 11):
            progress.echo(f"puzzle {number} of 10: no solution found within the budget", err=True)
            progress.advance()
    drawn = re.split(r"[\r\n]", re.sub(r"\033\[[0-9;?]*[A-Za-z]", "", terminal.getvalue()))  # escapes take no room
    assert any("solving with row-ga  [" in line for line in drawn)
    assert too_wide("\n".join(drawn), columns) == []


@pytest.mark.parametrize("columns", [80, 100])
def test_the_first_runs_compile_notices_fit_the_width(columns, monkeypatch, capsys):
    """A first-ever run's notices (the background compile, its taking up) were one line each, 102
    and about 110 characters: a terminal of 80 or 100 columns cut them mid-word."""
    from deap_sudoku import load_sample
    from deap_sudoku.cli import progress
    from deap_sudoku.runs import registry
    from tests.conftest import messages

    def elsewhere(name, puzzle, compiled, *, record, budgeted, taken_up):
        taken_up(17.62, 0.71)
        return True

    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(progress, "numba_available", lambda: True)
    monkeypatch.setattr("deap_sudoku.runs.kernels.warm_up", elsewhere)
    monkeypatch.setattr("deap_sudoku.runs.kernels.compiled_before", lambda name, part="": False)  # a first run
    progress.warm_up_announced(registry.algorithm("cdcl"), [load_sample("16x16.txt")], compiled=None)
    said = capsys.readouterr().err
    assert too_wide(said, columns) == [] and messages(said) == [
        "compiling the clause-learning kernels: done, taken up after 17.6 s on the Python twins (0.71 s to load)",
        "compiling the clause-learning kernels in a background process, while the run goes on with their Python twins",
    ]


def test_a_compile_in_the_foreground_says_so_wrapped_in_a_log(monkeypatch, capsys):
    """Off a terminal the compile notice and its duration were one line each, 92 columns and more."""
    import time

    from deap_sudoku.cli.progress import _Compiling
    from deap_sudoku.runs.record import COMPILING

    monkeypatch.setenv("COLUMNS", "80")
    with _Compiling(COMPILING.format(name="clause-learning"), quiet=False):
        time.sleep(1.1)  # a notice shows after a second
    said = capsys.readouterr().err
    assert "compiling the clause-learning kernels" in said and ": done in " in said
    assert too_wide(said, 80) == []


def test_a_message_a_program_reads_is_one_line_whatever_its_length(monkeypatch, tmp_path):
    """Standard error that is no terminal (a pipe, a log) and no ``COLUMNS``: each message one line,
    so that ``grep`` finds a phrase behind a long path (wrapped at 80, ``is also an input`` broke
    over two lines for some folder names, and tests that grepped for it passed by their path's
    length); on a terminal of 80 columns the same refusal is wrapped."""
    folder = tmp_path / ("a-folder-name-long-enough-to-push-the-message-past-eighty-columns" * 2)
    folder.mkdir()
    puzzle = folder / "a.txt"
    puzzle.write_text("1" + "." * 80 + "\n")
    monkeypatch.delenv("COLUMNS", raising=False)
    refused = CliRunner().invoke(main, ["solve", str(puzzle), "--out", str(puzzle)])
    assert refused.exit_code == 2
    [line] = refused.stderr.splitlines()
    assert line.startswith("Error: --out ") and f"{puzzle} is also an input" in line
    monkeypatch.setenv("COLUMNS", "80")
    wrapped = CliRunner().invoke(main, ["solve", str(puzzle), "--out", str(puzzle)])
    lines = wrapped.stderr.splitlines()
    assert len(lines) > 2 and all(len(line) <= 80 for line in lines if str(folder) not in line), lines


ON_A_TERMINAL = {
    "solve's bar and a message per puzzle": [
        "solve",
        "data/testdata/hard.txt",
        *("-a", "row-ga", "--max-generations", "3", "--population", "20"),
    ],
    "bench's bar and table": [
        "bench",
        "data/testdata/easy.txt",
        *("-a", "mk-cultural", "-a", "sa-lewis-cp", "--max-evaluations", "50", "--runs", "2", "--limit", "3"),
    ],
    "generate's bar": ["generate", "--count", "30", "--seed", "1", "--out", "many.txt"],
    "the bundled notice and check's report": ["check", LONGEST_BUNDLED],
    "a refusal": ["solve", "data/9x9.txt", "-a", "tabu", "--population", "10"],
    "--watch": [
        "solve",
        "data/9x9-easy.txt",
        *("-a", "row-ga", "--max-generations", "11", "--population", "10", "--watch"),
    ],
    "algorithms": ["algorithms"],
}


def _on_a_terminal(arguments: list[str], columns: int, cwd) -> str:
    """What ``deap-sudoku ARGUMENTS`` writes to a terminal ``columns`` wide: a pseudo-terminal of that
    size as its standard output and error, and no ``COLUMNS`` (a shell does not export it), so that
    the command finds the width as it does at a user's terminal and draws its progress bars."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {name: value for name, value in os.environ.items() if name != "COLUMNS"}
    process = subprocess.Popen(
        [sys.executable, "-m", "deap_sudoku", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        cwd=cwd,
        env=env,
    )
    os.close(follower)
    written = bytearray()
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the command's end closed the terminal's last writer
            break
        if not chunk:
            break
        written += chunk
    os.close(leader)
    assert process.wait(timeout=60) in (0, 1, 2)
    return written.decode()


@pytest.mark.slow
@pytest.mark.parametrize("columns", [80, 120])
def test_every_command_fits_a_real_terminal_bars_and_all(columns, tmp_path):
    """Issue 63: every subcommand's normal, error and progress output at a terminal 80 and 120
    columns wide, bars drawn: each stretch of text between two line ends or carriage returns, escape
    sequences taking no room, fits."""
    too_wide_anywhere, bars = {}, 0
    for what, arguments in ON_A_TERMINAL.items():
        written = _on_a_terminal(arguments, columns, tmp_path)
        shown = re.split(r"[\r\n]", re.sub(r"\033\[[0-9;?]*[A-Za-z]", "", written))
        bars += any("[" in line and "#" in line for line in shown)
        wide = [line for line in shown if len(line) > columns and not (columns < 120 and FILE_LINE.match(line))]
        if wide:
            too_wide_anywhere[what] = wide
    assert too_wide_anywhere == {}
    assert bars >= 3  # solve's, bench's and generate's bars were drawn: the terminal was taken for one
