"""Kill a checkpointed run again and again with SIGKILL, resume it each time, and compare the end
with an uninterrupted run of the same seed.

    python scripts/kill_resume.py [--kills 25] [--seed 0] [--algorithm memetic|restart-ga]

For the memetic GA and the block GA with restarts, on a puzzle without a
solution (so each run uses its whole generation budget): one uninterrupted
reference run, then the same command started over and over, each start killed
with SIGKILL after a random delay, until a start finishes by itself.  The
printed grid and verdict, the logbook and the final population must equal the
reference's, bit for bit.  Prints the kills survived per algorithm.
"""

from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from deap_sudoku.runs import saved_state  # noqa: E402
from tests.conftest import unsolvable  # noqa: E402

RUNS = {
    "memetic": ["--population", "2", "--max-generations", "6000"],
    "restart-ga": ["--population", "100", "--max-generations", "10000"],
}


def solve(puzzle: Path, algorithm: str, checkpoint: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "deap_sudoku",
        "solve",
        str(puzzle),
        "-a",
        algorithm,
        "--seed",
        "3",
        "--checkpoint",
        str(checkpoint),
        "--checkpoint-every",
        "1",
        *RUNS[algorithm],
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=25, help="kills per algorithm (at most)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the kill delays")
    parser.add_argument("--algorithm", choices=list(RUNS), action="append", help="only these (default: both)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print("| algorithm | kills survived | generations | same result as uninterrupted | temporaries left |")
    print("|---|---:|---:|---|---:|")
    with tempfile.TemporaryDirectory() as folder:
        puzzle = Path(folder) / "unsolvable.txt"
        puzzle.write_text(unsolvable().format())
        for algorithm in args.algorithm or list(RUNS):
            reference_path = Path(folder) / f"{algorithm}-reference.ckpt"
            reference = subprocess.run(solve(puzzle, algorithm, reference_path), capture_output=True, text=True)
            path = Path(folder) / f"{algorithm}.ckpt"
            kills = 0
            while True:
                process = subprocess.Popen(
                    solve(puzzle, algorithm, path), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
                )
                if kills < args.kills:
                    try:
                        process.wait(timeout=rng.uniform(0.5, 1.5))  # start-up takes about 0.5 s
                    except subprocess.TimeoutExpired:
                        process.send_signal(signal.SIGKILL)
                        process.wait()
                        kills += 1
                        continue
                stdout, _ = process.communicate()
                break
            leftovers = sorted(p.name for p in Path(folder).glob(".*.tmp"))
            ours, theirs = saved_state(path), saved_state(reference_path)
            same = (
                stdout.rsplit(" in ", 1)[0] == reference.stdout.rsplit(" in ", 1)[0]
                and ours["logbook"] == theirs["logbook"]
                and all(
                    np.array_equal(a["cells"], b["cells"]) and a["fitness"] == b["fitness"]
                    for a, b in zip(ours["population"], theirs["population"])
                )
            )
            print(
                f"| {algorithm} | {kills} | {theirs['generation']} | {'yes' if same else 'NO'} | {len(leftovers)} |",
                flush=True,
            )
            if not same:
                raise SystemExit(f"{algorithm}: the resumed run differs from the uninterrupted one")
            if leftovers:
                raise SystemExit(f"{algorithm}: temporary files outlived the killed runs: {leftovers}")


if __name__ == "__main__":
    main()
