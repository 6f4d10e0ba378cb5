"""DEAP's loops with a stop: the same runs as DEAP's own without one, and an end at the solving
generation with one; callbacks of the package's loops can end a run too."""

import random
import time

import numpy as np
import pytest
from deap import algorithms, tools

from deap_sudoku import load_sample, make_toolbox
from deap_sudoku.algorithms import (
    HALTED,
    Stop,
    ea_generational,
    ea_mu_comma_lambda,
    ea_mu_plus_lambda,
    ea_simple,
    tabu_search,
)
from deap_sudoku.exact import verify
from deap_sudoku.tools import optimum

PUZZLE = load_sample()


def _toolbox():
    return make_toolbox(PUZZLE, mutate="conflict_swap_in_box")


def _stats():
    stats = tools.Statistics(lambda ind: ind.fitness.values[0])
    stats.register("min", np.min)
    return stats


LOOPS = {
    "simple": (algorithms.eaSimple, ea_simple, dict(cxpb=0.3, mutpb=0.8)),
    "mu+lambda": (algorithms.eaMuPlusLambda, ea_mu_plus_lambda, dict(mu=60, lambda_=90, cxpb=0.3, mutpb=0.6)),
    "mu,lambda": (algorithms.eaMuCommaLambda, ea_mu_comma_lambda, dict(mu=60, lambda_=90, cxpb=0.3, mutpb=0.6)),
}


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_without_a_stop_each_loop_is_deaps_own_run(name):
    theirs, ours, options = LOOPS[name]
    runs = []
    for loop, extra in ((theirs, {"verbose": False}), (ours, {})):
        toolbox = _toolbox()
        random.seed(5)
        hof = tools.HallOfFame(3, similar=np.array_equal)
        population, logbook = loop(
            toolbox.population(n=60), toolbox, ngen=6, stats=_stats(), halloffame=hof, **options, **extra
        )
        runs.append((population, logbook, hof))
    (their_pop, their_log, their_hof), (our_pop, our_log, our_hof) = runs
    assert [ind.tolist() for ind in our_pop] == [ind.tolist() for ind in their_pop]
    assert list(our_log) == list(their_log) and our_log.header == their_log.header
    assert [ind.tolist() for ind in our_hof] == [ind.tolist() for ind in their_hof]
    assert our_log.stop_reason == "generations"


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_stop_when_solved_ends_at_the_solving_generation(name):
    _, loop, options = LOOPS[name]
    toolbox = _toolbox()
    random.seed(1)
    population, logbook = loop(
        toolbox.population(n=200 if name == "simple" else 60),
        toolbox,
        ngen=300,
        stats=_stats(),
        stop=Stop(solved=optimum(toolbox.evaluate)),
        **options,
    )
    minima = logbook.select("min")
    assert logbook.stop_reason == "solved" and minima[-1] == 0 and 0 not in minima[:-1]  # not a generation more
    assert len(logbook) < 301
    assert verify(tools.selBest(population, 1)[0], PUZZLE)


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_max_seconds_counts_from_stop_started(name):
    _, ours, options = LOOPS[name]
    toolbox = _toolbox()
    stop = Stop(max_seconds=4.0, started=time.perf_counter() - 5.0)
    _, logbook = ours(toolbox.population(n=60), toolbox, ngen=50, stop=stop, **options)
    assert logbook.stop_reason == "time" and len(logbook) == 1


def test_a_stop_function_or_a_callback_ends_the_run_with_its_reason():
    toolbox = _toolbox()
    _, logbook = ea_simple(
        toolbox.population(n=20), toolbox, 0.3, 0.5, 50, stop=lambda gen, population, logbook: gen == 3 and "enough"
    )
    assert logbook.stop_reason == "enough" and logbook.select("gen")[-1] == 3
    _, logbook = ea_simple(
        toolbox.population(n=20), toolbox, 0.3, 0.5, 50, callback=lambda gen, population, logbook: gen >= 2
    )
    assert logbook.stop_reason == HALTED and logbook.select("gen")[-1] == 2
    with pytest.raises(ValueError, match=r"prints nothing: .*print\(logbook.stream\)"):
        ea_simple(toolbox.population(n=4), toolbox, 0.3, 0.5, 5, verbose=True)


def test_a_callback_that_answers_true_ends_the_package_loops():
    toolbox = _toolbox()
    seen = []

    def enough(generation, population, logbook):
        seen.append(generation)
        return generation == 4

    _, logbook = ea_generational(
        toolbox.population(n=20),
        toolbox,
        0.3,
        0.5,
        stop=Stop(max_generations=100),
        rng=random.Random(0),
        callback=enough,
    )
    assert logbook.stop_reason == HALTED and seen == [0, 1, 2, 3, 4]
    result = tabu_search(
        PUZZLE, rng=random.Random(0), report_every=10, max_steps=10_000, callback=lambda step, score, best: step >= 30
    )
    assert result.stop_reason == "callback" and result.steps == 30
