"""Which algorithm should ``deap-sudoku solve`` run when none is named?  The evidence for ``-a auto``.

    python benchmarks/solve_default.py --data ../shared/data --sets36 ../instance-sets/36x36
                                       [--instances 5] [--instances36 3] [--max-seconds 20]
                                       [--json benchmarks/results/solve_default.json]

Runs the candidates (the memetic GA, backtracking, clause learning) on the same puzzles, one
worker, through the public API (:func:`deap_sudoku.experiments.run_experiment`, seed 0): the
bundled samples, the first ``--instances`` (by number) of Lloyd & Amos's 9x9, 16x16 and 25x25 sets at 40,
45 and 50 % givens (the phase transition), the forum's hardest 9x9s, and the first
``--instances36`` of the 36x36 sets ``benchmarks/instance_sets.sh`` makes, at 40 to 60 %.
Times are each run's wall time with the kernels loaded beforehand (``run_experiment`` warms
them up off the clock), every answer verified; an unsolved run counts at ``--max-seconds`` in
the medians.  Then, for the bundled samples, the whole ``deap-sudoku solve -a NAME`` command
(start-up, reading, numba's loading where a run needs it), the algorithms alternating, best of
``--repeat``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deap_sudoku import read, write
from deap_sudoku.experiments import run_experiment
from deap_sudoku.io import load_samples

CANDIDATES = ("memetic", "backtracking", "cdcl")
SAMPLES = ("9x9.txt", "9x9-easy.txt", "16x16.txt", "25x25.txt")


def datasets(
    data: Path, sets36: Path | None, instances: int, instances36: int, shares36: tuple[int, ...] = (40, 45, 50, 55, 60)
) -> dict[str, list]:
    """The benchmark's puzzles by set name."""
    sets: dict[str, list] = {f"sample {name}": load_samples(name) for name in SAMPLES}
    general = data / "lloyd_amos_aco" / "general"
    for n in (9, 16, 25):
        for share in (40, 45, 50):
            files = sorted(general.glob(f"inst{n}x{n}_{share}_*.txt"), key=lambda f: int(f.stem.rsplit("_", 1)[1]))
            files = files[:instances]
            sets[f"lloyd-amos {n}x{n} {share}%"] = [p for f in files for p in read(f)]
    sets["forum_hardest_1106"] = read(data / "tdoku_data" / "forum_hardest_1106.txt")[:instances]
    if sets36 is not None:
        for share in shares36:
            sets[f"36x36 {share}%"] = read(sets36 / f"inst36x36_{share}.txt")[:instances36]
    return sets


def summary(results, limit: float) -> list[dict]:
    """Per set and algorithm: solved, and the median time (unsolved at ``limit``)."""
    rows = []
    keys = sorted({(r.dataset, r.algorithm) for r in results}, key=lambda k: (k[0], CANDIDATES.index(k[1])))
    for dataset, name in keys:
        mine = [r for r in results if (r.dataset, r.algorithm) == (dataset, name)]
        times = [r.seconds if r.solved else limit for r in mine]
        found = sorted({r.found_by for r in mine if r.solved})
        rows.append(
            dict(
                dataset=dataset,
                algorithm=name,
                solved=sum(r.solved for r in mine),
                runs=len(mine),
                median=statistics.median(times),
                worst=max(times),
                found_by=found,
            )
        )
    return rows


def command_files(
    data: Path, sets36: Path | None, folder: Path, shares25: tuple[int, ...], samples: bool = True
) -> list[tuple[str, Path]]:
    """(label, one-puzzle-or-sample file) for the whole-command comparison: the bundled samples, the
    first four 25x25 puzzles of Lloyd & Amos at each of ``shares25`` (% givens), and the first
    three 36x36 at 55 and 60 %, each written to a file of its own in ``folder``."""
    files = [(f"sample {name}", Path(f"data/{name}")) for name in SAMPLES] if samples else []
    for share in shares25:
        general = sorted((data / "lloyd_amos_aco" / "general").glob(f"inst25x25_{share}_*.txt"), key=_number)[:4]
        files += [(f"lloyd-amos 25x25 {share}% {f.stem.rsplit('_', 1)[1]}", f) for f in general]
    if sets36 is not None:
        folder.mkdir(parents=True, exist_ok=True)
        for share in (55, 60):
            for i, puzzle in enumerate(read(sets36 / f"inst36x36_{share}.txt")[:3]):
                path = folder / f"inst36x36_{share}_{i}.txt"
                write(path, [puzzle], format="lloyd", overwrite=True)
                files.append((f"36x36 {share}% {i}", path))
    return files


def _number(path: Path) -> int:
    return int(path.stem.rsplit("_", 1)[1])


def whole_commands(files: list[tuple[str, Path]], algorithms: tuple[str, ...], repeat: int) -> list[dict]:
    """The whole ``solve`` command on each file, per algorithm, best of ``repeat`` (the algorithms
    alternating, so that a busy moment of a shared machine falls on all of them)."""
    best: dict[tuple[str, str], float] = {}
    chose: dict[tuple[str, str], str] = {}
    for _ in range(repeat):
        for label, path in files:
            for name in algorithms:
                command = [sys.executable, "-m", "deap_sudoku", "solve", str(path), "-a", name, "-q"]
                command += ["--max-seconds", "20"]
                start = time.perf_counter()
                done = subprocess.run(command, check=True, capture_output=True, text=True)
                took = time.perf_counter() - start
                best[label, name] = min(took, best.get((label, name), took))
                found = re.findall(r"by ([\w-]+) \(auto: |auto ran ([\w-]+):", done.stderr)
                chose[label, name] = " ".join(sorted({by or ran for by, ran in found}))
    return [dict(file=f, algorithm=a, seconds=t, chose=chose[f, a]) for (f, a), t in best.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--sets36", type=Path, default=None, help="the 36x36 folder instance_sets.sh makes")
    parser.add_argument("--instances", type=int, default=5)
    parser.add_argument("--instances36", type=int, default=3)
    parser.add_argument("--max-seconds", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--shares36", default="40,45,50,55,60", help="the 36x36 shares of givens (%%)")
    parser.add_argument("--only", default="", help="run only the sets whose name this regular expression finds")
    parser.add_argument(
        "--folder", type=Path, default=None, help="for one-puzzle files (default: a temporary folder, removed after)"
    )
    parser.add_argument("--commands-only", action="store_true", help="no runs and no samples: whole commands only")
    parser.add_argument("--no-commands", action="store_true", help="the runs only")
    parser.add_argument("--shares25", default="45", help="the 25x25 shares of givens for whole commands (%%)")
    parser.add_argument("--algorithms", default=",".join((*CANDIDATES, "auto")), help="for the whole commands")
    args = parser.parse_args()
    shares36 = tuple(int(share) for share in args.shares36.split(","))
    sets = datasets(args.data, args.sets36, args.instances, args.instances36, shares36)
    sets = {name: puzzles for name, puzzles in sets.items() if re.search(args.only, name)}
    options = {name: {"max_seconds": args.max_seconds} for name in CANDIDATES}
    started = time.perf_counter()
    results = [] if args.commands_only else run_experiment(CANDIDATES, sets, runs=1, seed=0, options=options)
    rows = summary(results, args.max_seconds)
    for row in rows:
        print(
            f"{row['dataset']:24} {row['algorithm']:13} {row['solved']}/{row['runs']}  "
            f"median {row['median']:8.4f} s  worst {row['worst']:8.4f} s  {','.join(row['found_by'])}"
        )
    shares25 = tuple(int(share) for share in args.shares25.split(",") if share)
    with tempfile.TemporaryDirectory(prefix="solve_default_") as scratch:
        folder = Path(scratch) if args.folder is None else args.folder
        files = command_files(args.data, args.sets36, folder, shares25, not args.commands_only)
        commands = [] if args.no_commands else whole_commands(files, tuple(args.algorithms.split(",")), args.repeat)
    for row in commands:
        chose = f" (chose {row['chose']})" if row["chose"] else ""
        print(f"solve {row['file']:26} -a {row['algorithm']:13} {row['seconds']:.3f} s (whole command){chose}")
    print(f"{time.perf_counter() - started:.0f} s in all", file=sys.stderr)
    if args.json is not None:
        args.json.write_text(
            json.dumps(dict(max_seconds=args.max_seconds, runs=rows, commands=commands), indent=1) + "\n"
        )


if __name__ == "__main__":
    main()
