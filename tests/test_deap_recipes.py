"""DEAP's own recipes on the package's parts, each written the way DEAP's documentation and examples
write it: creator types, the three loops, Statistics, MultiStatistics, HallOfFame, History, the
checkpoint recipe, multiprocessing (spawn) and SCOOP maps, copies, in-place operators, and a "solved"
that means solved (issue 38)."""

import array
import copy
import inspect
import pickle
import random
import subprocess
import sys
import textwrap

import numpy
import pytest
from deap import algorithms, base, creator, tools

import deap_sudoku.tools as sudoku_tools
from deap_sudoku import Individual, load_sample, make_toolbox, show
from deap_sudoku.algorithms import Stop, ea_simple
from deap_sudoku.exact import solve
from deap_sudoku.tools import (
    clone,
    cx_block_uniform,
    eval_collisions,
    eval_threats,
    fitness_statistics,
    init_block_permutation,
    mut_swap_in_box,
    optimum,
)


PUZZLE = load_sample("testdata/easy.txt")

# DEAP's recipe: the types are made once, at import, in the module that uses them.
for _name, _base, _fitness in (("FitnessMin", base.Fitness, None), ("FitnessMax", base.Fitness, None)):
    if not hasattr(creator, _name):
        creator.create(_name, _base, weights=(-1.0,) if _name == "FitnessMin" else (1.0,))
for _name, _base, _fitness in (
    ("ListIndividual", list, creator.FitnessMin),
    ("ArrayIndividual", numpy.ndarray, creator.FitnessMin),
    ("TypedArrayIndividual", array.array, creator.FitnessMin),
    ("MaxGrid", Individual, creator.FitnessMax),
):
    if not hasattr(creator, _name):
        options = {"typecode": "b"} if _base is array.array else {}
        creator.create(_name, _base, fitness=_fitness, **options)


def tutorial_toolbox(individual_class, puzzle=PUZZLE, evaluate=eval_collisions):
    """A toolbox built register line by register line, as DEAP's tutorials do."""
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, individual_class, puzzle=puzzle)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", evaluate, puzzle=puzzle)
    toolbox.register("mate", cx_block_uniform, puzzle=puzzle)
    toolbox.register("mutate", mut_swap_in_box, puzzle=puzzle)
    toolbox.register("select", tools.selTournament, tournsize=3)
    return toolbox


KINDS = {
    "package": Individual,
    "creator list": creator.ListIndividual,
    "creator numpy": creator.ArrayIndividual,
    "array.array": creator.TypedArrayIndividual,
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("loop", ["eaSimple", "eaMuPlusLambda", "eaMuCommaLambda"])
def test_deaps_loops_run_on_every_kind_of_individual_and_improve(kind, loop):
    toolbox = tutorial_toolbox(KINDS[kind])
    random.seed(2)
    population = toolbox.population(n=40)
    # DEAP's docs give creator numpy individuals similar=numpy.array_equal; the package's need nothing.
    hof = tools.HallOfFame(3, similar=numpy.array_equal) if kind == "creator numpy" else tools.HallOfFame(3)
    stats = tools.Statistics(key=lambda ind: ind.fitness.values)
    stats.register("min", numpy.min)
    run = {
        "eaSimple": lambda: algorithms.eaSimple(
            population, toolbox, cxpb=0.5, mutpb=0.5, ngen=8, stats=stats, halloffame=hof, verbose=False
        ),
        "eaMuPlusLambda": lambda: algorithms.eaMuPlusLambda(
            population,
            toolbox,
            mu=40,
            lambda_=60,
            cxpb=0.4,
            mutpb=0.5,
            ngen=8,
            stats=stats,
            halloffame=hof,
            verbose=False,
        ),
        "eaMuCommaLambda": lambda: algorithms.eaMuCommaLambda(
            population,
            toolbox,
            mu=40,
            lambda_=60,
            cxpb=0.4,
            mutpb=0.5,
            ngen=8,
            stats=stats,
            halloffame=hof,
            verbose=False,
        ),
    }[loop]
    final, logbook = run()
    assert all(type(ind) is KINDS[kind] for ind in final + list(hof))
    assert logbook.select("min")[-1] < logbook.select("min")[0]
    assert hof[0].fitness.values[0] == logbook.select("min")[-1] or loop == "eaMuCommaLambda"
    assert all(numpy.array_equal(numpy.asarray(ind)[PUZZLE.givens], PUZZLE.cells[PUZZLE.givens]) for ind in final)


def test_multistatistics_as_deaps_docs_write_it():
    toolbox = tutorial_toolbox(Individual)
    random.seed(0)
    stats_fit = tools.Statistics(key=lambda ind: ind.fitness.values)
    stats_size = tools.Statistics(key=len)
    mstats = tools.MultiStatistics(fitness=stats_fit, size=stats_size)
    mstats.register("avg", numpy.mean)
    mstats.register("min", numpy.min)
    _, logbook = algorithms.eaSimple(toolbox.population(n=30), toolbox, 0.5, 0.5, 3, stats=mstats, verbose=False)
    assert logbook.chapters["size"].select("avg") == [81.0] * 4
    assert logbook.chapters["fitness"].select("min")[-1] <= logbook.chapters["fitness"].select("min")[0]


def test_history_records_the_parents_of_every_child():
    toolbox = tutorial_toolbox(Individual)
    history = tools.History()
    toolbox.decorate("mate", history.decorator)
    toolbox.decorate("mutate", history.decorator)
    random.seed(4)
    population = toolbox.population(n=30)
    history.update(population)
    algorithms.eaSimple(population, toolbox, cxpb=0.5, mutpb=0.5, ngen=3, verbose=False)
    children = {index: parents for index, parents in history.genealogy_tree.items() if index > 30}
    assert len(children) > 30 and all(children.values()), "a child without parents: clone lost history_index"
    assert all(0 < parent < index for index, parents in children.items() for parent in parents)


@pytest.mark.parametrize("kind", ["package", "creator numpy", "MaxGrid"])
def test_clone_deepcopy_and_pickle_keep_class_fitness_and_attributes_and_write_no_class(kind):
    individual_class = {"package": Individual, "creator numpy": creator.ArrayIndividual, "MaxGrid": creator.MaxGrid}[
        kind
    ]
    individual = individual_class(PUZZLE.cells.tolist())
    fitness_class = type(individual.fitness)
    individual.fitness.values = (217,)
    individual.age, individual.strategy = 3, [0.5] * 81
    for how, copied in (
        ("clone", clone(individual)),
        ("deepcopy", copy.deepcopy(individual)),
        ("pickle", pickle.loads(pickle.dumps(individual))),
    ):
        if how == "pickle" and kind != "package":  # DEAP pickles a creator class by value: a twin class
            assert (type(copied).__name__, type(copied.fitness).__name__) == (
                individual_class.__name__,
                fitness_class.__name__,
            )
        else:
            assert type(copied) is individual_class and type(copied.fitness) is fitness_class, how
        assert copied.fitness.weights == fitness_class.weights and copied.fitness.values == (217.0,), how
        assert copied.age == 3 and copied.strategy == [0.5] * 81 and copied.strategy is not individual.strategy
        assert numpy.array_equal(copied, individual)
    assert not fitness_class().valid and fitness_class.wvalues == ()  # the class itself was never written to


def test_a_maximising_creator_subclass_survives_the_checkpoint_recipe(tmp_path):
    """DEAP's checkpoint recipe (a pickled dict with the population, hall of fame, logbook and random
    state) in the middle of a run gives the uninterrupted run, for a maximised fitness."""

    def run(population, toolbox, ngen, hof):
        return algorithms.eaSimple(population, toolbox, cxpb=0.5, mutpb=0.5, ngen=ngen, halloffame=hof, verbose=False)

    toolbox = tutorial_toolbox(creator.MaxGrid, evaluate=eval_threats)
    random.seed(7)
    whole, _ = run(toolbox.population(n=30), toolbox, 6, tools.HallOfFame(1))
    random.seed(7)
    hof = tools.HallOfFame(1)
    half, logbook = run(toolbox.population(n=30), toolbox, 3, hof)
    cp = dict(population=half, generation=3, halloffame=hof, logbook=logbook, rndstate=random.getstate())
    with open(tmp_path / "checkpoint_name.pkl", "wb") as cp_file:
        pickle.dump(cp, cp_file)
    random.seed(99)  # what the resumed run does must come from the checkpoint
    with open(tmp_path / "checkpoint_name.pkl", "rb") as cp_file:
        cp = pickle.load(cp_file)
    random.setstate(cp["rndstate"])
    assert all(type(ind.fitness) is creator.FitnessMax and ind.fitness.values[0] > 0 for ind in cp["population"])
    resumed, _ = run(cp["population"], toolbox, 3, cp["halloffame"])
    assert [ind.fitness.values for ind in resumed] == [ind.fitness.values for ind in whole]
    assert all(numpy.array_equal(a, b) for a, b in zip(resumed, whole))


def test_in_place_operators_keep_the_individual():
    individual = clone(make_toolbox(PUZZLE).individual())
    individual.fitness.values = (5,)
    same = individual
    individual += numpy.zeros(81, dtype=individual.dtype)
    individual %= 10
    individual |= 0
    assert individual is same and type(individual) is Individual and individual.fitness.values == (5.0,)

    def mut_add_nothing(ind):
        ind += numpy.zeros(len(ind), dtype=ind.dtype)  # numpy's in-place operator returns the same object
        return (ind,)

    toolbox = make_toolbox(PUZZLE)
    toolbox.register("mutate", mut_add_nothing)
    random.seed(0)
    algorithms.eaSimple(toolbox.population(n=10), toolbox, cxpb=0.5, mutpb=1.0, ngen=2, verbose=False)


def test_array_array_individuals_work_with_every_operator_of_make_toolbox():
    toolbox = make_toolbox(PUZZLE)
    toolbox.register("individual", init_block_permutation, creator.TypedArrayIndividual, puzzle=PUZZLE)
    random.seed(1)
    a, b = toolbox.individual(), toolbox.individual()
    toolbox.mate(a, b)
    toolbox.mutate(a)
    assert type(a) is creator.TypedArrayIndividual and toolbox.evaluate(a)[0] >= 0
    with pytest.raises(TypeError, match="a numpy array .*, a list or an array.array, not tuple"):
        toolbox.mutate(tuple(a))


def _solution_with_a_given_changed():
    """A full, valid grid that is not the puzzle's solution: two values swapped everywhere."""
    solution = solve(PUZZLE).cells
    swapped = solution.copy()
    swapped[solution == 1], swapped[solution == 2] = 2, 1
    return swapped


@pytest.mark.parametrize("name", [n for n in sudoku_tools.__all__ if n.startswith("eval_")])
def test_no_fitness_gives_its_optimum_to_an_empty_cell_or_a_changed_given(name):
    evaluate = getattr(sudoku_tools, name)
    individual_class = sudoku_tools.individual_class(evaluate)
    best = optimum(evaluate, PUZZLE)
    assert evaluate(individual_class(solve(PUZZLE).cells), puzzle=PUZZLE)[0] == best
    for grid in (PUZZLE.cells, numpy.zeros(81, dtype=numpy.uint8), _solution_with_a_given_changed()):
        (score,) = evaluate(individual_class(grid), puzzle=PUZZLE)
        assert score != best
        assert evaluate.batch(numpy.asarray(grid)[None, :], PUZZLE)[0] == score


def test_a_population_started_from_the_puzzles_cells_is_never_reported_solved():
    toolbox = make_toolbox(PUZZLE)
    population = [Individual(PUZZLE.cells) for _ in range(10)]
    random.seed(0)
    _, logbook = ea_simple(
        population,
        toolbox,
        cxpb=0.5,
        mutpb=0.5,
        ngen=2,
        stats=fitness_statistics(),
        stop=Stop(solved=optimum(toolbox.evaluate)),
    )
    assert logbook.stop_reason != "solved" and min(logbook.select("min")) > 0


def test_show_reports_a_changed_given_and_empty_cells():
    view = show(_solution_with_a_given_changed(), PUZZLE)
    assert view.clash_count == 0 and view.changed_count > 0 and "givens changed" in str(view)
    assert "no clashes" not in str(view) and "cells empty" in str(show(PUZZLE.cells, PUZZLE))
    assert "no clashes" in str(show(solve(PUZZLE).cells, PUZZLE))


OPERATORS = [n for n in sudoku_tools.__all__ if n.split("_")[0] in ("cx", "mut", "eval", "sel", "init")]


@pytest.mark.parametrize("name", OPERATORS)
def test_every_operator_pickles_alone_and_as_a_toolbox_partial(name):
    function = getattr(sudoku_tools, name)
    keywords = {"puzzle": PUZZLE} if "puzzle" in inspect.signature(function).parameters else {}
    toolbox = base.Toolbox()
    toolbox.register("operator", function, **keywords)
    assert pickle.loads(pickle.dumps(function)) is function
    back = pickle.loads(pickle.dumps(toolbox.operator))
    assert back.func is function and back.keywords == keywords
    assert back.__dict__.keys() == toolbox.operator.__dict__.keys()
    if name.startswith("eval_"):
        grid = sudoku_tools.individual_class(function)(solve(PUZZLE).cells)
        assert back(grid) == toolbox.operator(grid)


def test_every_part_of_both_toolboxes_pickles():
    from deap_sudoku.algorithms.memetic import memetic_toolbox

    for toolbox in (make_toolbox(PUZZLE), memetic_toolbox(PUZZLE, rng=random.Random(0)), tutorial_toolbox(Individual)):
        for part in vars(toolbox).values():
            pickle.loads(pickle.dumps(part))


DISTRIBUTED = """
import multiprocessing
import random
import sys

import numpy
from deap import algorithms, base, creator, tools

from deap_sudoku import load_sample, make_toolbox
from deap_sudoku.tools import cx_block_uniform, eval_collisions, init_block_permutation, mut_swap_in_box

creator.create("FitnessMin", base.Fitness, weights=(-1.0,))
creator.create("Individual", list, fitness=creator.FitnessMin)
puzzle = load_sample("testdata/easy.txt")


def tutorial_toolbox():
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, creator.Individual, puzzle=puzzle)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_collisions, puzzle=puzzle)
    toolbox.register("mate", cx_block_uniform, puzzle=puzzle)
    toolbox.register("mutate", mut_swap_in_box, puzzle=puzzle)
    toolbox.register("select", tools.selTournament, tournsize=3)
    return toolbox


def run(toolbox, map_function=None):
    if map_function is not None:
        toolbox.register("map", map_function)
    random.seed(3)
    population, _ = algorithms.eaSimple(toolbox.population(n=40), toolbox, cxpb=0.5, mutpb=0.5, ngen=4, verbose=False)
    return [(list(ind), ind.fitness.values) for ind in population]


if __name__ == "__main__":
    if sys.argv[1] == "scoop":
        from scoop import futures
        parallel = futures.map
    else:
        pool = multiprocessing.get_context("spawn").Pool(2)
        parallel = pool.map
    for make in (lambda: make_toolbox(puzzle), tutorial_toolbox):
        serial = run(make())
        distributed = run(make(), parallel)
        assert distributed == serial, "a distributed run differs from the serial one"
        fits = list(make().map(make().evaluate, make().population(n=20)))
    print("EQUAL")
"""


@pytest.mark.slow
@pytest.mark.parametrize("how", ["spawn", "scoop"])
def test_deaps_distributed_maps_give_the_serial_result(how, tmp_path):
    script = tmp_path / "distributed.py"
    script.write_text(textwrap.dedent(DISTRIBUTED))
    command = (
        [sys.executable, "-m", "scoop", "-n", "2", str(script), "scoop"]
        if how == "scoop"
        else [sys.executable, str(script), "spawn"]
    )
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert "EQUAL" in done.stdout, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.returncode == 0
