"""The algorithm registry: one record per algorithm, and running a task through it."""

import ast
import math
import re
import time

import numpy as np
import pytest

from deap_sudoku import load_sample
from deap_sudoku.exact import verify
from deap_sudoku.runs import ALGORITHMS, Task, algorithm, names, registry, run_task
from deap_sudoku.runs.registry import OPTIONS, takes

from tests.timing import kept, timed
from tests.conftest import REPO, recipe_options, unsolvable

EASY = load_sample()


def _declared() -> set[str]:
    """Every name the package's source gives to ``@bundled`` (or ``@bundled_ga``): read from the
    code, not listed by hand, so an algorithm whose module the registry no longer imports is missed
    here."""
    found = set()
    for path in (REPO / "deap_sudoku").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            declares = isinstance(node, ast.Call) and getattr(node.func, "id", "").lstrip("_").startswith("bundled")
            if declares and node.args and isinstance(node.args[0], ast.Constant):  # not bundled(name, ...) in a helper
                found.add(node.args[0].value)
    return found


def test_records_say_what_each_algorithm_honours():
    declared = _declared()
    assert set(names()) == declared and {"cdcl", "memetic", "tabu-swap"} <= declared and names()[0] == "memetic"
    assert set(names(checkpointable=True)) >= {"memetic", "block-ga", "restart-ga", "cell-ga", "row-ga"}
    assert all(set(a.options) <= set(OPTIONS) for a in ALGORITHMS.values())
    assert set(takes("max_seconds")) == set(names()) - {"analyzer", "propagation"}  # every budgeted one
    assert algorithm("tabu").options == ("max_steps", "max_seconds") and takes("tournsize") == ("row-ga", "lsga")
    assert names(traced=True) == names(stoppable=True)
    assert algorithm("tabu").stoppable and not algorithm("backtracking").stoppable
    with pytest.raises(ValueError, match="choose from memetic"):
        algorithm("nope")


@pytest.mark.parametrize(
    "name, options",
    [
        ("memetic", {}),
        ("row-ga", dict(population_size=60)),
        ("tabu", dict(max_steps=20_000)),
        ("backtracking", {}),
        ("analyzer", {}),
        ("propagation", {}),
    ],
)
def test_a_task_runs_through_the_registry_and_is_verified(name, options):
    result = run_task(Task(name, EASY, seed=1, options=options))
    assert result.solved and verify(np.array(result.grid), EASY) and result.fitness == 0


def test_progress_requests_and_checkpoints_reach_only_algorithms_that_take_them():
    lines = []
    result = run_task(
        Task("row-ga", unsolvable(), options=dict(population_size=10, max_generations=3)),
        progress=lines.append,
        requested=lambda: False,
    )
    assert lines == [f"generation {g}: best fitness {m:g}" for g, m in enumerate(result.trace.series["best"])]
    assert result.trace.x == (0, 1, 2, 3) and result.objective.target == 0 and result.objective.lower_is_better
    stopped = run_task(Task("memetic", unsolvable(), options=dict(max_generations=50)), requested=lambda: True)
    assert stopped.note == "interrupted" and stopped.generations == 0
    with pytest.raises(ValueError, match="cannot be checkpointed"):
        run_task(Task("tabu", EASY), checkpoint=object())
    exhausted = run_task(Task("backtracking", unsolvable()))
    assert not exhausted.solved and exhausted.note == "exhausted" and math.isnan(exhausted.fitness)


@pytest.mark.parametrize("recipe", [record.function.__name__ for record in ALGORITHMS.values() if record.kind == "ga"])
def test_a_recipes_time_budget_counts_building_its_first_population(recipe, monkeypatch):
    """The reported seconds run from the recipe's call, so the budget must too: a slow set-up
    (here, a population that takes 0.3 s to make) leaves a 0.2 s budget spent at generation 0."""
    import sys

    made = []
    function = next(r.function for r in ALGORITHMS.values() if r.kind == "ga" and r.function.__name__ == recipe)
    recipes = sys.modules[function.__module__]  # the module whose evolve the recipe calls

    def slow_population(population):
        def make(n):
            made.append(n)
            time.sleep(0.3)
            return population(n)

        return make

    evolve = recipes.evolve

    def patched(puzzle, operators, loop, toolbox, *args, **kwargs):
        toolbox.register("population", slow_population(toolbox.population))
        return evolve(puzzle, operators, loop, toolbox, *args, **kwargs)

    monkeypatch.setattr(recipes, "evolve", patched)
    _, logbook, _ = function(unsolvable(), seed=1, **recipe_options(function, max_seconds=0.2, max_generations=1000))
    assert made and logbook.stop_reason == "time" and len(logbook) == 1


@pytest.mark.parametrize("name", ["memetic", "tabu", "backtracking", "cdcl"])
def test_a_time_budget_counts_from_the_start_its_caller_gives(name):
    """``deap-sudoku solve`` counts the kernels' loading in the first puzzle's budget: the start
    travels down to the algorithm (no budget shortened on the way down), and what the run says
    names the budget as given (no note rewritten on the way up)."""
    from deap_sudoku import Puzzle
    from tests.conftest import FORUM_HARDEST

    puzzle = unsolvable() if ALGORITHMS[name].kind != "exact" else Puzzle.parse(FORUM_HARDEST)
    calibrate = Task(name, puzzle, options=dict(max_seconds=0.01))
    run_task(calibrate)  # the kernels loaded first: the runs timed pay none of it
    _, calibration = timed(lambda: run_task(calibrate))
    result, took = timed(
        lambda: run_task(Task(name, puzzle, options=dict(max_seconds=1.0)), started=time.perf_counter() - 10)
    )
    assert not result.solved and result.seconds <= took.wall, result
    assert kept(took, 0.0, calibration), (took, calibration)  # the budget was spent before the run: none left
    assert result.note == "time" if ALGORITHMS[name].kind != "exact" else result.note.startswith("no answer within 1 s")


def test_a_function_of_yours_gets_what_is_left_of_a_budget_that_began_before_its_run():
    """A function knows no clock but its own: it is given the seconds left."""
    from deap_sudoku.runs.registry import from_function

    given = []

    def mine(puzzle, *, rng, max_seconds=None):
        given.append(max_seconds)
        return puzzle.cells

    record = from_function(mine, name="mine")
    started = time.perf_counter()
    run_task(Task("mine", EASY, options=dict(max_seconds=5.0), record=record), started=started - 2)
    took = time.perf_counter() - started  # what a loaded machine may take of the 3 s left, no more
    run_task(Task("mine", EASY, options=dict(max_seconds=5.0), record=record))
    assert 3.0 - took <= given[0] < 3.0 and given[1] == 5.0, (given, took)


def test_an_algorithm_declared_where_it_is_defined_is_found_everywhere(monkeypatch):
    """One decorator on the function, and the registry, its queries, a run and the command line's
    listing have it: nothing else lists algorithms."""
    from click.testing import CliRunner

    from deap_sudoku.cli import main
    from deap_sudoku.runs import record

    assert registry.ALGORITHMS is record.BUNDLED  # the registry is the declarations, not a copy of them
    monkeypatch.setattr(record, "BUNDLED", dict(record.BUNDLED))  # the declaration is undone afterwards
    monkeypatch.setattr(registry, "ALGORITHMS", record.BUNDLED)

    @record.bundled("first-fit", "exact", "fill each empty cell with a value no peer holds, once", ("max_seconds",))
    def first_fit(puzzle, *, seed, max_seconds=None, **_):
        return record.Outcome(solve_grid(puzzle), 0.0, 0, 0, 0, "")

    assert names()[-1] == "first-fit" and "first-fit" in takes("max_seconds")
    assert algorithm("first-fit").function is first_fit
    assert run_task(Task("first-fit", EASY, seed=1)).solved
    listed = CliRunner().invoke(main, ["algorithms"])
    assert listed.exit_code == 0 and "first-fit" in listed.output
    with pytest.raises(ValueError, match="two bundled algorithms are called 'first-fit'"):
        record.bundled("first-fit", "exact", "again")(first_fit)


def solve_grid(puzzle):
    from deap_sudoku.exact import solve

    return solve(puzzle).cells


def test_the_command_line_page_names_every_bundled_algorithm():
    from tests.conftest import REPO

    page = (REPO / "docs" / "command_line.md").read_text()
    assert [name for name in names() if f"`{name}`" not in page] == []


def test_the_clause_learning_warm_up_also_readies_the_exact_search():
    """``solve --unique`` asks the exact search whether a puzzle ``cdcl`` solved has another
    solution; on a machine that had compiled only the clause-learning kernel, that search compiled
    its own inside the budget (a 60 s run took 67 s, when ``solve`` still asked it after an
    unsolved ``cdcl`` run)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from deap_sudoku import Puzzle\n"
        "from deap_sudoku.runs import ALGORITHMS\n"
        "ALGORITHMS['cdcl'].warm_up(Puzzle([0] * 256), True)\n"
        "print('deap_sudoku.exact.backtracking_compiled' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "True", done.stderr


SOURCE = re.compile(
    r"\b(ours?|documented|documents)\b"  # ours, or one of the five documented systems
    r"|\b[A-Z][a-z]+(?: & [A-Z][a-z]+| et al\.)?(?:'s)? (?:HM )?(?:19|20)\d\d\b"  # a publication: Lewis 2007
)


def test_every_listed_algorithm_names_its_source():
    from click.testing import CliRunner

    from deap_sudoku.cli import main

    entries: list[str] = []  # an entry starts at its name; its description wraps onto indented lines
    for line in CliRunner().invoke(main, ["algorithms"]).stdout.splitlines():
        if line.startswith(" ") and entries:
            entries[-1] += " " + line.strip()
        elif line.strip():
            entries.append(line)
    listed = [" ".join(entry.split()) for entry in entries if "(bundled; budgets:" in entry]
    assert len(listed) == len(registry.ALGORITHMS)
    for entry in listed:
        description = entry.partition(" (bundled; budgets:")[0].split(maxsplit=2)[-1]
        assert SOURCE.search(description), entry  # acs-paper named no paper


def test_a_kind_outside_the_closed_set_is_refused_when_declared_and_each_kind_says_what_found_it():
    from deap_sudoku.runs.record import KINDS, Outcome, found_by_run

    def swarm(puzzle, *, rng):
        return puzzle.cells

    with pytest.raises(ValueError, match=r"'swarms' is of kind 'swarm', not one of 'ga'.*\"user\""):
        registry.from_function(swarm, name="swarms", kind="swarm")
    assert {record.kind for record in ALGORITHMS.values()} | {"auto", "user"} == set(KINDS)
    solved = Outcome(grid=np.asarray(EASY.cells), fitness=0.0, generations=0, steps=0, evaluations=1, note="")
    assert all(found_by_run(kind, solved) for kind in KINDS)
    user = registry.from_function(swarm, name="swarms")
    assert user.kind == "user" and found_by_run(user.kind, solved) == "algorithm"


def test_a_record_names_its_memory_family_and_the_population_guard_charges_that_family():
    """The command line knows no algorithm by name (issue 61): the ant colonies' and the local-search
    GA's individuals cost more than a GA's, and their records say so."""
    import dataclasses

    from deap_sudoku.cli.options import population_bytes
    from deap_sudoku.runs.memory import POPULATION_BYTES

    assert {name: ALGORITHMS[name].memory for name in ("acs", "acs-paper", "lsga", "memetic")} == {
        "acs": "colony",
        "acs-paper": "colony",
        "lsga": "lsga",
        "memetic": "ga",
    }
    assert set(POPULATION_BYTES) == {record.memory for record in ALGORITHMS.values()}
    assert population_bytes(625, "acs") > 4 * population_bytes(625, "memetic")
    with pytest.raises(ValueError, match=r"'mine' names the memory family 'swarm', not one of 'ga'"):
        dataclasses.replace(ALGORITHMS["memetic"], name="mine", memory="swarm")
