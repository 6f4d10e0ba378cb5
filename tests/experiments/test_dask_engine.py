"""Dask as the engine beyond one machine (issue 62): the same plan as independent tasks on a Dask
cluster's workers gives the serial runs seed for seed, a lost worker's runs go to another, only the
starting process writes files, and ``bench --scheduler`` is the same through the command line."""

from __future__ import annotations

import json
import os
import signal

import pytest
from click.testing import CliRunner

from deap_sudoku import load_sample
from deap_sudoku.cli import main
from deap_sudoku.experiments import Experiment, run_experiment

from tests.conftest import REPO

distributed = pytest.importorskip("distributed")

PUZZLES = {"easy": [load_sample("testdata/easy.txt", i) for i in range(2)]}
PUZZLES["hard"] = [load_sample("testdata/hard.txt", i) for i in range(2)]
OPTIONS = {"tabu": {"max_steps": 4000}, "block-ga": {"max_generations": 15}}


def _key(results) -> list[tuple]:
    fields = ("algorithm", "dataset", "index", "seed", "solved", "evaluations", "fitness")
    return [(*(getattr(r, name) for name in fields), tuple(r.grid)) for r in results]


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, on this machine."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
    ) as local:
        yield local


@pytest.fixture(scope="module")
def serial() -> list[tuple]:
    return _key(run_experiment(["tabu", "block-ga"], PUZZLES, runs=2, options=OPTIONS))


@pytest.mark.slow
def test_the_runs_on_dask_are_the_serial_runs_and_each_hosts_share_is_counted(cluster, serial, tmp_path):
    results = tmp_path / "runs.jsonl"
    on_dask = run_experiment(["tabu", "block-ga"], PUZZLES, runs=2, options=OPTIONS, scheduler=cluster, results=results)
    assert _key(on_dask) == serial
    again = run_experiment(["tabu", "block-ga"], PUZZLES, runs=2, options=OPTIONS, scheduler=cluster, results=results)
    assert _key(again) == serial  # all in the results file, written here: nothing run again
    with Experiment(["tabu"], PUZZLES, runs=1, options=OPTIONS) as experiment:
        list(experiment.run(scheduler=cluster.scheduler_address))
        assert sum(share.runs for share in experiment.hosts.values()) == 4
        assert all(share.cpu_seconds > 0 for share in experiment.hosts.values())


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_no_run(cluster, serial):
    """SIGKILL to one worker process once the first result is in: Dask's nanny starts another, the
    runs the dead one held are given to a worker again, and the results are the serial ones."""
    with distributed.Client(cluster, set_as_default=False) as client:
        pids = client.run(os.getpid)
        with Experiment(["tabu", "block-ga"], PUZZLES, runs=2, options=OPTIONS) as experiment:
            results = []
            for result in experiment.run(scheduler=client):
                if not results:
                    os.kill(next(iter(pids.values())), signal.SIGKILL)
                results.append(result)
    assert _key(results) == serial
    client_pids = distributed.Client(cluster, set_as_default=False)
    try:
        assert set(client_pids.run(os.getpid).values()) != set(pids.values())  # a worker was started anew
    finally:
        client_pids.close()


@pytest.mark.slow
def test_bench_on_a_dask_scheduler_gives_the_serial_runs_and_refuses_what_cannot_work(cluster, tmp_path):
    data = str(REPO / "data" / "testdata" / "easy.txt")
    command = ["bench", data, "-a", "tabu", "--runs", "2", "--limit", "2", "--max-steps", "3000", "-q", "--json"]
    done = CliRunner().invoke(main, [*command, str(tmp_path / "dask.json"), "--scheduler", cluster.scheduler_address])
    assert done.exit_code == 0, done.output
    serially = CliRunner().invoke(main, [*command, str(tmp_path / "serial.json")])
    assert serially.exit_code == 0, serially.output
    on_dask, alone = (json.loads((tmp_path / name).read_text()) for name in ("dask.json", "serial.json"))
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in on_dask["runs"]] == [
        {k: v for k, v in r.items() if k != "seconds"} for r in alone["runs"]
    ]
    assert sum(share["runs"] for share in on_dask["provenance"]["hosts"].values()) == 4
    both = CliRunner().invoke(main, [*command, "-", "--scheduler", cluster.scheduler_address, "--workers", "2"])
    assert both.exit_code == 2 and "not both" in both.output
