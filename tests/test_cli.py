import subprocess
import sys

import pytest
from click.testing import CliRunner

from deap_sudoku import Puzzle, loads, read
from deap_sudoku.cli import main
from deap_sudoku.solvers import verify

from .conftest import REPO

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize("name", ["9x9.txt", "9x9-easy.txt", "9x9-aufgabe.txt", "4x4.txt", "6x6.txt", "12x12.txt",
                                  "16x16.txt", "16x16-lloyd.txt", "25x25.txt"])
def test_solve_every_bundled_file(name, tmp_path):
    path = REPO / "data" / name
    out = tmp_path / "solutions.txt"
    result = run("solve", str(path), "--out", str(out), "--out-format", "grid")
    assert result.exit_code == 0, result.output
    puzzles = read(path)
    solutions = read(out)
    assert len(solutions) == len(puzzles)
    assert all(verify(s, p) for s, p in zip(solutions, puzzles))
    assert result.output.count("solved in") == len(puzzles)
    assert "-+-" in result.output  # the grid is printed with box borders


def test_solve_reads_stdin_and_prints_the_solved_picture():
    result = run("solve", "-", input=EASY + "\n")
    assert result.exit_code == 0
    picture = result.output.split("solved in")[0]
    [solution] = loads(picture)
    assert verify(solution, Puzzle.parse(EASY))


def test_propagation_only_reports_what_it_could_not_fill():
    hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    result = run("solve", "-", "--algorithm", "propagation", input=hard + "\n")
    assert result.exit_code == 1
    assert "not solved: propagation filled" in result.output


def test_unsolvable_puzzle_exits_1():
    result = run("solve", "-", input="12345678." + "........9" + "." * 63 + "\n")
    assert result.exit_code == 1
    assert "no solution" in result.output


def test_bad_input_exits_2_with_a_located_message(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(EASY + "\n" + EASY[:40] + "?" + EASY[41:] + "\n")
    result = run("solve", str(bad))
    assert result.exit_code == 2
    assert f"{bad}:2:41: unknown character '?'" in result.output
    assert "Traceback" not in result.output
    missing = run("solve", str(tmp_path / "nope.txt"))
    assert missing.exit_code == 2 and "No such file" in missing.output
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    assert run("solve", str(empty)).exit_code == 2
    assert run("solve", "-", "--box", "2by3", input=EASY).exit_code == 2


def test_out_is_never_overwritten_without_force(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("keep me\n")
    result = run("solve", "-", "--out", str(out), input=EASY + "\n")
    assert result.exit_code == 2 and "--force" in result.output
    assert out.read_text() == "keep me\n"
    assert run("solve", "-", "--out", str(out), "--force", input=EASY + "\n").exit_code == 0
    assert verify(read(out)[0], Puzzle.parse(EASY))


def test_generate_is_reproducible_and_unique(tmp_path):
    first = run("generate", "--box", "2x3", "--givens", "12", "--count", "3", "--seed", "5")
    second = run("generate", "--box", "2x3", "--givens", "12", "--count", "3", "--seed", "5")
    assert first.exit_code == 0 and first.output == second.output
    from deap_sudoku.solvers import is_unique
    puzzles = loads(first.output, box=(2, 3))
    assert len(puzzles) == 3 and all(is_unique(p) for p in puzzles)
    single = run("generate", "--box", "2x3", "--givens", "12", "--seed", "7")
    assert single.output.strip() == first.output.splitlines()[2]  # puzzle i uses seed SEED+i
    assert run("generate", "--box", "7x1", "--givens", "3").exit_code == 2


def test_console_script_and_module_entry_points():
    result = subprocess.run([sys.executable, "-m", "deap_sudoku", "solve", str(REPO / "data" / "4x4.txt")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "solved in" in result.stdout


def test_generate_by_difficulty_grades_as_asked():
    from deap_sudoku.generate import grade
    result = run("generate", "--difficulty", "medium", "--count", "2", "--seed", "3")
    assert result.exit_code == 0
    puzzles = loads(result.output)
    assert [grade(p)[0] for p in puzzles] == ["medium", "medium"]
    assert run("generate", "--difficulty", "easy", "--givens", "30").exit_code == 2
    assert run("generate").exit_code == 2


def test_bundled_testdata_is_graded_as_named():
    from deap_sudoku.generate import grade
    for level in ("easy", "medium", "hard", "expert"):
        puzzles = read(REPO / "data" / "testdata" / f"{level}.txt")
        assert len(puzzles) == 10 and all(grade(p)[0] == level for p in puzzles)
