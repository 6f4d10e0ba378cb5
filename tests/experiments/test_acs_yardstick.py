"""The held-out instances of ``benchmarks/acs_yardstick.py``: a symmetry of the grid keeps every
solution a solution, and both programs read the file it writes alike."""

from __future__ import annotations

import importlib.util
import random

from deap_sudoku import read

from tests.conftest import REPO

_SPEC = importlib.util.spec_from_file_location("acs_yardstick", REPO / "benchmarks" / "acs_yardstick.py")
yardstick = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(yardstick)

ORDER = 3
SOLVED = [[(r * ORDER + r // ORDER + c) % 9 + 1 for c in range(9)] for r in range(9)]


def _valid(grid: list[list[int]]) -> bool:
    units = [row for row in grid] + [list(column) for column in zip(*grid)]
    units += [
        [grid[r][c] for r in range(b // 3 * 3, b // 3 * 3 + 3) for c in range(b % 3 * 3, b % 3 * 3 + 3)]
        for b in range(9)
    ]
    return all(sorted(unit) == list(range(1, 10)) for unit in units)


def test_a_symmetry_maps_a_puzzle_and_its_solution_to_a_puzzle_and_its_solution(tmp_path):
    puzzle = [[value if (r * 9 + c) % 3 else -1 for c, value in enumerate(row)] for r, row in enumerate(SOLVED)]
    made = set()
    for seed in range(20):
        solution = yardstick.symmetry(ORDER, SOLVED, random.Random(seed))
        held_out = yardstick.symmetry(ORDER, puzzle, random.Random(seed))  # the same draws
        assert _valid(solution)
        assert all(h in (-1, s) for hs, ss in zip(held_out, solution) for h, s in zip(hs, ss))
        assert sum(v > 0 for row in held_out for v in row) == sum(v > 0 for row in puzzle for v in row)
        made.add(tuple(map(tuple, solution)))
    assert len(made) == 20  # relabelled and permuted differently each time
    path = tmp_path / "held.txt"
    path.write_text(yardstick.dump(ORDER, held_out))
    assert yardstick.load(path) == (ORDER, held_out)
    assert read(path)[0].cells.tolist() == [max(v, 0) for row in held_out for v in row]  # as ours reads it
