"""The example scripts: each ``main`` solves the bundled easiest puzzle with a small budget, each GA example's
composition is the registry's recipe run for run, and the scripts run from the command line."""

import runpy
import subprocess
import sys

import numpy as np
import pytest

from deap_sudoku import read
from deap_sudoku.exact import verify
from deap_sudoku.runs import recipes

from tests.conftest import REPO

EASIEST = read(REPO / "data" / "9x9-easy.txt")[0]

SMALL_BUDGETS = {
    "memetic": dict(max_generations=50),
    "block_ga": dict(population_size=100, max_generations=200),
    "cell_ga": dict(population_size=200, max_generations=500),
    "row_permutation_ga": dict(population_size=100, max_generations=300),
    "block_ga_restart": dict(population_size=100, restart_after=50, max_generations=500),
    "deap_primitives": dict(population_size=150, ngen=40),
    "tabu_search": dict(max_steps=20_000),
    "exact_baselines": dict(),
}


def _main(name):
    return runpy.run_path(str(REPO / "examples" / f"{name}.py"))["main"]


@pytest.mark.parametrize("name", list(SMALL_BUDGETS))
def test_example_solves_the_easiest_bundled_puzzle(name, capsys):
    population, logbook, hof = _main(name)(EASIEST, verbose=False, **SMALL_BUDGETS[name])
    assert len(logbook) >= 1 and len(hof) == 1
    best = hof[0]
    assert verify(best, EASIEST)
    assert np.array_equal(np.asarray(best)[EASIEST.givens], EASIEST.cells[EASIEST.givens])
    assert capsys.readouterr().out == ""  # verbose=False prints nothing


def test_block_ga_switches_all_run():
    main = _main("block_ga")
    for options in (dict(init="random", crossover_kind="diagonal", fitness="closeness", select="sus"),
                    dict(punish_same=True, keeping_percentage=0.3)):
        population, logbook, hof = main(EASIEST, verbose=False, population_size=60, max_generations=30, **options)
        assert logbook.stop_reason in ("solved", "stagnation", "generations")
        assert all(np.array_equal(np.asarray(i)[EASIEST.givens], EASIEST.cells[EASIEST.givens]) for i in population)


def test_block_ga_runs_on_25x25():
    puzzle = read(REPO / "data" / "25x25.txt")[0]
    population, logbook, hof = _main("block_ga")(puzzle, verbose=False, population_size=20, max_generations=3)
    assert len(logbook) >= 2 and hof[0].shape == (625,)


def test_restart_example_prints_one_generation_line_per_logged_generation(capsys):
    _, logbook, _ = _main("block_ga_restart")(EASIEST, population_size=50, max_generations=5)
    lines = [l for l in capsys.readouterr().out.splitlines() if l.startswith("generation ")]
    assert lines == [f"generation {record['gen']}: best {record['max']:g}" for record in logbook]
    assert len(lines) == 6 and logbook[0]["max"] < 108


EQUIVALENT = {  # example -> (recipe, a small budget both take)
    "memetic": (recipes.memetic, dict(max_generations=30)),
    "block_ga": (recipes.block_ga, dict(population_size=40, max_generations=20)),
    "block_ga_diagonal_sus": (recipes.block_ga, dict(population_size=40, max_generations=20, init="random",
                                                     crossover_kind="diagonal", fitness="closeness", select="sus",
                                                     punish_same=True)),
    "cell_ga": (recipes.cell_ga, dict(population_size=40, max_generations=20)),
    "row_permutation_ga": (recipes.row_permutation_ga, dict(population_size=40, max_generations=20)),
    "block_ga_restart": (recipes.block_ga_restart, dict(population_size=40, restart_after=5, max_generations=30)),
    "tabu_search": (recipes.tabu, dict(max_steps=2000)),
}


@pytest.mark.parametrize("name", list(EQUIVALENT))
def test_example_composition_is_the_registrys_recipe_run_for_run(name):
    """What ``deap-sudoku solve -a ...`` runs is what the example file shows: same seed, same run."""
    from tests.conftest import unsolvable
    recipe, budget = EQUIVALENT[name]
    example = _main(name.removesuffix("_diagonal_sus"))
    puzzle = unsolvable()  # no run ends early, so every generation is compared
    for seed in (0, 1):
        mine = example(puzzle, seed=seed, verbose=False, **budget)
        theirs = recipe(puzzle, seed=seed, **budget)
        assert [np.asarray(i).tolist() for i in mine[0]] == [np.asarray(i).tolist() for i in theirs[0]]
        assert np.array_equal(mine[2][0], theirs[2][0])
        columns = [c for c in mine[1].header if c != "seconds"] if mine[1].header else ["steps", "score"]
        assert [[r[c] for c in columns] for r in mine[1]] == [[r[c] for c in columns] for r in theirs[1]]


@pytest.mark.slow
@pytest.mark.parametrize("name, expected", [("block_ga", "solved"), ("tabu_search", "solved"), ("memetic", "solved"),
                                            ("exact_baselines", "the solution is unique")])
def test_examples_run_as_scripts(name, expected):
    result = subprocess.run([sys.executable, str(REPO / "examples" / f"{name}.py"), str(REPO / "data" / "9x9-easy.txt")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", ["memetic", "block_ga_restart"])
def test_ga_examples_checkpoint_and_resume(name, tmp_path):
    import pickle

    from tests.conftest import unsolvable
    puzzle, checkpoint = tmp_path / "unsolvable.txt", tmp_path / "run.ckpt"
    puzzle.write_text(unsolvable().format())

    def example(generations):
        return subprocess.run([sys.executable, str(REPO / "examples" / f"{name}.py"), str(puzzle), "--population", "6",
                               "--max-generations", str(generations), "--checkpoint", str(checkpoint),
                               "--checkpoint-every", "5"], capture_output=True, text=True, timeout=120)

    first = example(12)
    assert first.returncode == 0, first.stderr
    assert pickle.loads(checkpoint.read_bytes())["state"]["generation"] == 12  # the final checkpoint
    second = example(20)
    assert second.returncode == 0, second.stderr
    log = pickle.loads(checkpoint.read_bytes())["state"]["logbook"]
    assert [r["gen"] for r in log] == list(range(21))  # one logbook across both runs
    (tmp_path / "other.ckpt").write_bytes(b"junk")
    refused = subprocess.run([sys.executable, str(REPO / "examples" / f"{name}.py"), str(puzzle),
                              "--checkpoint", str(tmp_path / "other.ckpt")], capture_output=True, text=True)
    assert refused.returncode == 1 and "not a readable deap_sudoku checkpoint" in refused.stderr
