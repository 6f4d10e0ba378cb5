"""The fitness direction travels with the fitness function, and a mismatch is refused at the first evaluation."""

import random

import numpy as np
import pytest
from deap import algorithms, base, creator, tools

from deap_sudoku import load_sample
from deap_sudoku.tools import (
    FitnessDirectionError,
    Individual,
    MaxIndividual,
    batch_map,
    eval_collisions,
    eval_distinct,
    eval_threats,
    individual_class,
    init_block_permutation,
    make_toolbox,
    optimum,
)
from deap_sudoku.tools.toolbox import FITNESSES, MAXIMISED


@pytest.mark.parametrize("name", sorted(FITNESSES))
def test_every_fitness_carries_its_weights_and_solved_score(name):
    evaluate = FITNESSES[name]
    puzzle = load_sample()
    assert evaluate.weights == ((1.0,) if name in ("distinct", "threats") else (-1.0,))
    assert individual_class(evaluate) is (MaxIndividual if name in MAXIMISED else Individual)
    assert optimum(evaluate, puzzle) == {"distinct": 243, "threats": 108}.get(name, 0)


def _wrong_way_toolbox(map_function):
    """The trap a DEAP user fell into: a maximised fitness registered with the minimising Individual."""
    puzzle = load_sample()
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, Individual, puzzle=puzzle)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_threats, puzzle=puzzle)
    toolbox.register("map", map_function)
    toolbox.register("mate", tools.cxTwoPoint)
    toolbox.register("mutate", tools.mutShuffleIndexes, indpb=0.0)
    toolbox.register("select", tools.selTournament, tournsize=3)
    return toolbox


@pytest.mark.parametrize("map_function", [map, batch_map], ids=["builtin map", "batch_map"])
def test_a_wrong_way_registration_is_refused_at_the_first_evaluation(map_function):
    toolbox = _wrong_way_toolbox(map_function)
    random.seed(0)
    with pytest.raises(FitnessDirectionError, match=r"eval_threats is maximised .*individual_class\(eval_threats\)"):
        algorithms.eaSimple(toolbox.population(n=6), toolbox, cxpb=0.5, mutpb=0.5, ngen=2, verbose=False)


def test_creator_individuals_are_checked_too_and_plain_arrays_pass():
    puzzle = load_sample()
    if not hasattr(creator, "DirectionTestMin"):
        creator.create("DirectionTestMin", base.Fitness, weights=(-1.0,))
        creator.create("DirectionTestList", list, fitness=creator.DirectionTestMin)
    individual = creator.DirectionTestList(init_block_permutation(Individual, puzzle=puzzle).tolist())
    assert eval_collisions(individual, puzzle=puzzle)[0] >= 0
    with pytest.raises(FitnessDirectionError, match="DirectionTestMin has weights"):
        eval_distinct(individual, puzzle=puzzle)
    assert eval_distinct(np.asarray(individual), puzzle=puzzle)[0] > 0  # no fitness: nothing to check


def test_make_toolbox_picks_the_matching_class_and_solves_either_way():
    puzzle = load_sample()
    for fitness in ("threats", "collisions"):
        toolbox = make_toolbox(puzzle, fitness=fitness, mutate="conflict_swap_in_box", rng=random.Random(1))
        random.seed(1)
        population, _ = algorithms.eaSimple(
            toolbox.population(n=100), toolbox, cxpb=0.3, mutpb=0.8, ngen=30, verbose=False
        )
        best = tools.selBest(population, 1)[0]
        assert best.fitness.values[0] == optimum(toolbox.evaluate), fitness


def test_individual_class_refuses_a_function_without_weights():
    with pytest.raises(TypeError, match=r"carries no fitness weights; set its \.weights"):
        individual_class(lambda individual, puzzle: (0,))
