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
    with Experiment(["tabu", "block-ga"], PUZZLES, runs=2, options=OPTIONS) as again:
        kept = again.open(results)  # all in the results file, written here: nothing to run again
        assert _key(kept) == serial and list(again.run(scheduler=cluster)) == [] and again.hosts == {}
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


SBATCH = """#!/bin/sh
# sbatch's stand-in: a copy of the job script (the caller may delete it once submitted), run in the
# background in a session of its own; SLURM's line on standard output.
here=$(dirname "$0")
id=$(( $(date +%s%N) % 1000000 ))
cp "$1" "$here/job-$id.sh"
setsid bash "$here/job-$id.sh" > "$here/job-$id.out" 2>&1 < /dev/null &
echo "$!" > "$here/job-$id.pid"
echo "Submitted batch job $id"
"""
SCANCEL = """#!/bin/sh
# scancel's stand-in: each job's process group ended, its id noted.
for id in "$@"; do
    echo "$id" >> "$(dirname "$0")/cancelled"
    pid=$(cat "$(dirname "$0")/job-$id.pid" 2>/dev/null) && kill -TERM -- "-$pid" 2>/dev/null
done
exit 0
"""


def _workers_of(folder) -> list[int]:
    """The Dask workers the stand-in jobs in ``folder`` started (Linux's /proc)."""
    from pathlib import Path

    jobs = {int(p.read_text()) for p in Path(folder).glob("job-*.pid")}
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
            line = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[3]) in jobs and b"dask_worker" in line:  # its process group: a job's
            found.append(int(entry.name))
    return found


@pytest.mark.slow
def test_the_cluster_pages_slurm_script_runs_as_written_with_dask_jobqueue(tmp_path):
    """docs/cluster.md's dask-jobqueue script, with stand-ins for sbatch and scancel: the workers
    are jobs, the runs are the serial ones, and no worker outlives the script."""
    import re
    import subprocess
    import sys
    import time

    pytest.importorskip("dask_jobqueue")
    page = (REPO / "docs" / "cluster.md").read_text()
    (script,) = [block for block in re.findall(r"```python\n(.*?)```", page, re.S) if "SLURMCluster" in block]
    (tmp_path / "slurm.py").write_text(script)
    stand_ins = tmp_path / "slurm"
    stand_ins.mkdir()
    for name, text in (("sbatch", SBATCH), ("scancel", SCANCEL), ("squeue", "#!/bin/sh\nexit 0\n")):
        (stand_ins / name).write_text(text)
        (stand_ins / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{stand_ins}{os.pathsep}{os.environ['PATH']}"}
    command = [sys.executable, "slurm.py"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    alone = run_experiment(["tabu"], {"easy": PUZZLES["easy"]}, runs=3, options={"tabu": {"max_steps": 3000}})
    expected = [[r.index, r.seed, r.solved, r.evaluations] for r in alone]
    assert json.loads((tmp_path / "dask.json").read_text()) == expected
    submitted = sorted(path.name.split("-")[1].split(".")[0] for path in stand_ins.glob("job-*.sh"))
    assert len(submitted) == 2  # two worker jobs
    assert sorted((stand_ins / "cancelled").read_text().split()) == submitted  # the cluster closed: both cancelled
    deadline = time.monotonic() + 75  # a worker shuts down gracefully, or by its 60 s death timeout under load
    while _workers_of(stand_ins) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _workers_of(stand_ins) == []


@pytest.mark.slow
def test_runs_in_the_workers_own_process_need_workers_of_one_thread():
    """Two threads of one worker would make two runs at once in one process, sharing the global
    generators DEAP's operators draw from: refused for contain=False; contained, each run has a
    process of its own and the results are the serial ones."""
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None, silence_logs=50
    ) as threaded:
        with pytest.raises(ValueError, match="more than one thread"):
            run_experiment(["tabu"], PUZZLES, runs=1, options=OPTIONS, scheduler=threaded, contain=False)
        contained = run_experiment(["tabu"], PUZZLES, runs=1, options=OPTIONS, scheduler=threaded)
    assert _key(contained) == _key(run_experiment(["tabu"], PUZZLES, runs=1, options=OPTIONS))
