"""The ant colony replayed against Lloyd & Amos's own solver (benchmarks/acs_replay.py): the same
draws give the same ants' grids, pheromone (float32, bit for bit) and best value, iteration by
iteration, against the committed trace of the original, and live where g++ and its source are."""

import importlib.util
import json
import shutil

import pytest

from tests.conftest import REPO

_spec = importlib.util.spec_from_file_location("acs_replay", REPO / "benchmarks" / "acs_replay.py")
replay = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(replay)
TRACE = json.loads((REPO / "benchmarks" / "results" / "acs_replay.json").read_text())


@pytest.mark.parametrize("case", TRACE["cases"], ids=lambda case: f"{case['size']}-{case['greedy']}")
def test_the_colony_replays_the_originals_trace(case, shared_data):
    puzzle = replay.case_puzzle(shared_data, case["size"], case["puzzle"])
    iterations = TRACE["iterations"]
    mine = replay.ours(puzzle, replay.stream_for(TRACE["seed"], puzzle, iterations), case["greedy"], iterations)
    assert [state.digest() for state in mine] == case["iterations"]


@pytest.mark.slow
def test_the_colony_replays_the_original_built_here(tmp_path, shared_data):
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    source = replay.source_folder(None, tmp_path / "source")
    if source is None:
        pytest.skip(f"no source of the original (set {replay.SOURCE_ENV})")
    binary = replay.build(source, tmp_path / "build", "-O0")
    for size, name, greedy in replay.CASES[:1]:  # a 9x9 under the code's rule, 20 iterations (the trace has the rest)
        puzzle = replay.case_puzzle(shared_data, size, name)
        theirs = replay.original(binary, puzzle, replay.stream_for(1, puzzle, 20), greedy, 20, tmp_path)
        mine = replay.ours(puzzle, replay.stream_for(1, puzzle, 20), greedy, 20)
        assert replay.first_difference(theirs, mine) is None
