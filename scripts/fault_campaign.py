"""Fault campaign: every command that writes, run under the faults a user's machine deals out, and
checked for what a user would lose.

    python scripts/fault_campaign.py [--runs 500] [--seed 0] [--workers 2] [--json results.json]

Commands: ``solve --out`` (its journal), ``solve --checkpoint``, ``bench --results --json``,
``bench --iohprofiler`` (the export beside the results), ``bench`` with hostile plug-ins (a NaN or
text grid, ``sys.exit``, ``os._exit``, printing, ``os.chdir``) beside a bundled algorithm,
``convert`` and ``generate --out``.  Faults: SIGINT, SIGTERM and SIGKILL at a random moment (then
the same command again, which must end with the uninterrupted run's file: byte for byte, or run for
run for ``bench``; ``generate`` keeps a whole prefix of its puzzles); an existing file under
``--force`` interrupted (the old file or the whole new one, never a part); a full disk (a tmpfs
where one can be mounted, filled to leave 4-200 KiB, else a file-size limit) with the space given back and the command
run again; standard output or error closed, full (``/dev/full``) or a pipe closed early; a symbolic
link to nothing and a name too long; two runs of the command at once; a memory limit.  Every run is
checked for a traceback, for an error that is not one line, for an input changed, for a half-written
or missing output, and, after the command is run again, for temporary or lock files left behind.
Prints a table per command and fault and exits 1 if any check failed.

    python scripts/fault_campaign.py --category cache [--runs 88] [--workers 2] [--json results.json]

runs the compile cache's faults instead (issue 60) on a private copy of the package and a warm cache
it compiles first (``--cache-work DIR`` keeps both for a later campaign): the background compiler
killed at a random moment (then the same command again), a stale lock (a dead pid), a foreign lock
(a live process that is no compiler), a lock without a pid, a cache file of each kernel cut at a
random length or with a random bit flipped, the cache folder read-only (a read-only bind mount as
root, permissions otherwise), a regular file, read-only with numba's fallbacks unwritable too, and
full (``ulimit -f`` 64 KiB, always; a 1 MiB tmpfs filled, where one can be mounted).  Each is one
real ``deap-sudoku solve --max-seconds 3 --out``, checked for a traceback, an exit other than 0 or
1, more than one line about the cache, an answer missing or wrong, a budget overrun (the run's own
seconds past 3 s and the package's 0.2 s tolerance), time outside the run's clock (start-up, a
compile in the foreground: the wall time less the run's seconds) above twice the median of the
control runs (the same command on the warm cache, in the same campaign and so under the same load)
or 3 s more, whichever is larger, and, for the lock faults,
a compile that does not start again.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import contextlib
import hashlib
import json
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from deap_sudoku import read  # noqa: E402
from tests.conftest import HOSTILE, unsolvable  # noqa: E402

PYTHON = [sys.executable, "-m", "deap_sudoku"]
SIGNALS = {"SIGINT": (signal.SIGINT, 130), "SIGTERM": (signal.SIGTERM, 143), "SIGKILL": (signal.SIGKILL, None)}


@dataclass
class Check:
    """One faulted run: which command under which fault, and what went wrong (nothing, if ``ok``)."""

    command: str
    fault: str
    problems: list[str]
    seconds: float
    outside: list[float] | None = None  # cache category: each run's seconds outside its own clock

    @property
    def ok(self) -> bool:
        return not self.problems


class Job:
    """One writing command in a folder of its own, with the files it reads already there."""

    name = ""
    duration = 2.0  # about how long an uninterrupted run takes, for the random kill moments
    scale = 1.0  # --scale: the work of every command, 1 for the campaign, less for the tests

    def __init__(self, folder: Path, shared: Path) -> None:
        self.folder, self.shared = folder, shared

    def args(self, out: str) -> list[str]:
        raise NotImplementedError

    def output(self) -> str:
        return "out.txt"

    def same(self, produced: Path, reference: Path) -> str | None:
        """Why ``produced`` is not the uninterrupted run's output, or None."""
        return None if produced.read_bytes() == reference.read_bytes() else "differs from the uninterrupted run's"

    def acceptable_partial(self, produced: Path, reference: Path) -> str | None:
        """Why a file left by an interrupted run without a rerun is not acceptable (it must be whole)."""
        return self.same(produced, reference)

    def run(
        self,
        out: str | None = None,
        *,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        extra=(),
        preexec=None,
        cwd=None,
    ) -> subprocess.Popen:
        return subprocess.Popen(
            PYTHON + self.args(out or self.output()) + list(extra),
            cwd=cwd or self.folder,
            stdout=stdout,
            stderr=stderr,
            text=True,
            preexec_fn=preexec,
        )


class SolveOut(Job):
    name, duration = "solve --out", 3.0

    def args(self, out):
        return [
            "solve",
            str(self.shared / "hard.txt"),
            "-a",
            "tabu",
            "--max-steps",
            str(int(1500 * self.scale)),
            "--out",
            out,
            "-q",
            "--force",
        ]


class SolveCheckpoint(Job):
    name, duration = "solve --checkpoint", 3.0

    def args(self, out):
        return [
            "solve",
            str(self.shared / "unsolvable.txt"),
            "-a",
            "memetic",
            "--population",
            "2",
            "--max-generations",
            str(int(1500 * self.scale)),
            "--seed",
            "3",
            "--checkpoint",
            out,
            "--checkpoint-every",
            "1",
        ]

    def output(self):
        return "run.ckpt"

    def same(self, produced, reference):
        from deap_sudoku.runs import saved_state

        ours, theirs = saved_state(produced), saved_state(reference)
        if ours["generation"] != theirs["generation"] or ours["logbook"] != theirs["logbook"]:
            return "the resumed run's course differs from the uninterrupted run's"
        return None

    def acceptable_partial(self, produced, reference):
        from deap_sudoku.runs import saved_state

        try:
            saved_state(produced)
        except Exception as exc:  # a checkpoint that does not load is a lost run
            return f"the checkpoint left does not load: {exc}"
        return None


class Bench(Job):
    name, duration = "bench --results", 3.0

    def args(self, out):
        return [
            "bench",
            str(self.shared / "easy.txt"),
            "-a",
            "block-ga",
            "--runs",
            "2",
            "--max-generations",
            str(int(40 * self.scale)),
            "--results",
            out,
            "--json",
            "bench.json",
            "-q",
            "--force",
        ]

    def output(self):
        return "runs.jsonl"

    @staticmethod
    def _runs(path: Path) -> list:
        """The run records of a results file, without what differs from run to run (seconds, and
        the digests over them); header and outputs lines left out."""
        runs = []
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record["format"] != "deap_sudoku.run/1":
                continue
            record.pop("digest", None)
            record["result"].pop("seconds")
            runs.append(json.dumps(record, sort_keys=True))
        return sorted(runs)

    def same(self, produced, reference):
        return None if self._runs(produced) == self._runs(reference) else "its runs differ from the uninterrupted ones"

    def acceptable_partial(self, produced, reference):
        try:
            return None if set(self._runs(produced)) <= set(self._runs(reference)) else "holds a run no clean run made"
        except (ValueError, KeyError) as exc:
            return f"does not read: {exc}"


class BenchExport(Bench):
    """``bench --results`` with the IOHprofiler export: the export folder is whole or absent."""

    name, duration = "bench --iohprofiler", 3.0

    def args(self, out):
        return [*super().args(out), "--iohprofiler", str(Path(out).parent / "ioh")]  # beside the results

    def same(self, produced, reference):
        return super().same(produced, reference) or self._export_whole(produced.parent / "ioh", must=True)

    def acceptable_partial(self, produced, reference):
        return super().acceptable_partial(produced, reference) or self._export_whole(produced.parent / "ioh")

    @staticmethod
    def _export_whole(folder: Path, must: bool = False) -> str | None:
        """Why the export folder is not a whole export (every information file reads, every data
        file it names is there), or None; absent is fine unless ``must``."""
        if not folder.exists():
            return "wrote no export" if must else None
        infos = list(folder.rglob("IOHprofiler_*.json"))
        if not infos:
            return "left an export folder without information files"
        for info in infos:
            try:
                data = json.loads(info.read_text())
                for scenario in data["scenarios"]:
                    if not (info.parent / scenario["path"]).read_bytes().endswith(b"\n"):
                        return f"left a data file cut short: {scenario['path']}"
            except (OSError, ValueError, KeyError) as exc:
                return f"left an export that does not read: {info.name}: {exc}"
        return None


class Plugins(Bench):
    """``bench`` with a bundled algorithm beside plug-ins that do everything a plug-in should not."""

    name, duration = "bench with hostile plug-ins", 3.0

    def args(self, out):
        arms = [w for arm in ("nan", "text", "exits", "ends", "prints", "moves") for w in ("-a", f"hostile:{arm}")]
        return ["bench", str(self.shared / "easy.txt"), "-a", "backtracking", *arms, "--runs", "3", "--results", out,
                "--json", "bench.json", "-q", "--force"]  # fmt: skip

    def __init__(self, folder: Path, shared: Path) -> None:
        super().__init__(folder, shared)
        (folder / "hostile.py").write_text(HOSTILE)  # imported from the folder the command runs in


class Convert(Job):
    name, duration = "convert", 2.0

    def args(self, out):
        return ["convert", str(self.shared / "many.txt"), out, "--to", "grid", "--force"]


class Generate(Job):
    name, duration = "generate --out", 2.0

    def args(self, out):
        return [
            "generate",
            "--box",
            "2x2",
            "--givens",
            "8",
            "--any",
            "--count",
            str(int(3000 * self.scale)),
            "--seed",
            "7",
            "--out",
            out,
            "-q",
            "--force",
        ]

    def acceptable_partial(self, produced, reference):
        made, whole = read(produced), read(reference)
        return None if made == whole[: len(made)] else "is not a whole prefix of the uninterrupted run's puzzles"


JOBS = (SolveOut, SolveCheckpoint, Bench, BenchExport, Plugins, Convert, Generate)


def leftovers(folder: Path) -> list[str]:
    """Temporary, journal and lock files in ``folder``."""
    return sorted(
        p.name
        for p in folder.iterdir()
        if p.name.endswith((".tmp", ".lock", ".journal")) and not p.name.startswith("filler")
    )


def problems_of(stderr: str | None, returncode: int, allowed: set[int]) -> list[str]:
    """What is wrong with how a run ended; ``stderr`` None when the fault took standard error away."""
    found = []
    if 0 in allowed:  # 3: every run ended and every output is whole, but a plug-in's runs failed with errors
        allowed = allowed | {3}
    if stderr is None:
        return [] if returncode in allowed else [f"exit {returncode}, expected {sorted(allowed)}"]
    if "Traceback" in stderr:  # the exception it ends on, and where the last frame was
        block = stderr[stderr.rindex("Traceback") :].splitlines()
        frames = [line.strip() for line in block[1:] if line.startswith("  File ")]
        exception = next((line for line in block[1:] if line and not line.startswith(" ")), block[-1])
        found.append(f"traceback: {exception[:160]} (at {frames[-1][:160] if frames else '?'})")
    if returncode not in allowed:
        found.append(f"exit {returncode}, expected {sorted(allowed)}: {stderr.strip()[-200:]}")
    if returncode == 2:
        errors = [line for line in stderr.splitlines() if line.startswith(("Error:", "error:"))]
        if len(errors) != 1 or stderr.strip().splitlines()[-1] != errors[0]:
            found.append(f"the error is not one last line: {stderr.strip()[-200:]!r}")
    return found


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def heal(job: Job, reference: Path, found: list[str]) -> None:
    """Run the command again, as a user would after a fault, and check that it ends with the
    uninterrupted run's output and leaves nothing behind."""
    produced = job.folder / job.output()
    again = job.run(stderr=subprocess.PIPE)
    _, stderr = again.communicate(timeout=600)
    found += problems_of(stderr, again.returncode, {0, 1})
    if not produced.exists():
        found.append("the rerun wrote no output")
    elif (why := job.same(produced, reference)) is not None:
        found.append("after the rerun the output " + why)
    if leftovers(job.folder):
        found.append(f"left behind after the rerun: {leftovers(job.folder)}")


def signal_fault(job: Job, reference: Path, rng: random.Random, signame: str, force: bool) -> list[str]:
    signum, code = SIGNALS[signame]
    target = job.folder / job.output()
    old = b"the user's old file\n"
    force = force and isinstance(job, (SolveOut, Convert, Generate))  # the others resume from their file
    if force:
        target.write_bytes(old)
    process = job.run()
    time.sleep(rng.uniform(0.3, job.duration))
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=120)
    allowed = {0, 1} | ({code} if code else {-signal.SIGKILL})
    if process.returncode == -signum and not stderr:
        allowed.add(-signum)  # the signal came while the interpreter itself started, before any code of ours
    found = problems_of(stderr, process.returncode, allowed)
    if process.returncode in (code, -signal.SIGKILL) and target.exists() and target.read_bytes() != old:
        if force and job.same(target, reference) is not None:
            found.append("an interrupted run replaced the old file with a part")
        elif (why := job.acceptable_partial(target, reference)) is not None:
            found.append("the interrupted run's file " + why)
    heal(job, reference, found)
    return found


def stream_fault(job: Job, reference: Path, rng: random.Random, fault: str) -> list[str]:
    """Standard output or error closed, full or a pipe closed early: the files come out whole."""
    shell = {
        "stdout closed": ">&-",
        "stdout full": ">/dev/full",
        "stderr closed": "2>&-",
        "stderr full": "2>/dev/full",
        "stdout pipe closed": "| head -c 1 >/dev/null",
    }[fault]
    command = " ".join(f"'{a}'" for a in PYTHON + job.args(job.output())) + " " + shell
    process = subprocess.run(
        ["bash", "-c", command + ("; exit ${PIPESTATUS[0]}" if "|" in shell else "")],
        cwd=job.folder,
        capture_output=True,
        text=True,
        timeout=600,
    )
    stderr = process.stderr if "stderr" not in fault else None
    found = problems_of(stderr, process.returncode, {0, 1, 2})
    target = job.folder / job.output()
    if fault == "stdout closed" and process.returncode == 2 and not target.exists():
        return found  # refused before any work: nothing to lose
    if isinstance(job, Generate):
        if target.exists() and (why := job.acceptable_partial(target, reference)) is not None:
            found.append("the file " + why)
    elif not target.exists() or job.same(target, reference) is not None:
        found.append("a failing terminal cost the file")
    return found


def disk_full_fault(job: Job, reference: Path, rng: random.Random, tmpfs: bool) -> list[str]:
    """The output's folder fills up as the command writes; then space is given back and the command
    is run again."""
    if tmpfs:
        mount = job.folder / "small"
        mount.mkdir()
        size = 2 * reference.stat().st_size // 1024 + 1024  # room for the output twice, once space is back
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}k", "tmpfs", str(mount)], check=True)
    try:
        where = job.folder / "small" if tmpfs else job.folder
        if tmpfs:  # leave 4 to 200 KiB free
            with contextlib.suppress(OSError), open(where / "filler", "wb") as filler:
                filler.write(bytes((size - rng.randrange(4, 200)) * 1024))
        out = str(where / job.output())
        limit = rng.randrange(1, 64) * 1024

        def limited():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        process = job.run(out, preexec=None if tmpfs else limited)
        _, stderr = process.communicate(timeout=600)
        found = problems_of(stderr, process.returncode, {0, 1, 2})
        produced = Path(out)
        if produced.exists() and process.returncode == 2 and not isinstance(job, (SolveCheckpoint, Bench)):
            found.append("a failed write left the target")
        if produced.exists() and isinstance(job, Generate) and (why := job.acceptable_partial(produced, reference)):
            found.append("the file " + why)
        if tmpfs:
            (where / "filler").unlink()
        again = job.run(out)
        _, stderr = again.communicate(timeout=600)
        found += problems_of(stderr, again.returncode, {0, 1})
        if not produced.exists() or job.same(produced, reference) is not None:
            found.append("with space again the rerun did not write the uninterrupted run's output")
        if leftovers(where):
            found.append(f"left behind: {leftovers(where)}")
        return found
    finally:
        if tmpfs:
            subprocess.run(["umount", str(job.folder / "small")], check=False)


def name_fault(job: Job, reference: Path, rng: random.Random, fault: str) -> list[str]:
    if fault == "dangling link":
        out = "link.txt"
        (job.folder / out).symlink_to(job.folder / "nowhere" / "x")
    else:
        out = "x" * 245 + ".txt"
    started = time.perf_counter()
    process = job.run(out)
    _, stderr = process.communicate(timeout=120)
    found = problems_of(stderr, process.returncode, {2})
    if time.perf_counter() - started > 10:
        found.append("refused only after the work")
    return found


def concurrent_fault(job: Job, reference: Path, rng: random.Random) -> list[str]:
    first = job.run()
    time.sleep(rng.uniform(0.0, 1.0))
    second = job.run()
    _, first_err = first.communicate(timeout=600)
    _, second_err = second.communicate(timeout=600)
    found = problems_of(first_err, first.returncode, {0, 1, 2}) + problems_of(second_err, second.returncode, {0, 1, 2})
    if 2 in (first.returncode, second.returncode):
        loser = first_err if first.returncode == 2 else second_err
        if "in use by" not in loser and "exists" not in loser:
            found.append(f"the second writer was refused for another reason: {loser.strip()[-160:]}")
    heal(job, reference, found)
    return found


def memory_fault(job: Job, reference: Path, rng: random.Random) -> list[str]:
    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    process = subprocess.Popen(
        PYTHON
        + [
            "solve",
            str(job.shared / "hard.txt"),
            "-a",
            "block-ga",
            "--population",
            str(rng.choice([2_000_000, 5_000_000, 20_000_000])),
        ],
        cwd=job.folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limited,
    )
    _, stderr = process.communicate(timeout=300)
    return problems_of(stderr, process.returncode, {2})


def faults(tmpfs: bool) -> list[tuple[str, object]]:
    """(fault name, function(job, reference, rng) -> problems)."""
    listed = []
    for signame in SIGNALS:
        listed.append((signame, lambda j, r, g, s=signame: signal_fault(j, r, g, s, False)))
        listed.append((f"{signame} under --force", lambda j, r, g, s=signame: signal_fault(j, r, g, s, True)))
    for stream in ("stdout closed", "stdout full", "stderr closed", "stderr full", "stdout pipe closed"):
        listed.append((stream, lambda j, r, g, s=stream: stream_fault(j, r, g, s)))
    listed.append(
        ("disk full" + (" (tmpfs)" if tmpfs else " (file-size limit)"), lambda j, r, g: disk_full_fault(j, r, g, tmpfs))
    )
    for name in ("dangling link", "name too long"):
        listed.append((name, lambda j, r, g, n=name: name_fault(j, r, g, n)))
    listed.append(("two at once", concurrent_fault))
    return listed


def can_mount_tmpfs() -> bool:
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", folder], capture_output=True)
        if done.returncode:
            return False
        subprocess.run(["umount", folder], check=False)
        return True


def prepare(shared: Path, jobs: set[type]) -> dict[str, Path]:
    """The inputs, and the uninterrupted output of each of ``jobs``."""
    shutil.copy(ROOT / "data" / "testdata" / "hard.txt", shared / "hard.txt")
    shutil.copy(ROOT / "data" / "testdata" / "easy.txt", shared / "easy.txt")
    (shared / "unsolvable.txt").write_text(unsolvable().format() + "\n")
    lines = (ROOT / "data" / "testdata" / "easy.txt").read_text().splitlines()
    (shared / "many.txt").write_text("\n".join(lines * int(12_000 * Job.scale)) + "\n")
    references = {}
    for job_class in jobs:
        folder = shared / f"reference-{job_class.__name__}"
        folder.mkdir()
        job = job_class(folder, shared)
        started = time.perf_counter()
        process = job.run()
        _, stderr = process.communicate(timeout=900)
        if process.returncode not in (0, 1):
            raise SystemExit(f"the uninterrupted {job.name} failed: {stderr[-500:]}")
        job_class.duration = time.perf_counter() - started
        references[job_class.__name__] = folder / job.output()
    return references


def one(task: tuple) -> Check:
    job_class, fault_name, fault, seed, shared, reference = task
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=shared) as folder:
        job = job_class(Path(folder), shared)
        inputs = {p: digest(p) for p in shared.iterdir() if p.is_file()}
        started = time.perf_counter()
        try:
            found = fault(job, reference, rng)
        except Exception as exc:  # the campaign's own failure is a failed check, not a crash
            found = [f"campaign error: {type(exc).__name__}: {exc}"]
        if any(digest(p) != h for p, h in inputs.items()):
            found.append("an input changed")
        return Check(job.name, fault_name, found, time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500, help="faulted runs in all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--only", default="", help="only the commands and faults whose names contain this")
    parser.add_argument("--scale", type=float, default=1.0, help="the work of each command (the tests run 0.1)")
    parser.add_argument(
        "--category",
        choices=["files", "cache"],
        default="files",
        help="files: the writing commands; cache: the compile cache",
    )
    parser.add_argument(
        "--cache-work", type=Path, default=None, help="cache: keep the package copy and warm cache here"
    )
    args = parser.parse_args()
    if args.category == "cache":
        cache_campaign(args)
        return
    Job.scale = args.scale
    tmpfs = can_mount_tmpfs()
    with tempfile.TemporaryDirectory() as folder:
        shared = Path(folder)
        listed = faults(tmpfs)
        combos = [(job, name, fault) for job in JOBS for name, fault in listed]
        combos += [(SolveOut, "memory limit (1 GiB)", memory_fault)]
        combos = [(job, name, fault) for job, name, fault in combos if args.only in f"{job.name} {name}"]
        if not combos:
            raise SystemExit(f"no command and fault matches --only {args.only!r}")
        references = prepare(shared, {job for job, _, _ in combos})
        tasks = [
            (job, name, fault, args.seed * 1_000_000 + i, shared, references[job.__name__])
            for i, (job, name, fault) in zip(range(args.runs), _cycle(combos))
        ]
        checks: list[Check] = []
        with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
            for check in pool.map(one, tasks):
                checks.append(check)
                print(
                    f"\r{len(checks)}/{len(tasks)} faulted runs, {sum(not c.ok for c in checks)} failed",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
        print(file=sys.stderr)
    report(checks, tmpfs, args)


# --- the compile cache (issue 60): --category cache ----------------------------------------------

CACHE_RUNS = {  # algorithm: (puzzle, the kernels it loads, one to damage each time)
    "cdcl": ("p36.txt", ["clause_learning_kernel"]),
    "backtracking": ("p36.txt", ["backtracking_compiled", "kernel_compiled"]),
    "memetic": ("p36.txt", ["repair_kernel_compiled", "kernel_compiled"]),
    "acs": ("p16.txt", ["ant_colony_kernel"]),
}
"""The ant colony runs a 16x16: its Python twin's generation 0 (the givens propagated) takes 12 s on a
36x36 and 2.6-3.6 s on the 25x25 sample, with or without numba, so no run on the twins would get past
generation 0 in 3 s there (it asks the budget between two givens, and ends at generation 0)."""
CACHE_BUDGET = 3.0
TIME_TOLERANCE = 0.2  # deap_sudoku.runs.task.TIME_TOLERANCE: a run may end this late and count as within
CACHE_FAULTS = (
    "none (control)",  # the warm cache as it is: what start-up costs on this machine, now
    "compiler killed",
    "stale lock",
    "foreign lock",
    "lock without pid",
    "truncated file",
    "flipped byte",
    "read-only folder",
    "not a folder",
    "nothing writable",
    "full disk (ulimit -f)",
    "full disk (tmpfs)",
)


class CacheCampaign:
    """A private copy of the package (so its in-tree ``__pycache__``, numba's fallback, is the
    campaign's), a warm cache compiled by it, and the puzzles."""

    def __init__(self, root: Path, tmpfs: bool) -> None:
        self.root, self.tmpfs = root, tmpfs
        self.package = root / "package"
        # this code, its times kept: a --cache-work folder's warm cache stays valid while the kernels are unchanged
        shutil.copytree(ROOT / "deap_sudoku", self.package / "deap_sudoku", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        self.warm = root / "warm"
        self.lock = __import__("threading").Lock()
        self.calibration: dict[str, tuple[float, float]] = {}

    def env(self, cache: Path, home: Path | None = None) -> dict[str, str]:
        import os

        return {**os.environ, "PYTHONPATH": str(self.package), "NUMBA_CACHE_DIR": str(cache),
                "XDG_CACHE_HOME": str(home or self.root / "home")}  # fmt: skip

    def prepare(self) -> None:
        make = ["generate", "--box", "6x6", "--givens", "750", "--count", "1", "--seed", "1", "--format", "grid"]
        for _ in range(5):  # generate gives each grid a time budget: on a busy machine it may miss one
            if (self.root / "p36.txt").exists():
                break
            subprocess.run(PYTHON + make + ["--out", str(self.root / "p36.txt"), "-q"], env=self.env(self.root / "x"),
                           capture_output=True, timeout=900)  # fmt: skip
            kill_compilers([self.root / "x"])
        from deap_sudoku import read, write

        write(self.root / "p16.txt", read(ROOT / "deap_sudoku" / "data" / "16x16.txt")[:1], overwrite=True)
        kill_compilers([self.root / "x", self.package])
        code = (
            "import sys\nfrom deap_sudoku import read\nfrom deap_sudoku.runs.kernels import compile_here\n"
            "p = read(sys.argv[2])[0]\n"
            "box = f'{p.shape.box_rows}x{p.shape.box_cols}'\n"
            "compile_here(sys.argv[1], box, ','.join(map(str, p.cells.tolist())))\n"
        )
        for name, (puzzle, _) in CACHE_RUNS.items() if not self.warm.exists() else ():  # one process each
            # from the campaign's folder: `-c` puts the current folder first on sys.path, and the checkout's
            # package is not the copy the runs use
            subprocess.run([sys.executable, "-c", code, name, str(self.root / puzzle)], env=self.env(self.warm),
                           cwd=self.root, check=True, timeout=1800)  # fmt: skip
        for name in CACHE_RUNS:  # the wall time of a warm run: what start-up and loading cost beside the budget
            folder = Path(tempfile.mkdtemp(dir=self.root))
            shutil.copytree(self.warm, folder / "cache")
            _, wall, seconds, stderr = self.solve(name, self.env(folder / "cache"), folder)
            if seconds is None:
                raise SystemExit(f"the calibration run of {name} failed: {stderr[-500:]}")
            self.calibration[name] = (wall, seconds)

    def solve(self, name: str, env: dict, folder: Path, preexec=None):
        """One ``solve`` under the budget: (process, wall seconds, the run's own seconds, stderr)."""
        puzzle = self.root / CACHE_RUNS[name][0]
        out = folder / "answer.txt"
        command = ["solve", str(puzzle), "-a", name, "--max-seconds", str(CACHE_BUDGET), "--out", str(out),
                   "--out-format", "grid", "--force"]  # fmt: skip
        started = time.perf_counter()
        process = subprocess.run(PYTHON + command, env=env, cwd=folder, capture_output=True, text=True,
                                 timeout=600, preexec_fn=preexec)  # fmt: skip
        wall = time.perf_counter() - started
        import re

        said = re.search(r"(?:solved in|not solved after|stopped by the time budget after) ([0-9.]+) s", process.stderr)
        return process, wall, float(said.group(1)) if said else None, process.stderr


def kill_compilers(folders: list[Path]) -> None:
    """End the background compilers whose locks are in ``folders`` (their process groups)."""
    import os

    for folder in folders:
        for lock in list(folder.rglob("*.compiling")) if folder.is_dir() else []:
            with contextlib.suppress(OSError, ValueError):
                pid = int(lock.read_text().split()[0])
                if b"compile_here" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.killpg(pid, signal.SIGKILL)


def held(folder: Path) -> bool:
    """Whether a live background compiler holds a lock in ``folder``."""
    import fcntl
    import os

    for lock in folder.glob("*.compiling") if folder.is_dir() else []:
        fd = os.open(lock, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
    return False


def _kernel_files(cache: Path, kernel: str) -> list[Path]:
    return sorted(p for p in cache.rglob(f"{kernel}.*") if p.suffix in (".nbi", ".nbc"))


def cache_check(campaign: CacheCampaign, name: str, fault: str, seed: int) -> Check:
    """One faulted run of ``name`` on a copy of the warm cache, and the checks of it."""
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(dir=campaign.root))
    cache, home = folder / "cache", folder / "home"
    shutil.copytree(campaign.warm, cache)
    found: list[str] = []
    mounted: list[Path] = []
    outside: list[float] = []
    started = time.perf_counter()
    try:
        kernel = rng.choice(CACHE_RUNS[name][1])
        listed = _listed_by(cache, name)
        preexec = _plant(campaign, name, fault, rng, folder, kernel, found, mounted, outside)
        env = campaign.env(cache, home)
        if fault == "nothing writable":
            env["PYTHONPATH"] = str(folder / "package")
        run = campaign.solve(name, env, folder, preexec)
        found += cache_problems(campaign, name, fault, outside, *run)
        if fault in LOCK_FAULTS:
            deadline = time.monotonic() + 3
            while not (held(cache) or list(cache.glob(f"deap-sudoku-{name}-*.compiled"))):
                if time.monotonic() > deadline:
                    found.append("no compile started again")
                    break
                time.sleep(0.05)
        if fault in ("truncated file", "flipped byte") and "damaged file" not in run[3]:
            if any(numba_sound(f) for f in _kernel_files(cache, kernel) if f in listed):  # one the run loads
                found.append("a damaged file the run needs was neither found nor removed")
    except Exception as exc:  # the campaign's own failure is a failed check, not a crash
        found.append(f"campaign error: {type(exc).__name__}: {exc}")
    finally:
        _clean(folder, mounted)
    return Check(name, fault, found, time.perf_counter() - started, outside)


def _listed_by(cache: Path, name: str) -> set[Path]:
    """The cache files the stamps of ``name`` list (those its runs load)."""
    listed = set()
    for stamp in cache.glob(f"deap-sudoku-{name}-*.compiled"):
        listed |= {cache / f for f in json.loads(stamp.read_text())["files"]}
    return listed


LOCK_FAULTS = ("compiler killed", "stale lock", "foreign lock", "lock without pid")


def _clean(folder: Path, mounted: list[Path]) -> None:
    kill_compilers([folder / "cache", folder / "package"])
    for mount in mounted:
        subprocess.run(["umount", "-l", str(mount)], check=False)
    for path in [folder, *folder.rglob("*")]:
        with contextlib.suppress(OSError):
            path.chmod(0o755)
    shutil.rmtree(folder, ignore_errors=True)


def _plant(campaign, name, fault, rng, folder, kernel, found, mounted, outside):  # noqa: C901 - one branch a fault
    """Deal ``fault`` out to the cache in ``folder``; the run's preexec function, where it needs one."""
    import os

    cache, home = folder / "cache", folder / "home"
    stamps = sorted(cache.glob(f"deap-sudoku-{name}-*.compiled"))
    lock = next((s for s in stamps if "-first-" not in s.name), cache / "x").with_suffix(".compiling")
    if fault in LOCK_FAULTS:
        for stamp in stamps:  # a machine that has not compiled them: a compile is due
            stamp.unlink()
        for file in _kernel_files(cache, kernel):  # and one kernel to compile for real
            file.unlink()
    if fault == "compiler killed":
        first = campaign.solve(name, campaign.env(cache, home), folder)
        found += cache_problems(campaign, name, fault, outside, *first)
        time.sleep(rng.uniform(0.0, 6.0))  # the compile started with the run: killed 1-10 s in
        kill_compilers([cache])
        time.sleep(0.1)
        if held(cache):
            found.append("the killed compiler still holds its lock")
    elif fault == "stale lock":
        dead = subprocess.Popen(["true"])
        dead.wait()
        lock.write_text(f"{dead.pid}\n")
    elif fault == "foreign lock":
        lock.write_text(f"{os.getpid()}\n")  # this campaign: alive, not a compiler
    elif fault == "lock without pid":
        lock.write_text("")
    elif fault in ("truncated file", "flipped byte"):
        target = rng.choice(_kernel_files(cache, kernel))
        raw = bytearray(target.read_bytes())
        if fault == "truncated file":
            raw = raw[: rng.randrange(len(raw))]
        else:
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        target.write_bytes(bytes(raw))
    elif fault in ("read-only folder", "nothing writable"):
        if os.geteuid() == 0 and campaign.tmpfs:  # root writes through permissions: a read-only bind mount
            subprocess.run(["mount", "--bind", str(cache), str(cache)], check=True)
            mounted.append(cache)
            subprocess.run(["mount", "-o", "remount,bind,ro", str(cache)], check=True)
        else:
            for path in [cache, *cache.rglob("*")]:
                path.chmod(0o555 if path.is_dir() else 0o444)
        if fault == "nothing writable":  # numba's fallbacks too: the package's __pycache__, the user's cache
            home.mkdir()
            (home / "numba").write_text("not a folder\n")
            fallback_package(campaign, folder)
    elif fault == "not a folder":
        shutil.rmtree(cache)
        cache.write_text("not a folder\n")
    elif fault == "full disk (ulimit -f)":
        return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, 64 << 10))
    elif fault == "full disk (tmpfs)":
        shutil.rmtree(cache)
        cache.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(cache)], check=True)
        mounted.append(cache)
        with contextlib.suppress(OSError), open(cache / "filler", "wb") as filler:
            filler.write(bytes(1 << 20))
    return None


def numba_sound(path: Path) -> str:
    from deap_sudoku.propagation.numba_cache import sound

    return sound(path)


def fallback_package(campaign: CacheCampaign, folder: Path) -> None:
    """A copy of the package whose ``__pycache__`` folders are files: nothing numba could write."""
    shutil.copytree(campaign.package, folder / "package", ignore=shutil.ignore_patterns("__pycache__"))
    for module in (folder / "package" / "deap_sudoku").rglob("*.py"):
        pycache = module.parent / "__pycache__"
        if not pycache.exists():
            pycache.write_text("not a folder\n")


def cache_problems(
    campaign: CacheCampaign, name: str, fault: str, outside: list[float], process, wall: float, seconds, stderr: str
) -> list[str]:
    """What is wrong with one faulted run: a traceback, an exit other than 0 or 1, more than one line
    about the cache, a puzzle unanswered or answered wrong, a budget overrun."""
    from deap_sudoku import read
    from deap_sudoku.exact import verify

    found = problems_of(stderr, process.returncode, {0, 1})
    lines = [line for line in stderr.splitlines() if "cache" in line or "compil" in line]
    if len(lines) > 1:
        found.append(f"{len(lines)} lines about the cache: {lines}")
    answer = Path(process.args[process.args.index("--out") + 1])
    puzzle = read(campaign.root / CACHE_RUNS[name][0])[0]
    if not answer.exists():
        found.append("unanswered: no answer written")
    elif "solved in" in stderr and "not solved" not in stderr:
        grid = read(answer)[0]
        if not verify(grid.cells, puzzle):
            found.append("a wrong answer counted solved")
    if seconds is not None and seconds > CACHE_BUDGET + TIME_TOLERANCE:
        found.append(f"budget overrun: the run took {seconds:.2f} s of a {CACHE_BUDGET:.0f} s budget")
    if seconds is not None:
        outside.append(wall - seconds)
    elif process.returncode in (0, 1):
        found.append(f"the run's seconds not found in: {stderr.strip()[-200:]!r}")
    return found


def _outside_the_clock(checks: list[Check]) -> dict[str, float]:
    """Judge each faulted run's time outside its clock (start-up, loading, a compile in the
    foreground) against the control runs of its algorithm in the same campaign, under the same load:
    at most twice their median, or 3 s more, whichever is larger.  The medians, by algorithm."""
    import statistics

    medians = {}
    for name in CACHE_RUNS:
        control = [x for c in checks if c.command == name and c.fault.startswith("none") for x in c.outside or []]
        medians[name] = statistics.median(control) if control else 1.0
    for check in checks:
        allowed = max(2 * medians[check.command], medians[check.command] + 3.0)
        for outside in check.outside or []:
            if outside > allowed:
                check.problems.append(
                    f"{outside:.1f} s outside the run's clock (the control runs' median: "
                    f"{medians[check.command]:.1f} s; allowed {allowed:.1f} s)"
                )
    return medians


def cache_campaign(args) -> None:
    tmpfs = can_mount_tmpfs()
    faults_here = [f for f in CACHE_FAULTS if f != "full disk (tmpfs)" or tmpfs]
    combos = [(name, fault) for fault in faults_here for name in CACHE_RUNS]
    combos = [(n, f) for n, f in combos if args.only in f"{n} {f}"]
    with tempfile.TemporaryDirectory() if args.cache_work is None else contextlib.nullcontext(args.cache_work) as root:
        Path(root).mkdir(parents=True, exist_ok=True)
        campaign = CacheCampaign(Path(root), tmpfs)
        print("compiling the warm cache and calibrating ...", file=sys.stderr, flush=True)
        campaign.prepare()
        tasks = [(n, f, args.seed * 1_000_000 + i) for i, (n, f) in zip(range(args.runs), _cycle(combos))]
        checks: list[Check] = []
        with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
            for check in pool.map(lambda t: cache_check(campaign, *t), tasks):
                checks.append(check)
                print(f"\r{len(checks)}/{len(tasks)} faulted runs, {sum(not c.ok for c in checks)} failed",
                      end="", file=sys.stderr, flush=True)  # fmt: skip
        print(file=sys.stderr)
    control = _outside_the_clock(checks)
    every = [[c.command, c.fault, c.ok, c.outside] for c in checks]
    report(checks, tmpfs, args, extra={"category": "cache", "budget_seconds": CACHE_BUDGET, "control_outside": control,
                                       "checks": every,
                                       "calibration": campaign.calibration})  # fmt: skip


def provenance_of(args) -> dict:
    """Revision, command, date and machine load, for the results file."""
    import os

    from deap_sudoku.experiments.provenance import provenance

    return {"provenance": {**provenance(seed=args.seed), "load_average": list(os.getloadavg())}}


def _cycle(items):
    while True:
        yield from items


def report(checks: list[Check], tmpfs: bool, args, extra: dict | None = None) -> None:
    groups = collections.defaultdict(list)
    for check in checks:
        groups[check.command, check.fault].append(check)
    print("| command | fault | runs | passed | median s |")
    print("|---|---|---:|---:|---:|")
    for (command, fault), mine in groups.items():
        seconds = sorted(c.seconds for c in mine)[len(mine) // 2]
        print(f"| {command} | {fault} | {len(mine)} | {sum(c.ok for c in mine)} | {seconds:.1f} |")
    failed = [c for c in checks if not c.ok]
    print(
        f"\n{len(checks)} faulted runs, {len(checks) - len(failed)} passed, {len(failed)} failed; "
        f"full disk by {'a tmpfs' if tmpfs else 'a file-size limit'}"
    )
    for check in failed:
        print(f"- {check.command}, {check.fault}: {'; '.join(check.problems)}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "runs": len(checks),
                    "failed": len(failed),
                    "tmpfs": tmpfs,
                    "seed": args.seed,
                    "groups": {f"{c} | {f}": [len(m), sum(x.ok for x in m)] for (c, f), m in groups.items()},
                    "failures": [vars(c) for c in failed],
                    **provenance_of(args),
                    **(extra or {}),
                },
                indent=1,
            )
            + "\n"
        )
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
