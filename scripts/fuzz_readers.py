"""Fuzz every reader and the CLI's error path with generated hostile files.

    python scripts/fuzz_readers.py [--examples 100000] [--cli-examples 5000] [--seed 0]
                                   [--no-special] [--checkpoints 1000] [--checkpoint-cli 50]

Inputs (tests/fuzzing.py): random bytes; valid files of every format, shape
and alphabet, alone or mixed, damaged by truncation, flipped, inserted or
deleted bytes, NUL bytes, invalid UTF-8, lines of up to 200,000 characters,
CRLF line ends, a wrong alphabet or a repeated line; read with every format,
box and alphabet option.  The only accepted outcomes are valid puzzles or the
project's PuzzleError with a message (the CLI: exit code 0, or 2 with one line).
Prints how many inputs were parsed and refused; any other outcome stops the run
with hypothesis's smallest failing example.

Special files (``--special``, on by default): /dev/zero, /dev/urandom, /dev/null, an
endless FIFO, an empty FIFO and a folder, each given to ``deap-sudoku check``: exit 2 with
one line, no traceback, and the child's peak memory within 3x the 64 MiB input limit.  Then
a file just under the limit of 4x4 puzzles (3.9 million) through ``deap-sudoku convert``: the
output must equal the input and the peak memory above a one-puzzle run stay within 3x the text.

Checkpoints (``--checkpoints 1000``): a checkpoint of a memetic run stopped half way is
damaged by 1-3 random bit flips, again and again, and resumed.  Each must be refused with
one line (CheckpointError) or resume to exactly the uninterrupted run (a flip that only
cuts the last save short makes it resume from the save before).  Any traceback, crash or
different result stops the run.  ``--checkpoint-cli`` of them go through ``deap-sudoku solve``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from hypothesis import HealthCheck, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from deap_sudoku.io.formats import MAX_FILE_BYTES  # noqa: E402
from deap_sudoku.runs.catalogue import ga_recipes  # noqa: E402
from deap_sudoku.runs.checkpoint import Checkpoint, CheckpointError, run_identity  # noqa: E402
from tests.conftest import recipe_options, unsolvable  # noqa: E402
from tests.fuzzing import check_cli, check_reader, four_by_fours, hostile_inputs, reader_options  # noqa: E402

CHECK = [sys.executable, "-m", "deap_sudoku", "check"]
CONVERT = [sys.executable, "-m", "deap_sudoku", "convert"]


def special_files(outcomes: collections.Counter) -> None:
    """Devices, pipes and a folder through ``deap-sudoku check``: exit 2, one line, bounded memory."""
    with tempfile.TemporaryDirectory() as folder:
        endless, empty = Path(folder, "endless"), Path(folder, "empty")
        os.mkfifo(endless)
        os.mkfifo(empty)

        def feed(path: Path, forever: bool) -> None:
            with contextlib.suppress(BrokenPipeError), open(path, "wb") as handle:
                while forever:
                    handle.write(b"1" * (1 << 20))

        for name, path, writer in (
            ("/dev/zero", "/dev/zero", None),
            ("/dev/urandom", "/dev/urandom", None),
            ("/dev/null", "/dev/null", None),
            ("endless FIFO", endless, True),
            ("empty FIFO", empty, False),
            ("folder", folder, None),
        ):
            if writer is not None:
                threading.Thread(target=feed, args=(path, writer), daemon=True).start()
            returncode, stdout, stderr, peak_kib = _run_measured([*CHECK, str(path)])
            lines = stderr.strip().splitlines() + stdout.strip().splitlines()
            ok = returncode == 2 and "Traceback" not in stderr and len(lines) == 1
            if not ok or peak_kib > 3 * 64 * 1024:
                raise SystemExit(f"special file {name}: exit {returncode}, peak {peak_kib} KiB, output {lines}")
            outcomes[f"special file refused with one line: {name}"] += 1
            print(f"  {name}: exit 2 in {peak_kib // 1024} MiB, {lines[0]!r}", flush=True)


def large_file(outcomes: collections.Counter) -> None:
    """A file just under the 64 MiB limit of 4x4 puzzles (3.9 million) through ``convert``: it checks
    the whole file, then streams it; its peak memory above a one-puzzle run must stay within 3x the text."""
    with tempfile.TemporaryDirectory() as folder:
        big, small = Path(folder, "big.txt"), Path(folder, "small.txt")
        text = four_by_fours(MAX_FILE_BYTES - 1024)
        big.write_text(text)
        small.write_text(text[:17])
        peaks, seconds = [], 0.0
        for source in (small, big):
            out = Path(folder, "out.txt")
            started = time.perf_counter()
            returncode, _, stderr, peak_kib = _run_measured([*CONVERT, str(source), str(out), "--to", "line"])
            seconds = time.perf_counter() - started
            if returncode != 0 or out.read_text() != source.read_text():
                raise SystemExit(f"convert of {source.name}: exit {returncode}, {stderr.strip()!r}")
            out.unlink()
            peaks.append(peak_kib)
        above = (peaks[1] - peaks[0]) / 1024
        if above > 3 * len(text) / 2**20:
            raise SystemExit(f"convert of {len(text) >> 20} MiB of 4x4 peaked {above:.0f} MiB above a one-puzzle run")
        outcomes["large file converted in bounded memory"] += 1
        print(
            f"  {len(text) / 2**20:.0f} MiB of 4x4 ({len(text) // 17:,} puzzles): convert in {seconds:.0f} s, "
            f"peak {peaks[1] / 1024:.0f} MiB, {above:.0f} MiB above a one-puzzle run "
            f"({above / (len(text) / 2**20):.1f}x the text)",
            flush=True,
        )


def _run_measured(command: list[str]) -> tuple[int, str, str, int]:
    """Exit code, standard output and error, and peak resident memory (KiB) of ``command``, started
    from a bare Python (a child forked from this process would count this process's pages)."""
    with tempfile.NamedTemporaryFile("r") as peak:
        done = subprocess.run(
            [sys.executable, "-S", "-c", _MEASURE, peak.name, *command], capture_output=True, text=True, timeout=300
        )
        code, kib = peak.read().split()
    return int(code), done.stdout, done.stderr, int(kib)


_MEASURE = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


OPTIONS = dict(population_size=2, max_generations=40)


class _Stop(Exception):
    pass


class _StopAt(Checkpoint):
    """A checkpoint whose run dies right after saving generation ``at``."""

    at = 20

    def save(self, state: dict) -> None:
        super().save(state)
        if state["generation"] == self.at:
            raise _Stop


def _same(first, second) -> bool:
    (pop1, log1, hof1), (pop2, log2, hof2) = first, second
    return (
        [dict(r) for r in log1] == [dict(r) for r in log2]
        and log1.stop_reason == log2.stop_reason
        and all(np.array_equal(a, b) and a.fitness.values == b.fitness.values for a, b in zip(pop1, pop2))
        and np.array_equal(hof1[0], hof2[0])
    )


def checkpoint_campaign(trials: int, cli_trials: int, seed: int, outcomes: collections.Counter) -> None:
    """Damage a real checkpoint ``trials`` times and resume it; ``cli_trials`` of them via the CLI."""
    puzzle = unsolvable()
    identity = run_identity(puzzle, "memetic", 5, OPTIONS)
    reference = ga_recipes.memetic(puzzle, seed=5, **recipe_options(ga_recipes.memetic, **OPTIONS))
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "run.ckpt")
        with contextlib.suppress(_Stop):
            ga_recipes.memetic(
                puzzle, seed=5, checkpoint=_StopAt(path, 3, identity), **recipe_options(ga_recipes.memetic, **OPTIONS)
            )
        good = path.read_bytes()
        puzzle_file = Path(folder, "unsolvable.txt")
        puzzle_file.write_text(puzzle.format())
        command = [
            sys.executable,
            "-m",
            "deap_sudoku",
            "solve",
            str(puzzle_file),
            "--seed",
            "5",
            "--population",
            "2",
            "--max-generations",
            "40",
            "--checkpoint",
            str(path),
            "--checkpoint-every",
            "3",
        ]
        clean = subprocess.run(command, capture_output=True, text=True, timeout=300)
        path.write_bytes(good)
        for trial in range(trials):
            damaged = bytearray(good)
            for _ in range(rng.randint(1, 3)):
                damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
            path.write_bytes(bytes(damaged))
            if trial < cli_trials:
                done = subprocess.run(command, capture_output=True, text=True, timeout=300)
                if (
                    done.returncode == 2
                    and len(done.stderr.strip().splitlines()) == 1
                    and "Traceback" not in done.stderr
                ):
                    outcomes["checkpoint via CLI: refused with one line"] += 1
                elif (
                    done.returncode == clean.returncode
                    and done.stdout.rsplit(" in ", 1)[0] == clean.stdout.rsplit(" in ", 1)[0]
                    and "Traceback" not in done.stderr
                ):
                    outcomes["checkpoint via CLI: resumed, same result"] += 1
                else:
                    raise SystemExit(f"checkpoint trial {trial} via the CLI: exit {done.returncode}\n{done.stderr}")
                continue
            try:
                resumed = ga_recipes.memetic(
                    puzzle,
                    seed=5,
                    checkpoint=Checkpoint(path, 3, identity, puzzle=puzzle),
                    **recipe_options(ga_recipes.memetic, **OPTIONS),
                )
            except CheckpointError as exc:
                if "\n" in str(exc):
                    raise SystemExit(f"checkpoint trial {trial}: a message of several lines: {exc}") from None
                outcomes["checkpoint: refused with one line"] += 1
                continue
            if not _same(reference, resumed):
                raise SystemExit(f"checkpoint trial {trial}: resumed to a different run")
            outcomes["checkpoint: resumed, same result"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100_000)
    parser.add_argument("--cli-examples", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-special", dest="special", action="store_false", help="skip the special files")
    parser.add_argument("--checkpoints", type=int, default=1000, help="checkpoint corruption trials")
    parser.add_argument("--checkpoint-cli", type=int, default=50, help="of those, how many through the CLI")
    args = parser.parse_args()
    outcomes: collections.Counter = collections.Counter()
    options = dict(deadline=None, database=None, derandomize=False, suppress_health_check=list(HealthCheck))

    @seed(args.seed)
    @settings(max_examples=max(args.examples, 1), **options)
    @given(hostile_inputs(), reader_options)
    def readers(data, reader):
        outcomes["reader " + check_reader(data, reader)] += 1

    @seed(args.seed)
    @settings(max_examples=max(args.cli_examples, 1), **options)
    @given(hostile_inputs())
    def cli(data):
        outcomes[f"cli exit {check_cli(data)}"] += 1

    start = time.perf_counter()
    if args.examples:
        readers()
    if args.cli_examples:
        cli()
    if args.special:
        special_files(outcomes)
        large_file(outcomes)
    checkpoint_campaign(args.checkpoints, min(args.checkpoint_cli, args.checkpoints), args.seed, outcomes)
    print(f"{sum(outcomes.values())} inputs in {time.perf_counter() - start:.0f} s, no crash:")
    for outcome, count in sorted(outcomes.items()):
        print(f"  {outcome}: {count}")


if __name__ == "__main__":
    main()
