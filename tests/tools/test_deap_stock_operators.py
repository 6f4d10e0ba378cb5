"""DEAP's own operators on the package's grid individuals: each works as docs/guide.md's table says,
or is refused at its first write with a message naming the package's operator (issue 35)."""

import random
import re

import numpy as np
import pytest
from deap import tools

from deap_sudoku import make_toolbox
from deap_sudoku.exact import solve
from deap_sudoku.grid.puzzle import Puzzle

from tests.conftest import REPO

BOXES = [(2, 2), (2, 3), (3, 2), (3, 3)]
CROSSOVERS = {"cxOnePoint": {}, "cxTwoPoint": {}, "cxUniform": {"indpb": 0.5}}
MUTATIONS = {
    "mutShuffleIndexes": {"indpb": 0.2},
    "mutInversion": {},
    "mutUniformInt": {"low": 1, "up": "n", "indpb": 0.2},
}
SELECTIONS = ["selTournament", "selBest", "selWorst", "selRandom", "selDoubleTournament"]
WRONG_WAY = ["selRoulette", "selStochasticUniversalSampling"]
REFUSED = {
    "cxPartialyMatched": (),
    "cxUniformPartialyMatched": (0.5,),
    "cxOrdered": (),
    "cxBlend": (0.5,),
    "cxESBlend": (0.5,),
    "cxSimulatedBinary": (2.0,),
    "cxSimulatedBinaryBounded": (2.0, 1, 4),
    "cxMessyOnePoint": (),
    "mutGaussian": (0.0, 2.0, 1.0),
    "mutPolynomialBounded": (20.0, 1, 4, 1.0),
    "mutESLogNormal": (1.0, 1.0),
    "mutFlipBit": (1.0,),
}


def _puzzle(box, seed=0):
    """A puzzle of ``box`` with about a third of its cells given, from a solved grid."""
    rows, cols = box
    empty = Puzzle([0] * (rows * cols) ** 2, box=box)
    cells = solve(empty).cells.copy()
    cells[np.random.default_rng(seed).random(cells.size) < 0.65] = 0
    return Puzzle(cells, box=box)


def _pair(puzzle, seed):
    toolbox = make_toolbox(puzzle)
    random.seed(seed)
    return toolbox.individual(), toolbox.individual()


def test_the_guide_lists_every_operator_this_module_checks():
    guide = (REPO / "docs" / "guide.md").read_text()
    table = guide[guide.index("| DEAP operator |") :]
    table = table[: table.index("\n\n")]
    listed = set(re.findall(r"`(cx[A-Z]\w+|mut[A-Z]\w+|sel[A-Z]\w+|HallOfFame)`", table))
    checked = set(CROSSOVERS) | set(MUTATIONS) | set(SELECTIONS) | set(WRONG_WAY) | set(REFUSED) | {"HallOfFame"}
    assert listed == checked


@pytest.mark.parametrize("box", BOXES, ids=str)
@pytest.mark.parametrize("name", sorted(CROSSOVERS))
def test_stock_crossovers_exchange_cells_and_keep_the_givens(name, box):
    puzzle = _puzzle(box)
    exchanged = 0
    for seed in range(20):
        ind1, ind2 = _pair(puzzle, seed)
        parent1, parent2 = np.array(ind1), np.array(ind2)
        child1, child2 = getattr(tools, name)(ind1, ind2, **CROSSOVERS[name])
        assert child1 is ind1 and child2 is ind2  # changed in place
        kept = (child1 == parent1) & (child2 == parent2)
        swapped = (child1 == parent2) & (child2 == parent1)
        assert np.all(kept | swapped), f"a child holds a value neither parent has at that cell (seed {seed})"
        exchanged += np.count_nonzero(swapped & ~kept)
        for child in (child1, child2):
            assert np.array_equal(np.asarray(child)[puzzle.givens], puzzle.cells[puzzle.givens])
    assert exchanged > 0  # the children are not just the parents


@pytest.mark.parametrize("box", BOXES, ids=str)
@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_stock_mutations_keep_what_the_guide_says(name, box):
    puzzle = _puzzle(box)
    options = {k: (puzzle.n if v == "n" else v) for k, v in MUTATIONS[name].items()}
    changed = 0
    for seed in range(20):
        individual, _ = _pair(puzzle, seed)
        before = np.array(individual)
        (mutant,) = getattr(tools, name)(individual, **options)
        assert mutant is individual and len(mutant) == puzzle.shape.cells
        values = np.asarray(mutant)
        changed += np.count_nonzero(values != before)
        if name == "mutUniformInt":
            assert values.min() >= 1 and values.max() <= puzzle.n
        else:
            assert np.array_equal(
                np.bincount(values, minlength=puzzle.n + 1), np.bincount(before, minlength=puzzle.n + 1)
            )
    assert changed > 0


def test_mut_uniform_int_past_the_largest_value_is_refused_before_it_writes():
    puzzle = _puzzle((3, 3))
    individual, _ = _pair(puzzle, 0)
    before = np.array(individual)
    random.seed(3)
    with pytest.raises(ValueError, match=r"^a 9x9 grid individual's cells hold 0\.\.9, not 1\d$"):
        for _ in range(50):  # until a value above 9 is drawn
            tools.mutUniformInt(individual, 10, 19, 1.0)
    assert np.array_equal(individual, before)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_operators_that_cannot_leave_a_grid_are_refused_naming_the_packages_operator(name):
    puzzle = _puzzle((2, 2))
    ind1, ind2 = _pair(puzzle, 1)
    if name.startswith("cxES") or name == "mutESLogNormal":
        for ind in (ind1, ind2):
            ind.strategy = [1.0] * len(ind)
    before = np.array(ind1), np.array(ind2)
    operator = getattr(tools, name)
    with pytest.raises(
        TypeError,
        match=rf"^deap\.tools\.{name} does not apply to Sudoku grid individuals: "
        r"it .*; use deap_sudoku\.tools\.(cx|mut)_\w+",
    ):
        random.seed(0)
        if name.startswith("cx"):
            operator(ind1, ind2, *REFUSED[name])
        else:
            operator(ind1, *REFUSED[name])
    assert np.array_equal(ind1, before[0]) and np.array_equal(ind2, before[1])  # nothing changed


def _evaluated_population(puzzle, size=30):
    toolbox = make_toolbox(puzzle)
    random.seed(5)
    population = toolbox.population(n=size)
    for individual in population:
        individual.fitness.values = toolbox.evaluate(individual)
    return population


@pytest.mark.parametrize("name", SELECTIONS)
def test_stock_selections_choose_references_in_the_fitness_direction(name):
    population = _evaluated_population(_puzzle((3, 3)))
    options = {
        "selTournament": {"tournsize": 3},
        "selDoubleTournament": {"fitness_size": 3, "parsimony_size": 1.0, "fitness_first": True},
    }.get(name, {})
    random.seed(0)
    chosen = getattr(tools, name)(population, 5 if name in ("selBest", "selWorst") else 200, **options)
    assert all(any(c is p for p in population) for c in chosen)
    mean = np.mean([p.fitness.values[0] for p in population])
    picked = np.mean([c.fitness.values[0] for c in chosen])
    if name in ("selTournament", "selBest", "selDoubleTournament"):
        assert picked < mean  # fewer collisions: better, for a minimised fitness
    if name == "selBest":
        assert sorted(c.fitness.values[0] for c in chosen) == sorted(p.fitness.values[0] for p in population)[:5]
    if name == "selWorst":
        assert picked > mean


@pytest.mark.parametrize("name", WRONG_WAY)
def test_stock_roulette_selections_favour_the_worst_when_minimising_as_the_guide_warns(name):
    population = _evaluated_population(_puzzle((3, 3)))
    random.seed(0)
    chosen = getattr(tools, name)(population, 2000)
    mean = np.mean([p.fitness.values[0] for p in population])
    assert np.mean([c.fitness.values[0] for c in chosen]) > mean


def test_deaps_hall_of_fame_keeps_the_best_distinct_grids():
    population = _evaluated_population(_puzzle((3, 3)))
    hof = tools.HallOfFame(3)
    hof.update(population)
    hof.update(population)  # the same grids again: not added twice
    best = sorted(p.fitness.values[0] for p in population)[:3]
    assert [h.fitness.values[0] for h in hof] == best
    assert not any(np.array_equal(a, b) for i, a in enumerate(hof) for b in list(hof)[i + 1 :])
    assert population[0] in population and population.index(population[3]) == 3
