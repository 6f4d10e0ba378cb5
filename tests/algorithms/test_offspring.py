"""The documented population models: one child per mating, survivors kept (C++ block GA), half as many
children and the best of both staying (Python block GA), restarts on a fixed period, the report's
80/20 parents; and the raw roulette."""

import random

import numpy as np
import pytest
from deap import tools

from deap_sudoku.algorithms import Stop, ea_generational, ea_keep_refill, ea_plus_children
from deap_sudoku.tools import sel_elite_biased, sel_roulette, sel_stochastic_universal_sampling
from deap_sudoku.tools.toolbox import make_toolbox

from tests.conftest import unsolvable

PUZZLE = unsolvable()  # no run ends early


def _recorder():
    seen = []

    def callback(generation, population, logbook):
        seen.append([(np.asarray(ind).tobytes(), ind.fitness.values[0]) for ind in population])

    return seen, callback


def _toolbox(**options):
    return make_toolbox(PUZZLE, rng=random.Random(0), **options)


@pytest.mark.parametrize("keep", [0.2, 0.5])
def test_keep_refill_keeps_the_best_share_unchanged_and_refills_with_one_child_per_mating(keep):
    toolbox = _toolbox(mutate="conflict_swap")
    toolbox.register("select", tools.selBest)
    matings = []
    mate = toolbox.mate
    toolbox.register("mate", lambda *parents: matings.append(len(parents)) or mate(*parents))
    seen, callback = _recorder()
    population, logbook = ea_keep_refill(
        toolbox.population(n=20),
        toolbox,
        0.5,
        keep=keep,
        rng=random.Random(1),
        stop=Stop(max_generations=6),
        callback=callback,
    )
    kept = round(keep * 20)
    assert logbook.select("nevals")[1:] == [20 - kept] * 6 and matings == [2] * (6 * (20 - kept))
    for before, after in zip(seen, seen[1:]):
        best = sorted(before, key=lambda item: item[1])[:kept]  # minimised
        assert len(after) == 20 and all(item in after for item in best)  # survivors stay, unchanged
    assert min(f for _, f in seen[-1]) <= min(f for _, f in seen[0])  # the best is never lost


def test_keeping_percentage_sets_how_many_sus_keeps():
    counts = []
    for keep in (0.1, 0.9):
        toolbox = _toolbox()
        draws = []
        toolbox.register(
            "select",
            lambda population, k: (
                draws.append(k) or sel_stochastic_universal_sampling(population, k, rng=random.Random(2))
            ),
        )
        _, logbook = ea_keep_refill(
            toolbox.population(n=20), toolbox, 0.5, keep=keep, rng=random.Random(1), stop=Stop(max_generations=2)
        )
        counts.append((draws[0], logbook.select("nevals")[1]))
    assert counts == [(2, 18), (18, 2)]
    with pytest.raises(ValueError, match="between 0 and 1"):
        ea_keep_refill([], _toolbox(), 0.5, keep=1.0, rng=random.Random(1), stop=Stop(max_generations=1))


def test_plus_children_makes_half_as_many_children_and_keeps_the_best_of_both():
    toolbox = _toolbox(fitness="threats", mate="block_uniform", smart=False)
    toolbox.register("select", sel_roulette, normalise=False, rng=random.Random(3))
    seen, callback = _recorder()
    _, logbook = ea_plus_children(
        toolbox.population(n=20), toolbox, 1.0, rng=random.Random(1), stop=Stop(max_generations=8), callback=callback
    )
    assert logbook.select("nevals")[1:] == [10] * 8
    for before, after in zip(seen, seen[1:]):
        old, new = sorted(f for _, f in before), sorted(f for _, f in after)
        assert all(n >= o for n, o in zip(new, old))  # maximised: each rank is at least as good
        assert sum(item in after for item in before) >= 10  # only 10 children can come in


def test_restart_every_brings_a_fresh_population_on_a_fixed_period():
    toolbox = _toolbox(fitness="threats", mate="block_uniform", smart=False)
    toolbox.register("select", sel_roulette, normalise=False, rng=random.Random(3))
    _, logbook = ea_plus_children(
        toolbox.population(n=10), toolbox, 1.0, restart_every=5, rng=random.Random(1), stop=Stop(max_generations=17)
    )
    restarts = logbook.select("restarts")
    assert [g for g in range(1, 18) if restarts[g] > restarts[g - 1]] == [6, 11, 16]
    assert logbook.select("nevals")[6] == 10  # the fresh population, all evaluated


def test_one_child_per_mating_draws_every_child_its_own_parents_80_percent_from_the_best_20():
    toolbox = _toolbox(representation="cells", fitness="distinct")
    toolbox.register("select", sel_elite_biased, rng=random.Random(4))
    groups = []
    mate = toolbox.mate
    toolbox.register("mate", lambda a, b: groups.append((a.fitness.values[0], b.fitness.values[0])) or mate(a, b))
    population = toolbox.population(n=50)
    seen, callback = _recorder()
    _, logbook = ea_generational(
        population,
        toolbox,
        1.0,
        1.0,
        one_child_per_mating=True,
        rng=random.Random(1),
        stop=Stop(max_generations=1),
        callback=callback,
    )
    assert len(groups) == 50 and logbook.select("nevals")[1] == 50
    assert [len(p) for p in seen] == [50, 50]  # the children replace the parents, none of whom stays
    _, logbook = ea_generational(
        toolbox.population(n=50),
        toolbox,
        1.0,
        1.0,
        one_child_per_mating=True,
        elites=5,
        rng=random.Random(1),
        stop=Stop(max_generations=3),
        callback=callback,
    )
    assert [len(p) for p in seen[2:]] == [50] * 4 and logbook.select("nevals")[1:] == [45] * 3
    cut = sorted((f for _, f in seen[0]), reverse=True)[9]  # the 10th best of the parents (maximised)
    assert all(a >= cut and b >= cut for a, b in groups[:40])
    assert any(min(a, b) < cut for a, b in groups[40:])  # the last 20 %: parents from everyone


def test_raw_roulette_sizes_the_wheel_by_the_fitness_itself():
    class Wheel(random.Random):
        def choices(self, population, weights=None, k=1, **_):
            self.weights = list(weights)
            return super().choices(population, weights=weights, k=k)

    toolbox = _toolbox(fitness="threats", smart=False)
    population = toolbox.population(n=30)
    for ind, fit in zip(population, toolbox.map(toolbox.evaluate, population)):
        ind.fitness.values = fit
    wheel = Wheel(0)
    sel_roulette(population, 10, normalise=False, rng=wheel)
    assert wheel.weights == [ind.fitness.values[0] for ind in population]  # shares = raw fitness shares
    sel_roulette(population, 10, rng=wheel)
    assert min(wheel.weights) == 0 and max(wheel.weights) == 1  # ours: min-max normalised
    minimised = _toolbox().population(n=3)
    for ind in minimised:
        ind.fitness.values = (5,)
    with pytest.raises(ValueError, match="maximised fitness"):
        sel_roulette(minimised, 2, normalise=False, rng=wheel)
