import copy
import pickle
import subprocess
import sys

import numpy as np
from deap import base, tools

from deap_sudoku.tools.individual import FitnessMax, Individual, MaxIndividual, clone


def _evaluated(values=range(1, 10), fitness=3.0):
    ind = Individual(list(values))
    ind.fitness.values = (fitness,)
    return ind


def test_individual_is_a_small_flat_array_with_an_unevaluated_fitness():
    ind = Individual(np.arange(1, 82).reshape(9, 9) % 9 + 1)
    assert ind.shape == (81,) and ind.dtype == np.uint8
    assert not ind.fitness.valid and ind.fitness.weights == (-1.0,)


def test_sorts_and_copies_are_never_valid_and_slices_are_plain_copies():
    ind = _evaluated()
    for derived in (np.sort(ind), ind.copy(), ind.reshape(3, 3)):
        assert not derived.fitness.valid  # creator-made individuals report the class here
    assert not hasattr(ind + 0, "fitness")  # arithmetic gives a plain array
    part = ind[2:5]
    assert type(part) is np.ndarray and not np.shares_memory(part, ind)  # DEAP's advice for numpy individuals
    assert ind.fitness.valid


def test_clone_and_deepcopy_copy_data_and_fitness():
    ind = _evaluated()
    for twin in (clone(ind), copy.deepcopy(ind)):
        assert np.array_equal(twin, ind) and twin.fitness.values == (3.0,)
        twin[0] = 9
        del twin.fitness.values
        assert ind[0] == 1 and ind.fitness.valid


def test_pickle_keeps_type_data_and_fitness():
    for ind in (_evaluated(), MaxIndividual([4, 3, 2, 1])):
        back = pickle.loads(pickle.dumps(ind))
        assert type(back) is type(ind) and np.array_equal(back, ind)
        assert back.fitness.valid == ind.fitness.valid
        if ind.fitness.valid:
            assert back.fitness.values == ind.fitness.values
    assert isinstance(MaxIndividual([1]).fitness, FitnessMax)


def test_hall_of_fame_with_array_equal_keeps_distinct_grids():
    hof = tools.HallOfFame(3, similar=np.array_equal)
    a, b = _evaluated(fitness=1.0), _evaluated(fitness=1.0)
    c = _evaluated(values=[9, 8, 7, 6, 5, 4, 3, 2, 1], fitness=2.0)
    hof.update([a, b, c])
    assert len(hof) == 2 and hof[0].fitness.values == (1.0,)
    a[0] = 5
    assert hof[0][0] == 1  # the hall of fame holds copies


def test_importing_twice_and_two_sizes_do_not_warn():
    """In a child process: a reload here would leave every other test's Individual a stale class
    (clone then sees no Individual in it and recursed through __deepcopy__ in test_misuse)."""
    code = (
        "import importlib, warnings\n"
        "import deap_sudoku.tools.individual as module\n"
        "warnings.simplefilter('error')\n"
        "importlib.reload(module)\n"
        "small, large = module.Individual([1] * 16), module.Individual([1] * 625)\n"
        "assert small.fitness is not large.fitness\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_fitness_learns_the_objective_that_scores_it_and_keeps_it_through_copies():
    """The name that captions a grid's picture (``collisions 3``): given by the package's fitness
    functions and by ``batch_map``, kept by ``clone``, ``deepcopy`` (a hall of fame) and pickling."""
    from deap_sudoku import load_sample
    from deap_sudoku.tools import batch_map, eval_collisions, eval_threats, fitness_name, individual_class

    puzzle = load_sample()
    grid = Individual(puzzle.cells)
    assert not hasattr(grid.fitness, "name")
    grid.fitness.values = eval_collisions(grid, puzzle=puzzle)
    assert grid.fitness.name == "collisions" == fitness_name(eval_collisions)
    for twin in (clone(grid), copy.deepcopy(grid), pickle.loads(pickle.dumps(grid))):
        assert twin.fitness.name == "collisions"
    many = [individual_class(eval_threats)(puzzle.cells) for _ in range(3)]
    toolbox = base.Toolbox()
    toolbox.register("evaluate", eval_threats, puzzle=puzzle)
    assert len(batch_map(toolbox.evaluate, many)) == 3
    assert [ind.fitness.name for ind in many] == ["threats"] * 3
    batch_map(len, many)  # a map of something that is no fitness names nothing
    assert [ind.fitness.name for ind in many] == ["threats"] * 3
