"""A user's algorithm is a first-class algorithm: made from a toolbox factory, a function or a bundled
GA with an operator replaced, found by import path or entry point, run with budgets (issue 33)."""

import importlib.metadata
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from click.testing import CliRunner

from deap_sudoku import load_sample, make_toolbox
from deap_sudoku.cli import main
from deap_sudoku.exact import solve
from deap_sudoku.runs import registry
from deap_sudoku.runs.task import Task, run_task
from deap_sudoku.runs.user import from_function, from_toolbox, variant, with_operators

from tests import forked_cli
from tests.conftest import REPO

EASY = load_sample("testdata/easy.txt")
HARD = load_sample("testdata/hard.txt")

MODULE = '''
import random

from deap_sudoku import make_toolbox
from deap_sudoku.runs.user import from_toolbox, variant, with_operators
from deap_sudoku.tools import mut_swap_in_box

CALLS = []


def mut_counted(individual, *, puzzle, rng=None):
    """mut_swap_in_box that counts its calls."""
    CALLS.append(1)
    return mut_swap_in_box(individual, puzzle=puzzle, rng=rng)


def my_toolbox(puzzle, rng):
    return make_toolbox(puzzle, mutate="conflict_swap_in_box", rng=rng)


my_ga = from_toolbox(my_toolbox, name="my_ga", population_size=60, cxpb=0.3, mutpb=0.8)
block_ga_counted = with_operators("block-ga", mutate=mut_counted)
restart_arm = variant("restart-ga", name="restart_arm", population_size=30)


def given_back(puzzle, *, rng, max_seconds=None):
    """The puzzle as it is."""
    return puzzle.cells


NOT_AN_ALGORITHM = 42


def fails_on_odd_seeds(puzzle, *, seed, max_seconds=None):
    """Raises on odd seeds."""
    if seed % 2:
        raise RuntimeError("lost my way\\nsecond line")
    return puzzle.cells
'''


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """``usermod`` in an empty folder that is the current one, as a user's file beside their data.  The
    folder is NOT put on ``sys.path`` here (nor is ``""``, which would mean it): finding the user's module
    from the current folder is the registry's own promise, and a fixture doing it hid its loss."""
    (tmp_path / "usermod.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    registry._imported.cache_clear()
    yield tmp_path
    sys.modules.pop("usermod", None)
    registry._imported.cache_clear()


def _toolbox_ga(population=60):
    return from_toolbox(
        lambda puzzle, rng: make_toolbox(puzzle, mutate="conflict_swap_in_box", rng=rng),
        name="mine",
        population_size=population,
        cxpb=0.3,
        mutpb=0.8,
    )


def test_a_toolbox_factory_with_ea_simple_runs_like_a_bundled_ga_and_is_seeded():
    record = _toolbox_ga()
    first = record.run(EASY, seed=3, max_generations=300)
    again = record.run(EASY, seed=3, max_generations=300)
    other = record.run(EASY, seed=4, max_generations=300)
    assert first.note == "solved" and np.array_equal(solve(EASY).cells, first.grid)
    assert (first.generations, first.evaluations) == (again.generations, again.evaluations)
    assert (first.generations, first.evaluations) != (other.generations, other.evaluations)
    assert first.trace.evaluations[-1] == first.evaluations and first.objective.target == 0


def test_a_toolbox_run_gives_the_random_module_back_as_it_found_it():
    import random

    random.seed(11)
    expected = random.Random(11).random()
    _toolbox_ga().run(EASY, seed=3, max_generations=5)
    assert random.random() == expected


def test_every_ga_honours_an_evaluation_budget():
    for record in [_toolbox_ga(), registry.algorithm("block-ga"), registry.algorithm("row-ga")]:
        outcome = record.run(HARD, seed=0, max_evaluations=500)
        assert outcome.note in ("evaluations", "solved", "stagnation"), record.name
        if outcome.note == "evaluations":
            per_generation = outcome.evaluations / max(outcome.generations, 1)
            assert 500 <= outcome.evaluations < 500 + 2 * per_generation + 200, record.name


def test_a_function_is_an_algorithm_with_the_budgets_it_names():
    def exact(puzzle, *, rng, max_seconds=None, max_nodes=None):
        """Backtracking, as a user's function."""
        return solve(puzzle, rng=rng).cells, 7

    record = from_function(exact, name="exact")
    assert record.options == ("max_seconds", "max_nodes")
    assert record.description == "Backtracking, as a user's function."
    outcome = record.run(EASY, seed=0, max_seconds=5.0)
    assert outcome.evaluations == 7 and np.array_equal(outcome.grid, solve(EASY).cells)
    seen = []
    from_function(lambda puzzle, **given: seen.append(sorted(given)) or puzzle.cells, name="kw").run(EASY, seed=1)
    assert seen == [["rng"]]  # **keywords take the generator too
    with pytest.raises(ValueError, match="takes neither rng= nor seed="):
        from_function(lambda puzzle: puzzle.cells, name="bad")


def test_with_operators_uses_the_users_operator_inside_the_bundled_loop(user_module, monkeypatch):
    monkeypatch.syspath_prepend(str(user_module))  # imported by the test itself, before the registry
    module = __import__("usermod")
    record = registry.algorithm("usermod:block_ga_counted")
    result = run_task(Task("usermod:block_ga_counted", EASY, options={"max_generations": 5}))
    assert module.CALLS and result.algorithm == "usermod:block_ga_counted" and result.generations <= 5
    assert record.source == "import path" and record.options == registry.algorithm("block-ga").options
    with pytest.raises(ValueError, match="block-ga registers no 'mutant' to replace; it has individual, "):
        with_operators("block-ga", mutant=module.mut_counted)  # refused when it is made, before any run
    with pytest.raises(ValueError, match="takes a bundled GA"):
        with_operators("tabu", mutate=module.mut_counted)


@pytest.mark.parametrize("name", registry.names(kind="ga"))
def test_every_ga_declares_the_aliases_its_toolbox_registers(name, monkeypatch):
    """with_operators refuses what a recipe does not register from the record's ``operators``: they
    must be the toolbox's own aliases."""
    module = sys.modules[registry.algorithm(name).function.__module__]  # recipes, or mantere_koljonen
    seen = []
    evolve = module.evolve
    monkeypatch.setattr(
        module,
        "evolve",
        lambda puzzle, operators, loop, toolbox, *a, **k: (
            seen.append(toolbox) or evolve(puzzle, operators, loop, toolbox, *a, **k)
        ),
    )
    registry.algorithm(name).run(EASY, seed=0, max_generations=1)
    aliases = {alias for alias in vars(seen[0]) if not alias.startswith("_")}
    assert aliases == set(registry.algorithm(name).operators)


def test_with_operators_hands_an_operator_that_takes_rng_the_runs_generator():
    drawn = []

    def mut_noting(individual, *, puzzle, rng=None):
        drawn.append(rng)
        return (individual,)

    with_operators("block-ga", mutate=mut_noting).run(EASY, seed=3, max_generations=2)
    assert (
        drawn and all(isinstance(rng, __import__("random").Random) for rng in drawn) and len(set(map(id, drawn))) == 1
    )


def test_import_paths_resolve_from_the_current_folder_and_fail_in_one_line(user_module):
    record = registry.algorithm("usermod:my_ga")
    assert record.name == "usermod:my_ga" and record.kind == "ga" and "max_evaluations" in record.options
    assert run_task(Task("usermod:given_back", EASY)).solved is False
    for path, message in (
        ("nomodule:x", "module 'nomodule' does not import: ModuleNotFoundError"),
        ("usermod:missing", "module 'usermod' has no 'missing'"),
        ("usermod:NOT_AN_ALGORITHM", "is a int, not an algorithm"),
        (":x", "an import path is module:attribute"),
        ("nonsense", "unknown algorithm"),
    ):
        with pytest.raises(ValueError, match=message) as caught:
            registry.algorithm(path)
        assert "\n" not in str(caught.value)


def test_plugins_come_from_the_entry_point_group(monkeypatch, user_module):
    entries = [
        importlib.metadata.EntryPoint("their-ga", "usermod:my_ga", registry.ENTRY_POINTS),
        importlib.metadata.EntryPoint("broken", "nomodule:x", registry.ENTRY_POINTS),
        importlib.metadata.EntryPoint("memetic", "usermod:my_ga", registry.ENTRY_POINTS),
    ]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [e for e in entries if e.group == group])
    monkeypatch.syspath_prepend(str(user_module))  # an installed plug-in is on sys.path
    registry.plugins.cache_clear()
    registry._PLUGIN_ERRORS.clear()
    try:
        assert registry.algorithm("their-ga").name == "their-ga" and registry.algorithm("memetic").kind == "ga"
        listing = CliRunner().invoke(main, ["algorithms"])
        assert listing.exit_code == 0 and "their-ga" in listing.stdout
        said = " ".join(listing.stdout.split())  # wrapped to the terminal's width
        assert "budgets: --max-generations, --max-seconds, --max-evaluations" in said
        assert "plug-in broken not loaded: ModuleNotFoundError" in listing.stderr
        assert "plug-in memetic not loaded: its name is a bundled algorithm's" in listing.stderr
    finally:
        registry.plugins.cache_clear()
        registry._PLUGIN_ERRORS.clear()


def test_an_installed_plugin_is_found_through_its_package_metadata(tmp_path):
    """A distribution installed as a wheel installs it (a module and its ``.dist-info`` with
    ``entry_points.txt`` on the import path), found by the real ``importlib.metadata``."""
    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "theirs.py").write_text(textwrap.dedent(MODULE))
    info = site / "theirs_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: theirs-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        f"[{registry.ENTRY_POINTS}]\ntheir-ga = theirs:my_ga\ntheir-broken = theirs:NOT_AN_ALGORITHM\n"
    )
    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    os = __import__("os")  # the package under test (this checkout's, not another installed one) and the plug-in
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(site)])}
    listing = subprocess.run(
        [sys.executable, "-m", "deap_sudoku", "algorithms"],
        cwd=elsewhere,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listing.returncode == 0, listing.stderr
    assert re.search(  # its name and kind start a line; what it is, its source and budgets wrapped after them
        r"^their-ga +ga +.*\(plug-in theirs-plugin[^;]*; "
        r"budgets: --max-generations, --max-seconds, --max-evaluations\)",
        re.sub(r"\n +", " ", listing.stdout),
        re.M,
    ), listing.stdout
    assert "plug-in their-broken not loaded: ValueError: algorithm 'their-broken' is a int" in listing.stderr
    data = str(REPO / "data" / "testdata" / "easy.txt")
    bench = subprocess.run(
        [
            sys.executable,
            "-m",
            "deap_sudoku",
            "bench",
            data,
            "-a",
            "their-ga",
            "--runs",
            "1",
            "--limit",
            "1",
            "--max-evaluations",
            "2000",
            "-q",
        ],
        cwd=elsewhere,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bench.returncode == 0, bench.stderr
    assert re.search(r"^easy\.txt +their-ga ", bench.stdout, re.M)


def test_the_command_line_takes_a_users_algorithm_and_refuses_what_it_cannot_do(user_module):
    data = str(REPO / "data" / "testdata" / "easy.txt")
    bench = CliRunner().invoke(
        main,
        [
            "bench",
            data,
            "-a",
            "usermod:my_ga",
            "-a",
            "block-ga",
            "--runs",
            "2",
            "--limit",
            "2",
            "--max-evaluations",
            "3000",
            "-q",
        ],
    )
    assert bench.exit_code == 0, bench.output
    assert re.search(r"^easy\.txt +usermod:my_ga ", bench.stdout, re.M) and re.search(
        r"^easy\.txt +block-ga ", bench.stdout, re.M
    )
    refused = CliRunner().invoke(main, ["solve", data, "-a", "usermod:given_back", "--max-generations", "3"])
    assert refused.exit_code == 2 and "--max-generations does not apply to usermod:given_back" in refused.output
    missing = CliRunner().invoke(main, ["bench", data, "-a", "usermod:missing"])
    assert missing.exit_code == 2 and "module 'usermod' has no 'missing'" in missing.output


def test_a_run_that_raises_is_a_failed_run_and_the_experiment_goes_on(user_module, tmp_path):
    data = str(REPO / "data" / "testdata" / "easy.txt")
    results = tmp_path / "runs.jsonl"
    bench = CliRunner().invoke(
        main,
        [
            "bench",
            data,
            "-a",
            "usermod:fails_on_odd_seeds",
            "-a",
            "backtracking",
            "--runs",
            "4",
            "--limit",
            "1",
            "-q",
            "--results",
            str(results),
            "--json",
            "-",
        ],
    )
    assert bench.exit_code == 3, bench.output  # runs failed with errors, the rest whole
    runs = __import__("json").loads(bench.stdout)["runs"]
    assert [r["error"] for r in runs if r["algorithm"] == "usermod:fails_on_odd_seeds"] == [
        "",
        "RuntimeError: lost my way",
        "",
        "RuntimeError: lost my way",
    ]
    assert (
        "2 runs failed, counted as unsolved; the first: usermod:fails_on_odd_seeds on easy.txt puzzle 1, "
        "seed 1: RuntimeError: lost my way" in bench.stderr
    )
    assert results.read_text().count("lost my way") == 2  # kept, not retried
    with pytest.raises(ValueError, match="unknown algorithm"):  # a bundled one's error is never hidden
        run_task(Task("nonsense", EASY))


@pytest.mark.slow
def test_scoop_workers_import_the_users_algorithm_by_the_same_path(user_module):
    data = str(REPO / "data" / "testdata" / "easy.txt")
    command = [
        sys.executable,
        "-m",
        "deap_sudoku",
        "bench",
        data,
        "-a",
        "usermod:my_ga",
        "--runs",
        "2",
        "--limit",
        "2",
        "--max-generations",
        "40",
        "-q",
        "--json",
        "-",
    ]
    serial = forked_cli.run(command, capture_output=True, text=True, timeout=120, cwd=user_module)
    spread = forked_cli.run(command + ["--workers", "2"], capture_output=True, text=True, timeout=120, cwd=user_module)
    assert serial.returncode == 0 and spread.returncode == 0, spread.stderr[-2000:]

    def runs(output):
        import json

        return [
            (r["index"], r["seed"], r["generations"], r["evaluations"], r["solved"]) for r in json.loads(output)["runs"]
        ]

    assert runs(spread.stdout) == runs(serial.stdout) and len(runs(serial.stdout)) == 4


def test_every_arm_of_a_bundled_ga_is_watched_like_the_ga(user_module, monkeypatch):
    """with_operators and variant GAs take watch= as a from_toolbox GA does; an arm of an algorithm
    with no generations does not."""
    seen = []
    from deap_sudoku.tools import mut_swap_in_box

    arms = [variant("restart-ga", name="arm", population_size=20), with_operators("restart-ga", mutate=mut_swap_in_box)]
    for arm in arms:
        seen.clear()
        result = run_task(
            Task(arm.name, EASY, options=dict(max_generations=3), record=arm), watch=lambda *a: seen.append(a[0])
        )
        assert arm.watchable and seen == list(range(result.generations + 1)), (arm.name, seen)
    assert not variant("tabu", name="tabu arm", tenure=3).watchable
    data = str(REPO / "data" / "9x9-easy.txt")
    # in this process: solve runs a user's algorithm in a child of its own, whose frames reach the
    # terminal's standard error but not CliRunner's captured one
    monkeypatch.setattr("deap_sudoku.cli.solve.contains", lambda task: False)
    for arm in (["usermod:restart_arm"], ["usermod:block_ga_counted", "--population", "10"]):  # the variant fixes 30
        watched = CliRunner().invoke(main, ["solve", data, "-a", *arm, "--watch", "--max-generations", "2"])
        assert watched.exit_code in (0, 1) and "generation 0:" in watched.stderr, watched.output
