"""What a newcomer's first commands show (issue 52, items 3 and 4): solve's default, auto, says
what it chose and which part found each answer; ``--watch`` shows a GA evolving."""

import re

from click.testing import CliRunner

from deap_sudoku import read
from deap_sudoku.cli import main

from tests.conftest import REPO, said

NINE = str(REPO / "data" / "9x9.txt")


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_the_default_chooses_per_puzzle_and_each_line_says_what_ran_and_found_it():
    result = run("solve", NINE)
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if "solved in" in line]
    assert len(lines) == 5
    assert all(line.endswith("by backtracking (auto: 9x9, 32% givens)") for line in lines), lines
    memetic = run("solve", NINE, "-a", "memetic")
    said = " ".join(memetic.stderr.split())  # wrapped to the terminal's width
    assert "by the GA's exact-search seed (0 generations, 1 evaluation)" in said


def test_auto_takes_a_time_budget_and_refuses_what_belongs_to_a_named_algorithm():
    assert run("solve", NINE, "--max-seconds", "5").exit_code == 0
    for refused in (["--population", "4"], ["--watch"], ["--progress"], ["--workers", "2"]):
        result = run("solve", NINE, *refused)
        assert result.exit_code == 2, refused
        assert "does not apply to auto, the default, which runs an exact search (name an algorithm with -a)" in said(
            result.output
        )
    assert "--watch does not apply to cdcl" in run("solve", NINE, "-a", "cdcl", "--watch").output


def test_watch_shows_the_generations_the_best_fitness_and_the_clashes_on_the_way():
    one = str(REPO / "data" / "9x9-easy.txt")
    result = run("solve", one, "-a", "restart-ga", "--watch", "5")
    assert result.exit_code == 0
    frames = re.findall(r"^generation (\d+): ([\d,]+) evaluations, best fitness (\d+), (.*)$", result.stderr, re.M)
    legend = "the best grid every 5th generation, clashes marked; higher fitness is better, 108 solves it"
    assert " ".join(result.stderr.split()).count(legend) == 3  # once per run, with the target (issue 63)
    first = [f for f in frames if f[0] == "0"]
    assert len(first) == 3 and all("cells clash" in f[3] for f in first)  # one run per puzzle, from generation 0
    assert all(int(f[0]) % 5 == 0 for f in frames if "solved" not in f[3])
    assert [f[3] for f in frames].count("no clashes: solved") == 3
    assert "*" in result.stderr  # clashing cells are marked in the grids on the way
    assert "by evolution" in result.stderr
    answers = [line for line in result.stdout.splitlines() if "|" in line]
    assert len(answers) == 9 * len(read(one)) and "*" not in result.stdout  # standard output: the answers alone
