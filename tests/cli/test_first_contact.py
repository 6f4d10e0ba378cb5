"""What a newcomer meets on the command line (issue 52): help in sections with examples and nothing
cut, "did you mean", shell completion, a bench table that fits 100 columns, clashes marked in the
printed grids, a short notice for the bundled files."""

import math
import os
import re
import shlex
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from deap_sudoku import Puzzle
from deap_sudoku.cli import main
from deap_sudoku.cli import outputs
from deap_sudoku.cli.terminal_table import terminal_table
from deap_sudoku.cli.bench import EXAMPLES as BENCH_EXAMPLES
from deap_sudoku.cli.solve import EXAMPLES
from deap_sudoku.experiments import summary_table
from deap_sudoku.grid import clashing_cells
from deap_sudoku.runs import registry

from tests.conftest import REPO, said

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def run(*args, input=None, **kwargs):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False, prog_name="deap-sudoku", **kwargs)


# -- help -------------------------------------------------------------------------------------


def test_the_root_help_gives_every_command_its_first_sentence_whole():
    shown = run("--help", terminal_width=80).output
    commands = " ".join(shown.split("Commands:")[1].split())
    assert "..." not in commands
    for name, command in main.commands.items():
        first = " ".join(command.help.split("\n\n")[0].split())
        assert f"{name} {first}" in commands


def test_solve_help_is_in_sections_with_examples_wrapped_to_the_terminal():
    wide = run("solve", "--help", terminal_width=120).output
    lines = wide.splitlines()
    assert len(lines) <= 68  # 134 before; 60 plus the seven cluster launcher options of issue 53
    assert max(map(len, lines)) <= 120 and max(map(len, lines)) > 100  # the terminal's width, not 80
    headings = [line for line in lines if re.fullmatch(r"[A-Z][^ ].*:", line)]
    assert headings[:3] == ["Algorithm:", "Budget per puzzle (default: the algorithm's own):", "Input:"]
    assert "Examples:" in headings and "Options:" not in headings
    assert "deap-sudoku solve data/9x9.txt" in wide
    narrow = run("solve", "--help", terminal_width=80).output
    assert max(map(len, narrow.splitlines())) <= 80
    a = wide.split("-a, --algorithm NAME")[1].split("--seed")[0]
    assert all(name in a for name in registry.ALGORITHMS) and a.count("\n") <= 5  # 23 lines before
    assert "9223372036854775807" not in wide


def test_a_command_in_a_help_text_fits_the_width_and_is_continued_as_a_shell_continues_it():
    """Issue 63: every line fits the terminal; a command is never wrapped but continued with a
    backslash, so that copied whole it still runs (the generate page's example took 109 columns)."""
    for name, examples in (("generate", ()), ("bench", BENCH_EXAMPLES), ("solve", EXAMPLES)):
        shown = run(name, "--help", terminal_width=80).output
        assert max(map(len, shown.splitlines())) <= 80, name
        joined = re.sub(r" \\\n\s+", " ", shown)  # as the shell reads a continued line
        for line, _ in examples:
            assert f"deap-sudoku {name} {line}\n" in joined, line
    generate = re.sub(r" \\\n\s+", " ", run("generate", "--help", terminal_width=80).output)
    assert "deap-sudoku generate --box 6x6 --any --givens 40%,45%,50%,55% --count 25 --out 'sets/" in generate


def test_every_option_of_solve_and_bench_is_in_its_help_once():
    for name in ("solve", "bench"):
        command = main.commands[name]
        shown = run(name, "--help", terminal_width=120).output
        for param in command.params:
            if param.param_type_name == "option":
                assert (
                    len(re.findall(rf"(?<![\w-]){re.escape(param.opts[-1])}\b(?!-)", shown.split("Examples:")[0])) >= 1
                )


def test_a_count_out_of_range_is_refused_with_its_range():
    """The range left out of help (noise there) is still in the refusal."""
    result = run("bench", str(REPO / "data" / "4x4.txt"), "--runs", "0")
    assert result.exit_code == 2 and "0 is not in the range 1<=x<=" in said(result.stderr)


def test_the_examples_of_solve_parse():
    for line, _ in EXAMPLES:
        words = shlex.split(line)
        words = words[: words.index("<")] if "<" in words else words
        main.commands["solve"].make_context("solve", words, parent=main.make_context("deap-sudoku", ["solve"]))


# -- did you mean -----------------------------------------------------------------------------


def test_a_mistyped_algorithm_names_the_closest_first():
    result = run("solve", "-", "-a", "memtic", input=EASY)
    assert result.exit_code == 2
    assert "unknown algorithm 'memtic'\nDid you mean memetic?\n'deap-sudoku algorithms' lists them all" in result.stderr
    far = run("solve", "-", "-a", "zzz", input=EASY)
    assert far.exit_code == 2 and "did you mean" not in far.stderr


def test_a_missing_file_names_the_nearest_one_here_or_bundled(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("solve", "data/9x9.tx")
    assert result.exit_code == 2
    assert "Usage:" in result.stderr  # click's usage error
    assert "data/9x9.tx: no such file; did you mean data/9x9.txt?" in said(result.stderr)
    (tmp_path / "puzzles.txt").write_text(EASY + "\n")
    for command in ("solve", "check"):
        result = run(command, "puzzle.txt")
        assert result.exit_code == 2 and "puzzle.txt: no such file; did you mean puzzles.txt?" in said(result.stderr)
    bench = run("bench", "data/testdata/eazy.txt", "-a", "tabu")
    assert bench.exit_code == 2 and "did you mean data/testdata/easy.txt?" in said(bench.stderr)
    unlike = run("solve", "nothing-like-it.txt")
    assert unlike.exit_code == 2 and "did you mean" not in unlike.stderr


# -- completion -------------------------------------------------------------------------------


def complete(words: str, env=None) -> list[tuple[str, str]]:
    """What click's bash completion answers for the command line ``words`` (the last word the one
    being completed), through the environment variables a shell sets."""
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    result = CliRunner().invoke(
        main,
        [],
        prog_name="deap-sudoku",
        env={"_DEAP_SUDOKU_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword), **(env or {})},
    )
    assert result.exit_code == 0, result.output
    return [tuple(line.split(",", 1)) for line in result.stdout.splitlines()]


def test_completion_of_commands_options_and_algorithm_names():
    assert ("plain", "solve") in complete("deap-sudoku so")
    assert {value for _, value in complete("deap-sudoku solve --max-s")} == {"--max-seconds", "--max-steps"}
    assert complete("deap-sudoku solve -a mem") == [("plain", "memetic")]
    assert {value for _, value in complete("deap-sudoku bench x.txt -a ")} >= set(registry.ALGORITHMS)


def test_completion_of_puzzle_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert complete("deap-sudoku solve ") == [("file", "")]  # the shell completes paths itself
    assert ("plain", "data/9x9.txt") in complete("deap-sudoku solve data/9x")  # no data/ here: the bundled ones
    (tmp_path / "data").mkdir()
    assert complete("deap-sudoku check data/") == [("file", "data/")]  # a real folder wins


@pytest.mark.slow
def test_bash_completes_algorithm_names_with_the_documented_script(tmp_path):
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    source = subprocess.run(
        ["deap-sudoku"], env={**env, "_DEAP_SUDOKU_COMPLETE": "bash_source"}, capture_output=True, text=True
    ).stdout
    assert "complete -o nosort -F _deap_sudoku_completion deap-sudoku" in source
    probe = "COMP_WORDS=(deap-sudoku solve -a cd); COMP_CWORD=3; _deap_sudoku_completion deap-sudoku"
    done = subprocess.run(
        ["bash", "-c", f'{source}\n{probe}; echo "${{COMPREPLY[@]}}"'], capture_output=True, text=True, env=env
    )
    assert done.stdout.splitlines() == ["cdcl"], done.stderr


# -- bench's table ----------------------------------------------------------------------------


def _row(dataset, algorithm, solved, runs, generations, steps, evaluations, seconds, ert):
    row = dict(dataset=dataset, algorithm=algorithm, solved=solved, runs=runs, censored=0, rate=solved / runs)
    row.update(rate_low=0.76, rate_high=0.99, ert=ert)
    for key, value in dict(generations=generations, steps=steps, evaluations=evaluations, seconds=seconds).items():
        row.update({f"{key}_median": value, f"{key}_q1": value * 0.8, f"{key}_q3": value * 1.2})
    return row


ROWS = [
    _row("inst36x36_45_12.txt", "tabu", 19, 20, 0, 1116, 110938, 0.258, 150763),
    _row("inst36x36_45_12.txt", "mk-cultural", 100, 100, 12000, 0, 12345678, 123.4, 2.3e7),
    _row("inst36x36_45_12.txt", "backtracking", 20, 20, 0, 0, 0, 0.0, math.nan),
    _row("easy.txt", "block-ga", 0, 20, 30, 0, 3250, 0.219, math.inf),
]


BUNDLED_ROWS = [
    _row(name, algorithm, 2, 6, 20, 1275, 127_000, 0.502, math.inf)
    for name in ("easy.txt", "medium.txt", "hard.txt", "expert.txt")
    for algorithm in ("tabu", "block-ga", "backtracking", "mk-cultural")
]
"""``bench data/testdata/*.txt`` with the longest names: 82-84 columns when they were two spaces apart."""


@pytest.mark.parametrize("columns", [80, 120])
def test_the_terminal_table_of_the_bundled_files_fits_the_terminal(columns, monkeypatch):
    """Issue 63: two spaces between columns where they fit the terminal's width, else one."""
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = terminal_table(BUNDLED_ROWS).splitlines()
    assert max(map(len, lines)) <= columns
    assert lines[1].startswith("dataset     algorithm" if columns == 120 else "dataset    algorithm")


def test_the_terminal_table_fits_100_columns_with_dashes_for_what_does_not_apply():
    table = terminal_table(ROWS)
    lines = table.splitlines()
    assert max(map(len, lines)) <= 100
    assert lines[1].split() == ["dataset", "algorithm", "solved", "rate", "(95%", "CI)", "gens", "steps"] + [
        "evals",
        "seconds",
        "ERT",
    ]
    tabu, cultural, backtracking, block = (line.split() for line in lines[2:])
    assert tabu[-5:] == ["-", "1116", "111k", "0.258", "151k"]  # a local search counts no generations
    assert cultural[-5:] == ["12k", "-", "12M", "123.4", "23M"]  # a GA no steps
    assert backtracking[-5:] == ["-", "-", "-", "0.000", "-"]  # an exact search no evaluations either
    assert block[-5:] == ["30", "-", "3250", "0.219", "∞"]
    markdown = summary_table(ROWS)  # the full table, quartiles and all, for --markdown
    assert "| inst36x36_45_12.txt | tabu | 19/20 | 95 % (76-99) | - | 1116 (893-1339) |" in markdown
    assert "0 (0-0)" not in markdown


def test_bench_prints_the_terminal_table_and_writes_the_full_one(tmp_path):
    md = tmp_path / "table.md"
    args = ["bench", str(REPO / "data" / "4x4.txt"), "-a", "tabu", "-a", "block-ga", "--max-steps", "300"]
    result = run(*args, "--max-generations", "3", "--markdown", str(md), "--quiet")
    assert result.exit_code in (0, 1), result.output
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 100 and lines[1].startswith("dataset")
    tabu = next(line.split() for line in lines if " tabu " in line)
    block = next(line.split() for line in lines if " block-ga " in line)
    assert tabu[-5] == "-" and block[-4] == "-"
    assert "| 4x4.txt | tabu |" in md.read_text() and "median (IQR)" in md.read_text()


# -- clashes marked ---------------------------------------------------------------------------


def _unsolved(args=(), **kwargs):
    """An unsolved 9x9: one generation of the block GA leaves clashes."""
    return run(
        "solve", "-", "-a", "block-ga", "--max-generations", "1", "--population", "4", *args, input=EASY, **kwargs
    )


def test_an_unsolved_grid_marks_its_clashing_cells_with_a_star():
    result = _unsolved()
    assert result.exit_code == 1
    picture = result.stdout
    cells = np.array([int(v) for v in re.findall(r"\d", picture)])
    clashes = clashing_cells(Puzzle.parse(EASY).shape, cells)
    assert clashes.any() and picture.count("*") == clashes.sum()
    marked = [int(v) for v in re.findall(r"(\d)\*", picture)]
    assert marked == cells[clashes].tolist()


def test_a_solved_grid_is_printed_as_before():
    result = run("solve", "-", "-a", "backtracking", input=EASY)
    assert result.exit_code == 0 and "*" not in result.stdout and "\x1b[" not in result.stdout


def test_on_a_terminal_the_clashes_are_red_unless_no_color(monkeypatch):
    monkeypatch.setattr(outputs, "colour", lambda stream: True)
    red = _unsolved(color=True).stdout
    plain = re.sub(r"\x1b\[[0-9;]*m", "", red)
    cells = np.array([int(v) for v in re.findall(r"\d", plain)])
    assert "*" not in red and red.count("\x1b[31m") == clashing_cells(Puzzle.parse(EASY).shape, cells).sum() > 0
    assert [len(line) for line in plain.splitlines()] == [21] * 11  # the plain picture's layout
    monkeypatch.undo()

    class Terminal:
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert outputs.colour(Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not outputs.colour(Terminal())
    monkeypatch.delenv("NO_COLOR")
    assert not outputs.colour(object())


# -- the bundled files ------------------------------------------------------------------------


def test_the_notice_for_a_bundled_file_is_short_and_names_no_install_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("check", "data/4x4.txt")
    notice = result.stderr.splitlines()[0]
    assert notice == "data/4x4.txt: reading the bundled copy (deap-sudoku samples lists them)"
    assert len(notice) <= 110 and "site-packages" not in result.stderr and "/deap_sudoku/data" not in result.stderr
    many = run("bench", "data/testdata/*.txt", "-a", "backtracking", "--quiet")
    assert "/deap_sudoku/data" not in many.stderr and "reading the 4 copies bundled" in many.stderr


def test_the_eta_expects_each_algorithm_s_runs_to_take_what_its_own_took_or_its_budget():
    """Issue 63: ``bench easy.txt -a memetic -a tabu --runs 3 --limit 2 --max-seconds 5`` read 00:00:00
    with the six tabu searches to go, after six memetic runs of milliseconds."""
    from deap_sudoku.cli.progress import RunsLeft

    eta = RunsLeft({"memetic": 6, "tabu": 6}, {"memetic": 5.0, "tabu": 5.0})
    assert eta.seconds_left(0.1) is None  # nothing to go by yet
    for _ in range(6):
        eta.finished("memetic", 0.01)
    assert eta.seconds_left(0.1) == pytest.approx(30.0)  # the budgets
    for _ in range(3):
        eta.finished("tabu", 1.0)
    assert eta.seconds_left(3.1) == pytest.approx(3.0)  # their own
    two = RunsLeft({"tabu": 8}, {"tabu": None})
    for _ in range(4):
        two.finished("tabu", 1.0)
    assert two.seconds_left(2.0) == pytest.approx(2.0)  # two at once
