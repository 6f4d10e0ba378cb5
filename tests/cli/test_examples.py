"""The example scripts: each ``main`` solves the bundled easiest puzzle with a small budget, each GA example's
composition is the registry's recipe run for run, and the scripts run from the command line."""

import random
import runpy
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from deap_sudoku import read
from deap_sudoku.exact import dig_puzzle, solve, verify
from deap_sudoku.runs import ALGORITHMS
from deap_sudoku.runs.catalogue import colony, ga_recipes, local_search, mantere_koljonen
from deap_sudoku.runs.record import STOP_OPTIONS

from tests.conftest import REPO, recipe_options

EASIEST = read(REPO / "data" / "9x9-easy.txt")[0]
TEN_EMPTY = dig_puzzle(solve(EASIEST), 71, random.Random(0), unique=False)
"""For the cell GA, which as documented needs far more than our test budget on real puzzles."""

EXAMPLES = sorted(path.stem for path in (REPO / "examples").glob("*.py"))
"""Every example script, found: a new one is tested without being listed."""
WITH_RECORDS = {record.example: record for record in ALGORITHMS.values() if record.example}
"""The examples that write a bundled algorithm's recipe out, by the records that name them."""
GA_RECIPES = {record.function for record in ALGORITHMS.values() if record.kind in ("ga", "colony")}  # take stop=
WITHOUT_RECORDS = {"deap_primitives", "exact_baselines"}  # DEAP's own loop; the exact solvers side by side

SMALL_BUDGETS = {  # examples whose defaults take longer than a test should: the budget they get here
    "memetic": dict(max_generations=50),
    "block_ga": dict(population_size=100, max_generations=200, mutation_threshold=0, in_box_pairs=True),
    "cell_ga": dict(population_size=100, max_generations=500),
    "row_permutation_ga": dict(population_size=100, max_generations=300),
    "block_ga_restart": dict(population_size=100, max_generations=500),
    "deap_primitives": dict(population_size=150, ngen=40),
    "tabu_search": dict(max_steps=20_000),
    "iterated_local_search": dict(max_steps=20_000),
    "mk_ga": dict(restart_after=200, max_generations=5000),  # solves it at generation 755 (seed 0)
    "mk_cultural": dict(restart_after=200, max_generations=5000),
    "lsga": dict(max_generations=50),
}


def test_every_example_either_writes_a_bundled_algorithm_out_or_is_known_not_to():
    assert set(EXAMPLES) == set(WITH_RECORDS) | WITHOUT_RECORDS and not set(WITH_RECORDS) & WITHOUT_RECORDS


def _main(name):
    return runpy.run_path(str(REPO / "examples" / f"{name}.py"))["main"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_solves_the_easiest_bundled_puzzle(name, capsys):
    puzzle = TEN_EMPTY if name == "cell_ga" else EASIEST
    population, logbook, hof = _main(name)(puzzle, verbose=False, **SMALL_BUDGETS.get(name, {}))
    assert len(logbook) >= 1 and len(hof) == 1
    best = hof[0]
    assert verify(best, puzzle)
    assert np.array_equal(np.asarray(best)[puzzle.givens], puzzle.cells[puzzle.givens])
    assert capsys.readouterr().out == ""  # verbose=False prints nothing


def test_block_ga_switches_all_run():
    main = _main("block_ga")
    for options in (
        dict(),
        dict(init="smart", crossover_kind="diagonal", fitness="closeness", select="sus"),
        dict(punish_same=True, keep=0.3, fitness="collisions", in_box_pairs=True),
    ):
        population, logbook, hof = main(EASIEST, verbose=False, population_size=60, max_generations=30, **options)
        assert logbook.stop_reason in ("solved", "stagnation", "generations")
        assert all(np.array_equal(np.asarray(i)[EASIEST.givens], EASIEST.cells[EASIEST.givens]) for i in population)


def test_under_sus_the_keeping_percentage_changes_the_run():
    """It did not: ``--keeping-percentage 0.1`` and ``0.9`` gave byte-identical runs under SUS."""
    main = _main("block_ga")
    runs = [
        main(EASIEST, verbose=False, population_size=40, max_generations=5, select="sus", keep=k) for k in (0.1, 0.9)
    ]
    assert [r[1].select("nevals")[1] for r in runs] == [36, 4]


DOCUMENTED_DEFAULTS = {  # example: what main() does unless a switch says otherwise (docs/reproductions.md)
    "block_ga": dict(
        init="random",
        crossover_kind="two_point",
        fitness="cell_collisions",
        select="truncation",
        mutation_threshold=1,
        in_box_pairs=False,
        punish_same=False,
    ),
    "block_ga_restart": dict(normalised_roulette=False, restart_after=None),
    "cell_ga": dict(amount=2, free_cells_only=False),
    "row_permutation_ga": dict(restrict=False),
    "tabu_search": dict(moves="value", memory="boards", restrict=False),
    "iterated_local_search": dict(worse=0.0, restrict=False),
    "simulated_annealing": dict(alpha=0.99, chain_length=None, reheat_after=20, propagate_first=False),
    "exact_baselines": dict(propagation=False),
    "ant_colony": dict(population_size=10, q0=0.9, greedy="code", rho=0.9, best_evaporation=0.005),
    "mk_ga": dict(population_size=21, elites=1, crossover="uniform", use_help_array=True, max_generations=100_000),
    "mk_cultural": dict(population_size=21, elites=1, crossover="uniform", use_help_array=True, accepted=2),
    "lsga": dict(
        population_size=150,
        elite_size=50,
        tournsize=2,
        cxpb=0.2,
        row_cxpb=0.1,
        mutpb=0.3,
        reinitpb=0.05,
        max_generations=200,
    ),
}
SWITCHES = {  # example: the improvement switches its --help must show
    "block_ga": ["--mutation-threshold", "--in-box-pairs", "--fitness [cell_collisions|closeness|collisions]"],
    "block_ga_restart": ["--normalised-roulette", "--restart-after"],
    "cell_ga": ["--free-cells-only"],
    "row_permutation_ga": ["--restrict"],
    "tabu_search": ["--moves [value|swap]", "--memory [boards|cells]", "--restrict"],
    "iterated_local_search": ["--worse", "--restrict"],
    "simulated_annealing": ["--alpha", "--reheat-after", "--propagate-first"],
    "exact_baselines": ["--propagation"],
    "ant_colony": ["--greedy [code|paper]"],
    "mk_ga": ["--crossover [uniform|one_point]", "--no-help-array", "--restart-after"],
    "mk_cultural": ["--crossover [uniform|one_point]", "--no-help-array", "--accepted"],
    "lsga": ["--elite-size", "--pc1", "--pc2", "--pm1", "--pm2"],  # the paper's rates, no switches of ours
}


@pytest.mark.parametrize("name", list(DOCUMENTED_DEFAULTS))
def test_each_example_runs_the_documented_algorithm_by_default_and_shows_its_switches(name):
    import inspect

    parameters = inspect.signature(_main(name)).parameters
    assert {key: parameters[key].default for key in DOCUMENTED_DEFAULTS[name]} == DOCUMENTED_DEFAULTS[name]
    cli = runpy.run_path(str(REPO / "examples" / f"{name}.py"))["cli"]
    shown = " ".join(CliRunner().invoke(cli, ["--help"], terminal_width=200).output.split())
    assert "As documented" in shown and all(switch in shown for switch in SWITCHES[name]), shown


@pytest.mark.parametrize("name", sorted(WITH_RECORDS))
def test_each_examples_defaults_are_its_recipes(name):
    """docs/reproductions.md measures the recipes (by their -a names) and calls them the examples."""
    example, ours = _main(name).__kwdefaults__, dict(WITH_RECORDS[name].function.__kwdefaults__)
    stop = ours.pop("stop", None)  # a local search's is None: its budgets are its keywords, as the example's
    if stop is not None:  # a GA recipe's budgets are its default stop's, the example's its keywords'
        ours |= {budget: getattr(stop, budget) for budget in STOP_OPTIONS if budget in example}
    shared = set(example) & set(ours)
    assert len(shared) >= 3 and {k: example[k] for k in shared} == {k: ours[k] for k in shared}
    assert set(STOP_OPTIONS) & set(example) <= shared


def test_block_ga_runs_on_25x25():
    puzzle = read(REPO / "data" / "25x25.txt")[0]
    population, logbook, hof = _main("block_ga")(puzzle, verbose=False, population_size=20, max_generations=3)
    assert len(logbook) >= 2 and hof[0].shape == (625,)


def test_restart_example_prints_the_sources_line_counting_generations_from_1(capsys):
    _, logbook, _ = _main("block_ga_restart")(EASIEST, population_size=50, max_generations=5)
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("In generation ")]
    assert lines == [f"In generation {record['gen'] + 1} MAX was {record['max']:g}" for record in logbook]
    assert len(lines) == 6 and lines[0].startswith("In generation 1 MAX was") and logbook[0]["max"] < 108


EQUIVALENT_BUDGETS = {  # example -> a small budget both take, where the generic one does not do
    "memetic": dict(max_generations=15),
    "block_ga_restart": dict(population_size=40, restart_every=5, max_generations=30),
    "tabu_search": dict(max_steps=600),
    "iterated_local_search": dict(max_steps=2000),
    "ant_colony": dict(max_generations=20),
    "simulated_annealing": dict(max_steps=20_000),
    "lsga": dict(population_size=40, elite_size=10, max_generations=8),
}
GENERIC_BUDGET = dict(population_size=40, max_generations=20)
EQUIVALENT = {
    name: (record.function, EQUIVALENT_BUDGETS.get(name, GENERIC_BUDGET)) for name, record in WITH_RECORDS.items()
}
EQUIVALENT |= {  # example with switches -> (recipe, the switches and a budget)
    "block_ga_switched": (
        ga_recipes.block_ga,
        dict(
            population_size=40,
            max_generations=20,
            init="smart",
            crossover_kind="diagonal",
            fitness="closeness",
            select="sus",
            punish_same=True,
            mutation_threshold=0,
            in_box_pairs=True,
        ),
    ),
    "cell_ga_switched": (ga_recipes.cell_ga, dict(population_size=40, max_generations=20, free_cells_only=True)),
    "row_permutation_ga_switched": (
        ga_recipes.row_permutation_ga,
        dict(population_size=40, max_generations=20, restrict=True),
    ),
    "block_ga_restart_switched": (
        ga_recipes.block_ga_restart,
        dict(population_size=40, restart_after=5, normalised_roulette=True, max_generations=30),
    ),
    "tabu_search_switched": (local_search.tabu, dict(max_steps=600, moves="swap", memory="cells", restrict=True)),
    "iterated_local_search_switched": (
        local_search.cp_ils,
        dict(max_steps=2000, max_evaluations=6000, worse=0.5, restrict=True, share=0.4, patience=30),
    ),
    "ant_colony_switched": (colony.ant_colony, dict(max_generations=20, greedy="paper", q0=0.5, population_size=4)),
    "mk_ga_switched": (
        mantere_koljonen.mk_ga,
        dict(population_size=12, max_generations=20, crossover="one_point", use_help_array=False, restart_after=5),
    ),
    "mk_cultural_switched": (
        mantere_koljonen.mk_cultural,
        dict(population_size=12, max_generations=20, crossover="one_point", accepted=4, restart_after=5),
    ),
    "simulated_annealing_switched": (local_search.annealing, dict(max_steps=20_000, propagate_first=True)),
}


@pytest.mark.parametrize("name", list(EQUIVALENT))
def test_example_composition_is_the_registrys_recipe_run_for_run(name):
    """What ``deap-sudoku solve -a ...`` runs is what the example file shows: same seed, same run."""
    from tests.conftest import unsolvable

    recipe, budget = EQUIVALENT[name]
    example = _main(name.removesuffix("_switched"))
    puzzle = unsolvable()  # no run ends early, so every generation is compared
    for seed in (0, 1):
        mine = example(puzzle, seed=seed, verbose=False, **budget)
        theirs = recipe(puzzle, seed=seed, **(recipe_options(recipe, **budget) if recipe in GA_RECIPES else budget))
        assert [np.asarray(i).tolist() for i in mine[0]] == [np.asarray(i).tolist() for i in theirs[0]]
        assert np.array_equal(mine[2][0], theirs[2][0])
        columns = [c for c in mine[1].header if c != "seconds"] if mine[1].header else ["steps", "score"]
        assert [[r[c] for c in columns] for r in mine[1]] == [[r[c] for c in columns] for r in theirs[1]]


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, options, expected",
    [
        ("block_ga", ["--mutation-threshold", "0", "--in-box-pairs"], "solved"),
        ("block_ga_restart", [], "solved"),
        ("tabu_search", [], "solved"),
        ("simulated_annealing", ["--propagate-first"], "solved"),
        ("memetic", [], "solved"),
        ("exact_baselines", [], "the solution is unique"),
    ],
)
def test_examples_run_as_scripts(name, options, expected):
    result = subprocess.run(
        [sys.executable, str(REPO / "examples" / f"{name}.py"), str(REPO / "data" / "9x9-easy.txt"), *options],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", ["memetic", "block_ga_restart"])
def test_ga_examples_checkpoint_and_resume(name, tmp_path):
    from deap_sudoku.runs import saved_state
    from tests.conftest import unsolvable

    puzzle, checkpoint = tmp_path / "unsolvable.txt", tmp_path / "run.ckpt"
    puzzle.write_text(unsolvable().format())

    def example(generations):
        return subprocess.run(
            [
                sys.executable,
                str(REPO / "examples" / f"{name}.py"),
                str(puzzle),
                "--population",
                "6",
                "--max-generations",
                str(generations),
                "--checkpoint",
                str(checkpoint),
                "--checkpoint-every",
                "5",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )

    first = example(12)
    assert first.returncode == 0, first.stderr
    assert saved_state(checkpoint)["generation"] == 12  # the final checkpoint
    second = example(20)
    assert second.returncode == 0, second.stderr
    log = saved_state(checkpoint)["logbook"]
    assert [r["gen"] for r in log] == list(range(21))  # one logbook across both runs
    (tmp_path / "other.ckpt").write_bytes(b"junk")  # refused before any run: no process of its own needed
    cli = runpy.run_path(str(REPO / "examples" / f"{name}.py"))["cli"]
    refused = CliRunner().invoke(cli, [str(puzzle), "--checkpoint", str(tmp_path / "other.ckpt")])
    assert refused.exit_code == 2 and "not a deap_sudoku checkpoint" in refused.stderr
