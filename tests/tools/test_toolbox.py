import random

import numpy as np
import pytest
from deap import algorithms, tools

from deap_sudoku import read
from deap_sudoku.tools.selection import (
    punish_same,
    sel_elite_biased,
    sel_roulette,
    sel_stochastic_universal_sampling,
    sel_truncation,
    selection_weights,
)
from deap_sudoku.tools.individual import Individual, MaxIndividual
from deap_sudoku.exact import verify
from deap_sudoku.tools.toolbox import FITNESSES, REPRESENTATIONS, make_toolbox

from tests.conftest import REPO


def _population(values, cls=Individual):
    population = []
    for i, value in enumerate(values):
        ind = cls([i + 1])
        ind.fitness.values = (value,)
        population.append(ind)
    return population


@pytest.mark.parametrize("select", [sel_roulette, sel_stochastic_universal_sampling])
def test_proportional_selections_favour_the_best_when_minimising(select):
    population = _population([0, 5, 10, 10, 10])
    picks = select(population, 1000, rng=random.Random(0))
    assert len(picks) == 1000
    counts = {ind[0]: sum(p is ind for p in picks) for ind in population}
    assert counts[1] > counts[2] > 0 and counts[3] == 0  # solved grid most, worst never
    assert len(select(_population([0, 0, 0]), 7, rng=random.Random(0))) == 7  # all zero: uniform, not []
    maximised = _population([-3, 4, 1], cls=MaxIndividual)
    picks = select(maximised, 600, rng=random.Random(1))
    assert sum(p is maximised[1] for p in picks) > sum(p is maximised[2] for p in picks)


def test_selection_weights_are_min_max_normalised():
    assert selection_weights(_population([0, 5, 10])).tolist() == [1.0, 0.5, 0.0]
    assert selection_weights(_population([-2, -1], cls=MaxIndividual)).tolist() == [0.0, 1.0]


def test_truncation_and_elite_biased():
    population = _population([5, 1, 3, 2, 4])
    assert [ind.fitness.values[0] for ind in sel_truncation(population, 5, keep=0.4)] == [1, 2, 1, 2, 1]
    picks = sel_elite_biased(population * 2, 100, rng=random.Random(0))
    from_top = sum(p.fitness.values[0] <= 2 for p in picks)
    assert len(picks) == 100 and from_top >= 80


def test_punish_same_worsens_crowded_individuals():
    population = [Individual([1, 2, 3, 4]) for _ in range(3)] + [Individual([4, 3, 2, 1])]
    for ind in population:
        ind.fitness.values = (1.0,)
    punish_same(population, similarity=1.0, penalty=0.5)
    assert [ind.fitness.values[0] for ind in population] == [2.0, 2.0, 2.0, 1.0]


@pytest.mark.parametrize("representation", list(REPRESENTATIONS))
@pytest.mark.parametrize("fitness", list(FITNESSES))
def test_every_toolbox_runs_in_ea_simple_and_ea_mu_plus_lambda(representation, fitness):
    puzzle = read(REPO / "data" / "4x4.txt")[0]
    toolbox = make_toolbox(puzzle, representation=representation, fitness=fitness)
    random.seed(0)
    population = toolbox.population(n=20)
    population, log = algorithms.eaSimple(population, toolbox, cxpb=0.6, mutpb=0.4, ngen=3, verbose=False)
    population, log = algorithms.eaMuPlusLambda(
        population, toolbox, mu=20, lambda_=30, cxpb=0.5, mutpb=0.4, ngen=3, verbose=False
    )
    assert all(ind.fitness.valid for ind in population)
    assert all(np.array_equal(ind[puzzle.givens], puzzle.cells[puzzle.givens]) for ind in population)


def test_ea_simple_improves_and_solves_with_the_default_toolbox():
    puzzle = read(REPO / "data" / "9x9.txt")[0]
    toolbox = make_toolbox(puzzle, mutate="conflict_swap_in_box")
    random.seed(42)
    population = toolbox.population(n=300)
    hof = tools.HallOfFame(1, similar=np.array_equal)
    stats = tools.Statistics(lambda ind: ind.fitness.values[0])
    stats.register("min", min)
    population, log = algorithms.eaSimple(
        population, toolbox, cxpb=0.3, mutpb=0.8, ngen=30, stats=stats, halloffame=hof, verbose=False
    )
    minima = log.select("min")
    assert minima[-1] < minima[0]
    easiest = read(REPO / "data" / "9x9-easy.txt")[0]  # 45 givens
    toolbox = make_toolbox(easiest, mutate="conflict_swap_in_box")
    random.seed(1)
    hof = tools.HallOfFame(1, similar=np.array_equal)
    algorithms.eaSimple(toolbox.population(n=200), toolbox, cxpb=0.3, mutpb=0.8, ngen=40, halloffame=hof, verbose=False)
    assert hof[0].fitness.values == (0.0,) and verify(hof[0], easiest)


def test_batched_map_gives_the_same_run_as_the_builtin_map():
    puzzle = read(REPO / "data" / "9x9.txt")[1]
    results = []
    for mapper in (None, map):
        toolbox = make_toolbox(puzzle)
        if mapper is not None:
            toolbox.register("map", mapper)
        random.seed(3)
        population, log = algorithms.eaSimple(toolbox.population(n=50), toolbox, 0.5, 0.3, 5, verbose=False)
        results.append([ind.tobytes() for ind in population])
    assert results[0] == results[1]


def test_unknown_names_are_refused():
    puzzle = read(REPO / "data" / "4x4.txt")[0]
    with pytest.raises(ValueError, match="unknown fitness 'speed'"):
        make_toolbox(puzzle, fitness="speed")
    with pytest.raises(ValueError, match="unknown crossover"):
        make_toolbox(puzzle, mate="pmx")


def test_make_toolbox_refuses_unknown_and_misplaced_options():
    puzzle = read(REPO / "data" / "9x9.txt")[0]
    with pytest.raises(TypeError, match="mutpb"):
        make_toolbox(puzzle, mutpb=0.5)
    with pytest.raises(ValueError, match="keep= is the share truncation"):
        make_toolbox(puzzle, select="tournament", keep=0.3)
    with pytest.raises(ValueError, match="indpb= is the per-row"):
        make_toolbox(puzzle, indpb=0.2)
    assert make_toolbox(puzzle, select="truncation", keep=0.3).select.keywords == {"keep": 0.3}


def test_make_toolbox_binds_one_generator_to_every_operator_that_draws():
    import random

    puzzle = read(REPO / "data" / "9x9.txt")[0]
    runs = []
    for global_seed in (1, 2):
        random.seed(global_seed)  # the global stream plays no part
        toolbox = make_toolbox(puzzle, rng=random.Random(3))
        population = toolbox.population(n=6)
        toolbox.mate(population[0], population[1])
        toolbox.mutate(population[2])
        runs.append([ind.tolist() for ind in population])
    assert runs[0] == runs[1]
    assert all(name in make_toolbox(puzzle, rng=random.Random(0)).mate.keywords for name in ("rng", "puzzle"))
