"""How long numba takes to compile each algorithm's kernels from an empty cache, and on what.

    python benchmarks/compile_time.py [--algorithms backtracking,memetic,cdcl] [--events 0.5] [--json FILE]
    PYTHONPATH=<other checkout> python benchmarks/compile_time.py ...   # the same on other code

Each algorithm is compiled in a fresh process with a fresh ``NUMBA_CACHE_DIR``, as the background
process of a first-ever run does (``deap_sudoku.runs.kernels.compile_here``, on the first puzzle of
``data/9x9-easy.txt``); its CPU seconds are reported, and numba's own compile events over
``--events`` seconds, nested as numba compiled them: the place to look when a kernel grows slow
to compile (a slice assignment such as ``a[:] = b`` brings numpy's broadcasting and its error
strings, a helper called with the literals 0 and 1 is compiled once per literal, ``np.sort``
brings a quicksort).  Run the two checkouts alternately: this machine's absolute times drift.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = """
import json, sys, time
from numba.core import event
recorded = event.RecordingListener()
event.register("numba:compile", recorded)
from deap_sudoku.io import read
from deap_sudoku.runs.kernels import compile_here
puzzle = read(sys.argv[2])[0]
started = time.process_time()
compile_here(sys.argv[1], f"{puzzle.shape.box_rows}x{puzzle.shape.box_cols}", ",".join(map(str, puzzle.cells.tolist())))
seconds = time.process_time() - started
opened, events = [], []  # numba's compile events nest: a compile starts and ends inside its caller's
for stamp, happened in recorded.buffer:
    if happened.is_start:
        opened.append(stamp)
    else:
        function = happened.data["dispatcher"].py_func
        name = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__name__}"
        events.append([round(stamp - opened.pop(), 2), len(opened), name, str(happened.data["args"])[:100]])
import deap_sudoku
print(json.dumps({"cpu_seconds": round(seconds, 2), "package": deap_sudoku.__file__, "events": events}))
"""


def compile_time(name: str) -> dict:
    """CPU seconds of compiling ``name``'s kernels in a fresh process and cache, with numba's events."""
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, name, str(REPO / "data" / "9x9-easy.txt")],
            capture_output=True,
            text=True,
            env={**os.environ, "NUMBA_CACHE_DIR": cache},
            cwd=cache,  # not a checkout's folder, whose package would come before PYTHONPATH's
            check=True,
        )
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--algorithms", default="backtracking,memetic,cdcl")
    parser.add_argument("--events", type=float, default=0.5, help="list compile events longer than this (s)")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    figures = {}
    for name in args.algorithms.split(","):
        measured = compile_time(name)
        figures[name] = measured
        print(f"{name}: {measured['cpu_seconds']:.1f} CPU-s ({Path(measured['package']).parent})")
        for seconds, depth, function, types in measured["events"]:
            if seconds >= args.events:
                print(f"  {seconds:6.2f} s {'  ' * depth}{function} {types}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
