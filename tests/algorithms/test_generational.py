import random
import time

import numpy as np
import pytest
from deap import tools

from deap_sudoku import read
from deap_sudoku.algorithms import Stop, ea_generational
from deap_sudoku.tools.crossover import cx_diagonal
from deap_sudoku.tools.toolbox import make_toolbox

from tests.conftest import REPO

PUZZLE = read(REPO / "data" / "9x9.txt")[0]


def _toolbox(**options):
    return make_toolbox(PUZZLE, rng=random.Random(0), **options)


def _run(toolbox, stop, n=40, **options):
    return ea_generational(toolbox.population(n=n), toolbox, 0.5, 0.5, stop=stop, rng=random.Random(1), **options)


def test_max_generations_and_logbook_columns():
    population, logbook = _run(_toolbox(), Stop(max_generations=4))
    assert logbook.stop_reason == "generations"
    assert logbook.select("gen") == [0, 1, 2, 3, 4]
    assert logbook.select("restarts") == [0] * 5 and len(population) == 40


def test_max_evaluations_counts_evaluations():
    population, logbook = _run(_toolbox(), Stop(max_evaluations=100))
    assert logbook.stop_reason == "evaluations"
    assert sum(logbook.select("nevals")) >= 100 > sum(logbook.select("nevals")[:-1])


def test_max_seconds():
    population, logbook = _run(_toolbox(), Stop(max_seconds=0.0))
    assert logbook.stop_reason == "time" and len(logbook) == 1


def test_max_seconds_counts_from_stop_started():
    """A recipe starts the clock before it builds the population: time spent before the loop counts."""
    earlier = time.perf_counter() - 5.0
    population, logbook = _run(_toolbox(), Stop(max_seconds=4.0, started=earlier))
    assert logbook.stop_reason == "time" and len(logbook) == 1
    population, logbook = _run(_toolbox(), Stop(max_seconds=4.0, max_generations=2))
    assert logbook.stop_reason == "generations"


def test_solved_stops_at_once():
    easy = read(REPO / "data" / "9x9-easy.txt")[0]
    toolbox = make_toolbox(easy, restrict=True, rng=random.Random(0))  # propagation solves it: generation 0 is solved
    population, logbook = ea_generational(
        toolbox.population(n=10), toolbox, 0.5, 0.5, stop=Stop(solved=0, max_generations=50), rng=random.Random(1)
    )
    assert logbook.stop_reason == "solved" and len(logbook) == 1


def test_stagnation_when_best_equals_mean():
    toolbox = _toolbox()
    population = toolbox.population(n=10)
    twins = [toolbox.clone(population[0]) for _ in range(10)]
    toolbox.register("mutate", lambda ind: (ind,))  # nothing changes: the population stays identical
    population, logbook = ea_generational(
        twins, toolbox, 0.0, 0.0, stop=Stop(stagnation=True, max_generations=9), rng=random.Random(1)
    )
    assert logbook.stop_reason == "stagnation" and len(logbook) == 2


def test_patience_stops_without_improvement():
    toolbox = _toolbox()
    toolbox.register("mutate", lambda ind: (ind,))
    twins = [toolbox.clone(toolbox.individual()) for _ in range(5)]
    population, logbook = ea_generational(
        twins, toolbox, 0.0, 0.0, stop=Stop(patience=3, max_generations=50), rng=random.Random(1)
    )
    assert logbook.stop_reason == "no improvement" and logbook[-1]["gen"] == 3


def test_elitism_never_loses_the_best():
    toolbox = _toolbox(select="roulette")
    stats = tools.Statistics(lambda ind: ind.fitness.values[0])
    stats.register("min", min)
    population, logbook = _run(toolbox, Stop(max_generations=15), elites=2, stats=stats)
    minima = logbook.select("min")
    assert all(later <= earlier for earlier, later in zip(minima, minima[1:]))


def test_restart_replaces_the_population_and_hall_of_fame_keeps_the_best():
    toolbox = _toolbox()
    toolbox.register("mutate", lambda ind: (ind,))
    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_generational(
        toolbox.population(n=20),
        toolbox,
        0.0,
        0.0,
        restart_after=2,
        stop=Stop(max_generations=12),
        halloffame=hof,
        rng=random.Random(1),
    )
    restarts = logbook.select("restarts")
    assert restarts[-1] >= 2 and restarts == sorted(restarts)
    best_logged = min(min(ind.fitness.values[0] for ind in population), hof[0].fitness.values[0])
    assert hof[0].fitness.values[0] == best_logged


def test_three_parent_crossover_and_callback():
    toolbox = _toolbox()
    toolbox.register("mate", cx_diagonal, puzzle=PUZZLE)
    seen = []
    population, logbook = _run(
        toolbox,
        Stop(max_generations=3),
        n=30,
        parents=3,
        callback=lambda gen, pop, log: seen.append((gen, len(pop), len(log))),
    )
    assert seen == [(0, 30, 1), (1, 30, 2), (2, 30, 3), (3, 30, 4)]
    assert all((np.sort(np.asarray(i)[PUZZLE.shape.boxes], axis=1) == np.arange(1, 10)).all() for i in population)


def test_a_stop_criterion_is_required():
    with pytest.raises(ValueError, match="stop criterion"):
        _run(_toolbox(), Stop())
