"""Every results file, ``--json`` report and export says where it came from, and a results file of
another experiment is refused with one line that says what differs."""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import platform
import socket
import subprocess
import sys

import pytest
from click.testing import CliRunner

from deap_sudoku import __version__
from deap_sudoku.cli import main
from deap_sudoku.experiments import StoreError, read_results, run_experiment
from deap_sudoku.experiments.provenance import command_line
from deap_sudoku.io.samples import load_samples
from tests.conftest import REPO

EASY = {"easy": load_samples("testdata/easy.txt")[:1]}
TWO = {"block-ga": {"max_generations": 2}}


def _headers(path) -> list[dict]:
    return [r for r in map(json.loads, path.read_text().splitlines()) if r["format"] == "deap_sudoku.experiment/1"]


def test_a_results_file_records_the_experiment_and_where_it_came_from(tmp_path):
    kept = tmp_path / "runs.jsonl"
    run_experiment(["block-ga"], EASY, runs=2, seed=5, options=TWO, results=kept)
    [header] = _headers(kept)
    assert header["experiment"] == {"algorithms": {"block-ga": {"max_generations": 2}}, "datasets": ["easy"]}
    made = header["provenance"]
    assert made["deap_sudoku"] == __version__ and made["seed"] == 5
    assert made["deap"] == importlib.metadata.version("deap") and made["numpy"] == importlib.metadata.version("numpy")
    assert made["numba"] == importlib.metadata.version("numba") and made["python"].endswith(platform.python_version())
    assert made["host"] == socket.gethostname()
    started = datetime.datetime.fromisoformat(made["started"])
    assert abs((datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()) < 120
    assert (
        made["call"] == "run_experiment([block-ga], {easy: 1 puzzles}, runs=2, seed=5, options={'block-ga': "
        "{'max_generations': 2}})"
    )
    assert made["command"] == command_line() != ""  # this process's, as a shell would take it again
    if (REPO / ".git").exists():  # run from a checkout: the commit, and whether the package's files differ
        head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
        assert made["revision"].split()[0] == head.strip()


def test_a_file_of_another_experiment_is_refused_saying_what_differs(tmp_path):
    kept = tmp_path / "runs.jsonl"
    run_experiment(["block-ga"], EASY, runs=1, options=TWO, results=kept)
    before = kept.read_bytes()
    cases = [
        (
            ["block-ga", "row-ga"],
            EASY,
            {**TWO, "row-ga": {"max_generations": 2}},
            "its algorithms are block-ga; this one's are block-ga, row-ga",
        ),
        (
            ["block-ga"],
            EASY,
            {"block-ga": {"max_generations": 3}},
            "its block-ga runs with max_generations=2; this one's with max_generations=3",
        ),
        (["block-ga"], {"hard": EASY["easy"]}, TWO, "its datasets are easy; this one's are hard"),
    ]
    for algorithms, datasets, options, difference in cases:
        with pytest.raises(StoreError, match=f"runs.jsonl:1: holds another experiment: {difference}; give this"):
            run_experiment(algorithms, datasets, runs=1, options=options, results=kept)
    assert kept.read_bytes() == before


def test_more_runs_of_the_same_experiment_go_on_in_its_file_with_a_header_of_their_own(tmp_path):
    kept = tmp_path / "runs.jsonl"
    run_experiment(["block-ga"], EASY, runs=1, options=TWO, results=kept)
    results = run_experiment(["block-ga"], EASY, runs=3, options=TWO, results=kept)
    assert len(results) == 3 and len(read_results(kept)) == 3 and len(_headers(kept)) == 2


def test_a_file_of_runs_without_headers_is_still_read_and_gets_one(tmp_path):
    kept = tmp_path / "runs.jsonl"
    run_experiment(["block-ga"], EASY, runs=1, options=TWO, results=kept)
    kept.write_text("".join(line + "\n" for line in kept.read_text().splitlines() if '"deap_sudoku.run/1"' in line))
    results = run_experiment(["block-ga"], EASY, runs=2, options=TWO, results=kept)
    assert len(results) == 2 and len(_headers(kept)) == 1


def test_bench_refuses_another_experiments_results_file_in_one_line(tmp_path):
    data = str(REPO / "data" / "testdata" / "easy.txt")
    kept = tmp_path / "runs.jsonl"
    common = ["bench", data, "--limit", "1", "--max-generations", "2", "-q", "--results", str(kept)]
    assert CliRunner().invoke(main, [*common, "-a", "block-ga"]).exit_code == 0
    refused = CliRunner().invoke(main, [*common, "-a", "row-ga"])
    assert refused.exit_code == 2
    assert (
        refused.stderr.strip()
        .splitlines()[-1]
        .endswith(
            f"--results {kept}:1: holds another experiment: its algorithms are block-ga; this one's are row-ga; "
            "give this experiment a file of its own"
        )
    )


def test_bench_json_records_the_command_the_user_typed(tmp_path):
    data = str(REPO / "data" / "testdata" / "easy.txt")
    command = ["bench", data, "--limit", "1", "-a", "block-ga", "--max-generations", "2", "-q", "--json", "-"]
    done = subprocess.run([sys.executable, "-m", "deap_sudoku", *command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    made = json.loads(done.stdout)["provenance"]
    assert made["command"] == "deap-sudoku " + " ".join(command) and made["deap_sudoku"] == __version__
