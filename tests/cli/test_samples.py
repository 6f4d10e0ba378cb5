"""The bundled puzzle files from the command line: ``data/NAME`` from any folder, ``deap-sudoku samples``."""

import re

import pytest
from click.testing import CliRunner

from deap_sudoku import read
from deap_sudoku.cli import main
from deap_sudoku.cli.examples import load_puzzle
from deap_sudoku.exact import verify
from deap_sudoku.io import load_samples, sample_names

from tests.conftest import said

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_a_bundled_file_is_read_as_data_name_from_any_folder(tmp_path, monkeypatch):
    """README's `deap-sudoku solve data/9x9.txt` works outside a checkout, and says what it read."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "solved.txt"
    result = run("solve", "data/9x9-easy.txt", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("data/9x9-easy.txt: reading the bundled copy")
    puzzles = load_samples("9x9-easy.txt")
    assert all(verify(grid, puzzle) for grid, puzzle in zip(read(out), puzzles)) and len(read(out)) == len(puzzles)
    checked = run("check", "data/testdata/hard.txt")
    assert checked.exit_code == 0 and "10 valid puzzles, 0 errors" in checked.stdout
    converted = run("convert", "data/4x4.txt", str(tmp_path / "4x4.lines"), "--to", "line")
    assert converted.exit_code == 0 and len(read(tmp_path / "4x4.lines")) == 3
    benched = run("bench", "data/4x4.txt", "-a", "tabu", "--runs", "1", "--max-steps", "200", "--quiet")
    assert benched.exit_code == 0 and re.search(r"\n4x4\.txt +tabu +3/3 ", benched.stdout)
    assert load_puzzle("data/6x6.txt") == load_samples("6x6.txt")[0]  # the examples' [PUZZLE_FILE]


def test_a_wildcard_the_shell_left_alone_matches_the_bundled_files(tmp_path, monkeypatch):
    """docs/command_line.md's `bench data/testdata/*.txt`: outside a checkout the shell passes the
    pattern on unexpanded, and it names the bundled files it matches (and no deeper ones)."""
    monkeypatch.chdir(tmp_path)
    result = run("bench", "data/testdata/*.txt", "-a", "backtracking", "--runs", "1", "--quiet")
    assert result.exit_code == 0, result.output
    assert "reading the 4 copies bundled with deap-sudoku" in result.stderr
    rows = [line.split()[0] for line in result.stdout.splitlines()[2:]]
    assert rows == ["easy.txt", "expert.txt", "hard.txt", "medium.txt"]
    top = run("bench", "data/*.txt", "-a", "backtracking", "--runs", "1", "--quiet").stdout
    assert sum("backtracking" in line for line in top.splitlines()) == len(
        [name for name in sample_names() if "/" not in name]
    )


def test_a_real_file_always_wins_over_the_bundled_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "9x9.txt").write_text(EASY + "\n")
    result = run("solve", "data/9x9.txt")
    assert result.exit_code == 0 and "bundled" not in result.stderr
    assert result.stderr.count("solved in") == 1  # the bundled 9x9.txt holds 5 puzzles


def test_a_missing_file_says_how_to_reach_the_bundled_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command in (["solve", "data/nope.txt"], ["check", "nope.txt"], ["bench", "data/9x9", "-a", "tabu"]):
        result = run(*command)
        assert result.exit_code == 2
        assert "no such file ('deap-sudoku samples' lists the bundled ones" in said(result.stderr)


@pytest.mark.parametrize("command", [["bench", "-", "-a", "tabu"]])
def test_bench_refuses_standard_input_by_name(command):
    result = run(*command, input=EASY + "\n")
    assert result.exit_code == 2 and "standard input (-) is not read here" in result.stderr


def test_samples_lists_every_bundled_file_with_its_puzzles():
    result = run("samples")
    assert result.exit_code == 0 and not result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [f"data/{name}" for name in sample_names()]
    for line, name in zip(lines, sample_names()):
        puzzles = load_samples(name)
        assert f" {len(puzzles)} puzzle" in line and puzzles[0].shape.name in line
