"""Every evaluation counted: what a run reports is what a counting decorator on ``evaluate`` sees,
for every bundled GA and every kind of user arm, whatever the loop does besides (seeds, restarts)."""

from __future__ import annotations

import functools
import sys

import pytest
from deap import tools

from deap_sudoku import load_sample, make_toolbox
from deap_sudoku.algorithms import ea_simple
from deap_sudoku.experiments import run_experiment
from deap_sudoku.io.samples import load_samples
from deap_sudoku.runs.registry import algorithm, names
from deap_sudoku.runs.user import from_toolbox, variant, with_operators
from deap_sudoku.tools import (
    eval_closeness_mk,
    eval_collisions,
    eval_column_box_collisions,
    eval_threats,
)


class _Caught(Exception):
    """Raised by the stand-in for a recipe's ``evolve``, carrying the fitness its toolbox registered."""


def own_fitness(name: str):
    """The fitness the bundled GA ``name`` evaluates: the ``eval_*`` function its recipe registers as
    ``evaluate``, caught as the recipe hands its toolbox to ``evolve`` (no list of GAs to keep up
    to date: a new GA of the catalogue is counted without being named here)."""
    record = algorithm(name)
    module = sys.modules[record.function.__module__]

    def caught(puzzle, operators, loop, toolbox, *args, **kwargs):
        raise _Caught(toolbox.evaluate.func)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "evolve", caught)
        try:
            record.function(load_sample("9x9-easy.txt"), seed=0)
        except _Caught as found:
            return found.args[0]
    raise AssertionError(f"{name}'s recipe never handed a toolbox to evolve")


def counted(function, calls: list):
    """``function`` with every call's result appended to ``calls``, as a user would decorate it."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        values = function(*args, **kwargs)
        calls.append(values)
        return values

    return wrapper


def _no_change(individual):
    return (individual,)


def test_each_ga_s_own_fitness_is_found_from_its_recipe():
    assert own_fitness("restart-ga") is eval_threats and own_fitness("mk-ga") is eval_closeness_mk


@pytest.mark.parametrize("name", names(kind="ga"))
def test_every_bundled_ga_reports_the_evaluations_a_counter_sees(name):
    calls: list = []
    arm = with_operators(name, evaluate=counted(own_fitness(name), calls), name=f"{name} counted")
    puzzles = load_samples("testdata/hard.txt")[:2]
    results = run_experiment([arm], {"hard": puzzles}, runs=2, options={arm.name: {"max_generations": 4}})
    assert sum(r.evaluations for r in results) == len(calls) > 0
    for result in results:
        assert result.trace.evaluations[-1] == result.evaluations
        if result.solved:
            assert 1 <= result.first_hit <= result.evaluations


def test_a_variant_reports_the_evaluations_a_counter_sees():
    calls: list = []
    arm = variant(
        "row-ga", name="row-ga elites 2", elites=2, operators={"evaluate": counted(eval_column_box_collisions, calls)}
    )
    results = run_experiment(
        [arm], {"hard": load_samples("testdata/hard.txt")[:1]}, runs=2, options={arm.name: {"max_evaluations": 700}}
    )
    assert sum(r.evaluations for r in results) == len(calls) and all(r.evaluations >= 700 for r in results)


def _memetic_that_restarts(calls: list, **options):
    """The memetic GA with repair and improvement that change nothing and a seed of one node that
    leaves the puzzle unsolved: it stalls, restarts slots and never solves, so every kind of
    evaluation it makes (the seed, the first population, children, restarts) is spent."""
    return algorithm("memetic").run(
        load_sample("testdata/expert.txt"),
        seed=0,
        seed_nodes=1,
        restart_after=3,
        operators={"evaluate": counted(eval_collisions, calls), "repair": _no_change, "improve": _no_change},
        **options,
    )


def test_the_memetic_ga_counts_its_seed_and_its_restarts():
    calls: list = []
    outcome = _memetic_that_restarts(calls, max_generations=30)
    population = 4
    assert outcome.generations == 30 and outcome.note == "generations"
    # the seed, the first population and a child per slot a generation, and the restarts on top
    assert outcome.evaluations == len(calls) > 1 + population + 30 * population
    assert outcome.trace.evaluations[0] == 1 + population  # the seed's evaluation is generation 0's


def test_the_memetic_ga_stops_at_its_evaluation_budget_and_reports_what_it_spent():
    calls: list = []
    outcome = _memetic_that_restarts(calls, max_evaluations=1001)
    assert outcome.note == "evaluations"
    assert outcome.evaluations == len(calls)
    last_generation = outcome.trace.evaluations[-1] - outcome.trace.evaluations[-2]
    assert 1001 <= outcome.evaluations < 1001 + last_generation


def test_first_hit_is_the_evaluation_that_first_scored_the_target():
    calls: list = []
    outcome = algorithm("memetic").run(
        load_sample("testdata/expert.txt"),
        seed=0,
        seed_nodes=1,
        operators={"evaluate": counted(eval_collisions, calls)},
        max_generations=50,
    )
    assert outcome.note == "solved"
    assert outcome.first_hit == calls.index((0,)) + 1 and outcome.first_hit > 1  # the seed did not solve it


def _toolbox(puzzle, rng):
    return make_toolbox(puzzle, fitness="collisions", mutate="conflict_swap_in_box", rng=rng)


def test_a_decorated_evaluate_in_a_from_toolbox_arm_is_applied_and_counted():
    calls: list = []

    def penalised(puzzle, rng):
        toolbox = _toolbox(puzzle, rng)
        toolbox.decorate("evaluate", tools.DeltaPenalty(lambda ind: True, 1000.0), lambda f: counted(f, calls))
        return toolbox

    arm = from_toolbox(penalised, name="counted", population_size=30, cxpb=0.3, mutpb=0.8)
    [result] = run_experiment(
        [arm], {"easy": load_samples("testdata/easy.txt")[:1]}, runs=1, options={"counted": {"max_generations": 3}}
    )
    assert result.evaluations == len(calls) and result.trace.evaluations[-1] == len(calls)


def test_delta_penalty_reaches_the_fitness_in_run_experiment():
    def penalised(puzzle, rng):
        toolbox = _toolbox(puzzle, rng)
        toolbox.decorate("evaluate", tools.DeltaPenalty(lambda ind: False, 1000.0))
        return toolbox

    arm = from_toolbox(penalised, name="penalised", population_size=20)
    [result] = run_experiment(
        [arm], {"easy": load_samples("testdata/easy.txt")[:1]}, runs=1, options={"penalised": {"max_generations": 2}}
    )
    assert result.fitness == 1000.0 and set(result.trace.series["best"]) == {1000.0} and not result.solved


def test_a_from_toolbox_arm_with_ea_simple_counts_every_evaluation_batched_or_not():
    calls: list = []

    def decorated(puzzle, rng):
        toolbox = _toolbox(puzzle, rng)
        toolbox.decorate("evaluate", lambda f: counted(f, calls))
        return toolbox

    plain = from_toolbox(_toolbox, name="plain", loop=ea_simple, population_size=40, cxpb=0.3, mutpb=0.8)
    watched = from_toolbox(decorated, name="watched", loop=ea_simple, population_size=40, cxpb=0.3, mutpb=0.8)
    budget = {"max_evaluations": 500}
    results = run_experiment(
        [plain, watched],
        {"easy": load_samples("testdata/easy.txt")[1:2]},
        runs=1,
        options={"plain": budget, "watched": budget},
    )
    by_name = {r.algorithm: r for r in results}
    assert by_name["watched"].evaluations == len(calls)
    assert by_name["plain"].evaluations == by_name["watched"].evaluations  # the same run, batched or not
    if by_name["watched"].solved:
        assert by_name["watched"].first_hit == calls.index((0,)) + 1
