"""The ant colony system (Lloyd & Amos): each rule of docs/literature.md's table held by a test, the
compiled and Python twins equal, and the run's budgets and seeds kept."""

import importlib.util
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from deap import base

from deap_sudoku import Puzzle, read
from deap_sudoku.algorithms import Stop, ea_ant_colony
from deap_sudoku.exact import dig_puzzle, solve
from deap_sudoku.runs import Task, run_task
from deap_sudoku.runs.catalogue.colony import ant_colony
from deap_sudoku.tools import Individual, Pheromone, clone, eval_collisions
from deap_sudoku.tools import ant_colony_compiled, ant_colony_kernel
from deap_sudoku.tools.pheromone import _givens, _layout

from tests.conftest import REPO
from tests.timing import timed


def _replay_case(size: str, greedy: str, shared: Path) -> None:
    """The package's colony against the committed trace of the authors' solver (one case of
    ``benchmarks/acs_replay.py``): the same ants' grids, pheromone and best value every iteration."""
    spec = importlib.util.spec_from_file_location("acs_replay", REPO / "benchmarks" / "acs_replay.py")
    replay = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(replay)
    trace = json.loads((REPO / "benchmarks" / "results" / "acs_replay.json").read_text())
    case = next(case for case in trace["cases"] if (case["size"], case["greedy"]) == (size, greedy))
    puzzle = replay.case_puzzle(shared, size, case["puzzle"])
    iterations = trace["iterations"]
    mine = replay.ours(puzzle, replay.stream_for(trace["seed"], puzzle, iterations), greedy, iterations)
    assert [state.digest() for state in mine] == case["iterations"]


RULE_BREAKS = [
    {
        "rule": "10 ants",
        "edits": [["deap_sudoku/runs/catalogue/colony.py", "population_size: int = 10,", "population_size: int = 8,"]],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "pheromone on every (cell, value), `tau0 = 1 / cells`",
        "edits": [["deap_sudoku/tools/pheromone.py", "real(1) / real(puzzle.shape.cells)", "real(1) / real(puzzle.n)"]],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "each ant starts at a cell drawn uniformly, every iteration (two may share one)",
        "edits": [
            [
                "deap_sudoku/tools/pheromone.py",
                "position = stream.integers(cells, ants)",
                "position = stream.integers(cells, ants) * 0",
            ]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "after each placement, constraint propagation: each peer of the fixed cell (box, column and row cells alternately) loses the values fixed around it, is fixed when one is left, or when one of its values has no other place in its row, then column, then box; a peer so fixed propagates first (depth first)",  # noqa: E501
        "edits": [
            [
                "deap_sudoku/tools/ant_colony_kernel.py",
                "for union in (row, column, box):",
                "for union in (box, column, row):",
            ]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "after each placement, constraint propagation: each peer of the fixed cell (box, column and row cells alternately) loses the values fixed around it, is fixed when one is left, or when one of its values has no other place in its row, then column, then box; a peer so fixed propagates first (depth first)",  # noqa: E501
        "edits": [
            [
                "deap_sudoku/tools/pheromone.py",
                "np.stack([boxes, cols, rows], axis=2)",
                "np.stack([rows, cols, boxes], axis=2)",
            ]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "greedy choice (highest pheromone among the candidates, the lowest value of equals) **when a draw is above q0**, q0 = 0.9: greedy 1 time in 10",  # noqa: E501
        "edits": [
            ["deap_sudoku/tools/ant_colony_kernel.py", "pheromone[cell, v] > most:", "pheromone[cell, v] >= most:"]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "the ants start from the givens fixed one by one in cell order, each propagated",
        "edits": [
            [
                "deap_sudoku/tools/ant_colony_kernel.py",
                "set_cell(domains, cell, bit, order, units, cell_units, full, stack_cells, stack_next)",
                "domains[cell] = bit",
            ]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "each ant visits every cell once, in order, wrapping round; the ants take one step each in turn",
        "edits": [
            [
                "deap_sudoku/tools/ant_colony_kernel.py",
                "position[a] = cell + 1 if cell + 1 < cells else 0",
                "position[a] = cell + 1 if cell + 1 < cells else 1",
            ]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "a fixed cell is passed; a cell with no candidate fails and is passed",
        "edits": [
            ["deap_sudoku/tools/ant_colony_kernel.py", "if mask != 0 and not single(mask):", "if not single(mask):"]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "greedy choice (highest pheromone among the candidates, the lowest value of equals) **when a draw is above q0**, q0 = 0.9: greedy 1 time in 10",  # noqa: E501
        "edits": [["deap_sudoku/tools/ant_colony_kernel.py", "if draw > threshold:", "if draw < threshold:"]],
        "test": "test_the_released_code_is_greedy_when_the_draw_is_above_q0_and_the_paper_when_below",
    },
    {
        "rule": "greedy choice (highest pheromone among the candidates, the lowest value of equals) **when a draw is above q0**, q0 = 0.9: greedy 1 time in 10",  # noqa: E501
        "edits": [
            ["deap_sudoku/tools/ant_colony_kernel.py", "pheromone[cell, v] > most:", "pheromone[cell, v] < most:"]
        ],
        "test": "test_the_released_code_is_greedy_when_the_draw_is_above_q0_and_the_paper_when_below",
    },
    {
        "rule": 'greedy choice **with probability q0** (the ACS rule; the README calls q0 the "greediness")',
        "edits": [["deap_sudoku/tools/pheromone.py", "real(1.0 - q0)  # the solver", "real(q0)  # the solver"]],
        "test": "test_the_colony_replays_the_originals_16x16_trace_under_the_paper_rule",
    },
    {
        "rule": "otherwise a value by roulette over the candidates' pheromone",
        "edits": [
            ["deap_sudoku/tools/ant_colony_kernel.py", "total = total + pheromone[cell, v]", "total = total + tau0"]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "after each placement, constraint propagation: each peer of the fixed cell (box, column and row cells alternately) loses the values fixed around it, is fixed when one is left, or when one of its values has no other place in its row, then column, then box; a peer so fixed propagates first (depth first)",  # noqa: E501
        "edits": [["deap_sudoku/tools/ant_colony_kernel.py", "if single(hidden):", "if False:"]],
        "test": "test_propagation_fixes_a_hidden_single_among_the_peers_of_a_value_just_fixed",
    },
    {
        "rule": "after each placement, constraint propagation: each peer of the fixed cell (box, column and row cells alternately) loses the values fixed around it, is fixed when one is left, or when one of its values has no other place in its row, then column, then box; a peer so fixed propagates first (depth first)",  # noqa: E501
        "edits": [["deap_sudoku/tools/ant_colony_kernel.py", "if single(allowed):", "if False:"]],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "after each placement, constraint propagation: each peer of the fixed cell (box, column and row cells alternately) loses the values fixed around it, is fixed when one is left, or when one of its values has no other place in its row, then column, then box; a peer so fixed propagates first (depth first)",  # noqa: E501
        "edits": [
            [
                "deap_sudoku/tools/ant_colony_kernel.py",
                "            domains[peer] = fix\n",
                "            domains[peer] = fix\n            continue\n",
            ]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "local update on the value placed: `tau = 0.9 tau + 0.1 tau0`",
        "edits": [
            [
                "deap_sudoku/tools/ant_colony_kernel.py",
                "pheromone[cell, chosen] * keep + xi * tau0",
                "pheromone[cell, chosen]",
            ]
        ],
        "test": "test_a_placed_value_decays_its_pheromone_towards_tau0",
    },
    {
        "rule": "an ant that fills `f` of `N` cells is worth `N / (N - f)` (infinite when solved)",
        "edits": [
            [
                "deap_sudoku/algorithms/ant_colony.py",
                "return float(real(cells) / real(unfilled))",
                "return float(real(cells) - real(unfilled))",
            ]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "the iteration's best ant (the first of equals) becomes the best grid when it is worth more than the best value kept",  # noqa: E501
        "edits": [
            [
                "deap_sudoku/algorithms/ant_colony.py",
                'if value > best["best_value"]:',
                'if value >= best["best_value"]:',
            ]
        ],
        "test": "test_the_best_grid_changes_only_for_an_ant_worth_more_than_the_evaporated_best_value",
    },
    {
        "rule": "global update every iteration on every filled cell of the best grid, givens included: `tau = 0.1 tau + 0.9 best_value`",  # noqa: E501
        "edits": [
            ["deap_sudoku/tools/pheromone.py", "chosen * (real(1) - real(rho)) + real(rho) * real(amount)", "chosen"]
        ],
        "test": "test_the_global_update_moves_the_best_grids_values_towards_the_amount",
    },
    {
        "rule": "best-value evaporation after the update: `best_value *= 1 - 0.005`",
        "edits": [["deap_sudoku/algorithms/ant_colony.py", "(real(1) - real(evaporation))", "real(1)"]],
        "test": "test_the_best_grid_changes_only_for_an_ant_worth_more_than_the_evaporated_best_value",
    },
    {
        "rule": "10 s time limit, the clock read every 100 iterations, the propagation of the givens not timed",
        "edits": [
            ["deap_sudoku/tools/pheromone.py", "if first and poll is not None:", "if False and poll is not None:"]
        ],
        "test": "test_the_python_twin_keeps_a_time_budget_inside_a_colony",
    },
    {
        "rule": "random numbers: one Mersenne Twister seeded from `std::random_device`",
        "edits": [
            [
                "deap_sudoku/tools/pheromone.py",
                "draws = np.random.default_rng(rng.getrandbits(64))",
                "draws = np.random.default_rng(0)",
            ]
        ],
        "test": "test_each_colony_draws_from_the_runs_generator",
    },
    {
        "rule": "arithmetic in 32-bit floats: pheromone, `tau0 = 1.0f / cells`, the local update `tau*0.9f + tau0*0.1f`, the global update with `1.0f - rho`, `PherAdd`, the best value and its evaporation, the roulette's sums, `float` draws",  # noqa: E501
        "edits": [["deap_sudoku/tools/pheromone.py", 'precision: str = "float32",', 'precision: str = "float64",']],
        "test": "test_in_float32_a_placed_value_falls_one_rounding_step_below_tau0_as_in_the_original",
    },
    {
        "rule": 'start cells: "start each ant on a different square" (the code\'s comment)',
        "edits": [
            [
                "deap_sudoku/tools/pheromone.py",
                "position = stream.integers(cells, ants)",
                "position = (stream.integers(cells, ants) + np.arange(ants)) % cells",
            ]
        ],
        "test": "test_the_colony_replays_the_originals_16x16_trace",
    },
    {
        "rule": "the paper rule as the solver runs it with `--q0 0.1`",
        "edits": [["deap_sudoku/tools/pheromone.py", "real(1.0 - q0)  # the solver", "real(q0)  # the solver"]],
        "test": "test_the_colony_replays_the_originals_16x16_trace_under_the_paper_rule",
    },
    {
        "rule": "the clock read every 100 iterations, so a run may pass its limit by up to 99 iterations",
        "test": None,
        "why": "a difference, not a rule of ours: the clock is read every iteration, and breaking that read is the 10 s row's break",  # noqa: E501
    },
    {
        "rule": "an unsolved run prints `solTime`, never set (uninitialised)",
        "test": None,
        "why": "a difference, not a rule of ours: the original's uninitialised output has no counterpart to break",
    },
]
"""Each rule of docs/literature.md's table and an edit that breaks it (read by benchmarks/rule_breaks.py)."""


def test_the_colony_replays_the_originals_16x16_trace(shared_data):
    _replay_case("16x16", "code", shared_data)


def test_the_colony_replays_the_originals_16x16_trace_under_the_paper_rule(shared_data):
    _replay_case("16x16", "paper", shared_data)


LLOYD_16 = read(REPO / "data" / "16x16-lloyd.txt")[0]
BIG = dig_puzzle(solve(read(REPO / "data" / "25x25.txt")[0]), 280, random.Random(0), unique=False)
"""A 25x25 with 45 % givens, which no colony of a few iterations solves (the bundled one propagation does)."""
KERNELS = [ant_colony_kernel, ant_colony_compiled]


def _one_step(kernel, draws, greedy_above, favourite=4, precision="float64"):
    """One ant's first step at cell 0 of an empty 9x9 whose pheromone favours ``favourite`` (0-based),
    under the code's greedy rule (``greedy_above``) or the paper's, both with q0 = 0.9."""
    puzzle = Puzzle([0] * 81)
    real = np.dtype(precision).type
    order, units, cell_units, full = _layout(puzzle)
    domains = _givens(puzzle, False).advance()[0]
    tau0 = real(1) / real(81)
    pheromone = np.full((81, 9), tau0, dtype=precision)
    pheromone[0, favourite] = real(10) / real(81)
    boards = domains[None, :].copy()
    position = np.zeros(1, dtype=np.int64)
    threshold = real(0.9) if greedy_above else real(1) - real(0.9)
    constants = np.array([tau0, 0.9, 0.1, threshold, 0], dtype=precision)
    uniform = np.asarray(draws, dtype=precision).reshape(1, 1, 2).repeat(81, axis=1).reshape(-1)
    cursor = np.zeros(1, dtype=np.int64)
    kernel.steps(boards, position, 0, 1, pheromone, constants, uniform, cursor, False, order, units, cell_units, full)
    return int(boards[0, 0]).bit_length(), pheromone


@pytest.mark.parametrize("kernel", KERNELS, ids=["python", "compiled"])
def test_the_released_code_is_greedy_when_the_draw_is_above_q0_and_the_paper_when_below(kernel):
    # the code's rule is greedy above q0 = 0.9; the paper's above 1 - q0 (greedy with probability q0):
    # greedy takes the favourite (5), the roulette at point 0 the first candidate (1)
    assert _one_step(kernel, (0.95, 0.0), greedy_above=True)[0] == 5
    assert _one_step(kernel, (0.95, 0.0), greedy_above=False)[0] == 5
    assert _one_step(kernel, (0.05, 0.0), greedy_above=False)[0] == 1
    assert _one_step(kernel, (0.5, 0.0), greedy_above=True)[0] == 1
    assert _one_step(kernel, (0.5, 0.0), greedy_above=False)[0] == 5
    # the roulette weighs by pheromone: value 5 holds 10 of the 18 parts, from 4/18 to 14/18
    assert _one_step(kernel, (0.5, 0.5), greedy_above=True)[0] == 5
    assert _one_step(kernel, (0.5, 0.8), greedy_above=True)[0] == 6


@pytest.mark.parametrize("kernel", KERNELS, ids=["python", "compiled"])
def test_a_placed_value_decays_its_pheromone_towards_tau0(kernel):
    value, pheromone = _one_step(kernel, (0.95, 0.0), greedy_above=True)
    expected = np.full((81, 9), 1 / 81)
    expected[0, 4] = 0.9 * 10 / 81 + 0.1 / 81
    assert value == 5 and np.allclose(pheromone, expected, rtol=0, atol=1e-15)


def _with_nine_only_at_the_row_ends_corner(*, last_given: bool) -> Puzzle:
    """A 9x9 whose 9s leave the top row's 9 one place, the top-right corner; ``last_given`` puts a
    given in that corner's column after them, so that propagation looks at the corner again."""
    cells = [0] * 81
    for row, col in ((1, 0), (2, 3), (4, 6), (7, 7)):
        cells[9 * row + col] = 9
    if last_given:
        cells[80] = 1
    return Puzzle(cells)


def test_propagation_fixes_a_hidden_single_among_the_peers_of_a_value_just_fixed():
    # the released solver constrains the peers of each cell it fixes, not the whole grid
    for kernel in KERNELS:
        seen = Pheromone(_with_nine_only_at_the_row_ends_corner(last_given=True)).domains
        assert seen[8] == 1 << 8  # the hidden single, found when the corner's column gained a value
        unseen = kernel.initial_domains(
            _with_nine_only_at_the_row_ends_corner(last_given=False).cells.astype(np.int64),
            *_layout(_with_nine_only_at_the_row_ends_corner(last_given=False)),
        )
        assert unseen[8] != 1 << 8 and unseen[8] & (1 << 8)  # no peer of the corner was fixed after the 9s


def test_a_propagation_of_the_givens_stopped_goes_on_where_it_stopped():
    # the Python twin asks between two givens: stopped after the first few, the start is them
    # propagated and every other given as it is; the next call ends as one uninterrupted call
    puzzle = read(REPO / "data" / "9x9.txt")[0]  # 26 givens: the first 23 fix 3 cells, 25 fix 23, all 26 fix 55
    whole = ant_colony_kernel.initial_domains(puzzle.cells.astype(np.int64), *_layout(puzzle))
    filled = []
    for asks in (1, 23, 25):
        _givens.cache_clear()  # the propagation is kept for the puzzle: begin it again
        pheromone, answers = Pheromone(puzzle, compiled=False), iter([False] * (asks - 1))
        start = np.asarray(pheromone.start(Individual, until=lambda: next(answers, True)))
        reached = np.flatnonzero(puzzle.givens)[asks - 1] + 1  # the cells whose givens were propagated
        first = np.where(np.arange(81) < reached, puzzle.cells, 0).astype(np.int64)
        expected = np.empty((1, 81), dtype=np.int64)
        ant_colony_kernel.values(ant_colony_kernel.initial_domains(first, *_layout(puzzle))[None, :], expected)
        expected[0, puzzle.givens] = puzzle.cells[puzzle.givens]
        assert np.array_equal(start, expected[0])
        filled.append(np.count_nonzero(start))
        assert np.array_equal(pheromone.domains, whole)
    assert filled == [26, 29, 49]


def test_propagation_fixes_a_naked_single():
    cells = [0] * 81
    cells[:8] = range(1, 9)
    assert Pheromone(Puzzle(cells)).domains[8] == 1 << 8
    assert Pheromone(Puzzle(cells)).start(Individual)[8] == 9


def test_an_ants_fitness_is_its_failed_cells_and_its_values_never_clash():
    pheromone = Pheromone(BIG)
    colony = pheromone.colony(Individual, ants=6, rng=random.Random(2))
    grids = np.asarray(colony)
    failed = np.count_nonzero(grids == 0, axis=1)
    assert failed.max() > 0  # the colony fails cells on this puzzle: the claim is about them
    assert [eval_collisions(ant, puzzle=BIG)[0] for ant in colony] == failed.tolist()
    for unit in grids[:, BIG.shape.units].reshape(-1, BIG.n):  # every row, column and box of every ant
        values = unit[unit > 0]
        assert len(set(values.tolist())) == values.size
    assert (grids[:, BIG.givens] == BIG.cells[BIG.givens]).all()


@pytest.mark.parametrize("puzzle", [LLOYD_16, read(REPO / "data" / "6x6.txt")[0]], ids=["16x16", "6x6"])
def test_the_compiled_and_python_twins_build_the_same_colonies(puzzle):
    runs = []
    for compiled in (False, True):
        pheromone, rng = Pheromone(puzzle, compiled=compiled), random.Random(5)
        grids = []
        for _ in range(3):
            colony = pheromone.colony(Individual, ants=4, q0=0.5, rng=rng)
            pheromone.deposit(colony[0], 7.0)
            grids.append(np.asarray(colony))
        runs.append((np.asarray(grids), pheromone.matrix.copy()))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert (runs[0][1] != 1 / puzzle.shape.cells).any()  # the colonies changed the pheromone


def test_the_global_update_moves_the_best_grids_values_towards_the_amount():
    pheromone = Pheromone(LLOYD_16)
    grid = np.array(LLOYD_16.cells)
    grid[np.flatnonzero(grid == 0)[:5]] = 0  # a grid with filled and empty cells
    before = pheromone.matrix.copy()
    pheromone.deposit(grid, 3.0, rho=0.9)
    filled = np.flatnonzero(grid)
    expected = before.copy()
    expected[filled, grid[filled] - 1] = 0.1 * before[filled, grid[filled] - 1] + 0.9 * 3.0
    assert np.allclose(pheromone.matrix, expected) and (pheromone.matrix != before).sum() == filled.size


def test_the_best_grid_changes_only_for_an_ant_worth_more_than_the_evaporated_best_value():
    # 100 cells: an ant with u failed cells is worth 100 / u; the best value halves each iteration here
    failed, marks, deposits = iter([100, 10, 20, 25, 50]), itertools.count(1), []
    toolbox = base.Toolbox()
    toolbox.register("individual", lambda until=None: Individual(np.zeros(100, dtype=np.int8)))  # generation 0
    toolbox.register("colony", lambda poll=None: [Individual(np.full(100, next(marks), dtype=np.int8))])
    toolbox.register("evaluate", lambda ant: (next(failed),))
    toolbox.register("deposit", lambda grid, amount: deposits.append((int(grid[0]), amount)))
    toolbox.register("clone", clone)
    pheromone = np.zeros((100, 10))
    ea_ant_colony(
        toolbox, pheromone=pheromone, stop=Stop(max_generations=4), rng=random.Random(0), best_evaporation=0.5
    )
    # 1: worth 10 > 0, kept, deposited, halved to 5; 2: worth 5, not > 5, the first grid gets 5, then 2.5;
    # 3: worth 4 > 2.5, kept; 4: worth 2, not > 2, the third grid gets 2
    assert deposits == [(1, 10.0), (1, 5.0), (3, 4.0), (3, 2.0)]


def test_a_run_is_its_seed_and_spends_its_evaluation_budget_exactly():
    runs = [ant_colony(LLOYD_16, seed=4, stop=Stop(max_generations=6), population_size=5) for _ in range(2)]
    assert [r["min"] for r in runs[0][1]] == [r["min"] for r in runs[1][1]]
    assert np.array_equal(runs[0][2][0], runs[1][2][0])
    result = run_task(Task("acs", BIG, 3, options={"max_evaluations": 25}))
    assert result.evaluations == 25 and result.generations == 3  # 1 starting grid, 10, 10 and 4 of 10 ants


def test_each_colony_draws_from_the_runs_generator():
    pheromone, rng = Pheromone(read(REPO / "data" / "16x16.txt")[0]), random.Random(4)  # 112 cells open
    first, second = (np.array(pheromone.colony(Individual, ants=3, rng=rng)) for _ in range(2))
    other = np.array(pheromone.colony(Individual, ants=3, rng=random.Random(5)))
    assert not np.array_equal(first, second) and not np.array_equal(first, other)


def test_the_python_twin_keeps_a_time_budget_inside_a_colony():
    # a 25x25 colony takes the Python twin a second or more: the budget is asked every few steps
    assert Pheromone(BIG, compiled=False).domains.size  # the givens' propagation, kept for the puzzle, before the clock
    # judged against the machine: a quarter of one whole colony's time to spend.  A colony that did not
    # ask the clock would finish and be logged, and cost the whole colony (a calibration run with a
    # small budget, as this test had, cost a whole colony too under that break, and excused it).
    (_, whole, _), colony = timed(lambda: ant_colony(BIG, seed=0, compiled=False, stop=Stop(max_generations=1)))
    assert len(whole) == 2  # the propagated givens, then one colony
    budget = colony.cpu / 4
    (_, logbook, _), took = timed(lambda: ant_colony(BIG, seed=0, compiled=False, stop=Stop(max_seconds=budget)))
    assert logbook.stop_reason == "time" and len(logbook) == 1, logbook  # the colony in progress dropped
    assert took.cpu < colony.cpu / 2, (took, colony)


def test_bad_settings_are_refused_before_a_colony_is_built():
    with pytest.raises(ValueError, match="greedy is one of"):
        Pheromone(LLOYD_16).colony(Individual, greedy="greedy", rng=random.Random(0))
    with pytest.raises(ValueError, match="q0 is a probability"):
        Pheromone(LLOYD_16).colony(Individual, q0=1.5, rng=random.Random(0))
    with pytest.raises(ValueError, match="at least 1"):
        Pheromone(LLOYD_16).colony(Individual, ants=0, rng=random.Random(0))
    with pytest.raises(ValueError, match="rho is a rate"):
        Pheromone(LLOYD_16).deposit(LLOYD_16.cells, 1.0, rho=2)


def test_in_float32_a_placed_value_falls_one_rounding_step_below_tau0_as_in_the_original():
    # the authors' tau * 0.9f + tau0 * 0.1f at tau0 = 1/81: one float32 step below tau0
    pheromone = Pheromone(Puzzle([0] * 81))
    assert pheromone.matrix.dtype == np.float32 and pheromone.tau0 == np.float32(1) / np.float32(81)
    tau0 = np.float32(pheromone.tau0)
    assert tau0 * np.float32(0.9) + tau0 * np.float32(0.1) == np.nextafter(tau0, np.float32(0))
    pheromone.colony(Individual, ants=1, q0=0.0, rng=random.Random(0))  # every choice greedy
    placed = pheromone.matrix[pheromone.matrix != tau0]
    assert placed.size and (placed == np.nextafter(tau0, np.float32(0))).all()
    assert (Pheromone(Puzzle([0] * 81), precision="float64").matrix == 1 / 81).all()
