"""The memetic GA: it solves hard puzzles without backtracking, its parts are DEAP parts, it is seeded."""

from __future__ import annotations

import random

import numpy as np
import pytest
from deap import tools

from deap_sudoku import Puzzle, read
from deap_sudoku.runs.catalogue import ga_recipes
from deap_sudoku.algorithms import Stop
from deap_sudoku.tools.fitness import eval_collisions
from deap_sudoku.algorithms.memetic import REFUTED, ea_memetic, memetic_toolbox
from deap_sudoku.exact import backtracking as exact_search
from deap_sudoku.exact import verify

from tests.conftest import FORUM_HARDEST, REPO, unsolvable


def _solves(puzzle, hof):
    best = np.asarray(hof[0])
    return verify(best, puzzle) and np.array_equal(best[puzzle.givens], puzzle.cells[puzzle.givens])


def _forbidden(*args, **kwargs):
    raise AssertionError("the memetic GA called an exact search")


@pytest.fixture
def no_backtracking(monkeypatch):
    """Any call of an exact search fails the test: the evolutionary search must do the work.

    The functions' code is replaced, not a module attribute, so a call fails
    however the caller reached the function (``from ... import search`` included).
    """
    for function in (exact_search.search, exact_search.solve, exact_search.count_solutions, exact_search.is_unique):
        monkeypatch.setattr(function, "__code__", _forbidden.__code__)


def test_no_backtracking_catches_calls_through_imported_names(no_backtracking):
    from deap_sudoku.exact import count_solutions, solve
    from deap_sudoku.exact.generate import search

    for call in (
        lambda: solve(Puzzle.parse(FORUM_HARDEST)),
        lambda: count_solutions(Puzzle.parse(FORUM_HARDEST)),
        lambda: search(Puzzle.parse(FORUM_HARDEST)),
    ):
        with pytest.raises(AssertionError, match="exact search"):
            call()


@pytest.mark.parametrize("name", ["9x9.txt", "6x6.txt", "12x12.txt", "16x16.txt", "25x25.txt"])
def test_solves_the_bundled_puzzles(name, no_backtracking):
    for puzzle in read(REPO / "data" / name):
        _, logbook, hof = ga_recipes.memetic(puzzle, seed=0, seed_nodes=None)
        assert logbook.stop_reason == "solved"
        assert _solves(puzzle, hof)


def test_solves_expert_puzzles_and_evolution_does_the_work(no_backtracking):
    """The bundled expert class needs search: each is solved.  From a population of two, the
    forum-hardest puzzle is not solved by the initial repairs but by later generations."""
    for puzzle in read(REPO / "data" / "testdata" / "expert.txt"):
        _, logbook, hof = ga_recipes.memetic(puzzle, seed=1, stop=Stop(max_seconds=30), seed_nodes=None)
        assert _solves(puzzle, hof)
    puzzle = Puzzle.parse(FORUM_HARDEST)
    _, logbook, hof = ga_recipes.memetic(puzzle, seed=1, population_size=2, stop=Stop(max_seconds=30), seed_nodes=None)
    assert _solves(puzzle, hof)
    assert logbook[0]["min"] > 0 and logbook[-1]["gen"] > 0


def test_seeded_run_ends_at_generation_0_with_the_searchs_answer(monkeypatch):
    """By default the first individual is seeded by an exact search of at most 1,000 nodes: the
    forum-hardest puzzle takes fewer, so the run ends solved before any generation; given too few
    nodes, the search gives up and the GA solves it."""
    puzzle = Puzzle.parse(FORUM_HARDEST)
    budgets = []
    search = exact_search.search

    def spy(*args, **kwargs):
        budgets.append(kwargs["max_nodes"])
        return search(*args, **kwargs)

    monkeypatch.setattr("deap_sudoku.tools.init.search", spy)
    _, logbook, hof = ga_recipes.memetic(puzzle, seed=0)
    assert budgets == [1000] and logbook.stop_reason == "solved" and len(logbook) == 1
    assert _solves(puzzle, hof)
    _, logbook, hof = ga_recipes.memetic(puzzle, seed=0, seed_nodes=2, population_size=2)
    assert budgets == [1000, 2] and _solves(puzzle, hof) and logbook[0]["min"] > 0


def test_same_seed_same_run_and_another_seed_another_run():
    puzzle = Puzzle.parse(FORUM_HARDEST)
    first = ga_recipes.memetic(puzzle, seed=4, seed_nodes=None)
    second = ga_recipes.memetic(puzzle, seed=4, seed_nodes=None)
    assert first[1].select("min") == second[1].select("min")
    assert np.array_equal(first[2][0], second[2][0])
    other = ga_recipes.memetic(puzzle, seed=5, seed_nodes=None)
    assert other[1].select("min") != first[1].select("min")


def _spied_toolbox(puzzle, rng, calls):
    toolbox = memetic_toolbox(puzzle, rng=rng)
    for name in ("mate", "repair", "improve"):
        original = getattr(toolbox, name)

        def spy(*args, _original=original, _name=name):
            calls[_name] = calls.get(_name, 0) + 1
            return _original(*args)

        setattr(toolbox, name, spy)
    return toolbox


def test_generation_uses_crossover_local_search_and_restarts_and_keeps_members_distinct():
    puzzle = unsolvable()  # the run must use its whole budget
    rng = random.Random(0)
    calls: dict[str, int] = {}
    toolbox = _spied_toolbox(puzzle, rng, calls)
    population = toolbox.population(n=6)
    hof = tools.HallOfFame(1, similar=np.array_equal)
    population, logbook = ea_memetic(
        population, toolbox, cxpb=0.5, restart_after=3, stop=Stop(solved=0, max_generations=20), halloffame=hof, rng=rng
    )
    assert logbook.stop_reason == "generations"
    assert calls["mate"] > 0 and calls["improve"] > 0 and calls["repair"] >= 6 + calls["mate"]
    assert logbook[-1]["restarts"] > 0
    assert len({ind.tobytes() for ind in population}) == len(population)
    assert all(ind.fitness.values == eval_collisions(ind, puzzle=puzzle) for ind in population)
    assert hof[0].fitness.values[0] > 0 and not verify(np.asarray(hof[0]), puzzle)


def test_unsolvable_puzzle_ends_at_the_budget_with_the_best_grid():
    _, logbook, hof = ga_recipes.memetic(unsolvable(), seed=0, stop=Stop(max_generations=15))
    assert logbook.stop_reason == "generations"
    assert hof[0].fitness.values[0] > 0


def test_puzzle_refuted_by_propagation_ends_at_once():
    _, logbook, hof = ga_recipes.memetic(Puzzle.parse("12345678." + "........9" + "." * 63))
    assert logbook.stop_reason == REFUTED and len(logbook) == 1
    assert hof[0].fitness.values[0] > 0


def test_stop_needs_a_criterion():
    toolbox = memetic_toolbox(Puzzle.parse(FORUM_HARDEST), rng=random.Random(0))
    with pytest.raises(ValueError, match="stop criterion"):
        ea_memetic(toolbox.population(n=2), toolbox, stop=Stop(), rng=random.Random(0))
