import itertools
import random
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deap_sudoku import Puzzle, Shape, read
from deap_sudoku.exact.generate import generate_puzzle, random_solution
from deap_sudoku.exact import SearchBudgetExceeded, count_solutions, is_unique, search, solve, verify
from deap_sudoku.propagation import propagate

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


@lru_cache(maxsize=None)
def all_4x4_solutions() -> np.ndarray:
    """Every valid 4x4 grid, by brute force over all 24**4 choices of row permutations."""
    perms = np.array(list(itertools.permutations(range(1, 5))))
    grids = perms[np.array(list(itertools.product(range(24), repeat=4)))]  # (331776, 4, 4)
    boxes = grids.reshape(-1, 2, 2, 2, 2).transpose(0, 1, 3, 2, 4).reshape(-1, 4, 4)
    ok = np.all(np.sort(grids, axis=1) == np.arange(1, 5)[:, None], axis=(1, 2))
    ok &= np.all(np.sort(boxes, axis=2) == np.arange(1, 5), axis=(1, 2))
    return grids[ok].reshape(-1, 16)


def test_brute_force_finds_the_288_4x4_grids():
    assert len(all_4x4_solutions()) == 288
    assert all(verify(g) for g in all_4x4_solutions())


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=16, max_size=16))
def test_counts_match_brute_force_on_4x4(values):
    """Random givens (conflicting ones excluded): the search counts exactly what enumeration finds."""
    try:
        puzzle = Puzzle(values)
    except ValueError:
        return
    givens = puzzle.givens
    expected = int(np.sum(np.all(all_4x4_solutions()[:, givens] == puzzle.cells[givens], axis=1)))
    result = search(puzzle, limit=1000)
    assert result.count == expected and result.exhausted
    assert all(verify(s, puzzle) for s in result.solutions)
    assert len(set(result.solutions)) == expected
    solution = solve(puzzle, rng=random.Random(values[0]))
    assert (solution is None) == (expected == 0)
    assert solution is None or verify(solution, puzzle)


def test_naked_singles_alone_solve_an_easy_puzzle():
    puzzle = Puzzle.parse(EASY)
    result = propagate(puzzle, hidden_singles=False)
    assert result.solved and not result.contradiction
    assert verify(result.values, puzzle)
    assert result.filled == 81 - 32


def test_hidden_singles_go_further_than_naked_singles(shared_data):
    [puzzle] = read(shared_data / "lloyd_amos_aco/logic-solvable/goldennugget.txt")
    naked = propagate(puzzle, hidden_singles=False)
    hidden = propagate(puzzle)
    assert hidden.filled >= naked.filled
    assert all(hidden.candidates[c] <= naked.candidates[c] for c in range(81))
    top95 = read(shared_data / "norvig_pytudes/top95.txt")
    gains = [propagate(p).filled - propagate(p, hidden_singles=False).filled for p in top95]
    assert max(gains) > 0


def test_propagation_reports_contradiction():
    # r1c9 can only be 9 (row), but column 9 already holds a 9.
    puzzle = Puzzle.parse("12345678." + "........9" + "." * 63)
    result = propagate(puzzle)
    assert result.contradiction and not result.solved
    assert solve(puzzle) is None
    assert count_solutions(puzzle) == 0


def test_candidates_shrink_and_agree_with_values():
    puzzle = Puzzle.parse(EASY)
    partial = propagate(Puzzle.parse("4....." + "." * 75), hidden_singles=False)
    assert partial.candidates[1] == frozenset(range(1, 10)) - {4}
    full = propagate(puzzle)
    assert all(full.candidates[c] == {int(full.values[c])} for c in range(81))


def test_uniqueness_counts(shared_data):
    names = (shared_data / "lloyd_amos_aco/normalized/logic_solvable_9x9.names").read_text().split()
    puzzles = read(shared_data / "lloyd_amos_aco/normalized/logic_solvable_9x9.txt")
    counts = {name: count_solutions(p) for name, p in zip(names, puzzles)}
    assert counts.pop("sabuncu3") == 2  # documented in SOURCES.md: more than one solution
    assert set(counts.values()) == {1}
    serg = read(shared_data / "tdoku_data/serg_benchmark.txt")[:5]
    assert all(count_solutions(p) == 2 for p in serg)
    assert count_solutions(serg[0], limit=5) >= 2
    assert not is_unique(serg[0]) and is_unique(puzzles[0])


def test_search_budget_is_enforced():
    empty = Puzzle([0] * 81)
    with pytest.raises(SearchBudgetExceeded):
        count_solutions(empty, limit=10**6, max_nodes=50)
    with pytest.raises(SearchBudgetExceeded):
        solve(Puzzle([0] * 625), max_nodes=3)


@pytest.mark.parametrize(
    "name, stride",
    [
        ("norvig_pytudes/hardest.txt", 1),
        ("norvig_pytudes/top95.txt", 4),
        ("norvig_pytudes/easy50.txt", 4),
        ("tdoku_data/forum_hardest_1106.txt", 10),
    ],
)
def test_hard_9x9_sets_are_solved(shared_data, name, stride):
    for puzzle in read(shared_data / name)[::stride]:
        solution = solve(puzzle)
        assert solution is not None and verify(solution, puzzle)
        assert np.array_equal(solution.cells[puzzle.givens], puzzle.cells[puzzle.givens])


@pytest.mark.parametrize("size, fraction", [(16, 50), (16, 70), (25, 60), (25, 80)])
def test_large_instances_are_solved(shared_data, size, fraction):
    for index in (0, 1):
        [puzzle] = read(shared_data / f"lloyd_amos_aco/general/inst{size}x{size}_{fraction}_{index}.txt")
        solution = solve(puzzle)
        assert verify(solution, puzzle)


@pytest.mark.parametrize("box", [(2, 3), (3, 2), (2, 4), (3, 4), (4, 3), (6, 6)], ids=str)
def test_other_shapes_solve_and_generated_puzzles_are_unique(box):
    shape = Shape(*box)
    # 36x36 with half its cells given sits near the hard phase transition; keep it easy here.
    givens = shape.cells // 2 if shape.n <= 12 else shape.cells * 3 // 4
    puzzle = generate_puzzle(shape, givens, random.Random(1), unique=shape.n <= 12)
    solution = solve(puzzle)
    assert verify(solution, puzzle)
    if shape.n <= 12:
        assert is_unique(puzzle)


def test_verify_rejects_every_kind_of_wrong_grid():
    puzzle = Puzzle.parse(EASY)
    solution = solve(puzzle)
    good = solution.cells.copy()
    assert verify(good) and verify(good, puzzle) and verify(good.reshape(9, 9), puzzle)
    assert verify(solution) and verify(list(good))
    swapped = good.copy()
    swapped[[0, 1]] = swapped[[1, 0]]
    assert not verify(swapped)  # columns now repeat
    incomplete = good.copy()
    incomplete[5] = 0
    assert not verify(incomplete)
    assert not verify(good[:80]) and not verify(np.append(good, 1))
    assert not verify(good.astype(float))
    other = solve(Puzzle.parse("1" + "0" * 80), rng=random.Random(3))
    if not np.array_equal(other.cells, good):
        assert not verify(other, puzzle)  # valid grid, but not these givens
    assert not verify(good, Puzzle([0] * 16))


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]),
    st.integers(0, 2**32 - 1),
    st.floats(0.0, 0.6),
    st.booleans(),
)
def test_compiled_search_visits_the_same_nodes_and_finds_the_same_solutions(box, seed, keep, randomised):
    rng = random.Random(seed)
    solution = random_solution(Shape(*box), rng)
    cells = [v if rng.random() < keep else 0 for v in solution.cells.tolist()]
    puzzle = Puzzle(cells, box=box)

    def outcome(compiled):
        try:
            return search(
                puzzle, limit=3, max_nodes=5000, compiled=compiled, rng=random.Random(seed) if randomised else None
            )
        except SearchBudgetExceeded as exc:  # both kernels must run out at the same node
            return str(exc)

    assert outcome(False) == outcome(True)


def test_compiled_search_is_used_where_it_pays_and_refused_where_masks_overflow():
    from deap_sudoku.exact.backtracking import _use_compiled

    big = Puzzle([0] * 81**2, box=(9, 9))
    assert _use_compiled(Puzzle([0] * 256), None) and not _use_compiled(big, None)
    with pytest.raises(ValueError, match="sides up to 64"):
        search(big, compiled=True)


def test_a_large_grid_first_probes_in_python_and_the_answer_is_the_compiled_ones(monkeypatch):
    """Before numba is loaded, a 16x16 search tries in Python for PROBE_SECONDS; a probe that runs
    out is thrown away and the compiled search starts over: the same answer and nodes either way."""
    import sys
    from deap_sudoku.exact import backtracking
    from deap_sudoku.propagation import choice

    puzzle = Puzzle([0] * 256)  # two of its grids take tens of nodes
    expected = search(puzzle, limit=2, compiled=True)
    assert expected.nodes > 10
    kernels = []
    for name in ("_search_python", "_search_compiled"):
        original = getattr(backtracking, name)

        def spy(*args, _name=name, _original=original):
            kernels.append(_name)
            return _original(*args)

        monkeypatch.setattr(backtracking, name, spy)
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(choice, "_spent", [0.0])
    monkeypatch.setattr(choice, "PROBE_SECONDS", 60.0)  # a probe that has time settles it (load cannot end it)
    assert search(puzzle, limit=2) == expected and kernels == ["_search_python"]
    monkeypatch.setattr(choice, "PROBE_SECONDS", 1e-9)  # the probe runs out at its first node
    monkeypatch.setattr(choice, "_spent", [0.0])
    assert search(puzzle, limit=2) == expected and kernels == ["_search_python"] * 2 + ["_search_compiled"]
    monkeypatch.setattr(choice, "_spent", [choice.PROBE_SECONDS])  # Python has had its probe
    assert search(puzzle, limit=2) == expected and kernels[-1] == "_search_compiled" and len(kernels) == 4
    with pytest.raises(SearchBudgetExceeded, match="after 3 search nodes"):  # the search's own budget wins
        monkeypatch.setattr(choice, "_spent", [0.0])
        search(Puzzle([0] * 256), max_nodes=3)


@pytest.mark.parametrize("box", [7, 8])
def test_the_compiled_search_holds_64_values(box):
    """Value 64's bit is an int64 mask's sign bit: the compiled search visits the same nodes and finds
    the same solutions as the Python one on 49x49 and 64x64 grids (it used to stop at 62 values)."""
    from tests.conftest import pattern_puzzle

    puzzle = pattern_puzzle(box, 600)
    python, compiled = (search(puzzle, limit=2, max_nodes=400, compiled=twin) for twin in (False, True))
    assert compiled == python and python.count >= 1
    assert all(verify(s.cells, puzzle) for s in compiled.solutions)


def test_a_random_grids_restarts_stop_growing_at_the_cap(monkeypatch):
    """A try that runs long is lost in a subtree with no solution: the budget must stop growing at
    2.5 nodes per cell, or one 64x64 grid takes minutes for some seeds (benchmarks/random_grids.py)."""
    from deap_sudoku.exact import backtracking

    budgets, real = [], backtracking.search

    def fails_eight_times(puzzle, **options):
        budgets.append(options["max_nodes"])
        if len(budgets) <= 8:
            raise SearchBudgetExceeded("spent")
        return real(puzzle, **options)

    monkeypatch.setattr(backtracking, "search", fails_eight_times)
    grid = random_solution(Shape(4, 4), random.Random(0))
    assert budgets == [200, 300, 450, 640, 640, 640, 640, 640, 640]  # 640 = 2.5 x 256 cells
    assert verify(grid, Puzzle([0] * 256, box=(4, 4)))
    with pytest.raises(ValueError, match="max_try_nodes must be a whole number of at least 1"):
        solve(Puzzle([0] * 16, box=(2, 2)), max_try_nodes=0)


def test_grids_drawn_before_the_cap_are_the_same_as_before():
    """The cap changes no grid that was drawn before reaching it: the seeded instance sets that
    docs/performance.md names (36x36, seed 0) stay what they were."""
    import hashlib

    cells = random_solution(Shape(6, 6), random.Random(0)).cells
    digest = hashlib.sha256(cells.astype(np.int64).tobytes()).hexdigest()[:16]
    assert digest == "5c58d6022de2c831"  # what the commit before the cap drew
