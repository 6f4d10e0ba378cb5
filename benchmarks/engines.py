"""SCOOP and Dask side by side on one experiment, on this machine: what each engine costs a run, and
how long a run held by a worker that dies takes to come back (docs/cluster.md, "Which engine").

    python benchmarks/engines.py [--runs 200] [--json benchmarks/results/engines.json]

Each arm is a whole ``deap-sudoku bench`` command (start-up included, as a user times it) on the
same runs: tabu on the bundled easy puzzles with a budget of ``--steps`` steps, so that a run is
short and the engine's own cost shows, with 2 workers:

- ``serial``: no engine;
- ``scoop``: ``--workers 2`` (SCOOP started by the command);
- ``dask``: ``--scheduler`` of a ``dask scheduler`` with two ``dask worker`` processes of one thread,
  started before the command and counted apart (a Dask cluster outlives its commands).

Per-run overhead is (engine wall - serial wall) / runs, negative where two workers beat one.  Then
recovery: the same command with each engine, one worker killed (SIGKILL) once a quarter of the runs
are in the results file; the figure is the command's wall time over the unkilled one's.  Rounds
alternate the arms.  Results (with provenance) go to ``--json``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from deap_sudoku.experiments.provenance import provenance  # noqa: E402


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _bench(runs: int, steps: int, folder: Path, *engine: str) -> list[str]:
    data = REPO / "data" / "testdata" / "easy.txt"
    command = [sys.executable, "-m", "deap_sudoku", "bench", str(data), "-a", "tabu", "--runs", str(runs // 10)]
    return [*command, "--max-steps", str(steps), "-q", "--results", str(folder / "runs.jsonl"), *engine]


class DaskCluster:
    """A scheduler and two one-thread workers, as processes of their own."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        cli = [sys.executable, "-m"]
        quiet = {"stderr": subprocess.DEVNULL, "stdout": subprocess.DEVNULL}
        self.scheduler = subprocess.Popen(
            [*cli, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard"],
            **quiet,
        )
        self.workers = [
            subprocess.Popen(
                [*cli, "distributed.cli.dask_worker", self.address, "--nthreads", "1", "--no-dashboard"], **quiet
            )
            for _ in range(2)
        ]
        from distributed import Client

        with Client(self.address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=60)
            self.worker_pids = list(client.run(os.getpid).values())

    def close(self) -> None:
        for process in [*self.workers, self.scheduler]:
            process.kill()
            process.wait()


def _timed(command: list[str], kill_after: int | None, folder: Path, pick_victim) -> float:
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if kill_after is not None:
        results = folder / "runs.jsonl"
        while process.poll() is None:
            if results.exists() and results.read_text().count("\n") > kill_after:  # a header line, then runs
                with_pid = pick_victim()
                if with_pid:
                    os.kill(with_pid, signal.SIGKILL)
                break
            time.sleep(0.005)
    process.wait()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}")
    return time.perf_counter() - started


def _scoop_worker():
    """A SCOOP worker process (a bootstrap that is not the origin): any on this machine, so run the
    benchmark where no other SCOOP works."""

    def find() -> int | None:
        for entry in Path("/proc").glob("[0-9]*"):
            try:
                line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if "scoop.bootstrap" in line and "--origin" not in line:
                return int(entry.name)
        return None

    return find


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs per command (a multiple of 10)")
    parser.add_argument("--steps", type=int, default=200, help="tabu's step budget per run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    cluster = DaskCluster()
    times: dict[str, list[float]] = {arm: [] for arm in ("serial", "scoop", "dask", "scoop killed", "dask killed")}
    try:
        for round_ in range(args.rounds):
            for arm in times:
                with tempfile.TemporaryDirectory() as folder_name:
                    folder = Path(folder_name)
                    engine = ("--workers", "2") if arm.startswith("scoop") else ()
                    engine = ("--scheduler", cluster.address) if arm.startswith("dask") else engine
                    kill_after = args.runs // 4 if arm.endswith("killed") else None
                    victim = _scoop_worker() if arm.startswith("scoop") else (lambda: cluster_pid(cluster))
                    seconds = _timed(_bench(args.runs, args.steps, folder, *engine), kill_after, folder, victim)
                    times[arm].append(seconds)
                    print(f"round {round_ + 1} {arm}: {seconds:.2f} s", file=sys.stderr)
    finally:
        cluster.close()
    medians = {arm: statistics.median(values) for arm, values in times.items()}
    report = {
        "provenance": {**provenance(seed=0, command=" ".join(["python", *sys.argv])), "load": os.getloadavg()},
        "runs": args.runs,
        "steps": args.steps,
        "seconds": times,
        "median_seconds": medians,
        "overhead_per_run_ms": {
            arm: round(1000 * (medians[arm] - medians["serial"]) / args.runs, 2) for arm in ("scoop", "dask")
        },
        "killed_over_unkilled": {arm: round(medians[f"{arm} killed"] / medians[arm], 2) for arm in ("scoop", "dask")},
    }
    text = json.dumps(report, indent=1)
    if args.json:
        Path(args.json).write_text(text + "\n")
    print(json.dumps({k: report[k] for k in ("median_seconds", "overhead_per_run_ms", "killed_over_unkilled")}))


def cluster_pid(cluster: DaskCluster) -> int:
    """A Dask worker's process to kill (the first one still running)."""
    from distributed import Client

    with Client(cluster.address, timeout=30, set_as_default=False) as client:
        return next(iter(client.run(os.getpid).values()))


if __name__ == "__main__":
    main()
