"""A decorated ``evaluate`` is what every individual gets, batched map or not.

DEAP's penalty decorators and any decorator built with ``functools.wraps`` copy the wrapped
function's ``__dict__`` onto the wrapper, the fitness's ``.batch`` kernel included; ``batch_map``
must not take that copy for the wrapper's own kernel.
"""

from __future__ import annotations

import functools
import random

from deap import algorithms, tools

from deap_sudoku import load_sample, make_toolbox
from deap_sudoku.tools import batch_map, eval_collisions
from deap_sudoku.tools.fitness import batch_kernel


def counting(calls: list):
    """A decorator that counts the calls of what it wraps, as a user would write it."""

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            calls.append(1)
            return function(*args, **kwargs)

        return wrapper

    return decorate


def test_delta_penalty_reaches_every_fitness_through_the_toolbox_map():
    toolbox = make_toolbox(load_sample("testdata/easy.txt"), rng=random.Random(0))
    toolbox.decorate("evaluate", tools.DeltaPenalty(lambda ind: False, 1000.0))
    population = toolbox.population(n=5)
    assert list(toolbox.map(toolbox.evaluate, population)) == [(1000.0,)] * 5
    assert [toolbox.evaluate(ind) for ind in population] == [(1000.0,)] * 5


def test_delta_penalty_is_applied_in_ea_simple():
    random.seed(3)
    toolbox = make_toolbox(load_sample("testdata/easy.txt"))
    toolbox.decorate("evaluate", tools.DeltaPenalty(lambda ind: False, 1000.0))
    population, _ = algorithms.eaSimple(toolbox.population(n=20), toolbox, cxpb=0.5, mutpb=0.5, ngen=3, verbose=False)
    assert {ind.fitness.values for ind in population} == {(1000.0,)}


def test_a_counting_decorator_sees_every_evaluation_of_ea_simple():
    random.seed(1)
    calls: list = []
    toolbox = make_toolbox(load_sample("testdata/easy.txt"))
    toolbox.decorate("evaluate", counting(calls))
    _, logbook = algorithms.eaSimple(toolbox.population(n=30), toolbox, cxpb=0.5, mutpb=0.5, ngen=5, verbose=False)
    assert len(calls) == sum(logbook.select("nevals")) > 30


def test_the_kernel_is_used_for_the_function_and_its_partials_only():
    puzzle = load_sample("testdata/easy.txt")
    registered = functools.partial(eval_collisions, puzzle=puzzle)
    assert batch_kernel(eval_collisions) is eval_collisions.batch
    assert batch_kernel(registered) is eval_collisions.batch
    decorated = counting([])(eval_collisions)
    assert decorated.batch is eval_collisions.batch  # what functools.wraps copies
    assert batch_kernel(decorated) is None and batch_kernel(functools.partial(decorated, puzzle=puzzle)) is None


def test_a_users_own_kernel_is_used_and_a_wrapper_of_it_is_not():
    def eval_empty(individual, *, puzzle):
        return (sum(1 for v in individual if v == 0),)

    eval_empty.batch = lambda grids, puzzle: (grids == 0).sum(axis=1)
    assert batch_kernel(eval_empty) is eval_empty.batch
    assert batch_kernel(counting([])(eval_empty)) is None
    wrapped = counting([])(eval_empty)
    wrapped.batch = lambda grids, puzzle: (grids == 0).sum(axis=1) + 1  # a kernel of the wrapper's own
    assert batch_kernel(wrapped) is wrapped.batch


def test_batch_map_gives_the_decorated_values_in_order():
    puzzle = load_sample("testdata/easy.txt")
    toolbox = make_toolbox(puzzle, rng=random.Random(2))
    population = toolbox.population(n=7)
    plain = batch_map(toolbox.evaluate, population)
    shifted = functools.partial(_plus_one(eval_collisions), puzzle=puzzle)
    assert batch_map(shifted, population) == [(value + 1,) for (value,) in plain]


def _plus_one(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        (value,) = function(*args, **kwargs)
        return (value + 1,)

    return wrapper
