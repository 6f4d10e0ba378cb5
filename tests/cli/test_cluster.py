"""SCOOP across hosts, over ssh (issue 53): an sshd on the loopback interface (tests/loopback_cluster.py)
plays the second machine; bench and run_experiment(parallel=True) give the serial runs, their standard
output holds their data alone, the exit code is the command's whichever host comes first, and a
worker really ran over ssh."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from deap_sudoku.cli import main
from deap_sudoku.cli import scoop as cli_scoop
from tests import loopback_cluster
from tests.conftest import REPO, SCOOP_LAUNCHER, messages, unsolvable

BENCH = [
    "bench",
    str(REPO / "data" / "testdata" / "easy.txt"),
    "-a",
    "tabu",
    "--limit",
    "2",
    "--runs",
    "3",
    "--max-steps",
    "3000",
]
KEYS = ("dataset", "algorithm", "index", "seed", "solved", "steps", "evaluations", "fitness")


def _runs(report: dict) -> list[dict]:
    return [{k: r[k] for k in KEYS} for r in report["runs"]]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    why = loopback_cluster.unavailable()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    started = loopback_cluster.start(tmp_path_factory.mktemp("cluster"), str(REPO))
    yield started
    started.stop()


@pytest.fixture(scope="module")
def serial(tmp_path_factory) -> list[dict]:
    path = tmp_path_factory.mktemp("serial") / "serial.json"
    result = CliRunner().invoke(main, [*BENCH, "--json", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return _runs(json.loads(path.read_text()))


def _deap_sudoku(cluster, *arguments, cwd, env=None):
    return subprocess.run(
        [sys.executable, "-m", "deap_sudoku", *arguments],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=cwd,
        env={**cluster.env, **(env or {})},
    )


@pytest.mark.slow
@pytest.mark.parametrize("hosts", ["this machine first", "the other host first", "the other host alone"])
def test_bench_over_ssh_gives_the_serial_runs_as_json_on_stdout_and_exit_0(hosts, cluster, serial, tmp_path):
    """Two hosts, 127.0.0.1 and 127.0.0.2 (a host name of its own): with this machine first SCOOP
    stopped with "Could not find route" where this machine's name resolves to 127.0.0.1 (the tunnel
    is chosen now); with the other host first the command ran there, beyond the reach of a Ctrl-C
    (issue 62, item 3: this machine now goes first wherever it is listed); with the other host alone
    the command still runs there, its JSON coming back after a remote worker's "Launching" line and
    with CRLF ends (the command exited 1 after a successful run)."""
    options = ["--workers", "2"]
    if hosts == "this machine first":  # and a prolog, sourced on the other host only (issue 62, item 2:
        # SCOOP ran it here too, as a program named source, and the command exited 255)
        (tmp_path / "prolog.sh").write_text(f'echo sourced >> "{tmp_path / "sourced.txt"}"\n')
        options += ["--hosts", "127.0.0.1,127.0.0.2", "--prolog", "prolog.sh"]
    else:
        listed = "127.0.0.2 1\n127.0.0.1 1\n" if hosts == "the other host first" else "127.0.0.2 2\n"
        (tmp_path / "hosts").write_text(listed)
        options += ["--hostfile", "hosts"]
    before = len(cluster.runs_over_ssh())
    wait = {"DEAP_SUDOKU_TEST_WAIT_FOR_SSH": str(before)}  # this machine's worker takes no run before the other host's
    completed = _deap_sudoku(cluster, *BENCH, *options, "--json", "-", cwd=tmp_path, env=wait)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "\r" not in completed.stdout and "Traceback" not in completed.stdout + completed.stderr
    document = json.loads(completed.stdout)
    assert _runs(document) == serial
    assert "INFO" not in completed.stderr and "Launching" not in completed.stderr  # SCOOP quiet without -v
    assert len(cluster.runs_over_ssh()) > before, "no run was made by a process started over ssh"
    shares = document["provenance"]["hosts"]  # issue 62, item 4: which host did what
    assert sum(share["runs"] for share in shares.values()) == len(serial) and "no run was made" not in completed.stderr
    if cluster.other_host_name:  # the host that ran the command wrote the provenance
        ran_there = hosts == "the other host alone"
        assert (document["provenance"]["host"] == cluster.other_host_name) == ran_there, document["provenance"]
        assert shares[cluster.other_host_name]["runs"] >= 1 and shares[cluster.other_host_name]["cpu_seconds"] > 0
    if hosts == "this machine first":
        assert (tmp_path / "sourced.txt").read_text() == "sourced\n"  # by the other host's workers alone
    time.sleep(0.5)  # the ssh sessions' ends reach their processes
    assert not _scoop_processes_in(tmp_path), "SCOOP's workers outlived the command"


def _scoop_processes_in(folder) -> list[str]:
    """SCOOP's processes working in ``folder`` (their command line names it; Linux's /proc)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if "scoop" in line and str(folder) in line:
                found.append(line)
    return found


@pytest.mark.slow
def test_solve_over_ssh_on_the_other_host_alone_exits_1_when_unsolved_and_prints_only_grids(cluster, tmp_path):
    """The exit code crosses ssh: 1 for an unsolved puzzle, with its grid alone on standard output;
    the command runs on the other host (this machine is not among the hosts), a name only ssh knows
    (SCOOP's workers could not resolve it: a tunnel now)."""
    (tmp_path / "unsolvable.txt").write_text(unsolvable().format())
    (tmp_path / "hosts").write_text(f"{loopback_cluster.ALIAS} 2\n")
    completed = _deap_sudoku(
        cluster,
        "solve",
        "unsolvable.txt",
        "-a",
        "memetic",
        "--max-generations",
        "3",
        "--workers",
        "2",
        "--hostfile",
        "hosts",
        cwd=tmp_path,
    )
    assert completed.returncode == 1, completed.stderr[-3000:]
    lines = completed.stdout.splitlines()
    assert len(lines) == 11 and "\r" not in completed.stdout, completed.stdout  # 9 rows, 2 box rules
    assert "no solution found" in completed.stderr


@pytest.mark.slow
def test_a_json_document_over_a_mebibyte_comes_whole_through_a_pipe_ssh_shares(cluster, tmp_path):
    """Issue 62, item 1: across hosts ``--json -`` was cut at 32 KiB (exit 2, no word): ssh, started
    for the other host's worker, shared the command's standard output and made it non-blocking, and
    a partial write was dropped.  Now SCOOP's processes write into a pipe of the starter's, which
    unframes the data onto standard output (and a write there goes on until all is taken:
    ``test_signals_and_streams``): 2,600 runs, 1.07 MB of JSON, whole."""
    command = ["bench", str(REPO / "data" / "testdata" / "easy.txt"), "-a", "tabu", "--runs", "260"]
    command += ["--max-steps", "50", "--workers", "2", "--hosts", "127.0.0.1,127.0.0.2", "--json", "-", "-q"]
    completed = _deap_sudoku(cluster, *command, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert len(completed.stdout.encode()) > 1 << 20
    document = json.loads(completed.stdout)
    assert len(document["runs"]) == 2600 and sum(s["runs"] for s in document["provenance"]["hosts"].values()) == 2600


@pytest.mark.slow
def test_a_host_whose_workers_never_start_is_named(cluster, serial, tmp_path):
    """Issue 62, item 4: a host that did no work (its workers never started, or could not reach the
    broker) went unsaid, exit 0, every run made here.  Here the other host's prolog fails, so its
    worker never starts: the runs are all this machine's, and a line names the other host."""
    (tmp_path / "fails.sh").write_text("exit 1\n")
    hosts = ["--hosts", "127.0.0.1,127.0.0.2", "--prolog", "fails.sh"]
    completed = _deap_sudoku(cluster, *BENCH, "--workers", "2", *hosts, "--json", "-", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr[-3000:]
    document = json.loads(completed.stdout)
    assert _runs(document) == serial and list(document["provenance"]["hosts"]) == [document["provenance"]["host"]]
    assert "127.0.0.2: no run was made there, its workers took none" in completed.stderr, completed.stderr
    assert not _scoop_processes_in(tmp_path)


@pytest.mark.slow
def test_a_first_host_that_is_down_is_one_line_not_scoops_traceback(cluster, tmp_path):
    """Issue 62, item 6: a first host ssh cannot reach (nothing listens on 127.0.0.9) was SCOOP's
    traceback and exit code 255."""
    (tmp_path / "hosts").write_text("127.0.0.9 2\n")
    completed = _deap_sudoku(cluster, *BENCH, "--workers", "2", "--hostfile", "hosts", cwd=tmp_path)
    assert completed.returncode == 1 and completed.stdout == "", completed.stderr[-3000:]
    assert "Traceback" not in completed.stderr and "ERROR:root" not in completed.stderr, completed.stderr
    (line,) = [line for line in messages(completed.stderr) if "SCOOP could not start" in line]  # one message
    assert "127.0.0.9" in line and "Connection refused" in line, line


@pytest.mark.slow
def test_bench_on_a_dask_scheduler_with_a_worker_over_ssh_gives_the_serial_runs(cluster, serial, tmp_path):
    """Issue 62, Dask beside SCOOP: a scheduler here, one worker here and one started over ssh on the
    other host (its own host name); ``bench --scheduler`` gives the serial runs, and the provenance
    says the other host made some."""
    pytest.importorskip("distributed")
    port = loopback_cluster._free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli"]
    started = [
        subprocess.Popen([*dask[:2], "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
                          "--no-dashboard"], cwd=tmp_path, env=cluster.env, stderr=subprocess.DEVNULL),
    ]  # fmt: skip
    worker = ["--nthreads", "1", "--no-dashboard", "--death-timeout", "10"]
    try:
        started.append(
            subprocess.Popen([*dask[:2], "distributed.cli.dask_worker", address, *worker], cwd=tmp_path,
                             env=cluster.env, stderr=subprocess.DEVNULL)
        )  # fmt: skip
        remote = f"cd {tmp_path} && {sys.executable} -m distributed.cli.dask_worker {address} {' '.join(worker)}"
        started.append(
            subprocess.Popen(["ssh", loopback_cluster.ALIAS, remote], env=cluster.env, stderr=subprocess.DEVNULL)
        )
        from distributed import Client

        with Client(address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=60)
        completed = _deap_sudoku(cluster, *BENCH, "--scheduler", address, "--json", "-", cwd=tmp_path)
    finally:  # the workers first, the one over ssh by its command line (the other host shares this
        # machine's processes), then the scheduler: a worker left alone waits for it 10 s
        subprocess.run(["pkill", "-KILL", "-f", f"dask_worker {address}"], check=False)
        for process in reversed(started):
            if process is started[0]:
                process.terminate()
            else:
                process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
    assert completed.returncode == 0, completed.stderr[-3000:]
    document = json.loads(completed.stdout)
    assert _runs(document) == serial
    shares = document["provenance"]["hosts"]
    assert sum(share["runs"] for share in shares.values()) == len(serial)
    if cluster.other_host_name:
        assert shares.get(cluster.other_host_name, {}).get("runs", 0) >= 1, shares


def _interrupted_bench(cluster, tmp_path, hosts: str, signum: int) -> tuple[subprocess.CompletedProcess, int]:
    """``bench`` over the hosts of hostfile text ``hosts``, sent ``signum`` when runs have finished:
    as a terminal's Ctrl-C does, to its whole process group (SIGINT), or to the command alone (SIGKILL);
    what it did, and the runs finished before the signal."""
    import signal

    from tests.conftest import run_lines, wait_for_runs

    (tmp_path / "hosts").write_text(hosts)
    data = REPO / "data" / "testdata"
    command = ["bench", str(data / "easy.txt"), str(data / "expert.txt"), "-a", "tabu-swap", "--runs", "3"]
    command += ["--max-seconds", "1", "--workers", "2", "--hostfile", "hosts", "-q"]
    command += ["--json", "out.json", "--results", "runs.jsonl"]
    process = subprocess.Popen(
        [sys.executable, "-m", "deap_sudoku", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=cluster.env,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    wait_for_runs(tmp_path / "runs.jsonl", 2, process)  # the expert puzzles' runs last 1 s each
    finished = run_lines(tmp_path / "runs.jsonl")
    if signum == signal.SIGKILL:
        process.kill()
    else:
        os.killpg(process.pid, signum)
    stdout, stderr = process.communicate(timeout=120)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), finished


def _no_scoop_process_left(folder) -> bool:
    """Whether every SCOOP process working in ``folder``, here or on the other host, has ended
    within 30 s (the launcher's teardown and the ssh sessions' ends take a moment)."""
    deadline = time.monotonic() + 30
    while _scoop_processes_in(folder) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not _scoop_processes_in(folder)


@pytest.mark.slow
@pytest.mark.parametrize("signum, code", [(2, 130), (15, 143)], ids=["Ctrl-C", "SIGTERM"])
def test_ctrl_c_with_the_other_host_first_keeps_the_finished_runs_and_says_so(signum, code, cluster, tmp_path):
    """Issue 62, item 3: with the other host first (and its own host name) a Ctrl-C ended SCOOP with
    no message and exit code 241, no table and no --json: the command ran there, where the signal
    could not be passed on.  This machine now goes first wherever it is listed."""
    done, finished = _interrupted_bench(cluster, tmp_path, "127.0.0.2 1\n127.0.0.1 1\n", signum)
    assert done.returncode == code and "Traceback" not in done.stderr, done.stderr[-3000:]
    document = json.loads((tmp_path / "out.json").read_text())
    assert finished <= len(document["runs"]) < 60 and len(document["runs"]) + document["missing_count"] == 60
    assert f"interrupted: {len(document['runs'])} of 60 runs finished" in done.stderr
    assert re.search(r"^easy\.txt +tabu-swap ", done.stdout, re.M)
    assert _no_scoop_process_left(tmp_path), _scoop_processes_in(tmp_path)


@pytest.mark.slow
def test_ctrl_c_on_the_other_host_alone_says_what_was_kept_and_exits_130(cluster, tmp_path):
    """Where this machine is not among the hosts the command runs on the other, beyond a signal's
    reach: SCOOP is ended, with a line that says so and where the finished runs are (the code
    before: exit 241 and not a word), and nothing is left running on either host."""
    if not cluster.other_host_name:  # the other host's command would take its starter's pid for its own
        pytest.skip("the other host has this machine's host name here (a UTS namespace needs root)")
    import signal

    done, finished = _interrupted_bench(cluster, tmp_path, "127.0.0.2 2\n", signal.SIGINT)
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "interrupted by SIGINT" in done.stderr and "the runs finished are in --results" in done.stderr
    assert _no_scoop_process_left(tmp_path), _scoop_processes_in(tmp_path)


@pytest.mark.slow
def test_a_killed_starter_with_the_other_host_first_leaves_nothing_running(cluster, tmp_path):
    """Issue 62, item 3: ``kill -9`` of the command with the other host first left a SCOOP worker
    here, its parent gone, 5.5 minutes later.  Now the command runs here, notices its starter gone
    and ends, and SCOOP's launcher ends the workers of both hosts; nothing overwrites the outputs."""
    import signal

    done, _ = _interrupted_bench(cluster, tmp_path, "127.0.0.2 1\n127.0.0.1 1\n", signal.SIGKILL)
    assert done.returncode == -signal.SIGKILL
    assert _no_scoop_process_left(tmp_path), _scoop_processes_in(tmp_path)
    assert not (tmp_path / "out.json").exists()


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", (REPO / "docs" / "cluster.md").read_text(), re.S)


@pytest.mark.slow
def test_the_cluster_pages_job_script_runs_as_written_in_a_slurm_allocation_of_the_two_hosts(cluster, serial, tmp_path):
    """docs/cluster.md's job script and experiment.py, in a simulated SLURM allocation of 127.0.0.1
    and the ssh-only name (``scontrol`` answers for SLURM; SCOOP reads SLURM_NODELIST itself): bench
    and run_experiment(parallel=True) give the serial runs, and workers started over ssh ran some."""
    from deap_sudoku import load_sample
    from deap_sudoku.experiments import run_experiment

    (job,) = [block for block in _blocks("sh") if "#SBATCH" in block]
    assert "\nset -euo pipefail" in job  # a resubmitted job whose bench refused an output exited 0 (issue 62)
    (experiment,) = [block for block in _blocks("python") if "parallel=True" in block]
    (tmp_path / "job.sh").write_text(job)
    (tmp_path / "experiment.py").write_text(experiment)
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "activate").write_text(f'export PATH="{os.path.dirname(sys.executable)}:$PATH"\n')
    scontrol = tmp_path / "slurm" / "scontrol"
    scontrol.parent.mkdir()
    scontrol.write_text('#!/bin/sh\necho "$3" | tr , "\\n"\n')  # scontrol show hostnames LIST
    scontrol.chmod(0o755)
    nodes = f"127.0.0.1,{loopback_cluster.ALIAS}"
    env = {
        **cluster.env,
        "PATH": f"{scontrol.parent}{os.pathsep}{cluster.env['PATH']}",
        "SLURM_NODELIST": nodes,
        "SLURM_JOB_NODELIST": nodes,
        "SLURM_TASKS_PER_NODE": "1(x2)",
        "SLURM_NTASKS": "2",
        "SLURM_SUBMIT_DIR": str(tmp_path),
    }
    before = len(cluster.runs_over_ssh())
    env["DEAP_SUDOKU_TEST_WAIT_FOR_SSH"] = str(before)  # this machine's worker takes no run before the other host's
    completed = subprocess.run(["bash", "job.sh"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert _runs(json.loads((tmp_path / "results.json").read_text())) == serial
    puzzles = [load_sample("testdata/easy.txt", i) for i in range(2)]
    alone = run_experiment(["tabu"], {"easy": puzzles}, runs=3, options={"tabu": {"max_steps": 3000}})
    expected = [[r.index, r.seed, r.solved, r.evaluations] for r in alone]
    assert json.loads((tmp_path / "experiment.json").read_text()) == expected
    assert len(cluster.runs_over_ssh()) > before, "no run was made by a process started over ssh"
    # resubmitted when done (issue 62, item 5: bench refused its own results.json, and the job exited
    # 0 all the same): no run again, results.json written again from runs.jsonl, exit 0
    env["DEAP_SUDOKU_TEST_WAIT_FOR_SSH"] = ""
    again = subprocess.run(["bash", "job.sh"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert again.returncode == 0 and "0 to go" in again.stderr, again.stderr[-3000:]
    # and no SCOOP for bench's nothing to do: a host's launch that came up after the command had ended
    # waited for ever for the broker, on the other host
    assert _no_scoop_process_left(tmp_path), _scoop_processes_in(tmp_path)
    assert _runs(json.loads((tmp_path / "results.json").read_text())) == serial
    assert json.loads((tmp_path / "experiment.json").read_text()) == expected
    (by_hand,) = [block for block in _blocks("sh") if "command -v deap-sudoku" in block]
    completed = subprocess.run(
        ["bash", "-c", by_hand], capture_output=True, text=True, cwd=tmp_path, env=cluster.env, timeout=300
    )  # on this machine alone, outside the allocation
    assert completed.returncode == 0 and completed.stdout.splitlines()[1].startswith("dataset "), completed.stderr[
        -3000:
    ]
    assert "Traceback" not in completed.stdout + completed.stderr  # the script's SystemExit, printed by SCOOP


# -- the route SCOOP needs, chosen (no ssh) ------------------------------------------------------


@pytest.mark.parametrize(
    "external, towards, chosen",
    [
        ("localhost", "127.0.0.1", ["--tunnel"]),  # the other host is reached over loopback: a tunnel
        ("localhost", "192.0.2.7", ["--external-hostname", "192.0.2.7"]),  # the address that routes there
        ("localhost", None, ["--tunnel"]),  # no route known (a name only ssh resolves)
        ("192.0.2.7", "192.0.2.7", []),  # SCOOP's own choice routes: nothing to add
    ],
)
def test_the_route_is_chosen_where_this_machines_name_is_a_loopback_one(external, towards, chosen, monkeypatch):
    from scoop import utils

    monkeypatch.setattr(utils, "externalHostname", lambda hosts: external)
    monkeypatch.setattr(cli_scoop, "_address_towards", lambda host: towards)
    assert cli_scoop.route(["127.0.0.1", "node-b"], None) == chosen
    assert cli_scoop.route(["127.0.0.2", "127.0.0.1"], None) == []  # SCOOP's broker goes to the first host
    assert cli_scoop.route(["node-b", "127.0.0.1"], None) == ["--tunnel"]  # a name only ssh knows
    assert cli_scoop.route(["127.0.0.1"], None) == []


def test_a_route_is_chosen_where_this_machines_own_name_does_not_resolve(monkeypatch):
    """With this machine first (moved there, issue 62), SCOOP's broker is here and needs a name the
    other hosts reach: where this machine's own name does not resolve, SCOOP raised in its ``main``
    (a traceback); the address towards the other host, or a tunnel, is chosen instead."""
    from scoop import utils

    def unresolvable(hosts):
        raise OSError("[Errno -2] Name or service not known")

    monkeypatch.setattr(utils, "externalHostname", unresolvable)
    monkeypatch.setattr(cli_scoop, "_address_towards", lambda host: "192.0.2.7")
    assert cli_scoop.route(["127.0.0.1", "node-b"], None) == ["--external-hostname", "192.0.2.7"]
    monkeypatch.setattr(cli_scoop, "_address_towards", lambda host: None)
    assert cli_scoop.route(["127.0.0.1", "node-b"], None) == ["--tunnel"]


def test_this_machine_goes_first_wherever_it_is_listed_with_its_worker_counts(tmp_path):
    """SCOOP runs the command on the first host: here, where a Ctrl-C reaches it (issue 62, item 3)."""
    assert cli_scoop.here_first(["127.0.0.2", "127.0.0.1", "127.0.0.1"], None) == [("127.0.0.1", 2), ("127.0.0.2", 1)]
    (tmp_path / "hosts").write_text("node-far 3\nnode-near 1\nlocalhost 2\n")
    assert cli_scoop.here_first(None, str(tmp_path / "hosts")) == [("localhost", 2), ("node-far", 3), ("node-near", 1)]
    assert cli_scoop.here_first(["127.0.0.1", "node-b"], None) is None  # first already
    assert cli_scoop.here_first(["node-b", "node-c"], None) is None  # not listed: the command runs on node-b
    # divided as SCOOP divides them first, so that moving this machine changes no host's share:
    (tmp_path / "hosts").write_text("node-far 4\nlocalhost 4\n")
    assert cli_scoop.here_first(None, str(tmp_path / "hosts"), 4) is None  # SCOOP gives node-far all four
    assert cli_scoop.here_first(None, str(tmp_path / "hosts"), 6) == [("localhost", 2), ("node-far", 4)]
    assert cli_scoop.here_first(None, str(tmp_path / "hosts"), 10) == [("localhost", 5), ("node-far", 5)]


def test_a_listed_host_is_matched_to_its_workers_by_name_address_or_as_this_machine(monkeypatch):
    """``idle_hosts``: the listed names no worker's host answers to, once there were more runs than
    workers (fewer, and a host may have had none to take)."""
    import socket

    from deap_sudoku.runs.hosts import HostShare

    here = socket.gethostname()
    monkeypatch.setenv(cli_scoop.HOSTS, "127.0.0.1:1 node-b:1 127.0.0.2:1 node-c.example.org:1")
    shares = {here: HostShare(runs=3), "worker-x": HostShare(runs=2, addresses=("127.0.0.2",))}
    assert cli_scoop.idle_hosts(shares) == ["node-b", "node-c.example.org"]
    shares["node-c"] = HostShare(runs=1)  # the host's own name, without the domain
    shares["node-b.example.org"] = HostShare(runs=1)
    assert cli_scoop.idle_hosts(shares) == []
    assert cli_scoop.idle_hosts({here: HostShare(runs=4)}) == []  # 4 runs for 4 workers: nothing said
    monkeypatch.delenv(cli_scoop.HOSTS)
    assert cli_scoop.idle_hosts({here: HostShare(runs=9)}) == []  # SCOOP started by hand: hosts unknown


def test_bench_starts_no_scoop_when_its_results_file_holds_every_run(monkeypatch, tmp_path):
    """A resubmitted finished job's ``bench --workers`` started SCOOP for nothing to run, and the
    other host's launch, up after the command had ended, waited for ever for the broker."""
    data = str(REPO / "data" / "4x4.txt")
    command = ["bench", data, "-a", "tabu", "--runs", "2", "--results", str(tmp_path / "runs.jsonl"), "-q"]
    assert CliRunner().invoke(main, command).exit_code == 0  # every run kept
    started: list = []
    monkeypatch.setattr(cli_scoop.subprocess, "Popen", lambda *a, **kw: started.append(a))
    again = CliRunner().invoke(main, [*command, "--workers", "2", "--hosts", "127.0.0.1,node-b", "--json", "-"])
    assert again.exit_code == 0 and started == [], again.output
    from tests.conftest import run_lines

    assert len(json.loads(again.stdout)["runs"]) == run_lines(tmp_path / "runs.jsonl") > 0  # from the file


def test_scoops_launch_error_is_said_in_a_line_with_what_ssh_said():
    from deap_sudoku.cli.scoop_launch import why

    raised = Exception(
        "Could not successfully launch the remote broker.\nRequested remote broker ports, received:\nb''\n"
        "Port number decoding error:\nnot enough values\nSSH process stderr:\n"
        "b'Warning: added key\\r\\nssh: connect to host node-far port 22: No route to host\\r\\n'"
    )
    assert why(raised) == (
        "Could not successfully launch the remote broker (ssh: connect to host node-far port 22: No route to host)"
    )
    assert why(Exception("Something else\nand more")) == "Something else" and why(Exception()) == "Exception"


def test_the_launchers_options_reach_scoop_and_not_the_command(monkeypatch, tmp_path):
    """--tunnel, --python-interpreter, --remote-folder and --prolog go to SCOOP's launcher (its
    --path for the folder), quiet unless -v; the command SCOOP runs gets none of them, and its first
    word carries the starter's variables; a terminal is never SCOOP's standard input."""
    from deap_sudoku.cli import channel
    from tests.conftest import scoop_exits_with

    started = []
    monkeypatch.setattr(
        cli_scoop.subprocess,
        "Popen",
        lambda command, env, **kw: (
            started.append(command) or stdins.append(kw.get("stdin")) or scoop_exits_with(env, 0, command)
        ),
    )
    stdins: list = []
    data = str(REPO / "data" / "4x4.txt")
    common = [data, "-a", "tabu", "--runs", "2", "--workers", "2", "--hosts", "127.0.0.1,10.0.0.2"]
    result = CliRunner().invoke(
        main,
        ["bench", *common, "--tunnel", "--python-interpreter", "/opt/py", "--remote-folder", "/scratch", "-q"],
    )
    assert result.exit_code == 0, result.output
    command = started[-1]
    assert command[:4] == [*SCOOP_LAUNCHER, "--quiet"]
    launcher = command[: command.index("-n")]
    assert "--tunnel" in launcher and launcher[launcher.index("--path") + 1] == "/scratch"
    assert launcher[launcher.index("--python-interpreter") + 1] == "/opt/py"
    word = command[command.index("-n") + 3]
    carried = channel.read_carried(["entry", word])
    assert carried is not None and carried["env"]["DEAP_SUDOKU_PARENT_PID"] == str(os.getpid())
    program = command[command.index("-n") + 4 :]
    assert program[0] == "bench" and not {"--tunnel", "--python-interpreter", "--remote-folder"} & set(program)
    CliRunner().invoke(main, ["bench", *common, "-vv"])
    assert started[-1][3:5] == ["-v", "--hosts"]  # SCOOP's launcher one step more verbose than its default
    assert stdins[-1] is None  # a pipe or file stays SCOOP's standard input
    monkeypatch.setattr(cli_scoop, "terminal", lambda stream: stream is sys.stdin)
    CliRunner().invoke(main, ["bench", *common])
    assert stdins[-1] == subprocess.DEVNULL  # a terminal is not: ssh -tt would make it raw for the run
    refused = CliRunner().invoke(main, ["bench", data, "--tunnel"])
    assert refused.exit_code == 2 and "--tunnel needs --workers" in refused.output


def test_frames_carry_the_data_and_the_exit_code_through_any_noise():
    """What the starter reads from SCOOP's standard output: frames (after a remote message without
    its line end, with a pseudo-terminal's CRLF) to stdout, everything else to stderr."""
    import io

    from deap_sudoku.cli import channel

    unframer = channel.Unframer()
    read, write = os.pipe()
    framed = channel.FramedOutput(write, unframer.token, tty=False)
    payload = ("{\n" + "x" * 5000 + "\r\n}\n").encode()
    os.write(write, b"Launching 1 worker(s) using /bin/bash.\r\n")
    framed.write(payload)
    os.write(write, b"\r[###     ] 3/8")
    channel.FramedOutput(write, unframer.token, tty=False, kind=b"e").write(b"\r[####    ] 4/8")
    framed.exit(7)
    os.close(write)
    out, err = io.BytesIO(), []
    unframer.data = out.write  # type: ignore[method-assign]
    unframer.message = err.append  # type: ignore[method-assign]
    with os.fdopen(read, "rb") as pipe:
        unframer.read(pipe)
    assert out.getvalue() == payload and unframer.exit_code == 7
    assert b"".join(err) == b"Launching 1 worker(s) using /bin/bash.\n\r[###     ] 3/8\n\r[####    ] 4/8"


def test_the_other_hosts_prolog_interpreter_and_folder_stay_off_this_machines_workers(tmp_path, monkeypatch):
    """Issue 62, item 2: SCOOP gave them to this machine's workers too, started without a shell:
    ``--prolog`` ran a program named ``source`` (exit 255), an interpreter only the other hosts
    have was not found here, and ``--remote-folder`` moved this machine's worker away from the
    command's relative inputs.  The other hosts' workers still get all three."""
    from scoop.launch.workerLaunch import Host

    from deap_sudoku.cli.scoop_launch import local_worker_command

    monkeypatch.chdir(tmp_path)
    commands = {}
    for name in ("127.0.0.1", "node-far"):
        host = Host(name)
        host.setWorker(
            pythonPath=None, path="/scratch/run", nice=None, pythonExecutable="/opt/py/bin/python", size=2,
            origin=False, brokerHostname="node-near", brokerPorts=(5555, 5556), debug=False, profiling=False,
            executable="entry.py", verbose=0, args=["bench"], prolog="/home/me/prolog.sh", backend="ZMQ",
        )  # fmt: skip
        host.setWorkerAmount(1)
        commands[name] = local_worker_command(host)
        assert host.workersArguments.prolog == "/home/me/prolog.sh"  # given back for the next call
    here, far = commands["127.0.0.1"], commands["node-far"]
    assert here[0] == sys.executable and "source" not in here and "/opt/py/bin/python" not in here
    assert here[here.index("--workingDirectory") + 1] == str(tmp_path)
    assert far[:3] == ["source", "/home/me/prolog.sh", "&&"] and "/opt/py/bin/python" in far
    assert far[far.index("--workingDirectory") + 1] == '"/scratch/run"'
