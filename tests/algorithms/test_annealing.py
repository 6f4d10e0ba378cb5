import collections
import math
import inspect
import random
import statistics
import time

import numpy as np
import pytest

from deap_sudoku import load_sample, read
from deap_sudoku.algorithms import Stop, annealing, simulated_annealing
from deap_sudoku.exact import verify
from deap_sudoku.propagation import propagate
from deap_sudoku.runs.catalogue import local_search
from deap_sudoku.tools import BoxSwaps, GeometricSchedule, free_cells, metropolis

from tests.conftest import REPO, unsolvable

# Each rule of docs/literature.md's table for the annealing, broken alone: benchmarks/rule_breaks.py
# applies each to a copy of the package and checks that its test fails.
RULE_BREAKS = [
    {
        "rule": "simulated annealing",
        "test": None,
        "why": "the method as a whole: each of its parts is a row below, each broken there",
    },
    {
        "rule": "start: each box's free cells a random permutation of its missing values",
        "edits": [
            [
                "deap_sudoku/algorithms/annealing.py",
                "grid = self.individual(puzzle=self.puzzle).tolist()",
                "grid = self.individual(puzzle=self.puzzle).tolist()[::-1]",
            ]
        ],
        "test": "test_the_cost_is_kept_right_the_givens_stay_and_boxes_stay_permutations",
    },
    {
        "rule": "move: a free cell drawn over the whole grid, then another free cell of its box, swapped",
        "edits": [
            [
                "deap_sudoku/tools/annealing.py",
                "cells, i = self.firsts[int(self.random() * len(self.firsts))]",
                "cells, i = self.firsts[int(self.random() * len(self.boxes))]",
            ]
        ],
        "test": "test_a_move_draws_its_first_cell_over_the_whole_grid_not_its_box_first",
    },
    {
        "rule": "move: a free cell drawn over the whole grid, then another free cell of its box, swapped",
        "edits": [
            [
                "deap_sudoku/algorithms/annealing.py",
                '    move: str = "cell",\n    restart_on_reheat: bool = True,\n    max_steps',
                '    move: str = "box",\n    restart_on_reheat: bool = True,\n    max_steps',
            ]
        ],
        "test": "test_lewis_rules_are_the_defaults_of_the_function_and_the_recipe",
    },
    {
        "rule": "move: a free cell drawn over the whole grid, then another free cell of its box, swapped",
        "edits": [
            [
                "deap_sudoku/tools/annealing.py",
                "return cells[i], cells[j + (j >= i)]  # two distinct cells of the box",
                "return cells[i], cells[j]  # two distinct cells of the box",
            ]
        ],
        "test": "test_every_move_swaps_two_distinct_cells_of_one_box",
    },
    {
        "rule": "cost: the values each row and each column misses, summed; delta evaluation",
        "edits": [["deap_sudoku/algorithms/annealing.py", "delta = (x[va] == 1)", "delta = (x[va] == 2)"]],
        "test": "test_the_cost_is_kept_right_the_givens_stay_and_boxes_stay_permutations",
    },
    {
        "rule": "Metropolis acceptance: a worse move with probability exp(-delta / t)",
        "edits": [
            [
                "deap_sudoku/tools/annealing.py",
                "rng.random() < math.exp(-delta / temperature)",
                "rng.random() < math.exp(-delta * temperature)",
            ]
        ],
        "test": "test_the_metropolis_rule",
    },
    {
        "rule": "Metropolis acceptance: a worse move with probability exp(-delta / t)",
        "edits": [
            [
                "deap_sudoku/algorithms/annealing.py",
                'toolbox.register("accept", metropolis, rng=rng)',
                'toolbox.register("accept", lambda delta, t, rng: rng.random() < 0.5, rng=rng)',
            ]
        ],
        "test": "test_the_acceptance_is_tools_metropolis",
    },
    {
        "rule": "t0: the standard deviation of the cost over a few moves made first",
        "edits": [["deap_sudoku/tools/annealing.py", "statistics.pstdev(values)", "statistics.stdev(values)"]],
        "test": "test_the_initial_temperature_is_the_spread_of_the_sampled_costs",
    },
    {
        "rule": "geometric cooling `t *= alpha` between Markov chains of (free cells)² moves; alpha = 0.99",
        "edits": [
            ["deap_sudoku/tools/annealing.py", "self.temperature *= self.alpha", "self.temperature *= self.alpha**2"]
        ],
        "test": "test_cooling_multiplies_by_alpha_once_per_chain",
    },
    {
        "rule": "geometric cooling `t *= alpha` between Markov chains of (free cells)² moves; alpha = 0.99",
        "edits": [
            [
                "deap_sudoku/algorithms/annealing.py",
                "max(len(free_cells(work).cells) ** 2, 1)",
                "max(len(free_cells(work).cells) ** 1, 1)",
            ]
        ],
        "test": "test_the_chain_length_defaults_to_the_free_cells_squared",
    },
    {
        "rule": "geometric cooling `t *= alpha` between Markov chains of (free cells)² moves; alpha = 0.99",
        "edits": [
            [
                "deap_sudoku/algorithms/annealing.py",
                "    alpha: float = 0.99,\n    chain_length",
                "    alpha: float = 0.999,\n    chain_length",
            ]
        ],
        "test": "test_lewis_rules_are_the_defaults_of_the_function_and_the_recipe",
    },
    {
        "rule": "reheat: after 20 chains without improvement, `t` back to `t0` and a new random solution",
        "edits": [
            ["deap_sudoku/tools/annealing.py", "self.stale >= self.reheat_after", "self.stale > self.reheat_after"]
        ],
        "test": "test_reheating_resets_after_the_stated_number_of_chains_without_improvement",
    },
    {
        "rule": "reheat: after 20 chains without improvement, `t` back to `t0` and a new random solution",
        "edits": [
            [
                "deap_sudoku/algorithms/annealing.py",
                "if self.restart and self.schedule.reheats > reheats:",
                "if False and self.schedule.reheats > reheats:",
            ]
        ],
        "test": "test_a_reheat_starts_again_from_a_new_random_solution",
    },
    {
        "rule": "constraint propagation first (HM 2007)",
        "edits": [
            [
                "deap_sudoku/algorithms/annealing.py",
                "work, fixed = _propagated(puzzle) if propagate_first else (puzzle, 0)",
                "work, fixed = (puzzle, 0)",
            ]
        ],
        "test": "test_propagate_first_fixes_what_propagation_settles",
    },
    {
        "rule": "evaluations: the start, every sampled move, every proposed move, each restart",
        "edits": [
            [
                "deap_sudoku/algorithms/annealing.py",
                "run = _Run(state, schedule, length, 1 + len(costs), restart_on_reheat)",
                "run = _Run(state, schedule, length, len(costs), restart_on_reheat)",
            ]
        ],
        "test": "test_honours_max_evaluations_exactly",
    },
    {
        "rule": "evaluations: the start, every sampled move, every proposed move, each restart",
        "edits": [
            [
                "deap_sudoku/algorithms/annealing.py",
                "run = _Run(state, schedule, length, 1 + len(costs), restart_on_reheat)",
                "run = _Run(state, schedule, length, len(costs), restart_on_reheat)",
            ]
        ],
        "test": "test_a_run_solved_at_its_start_counts_the_start_as_one_evaluation",
    },
]

EASY = load_sample()
HARD = read(REPO / "deap_sudoku" / "data" / "testdata" / "hard.txt")[0]
STUCK = unsolvable()  # no solution: every run goes to its budget


def _state(puzzle, seed, *, move="cell", draws=None):
    """An annealing's state on ``puzzle``, started from ``random.Random(seed)``; its moves and
    acceptance draw from ``draws`` (an object with ``random()``) when given, else from that generator."""
    rng = random.Random(seed)
    toolbox = annealing.annealing_toolbox(rng=rng, move=move)
    if draws is not None:
        toolbox.register("neighbourhood", BoxSwaps, first=move, rng=draws)
        toolbox.register("accept", metropolis, rng=draws)
    return annealing._Annealer(puzzle, toolbox)


def missing(grid, puzzle) -> int:
    """The cost recounted from scratch: for every row and column, the values it lacks."""
    grid = np.asarray(grid).reshape(puzzle.n, puzzle.n)
    return sum(puzzle.n - len(set(line.tolist())) for line in (*grid, *grid.T))


def keeps_the_representation(grid, puzzle) -> bool:
    grid = np.asarray(grid)
    boxes = np.sort(grid[puzzle.shape.boxes], axis=1)
    return np.array_equal(grid[puzzle.givens], puzzle.cells[puzzle.givens]) and (boxes == np.arange(1, 10)).all()


def test_solves_the_bundled_sample_for_every_seed():
    for seed in range(3):
        result = simulated_annealing(EASY, rng=random.Random(seed), max_seconds=5)
        assert result.solved and result.stop_reason == "solved" and verify(result.grid, EASY), seed
        assert result.evaluations == 1 + 200 + result.steps + result.reheats  # start, sample, moves, restarts
    settled = simulated_annealing(EASY, rng=random.Random(0), propagate_first=True)
    assert settled.solved and settled.fixed == 36 and settled.evaluations == 1  # singles alone: the start, scored
    hard = simulated_annealing(HARD, rng=random.Random(0), propagate_first=True, max_seconds=5)
    assert hard.solved and verify(hard.grid, HARD) and 0 < hard.fixed and hard.steps > 0


def test_is_reproducible_seed_for_seed():
    runs = [simulated_annealing(STUCK, rng=random.Random(seed), max_steps=30_000) for seed in (3, 3, 4)]
    first, again, other = runs
    assert np.array_equal(first.grid, again.grid) and first.chains == again.chains and first.trace == again.trace
    assert first.initial_temperature == again.initial_temperature
    assert first.trace != other.trace


def test_the_cost_is_kept_right_the_givens_stay_and_boxes_stay_permutations():
    for puzzle, seed in ((STUCK, 0), (HARD, 1), (EASY, 2)):
        result = simulated_annealing(puzzle, rng=random.Random(seed), max_steps=20_000)
        assert result.score == missing(result.grid, puzzle)  # the incremental score is the recount
        assert keeps_the_representation(result.grid, puzzle)
        assert all(score == missing(grid, puzzle) for score, grid in _walk(puzzle, seed))


def _walk(puzzle, seed):
    """The state after each of 300 blocks of moves at a middling temperature, recounted."""
    state = _state(puzzle, seed)
    for _ in range(300):
        state.moves(7, 0.5)
        yield state.cost, state.grid
        assert keeps_the_representation(state.grid, puzzle)


def test_honours_max_evaluations_exactly():
    for budget in (1, 150, 5_003):
        result = simulated_annealing(STUCK, rng=random.Random(0), max_evaluations=budget)
        assert result.evaluations == budget and result.stop_reason == "evaluations"
        assert result.steps == max(budget - 201, 0)  # the start and the sample first


def test_honours_max_seconds_and_a_start_given_by_the_caller():
    start = time.perf_counter()
    result = simulated_annealing(STUCK, rng=random.Random(0), max_seconds=1.0)
    spent = time.perf_counter() - start
    assert result.stop_reason == "time" and 1.0 <= spent < 1.05 and not result.solved
    late = simulated_annealing(STUCK, rng=random.Random(0), stop=Stop(max_seconds=1.0, started=time.perf_counter() - 2))
    assert late.steps == 0 and late.evaluations == 1 and late.stop_reason == "time"  # the start was scored


def test_the_initial_temperature_is_the_spread_of_the_sampled_costs(monkeypatch):
    seen = []
    moves = annealing._Annealer.moves

    def spy(self, count, temperature):
        made = moves(self, count, temperature)
        if temperature == math.inf:  # the sample: a random walk, every move taken
            seen.append(missing(self.grid, STUCK))
        return made

    monkeypatch.setattr(annealing._Annealer, "moves", spy)
    result = simulated_annealing(STUCK, rng=random.Random(5), max_steps=10)
    assert len(seen) == 200 and len(set(seen)) > 3
    assert result.initial_temperature == pytest.approx(statistics.pstdev(seen))


def test_the_chain_length_defaults_to_the_free_cells_squared():
    result = simulated_annealing(STUCK, rng=random.Random(0), max_steps=30_000)
    free = len(free_cells(STUCK).cells)
    assert result.chain_length == free**2 and len(result.chains) == 30_000 // free**2
    settled = np.count_nonzero(propagate(HARD).values)
    cp = simulated_annealing(HARD, rng=random.Random(0), max_steps=10, propagate_first=True)
    assert cp.chain_length == (81 - settled) ** 2 < len(free_cells(HARD).cells) ** 2
    assert simulated_annealing(STUCK, rng=random.Random(0), max_steps=10, chain_length=7).chain_length == 7


def test_cooling_multiplies_by_alpha_once_per_chain():
    result = simulated_annealing(STUCK, rng=random.Random(1), max_steps=10_000, chain_length=100, reheat_after=None)
    temperatures = [t for t, _ in result.chains]
    assert len(temperatures) == 100 and temperatures[0] == result.initial_temperature > 0
    assert temperatures == pytest.approx([result.initial_temperature * 0.99**i for i in range(100)])
    faster = simulated_annealing(STUCK, rng=random.Random(1), max_steps=1000, chain_length=100, alpha=0.5)
    assert [t for t, _ in faster.chains] == pytest.approx([faster.initial_temperature * 0.5**i for i in range(10)])


def test_reheating_resets_after_the_stated_number_of_chains_without_improvement():
    result = simulated_annealing(
        STUCK, rng=random.Random(2), max_steps=60_000, chain_length=200, reheat_after=3, alpha=0.8
    )
    t0, expected, previous, stale, reheats = result.initial_temperature, [], math.inf, 0, 0
    temperature = t0
    for _, lowest in result.chains:  # replayed from each chain's lowest cost, as the rule says
        expected.append(temperature)
        stale = 0 if lowest < previous else stale + 1
        previous = lowest
        if stale == 3:
            temperature, previous, stale, reheats = t0, math.inf, 0, reheats + 1
        else:
            temperature *= 0.8
    assert [t for t, _ in result.chains] == pytest.approx(expected)
    assert result.reheats == reheats >= 3


def test_the_schedule_on_its_own():
    schedule = GeometricSchedule(10.0, alpha=0.5, reheat_after=2)
    assert [schedule.end_chain(cost) for cost in (9, 8, 8, 8, 7, 7)] == [5.0, 2.5, 1.25, 10.0, 5.0, 2.5]
    assert schedule.reheats == 1 and schedule.chains == 6
    with pytest.raises(ValueError, match="alpha"):
        GeometricSchedule(1.0, alpha=1.5)


def test_the_metropolis_rule():
    rng = random.Random(0)
    assert metropolis(0, 0.0, rng=rng) and metropolis(-3, 1.0, rng=rng) and not metropolis(1, 0.0, rng=rng)
    taken = sum(metropolis(1, 1.0, rng=rng) for _ in range(20_000)) / 20_000
    assert abs(taken - math.exp(-1)) < 0.015
    assert sum(metropolis(2, 1.0, rng=rng) for _ in range(20_000)) / 20_000 == pytest.approx(math.exp(-2), abs=0.015)
    assert sum(metropolis(1, 2.0, rng=rng) for _ in range(20_000)) / 20_000 == pytest.approx(math.exp(-0.5), abs=0.015)


def test_propagate_first_fixes_what_propagation_settles():
    settled = propagate(HARD).values
    fixed = settled > 0
    result = simulated_annealing(HARD, rng=random.Random(0), max_steps=2_000, propagate_first=True)
    assert result.fixed == np.count_nonzero(fixed) - np.count_nonzero(HARD.givens) > 0
    assert np.array_equal(result.grid[fixed], settled[fixed])
    plain = simulated_annealing(HARD, rng=random.Random(0), max_steps=2_000)
    assert plain.fixed == 0 and not np.array_equal(plain.grid[fixed], settled[fixed])


def test_reports_progress_and_stops_when_asked():
    calls = []
    result = simulated_annealing(
        STUCK, rng=random.Random(0), max_steps=5_000, report_every=1_000, callback=lambda *a: calls.append(a)
    )
    assert [c[0] for c in calls] == [1000, 2000, 3000, 4000, 5000] and result.steps == 5000
    assert all(best <= cost for _, cost, best in calls)
    assert simulated_annealing(STUCK, rng=random.Random(0), callback=lambda *a: True, report_every=500).steps == 500
    asked = simulated_annealing(STUCK, rng=random.Random(0), requested=lambda: True)
    assert asked.interrupted and asked.steps == 0 and asked.as_deap()[1].stop_reason == "interrupted"


def test_runs_through_the_registry_and_an_experiment():
    from deap_sudoku.experiments import run_experiment
    from deap_sudoku.runs import Task, run_task

    for name in ("sa-lewis", "sa-lewis-cp"):
        result = run_task(Task(name, EASY, seed=1, options=dict(max_seconds=5.0)))
        assert result.solved and verify(np.array(result.grid), EASY)
    results = run_experiment(["sa-lewis"], {"stuck": [STUCK]}, runs=2, options={"sa-lewis": dict(max_evaluations=999)})
    assert [r.evaluations for r in results] == [999, 999] and not any(r.solved for r in results)


class Scripted:
    """A generator whose draws are given: the box, the two cells, then the acceptance draw."""

    def __init__(self, draws):
        self.draws = iter(draws)

    def random(self):
        return next(self.draws)


@pytest.mark.parametrize("temperature", [0.4, 1.0, 3.0])
def test_the_move_loop_takes_a_worse_swap_by_the_metropolis_rule(temperature):
    state = _state(STUCK, 0, move="box")
    cost, nb = state.cost, len(state.swaps.boxes)
    box, cells, i, j, delta = next(  # the first swap that makes the cost worse
        (box, cells, i, j, missing(_swapped(state.grid, cells[i], cells[j]), STUCK) - cost)
        for box, cells in enumerate(state.swaps.boxes)
        for i in range(len(cells))
        for j in range(len(cells))
        if i != j and missing(_swapped(state.grid, cells[i], cells[j]), STUCK) > cost
    )
    draws = [(box + 0.5) / nb, (i + 0.5) / len(cells), ((j - (j > i)) + 0.5) / (len(cells) - 1)]
    threshold = math.exp(-delta / temperature)
    for u, taken in ((threshold - 1e-9, True), (threshold + 1e-9, False)):
        state = _state(STUCK, 0, move="box", draws=Scripted([*draws, u]))  # the Metropolis draw: the run's generator
        state.moves(1, temperature)
        assert (state.cost == cost + delta) is taken and (state.cost == cost) is not taken, (delta, u)
        assert state.cost == missing(state.grid, STUCK)


def _swapped(grid, a, b):
    grid = list(grid)
    grid[a], grid[b] = grid[b], grid[a]
    return grid


def test_a_move_draws_its_first_cell_over_the_whole_grid_not_its_box_first():
    """Lewis 2007, §2.1: a non-fixed cell drawn over the grid, so a box is drawn as often as it has
    free cells; the box-first reading (``move="box"``) draws every box as often."""
    for by_cell in (True, False):
        swaps = BoxSwaps(STUCK, first="cell" if by_cell else "box", rng=random.Random(3))
        box_of = {cell: id(cells) for cells in swaps.boxes for cell in cells}
        drawn = collections.Counter(box_of[swaps.draw()[0]] for _ in range(20_000))
        sizes = {id(cells): len(cells) for cells in swaps.boxes}
        free = sum(sizes.values())
        for box, size in sizes.items():
            share = size / free if by_cell else 1 / len(sizes)
            assert abs(drawn[box] / 20_000 - share) < 0.02, (by_cell, size, drawn[box])


def test_a_reheat_starts_again_from_a_new_random_solution(monkeypatch):
    """Lewis 2007, §2.3: after ``reheat_after`` chains without improvement the temperature goes back
    to t0 and a new initial solution is generated; ``restart_on_reheat=False`` keeps the grid."""
    for restart in (True, False):
        restarts = []
        original = annealing._Annealer.restart
        monkeypatch.setattr(annealing._Annealer, "restart", lambda self: (restarts.append(1), original(self)))
        result = simulated_annealing(
            STUCK, rng=random.Random(0), chain_length=50, reheat_after=1, max_steps=5_000, restart_on_reheat=restart
        )
        assert result.reheats > 0 and len(restarts) == (result.reheats if restart else 0)
        assert result.evaluations == 1 + 200 + result.steps + len(restarts)  # each new solution scored once


def test_the_acceptance_is_tools_metropolis(monkeypatch):
    """The move loop asks :func:`tools.metropolis` about every worse move: refusing them all, the
    annealing never leaves a local minimum it reaches downhill."""
    asked = []
    monkeypatch.setattr(annealing, "metropolis", lambda delta, t, rng: asked.append(delta) or False)
    result = simulated_annealing(STUCK, rng=random.Random(0), max_steps=3_000, reheat_after=None)
    costs = [cost for _, cost, _, _ in result.trace]
    assert asked and min(asked) > 0 and costs == sorted(costs, reverse=True)


def test_lewis_rules_are_the_defaults_of_the_function_and_the_recipe():
    """His cell-first move and restart on reheat are the defaults (``-a sa-lewis`` too); ours are switches."""
    kwargs = dict(chain_length=40, reheat_after=1, max_steps=4_000)
    runs = {
        key: simulated_annealing(STUCK, rng=random.Random(1), **kwargs, **extra).trace
        for key, extra in {
            "default": {},
            "lewis": dict(move="cell", restart_on_reheat=True),
            "box": dict(move="box"),
            "keep": dict(restart_on_reheat=False),
        }.items()
    }
    assert runs["default"] == runs["lewis"] != runs["box"] and runs["default"] != runs["keep"]
    recipe = inspect.signature(local_search.annealing).parameters
    assert recipe["move"].default == "cell" and recipe["restart_on_reheat"].default is True
    for parameters in (recipe, inspect.signature(simulated_annealing).parameters):  # §3.1: alpha 0.99; §2.3: 20 chains
        assert parameters["alpha"].default == 0.99 and parameters["reheat_after"].default == 20


def test_every_move_swaps_two_distinct_cells_of_one_box():
    """Step 2 of §2.1: the second cell is another of the box's free cells, so every move taken
    changes the grid (a box holds a permutation: two of its cells never share a value)."""
    state = _state(STUCK, 2)
    for _ in range(2_000):
        before = list(state.grid)
        state.moves(1, math.inf)  # every move taken
        changed = [cell for cell in range(len(before)) if before[cell] != state.grid[cell]]
        assert len(changed) == 2 and STUCK.shape.cell_units[changed[0], 2] == STUCK.shape.cell_units[changed[1], 2]


def test_the_annealing_is_composed_of_its_toolbox():
    """``simulated_annealing`` is built from its toolbox's parts (the example registers them): the
    start and every restart from ``individual``, the moves from ``neighbourhood`` (made once, for
    the puzzle annealed), every worse move judged by ``accept``, t0 and the cooling from
    ``initial_temperature`` and ``schedule``; without a toolbox, the same parts from the arguments."""
    calls = collections.Counter()
    toolbox = annealing.annealing_toolbox(rng=random.Random(4), reheat_after=1)
    for name in ("individual", "neighbourhood", "accept", "initial_temperature", "schedule"):
        part = getattr(toolbox, name)
        toolbox.register(
            name, lambda *args, _part=part, _name=name, **kwargs: calls.update([_name]) or _part(*args, **kwargs)
        )
    composed = simulated_annealing(STUCK, toolbox=toolbox, chain_length=30, max_steps=3_000)
    plain = simulated_annealing(STUCK, rng=random.Random(4), chain_length=30, max_steps=3_000, reheat_after=1)
    assert composed.trace == plain.trace and composed.reheats > 0
    assert calls.pop("accept") > 0
    assert calls == {"individual": 1 + composed.reheats, "neighbourhood": 1, "initial_temperature": 1, "schedule": 1}
    with pytest.raises(ValueError, match="are the toolbox.s"):
        simulated_annealing(STUCK, toolbox=toolbox, alpha=0.9)  # the schedule's own


def test_a_run_solved_at_its_start_counts_the_start_as_one_evaluation():
    """Issue 60 item 2: the start is scored, so a run solved there (its boxes left one free cell
    each, or propagation settled every cell) spent one evaluation, not 0, and its ERT is a number."""
    from deap_sudoku import Puzzle
    from deap_sudoku.experiments import run_experiment
    from deap_sudoku.experiments.summary import ert

    cells = list(verify_solution := propagate(EASY).values)
    assert verify(verify_solution, EASY)
    for box in EASY.shape.boxes:
        cells[int(box[0])] = 0
    one_free_a_box = Puzzle(cells, box=EASY.shape)
    results = run_experiment(
        ["sa-lewis", "sa-lewis-cp"], {"one free cell a box": [one_free_a_box], "easy": [EASY]}, runs=1
    )
    at_the_start = [r for r in results if r.dataset == "one free cell a box" or r.algorithm == "sa-lewis-cp"]
    assert len(at_the_start) == 3 and all(r.solved and r.steps == 0 for r in at_the_start)
    assert [r.evaluations for r in at_the_start] == [1, 1, 1]
    assert ert(at_the_start) == 1.0


def test_box_swaps_is_a_neighbourhood_and_a_deap_mutation():
    """``BoxSwaps.mutate`` keeps DEAP's contract (in place, a tuple, givens and boxes kept: ``check_operator``);
    ``draw`` names two free cells of one box, from the generator it was given."""
    from deap_sudoku.tools import check_operator

    check_operator(BoxSwaps(EASY, rng=random.Random(0)).mutate, EASY, kind="mut", keeps="block")
    box = EASY.shape.cell_units[:, 2]
    for first in ("cell", "box"):
        draws = [BoxSwaps(STUCK, first=first, rng=random.Random(6)).draw() for _ in range(2)]
        assert draws[0] == draws[1] and box[draws[0][0]] == box[draws[0][1]] and draws[0][0] != draws[0][1]
    with pytest.raises(ValueError, match="'cell' or 'box'"):
        BoxSwaps(STUCK, first="row", rng=random.Random(0))
