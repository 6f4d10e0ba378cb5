"""The package's ant colony replayed against Lloyd & Amos's own solver, draw for draw.

    python benchmarks/acs_replay.py [--source FOLDER] [--data ../shared/data] [--iterations 50]
        [--seed 59] [--trace benchmarks/results/acs_replay.json [--force]]

The authors' C++ (``huwlloyd-mmu/sudoku_acs``; ``--source`` a folder holding it, by default
``$DEAP_SUDOKU_ACS_SOURCE`` or the mirror's git directory, which is extracted) is copied into a
temporary folder and patched there (:data:`PATCHES`, three search-and-replaces, never copied into
this repository): every random draw is read from a file of doubles instead of its Mersenne
Twister (``random()`` takes ``(float)u``; a start cell ``(int)(u * cells)``), and after each colony
iteration it writes every ant's grid, its pheromone matrix (float32) and its best value, and stops
after ``--iterations``.  It is built with g++ as its Makefile builds it (``-O3 -std=c++0x``).

Each case (:data:`CASES`: a 9x9, a 16x16 and a 25x25 of the authors' instances, that propagation
does not solve and that no colony solves within the iterations, under both greedy rules: ``code``,
the solver as released, ``--q0 0.9``; ``paper``, ``--q0 0.1``, which is ``-a acs-paper``) runs the
original on the stream of :meth:`~deap_sudoku.tools.DrawStream.from_seed` ``(seed)`` and the
package's ``acs`` recipe (float32) on the same stream, through its public ``rng=``, and compares
them iteration by iteration: the ants' grids, the pheromone matrix bit for bit and the best value
bit for bit.  Exit status 1 and the first difference on stderr when they differ.

The trace (``--trace``) keeps the original's digests per iteration (sha256 of the ants' grids as
bytes and of the pheromone's float32 bytes, 16 hex digits each, and the best value's float32 bits),
with the seed that makes the stream: ``tests/algorithms/test_acs_replay.py`` replays the package
against it where no compiler or source is at hand.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from deap_sudoku import Puzzle, read
from deap_sudoku.algorithms import Stop
from deap_sudoku.exact import count_solutions
from deap_sudoku.experiments.provenance import provenance
from deap_sudoku.io import write_atomic
from deap_sudoku.runs.catalogue.colony import ant_colony
from deap_sudoku.tools import DrawStream, Pheromone

SOURCE_ENV = "DEAP_SUDOKU_ACS_SOURCE"
MIRROR = Path("/work/.mirror/huwlloyd-mmu+sudoku_acs/repo/.git")
"""Where the ``fetch`` tool keeps the authors' repository (a bare git directory)."""
COMMIT = "5181658"
REPO = Path(__file__).resolve().parents[1]
DEFAULT_TRACE = REPO / "benchmarks" / "results" / "acs_replay.json"
DEFAULT_DATA = REPO.parent.parent / "shared" / "data"
SEED = 59
ITERATIONS = 60
Q0 = {"code": "0.9", "paper": "0.1"}
"""The original's ``--q0`` for each greedy rule: it is greedy when a draw is above q0."""

CASES = (
    ("9x9", "lloyd_amos_aco/logic-solvable/goldennugget.txt", "code"),
    ("9x9", "lloyd_amos_aco/logic-solvable/goldennugget.txt", "paper"),
    ("16x16", "lloyd_amos_aco/general/inst16x16_45_0.txt", "code"),
    ("16x16", "lloyd_amos_aco/general/inst16x16_45_0.txt", "paper"),
    ("25x25", "lloyd_amos_aco/general/inst25x25_45_0.txt", "code"),
    ("25x25", "lloyd_amos_aco/general/inst25x25_45_0.txt", "paper"),
)
"""(size, instance under the shared data, greedy rule).  The colony solves no 16x16 of the authors'
in 50 iterations (a scan of seed 59's stream: 3 to 26 iterations under the code's rule, 2 to 9
under the paper's), so the 16x16 case is :func:`unsolvable`'s variant of one: a given more, which
leaves no solution, so that both colonies run every iteration.  The 9x9 solves at iteration 52
under the code's rule: the replay covers a solution too."""


def unsolvable(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with one given more that leaves it without a solution, and with cells open once the
    givens are propagated: the first such (cell, value) in cell order, values in order."""
    domains = Pheromone(puzzle).domains
    for cell in range(puzzle.shape.cells):
        if puzzle.cells[cell] == 0 and int(domains[cell]).bit_count() > 1:
            for value in range(1, puzzle.n + 1):
                cells = puzzle.cells.copy()
                cells[cell] = value
                if domains[cell] >> (value - 1) & 1 and count_solutions(Puzzle(cells), limit=1) == 0:
                    return Puzzle(cells)
    raise ValueError("no single given more leaves this puzzle without a solution")


def case_puzzle(data: Path, size: str, name: str) -> Puzzle:
    """The puzzle of a case (:data:`CASES`)."""
    puzzle = read(data / name)[0]
    return unsolvable(puzzle) if size == "16x16" else puzzle


_READER = """#include "sudokusolver.h"
#include <cstdio>
#include <cstdlib>
inline double ReplayNext()
{
	static FILE *draws = std::fopen(std::getenv("ACS_REPLAY_DRAWS"), "rb");
	double u;
	if (draws == nullptr || std::fread(&u, sizeof u, 1, draws) != 1)
	{
		std::fprintf(stderr, "replay: the stream of draws ran out\\n");
		std::exit(3);
	}
	return u;
}"""
_DUMP = """++iter;
		{
			static FILE *trace = std::fopen(std::getenv("ACS_REPLAY_TRACE"), "wb");
			for (auto a : antList)
				for (int c = 0; c < numCells; c++)
				{
					const ValueSet &v = a->GetSolution().GetCell(c);
					int x = (!v.Empty() && v.Fixed()) ? v.Index() + 1 : 0;
					std::fwrite(&x, sizeof x, 1, trace);
				}
			for (int c = 0; c < numCells; c++)
				std::fwrite(pher[c], sizeof(float), puzzle.GetNumUnits(), trace);
			std::fwrite(&bestPher, sizeof bestPher, 1, trace);
			std::fflush(trace);
			if (iter >= std::atoi(std::getenv("ACS_REPLAY_ITERATIONS")))
				break;
		}"""
PATCHES = (
    ("src/sudokuantsystem.h", '#include "sudokusolver.h"', _READER),
    (
        "src/sudokuantsystem.h",
        "inline float random() { return randomDist(randGen); }",
        "inline float random() { return (float)ReplayNext(); }",
    ),
    (
        "src/sudokuantsystem.cpp",
        "a->InitSolution(puzzle, dist(randGen));",
        "a->InitSolution(puzzle, (int)(ReplayNext() * puzzle.CellCount()));",
    ),
    ("src/sudokuantsystem.cpp", "++iter;", _DUMP),
)
"""(file, text, replacement): each text occurs once in its file."""


@dataclass
class Iteration:
    """One colony iteration's state: the ants' grids (``(ants, cells)``, 0 where no value), the
    pheromone matrix (float32) and the best value after its evaporation (float32)."""

    grids: np.ndarray
    pheromone: np.ndarray
    best: np.float32

    def digest(self) -> dict:
        return {
            "grids": hashlib.sha256(self.grids.astype(np.uint8).tobytes()).hexdigest()[:16],
            "pheromone": hashlib.sha256(self.pheromone.astype("<f4").tobytes()).hexdigest()[:16],
            "best": np.float32(self.best).tobytes()[::-1].hex(),
        }


def source_folder(given: str | os.PathLike | None, into: Path) -> Path | None:
    """The authors' source: ``given`` (a folder), else ``$DEAP_SUDOKU_ACS_SOURCE``, else the
    mirror's git directory extracted into ``into``; None when there is none."""
    given = given or os.environ.get(SOURCE_ENV)
    if given:
        folder = Path(given)
        if not (folder / "src" / "sudokuantsystem.cpp").is_file():
            raise FileNotFoundError(f"{folder}: no src/sudokuantsystem.cpp (the authors' sudoku_acs source)")
        return folder
    if not MIRROR.is_dir() or shutil.which("git") is None:
        return None
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "--git-dir", str(MIRROR), "archive", "HEAD"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def build(source: Path, folder: Path, optimise: str = "-O3") -> Path:
    """Copy ``source`` into ``folder``, patch it (:data:`PATCHES`) and build it; the binary.  The
    test builds with ``-O0`` (a third of the compile time; the same float32 arithmetic: x86-64's SSE
    rounds every operation, and ``-std=c++0x`` contracts none into a fused multiply-add)."""
    shutil.copytree(source / "src", folder / "src")
    for name, text, replacement in PATCHES:
        path = folder / name
        code = path.read_text(encoding="latin-1")
        if code.count(text) != 1:
            raise ValueError(f"{path}: {text!r} occurs {code.count(text)} times, not once: another version?")
        path.write_text(code.replace(text, replacement), encoding="latin-1")
    binary = folder / "sudokusolver"
    sources = sorted(str(path) for path in (folder / "src").glob("*.cpp"))
    subprocess.run(["g++", optimise, "-std=c++0x", *sources, "-o", str(binary)], check=True, capture_output=True)
    return binary


def original(binary: Path, puzzle: Puzzle, stream: DrawStream, greedy: str, iterations: int, folder: Path) -> list:
    """The patched original's iterations on ``puzzle``, drawing from ``stream``."""
    draws, trace, instance = folder / "draws.bin", folder / "trace.bin", folder / "puzzle.txt"
    stream.values.astype("<f8").tofile(draws)
    rows = np.where(puzzle.cells > 0, puzzle.cells.astype(np.int64), -1).reshape(puzzle.n, puzzle.n)
    lines = [str(int(round(puzzle.n**0.5))), "1", *("\t".join(map(str, row)) for row in rows.tolist())]
    instance.write_text("\n".join(lines) + "\n")
    trace.unlink(missing_ok=True)
    env = {
        **os.environ,
        "ACS_REPLAY_DRAWS": str(draws),
        "ACS_REPLAY_TRACE": str(trace),
        "ACS_REPLAY_ITERATIONS": str(iterations),
    }
    command = [str(binary), "--file", str(instance), "--q0", Q0[greedy], "--timeout", "100000"]
    subprocess.run(command, env=env, check=True, capture_output=True)
    cells, n = puzzle.shape.cells, puzzle.n
    raw = np.fromfile(trace, dtype=np.uint8)
    ants = 10
    size = 4 * (ants * cells + cells * n + 1)
    states = []
    for at in range(0, raw.size, size):
        record = raw[at : at + size]
        grids = record[: 4 * ants * cells].view("<i4").reshape(ants, cells)
        pheromone = record[4 * ants * cells : -4].view("<f4").reshape(cells, n)
        states.append(Iteration(grids.copy(), pheromone.copy(), record[-4:].view("<f4")[0]))
    return states


class _Recorder:
    """A checkpoint that keeps each iteration's state instead of saving it (the run's last state,
    saved again when it ends, once)."""

    def __init__(self) -> None:
        self.saved: dict[int, Iteration] = {}

    def load(self) -> None:
        return None

    def due(self, generation: int) -> bool:
        return generation > 0

    def save(self, state: dict) -> None:
        grids = np.array([ant["cells"] for ant in state["population"]])
        extra = state["extra"]
        if state["generation"] > 0:
            self.saved[state["generation"]] = Iteration(grids, extra["pheromone"], np.float32(extra["best_value"]))

    @property
    def states(self) -> list[Iteration]:
        return [self.saved[generation] for generation in sorted(self.saved)]


def ours(puzzle, stream: DrawStream, greedy: str, iterations: int) -> list:
    """The package's ``acs`` recipe (float32) on ``puzzle``, drawing from ``stream``: its iterations."""
    recorder = _Recorder()
    ant_colony(
        puzzle,
        rng=stream,
        greedy=greedy,
        precision="float32",
        stop=Stop(max_generations=iterations),
        checkpoint=recorder,
    )
    return recorder.states


def stream_for(seed: int, puzzle, iterations: int) -> DrawStream:
    """Enough draws for ``iterations`` colonies of 10 ants on ``puzzle``: at most a start cell and
    two draws per ant and cell."""
    return DrawStream.from_seed(seed, iterations * 10 * (2 * puzzle.shape.cells + 1))


def first_difference(theirs: list, mine: list) -> str | None:
    """Where two runs' iterations first differ, in words; None when they are the same."""
    for number, (a, b) in enumerate(zip(theirs, mine), 1):
        if not np.array_equal(a.grids, b.grids):
            ant = int(np.flatnonzero((a.grids != b.grids).any(axis=1))[0])
            return f"iteration {number}: ant {ant}'s grid differs"
        if a.pheromone.astype(np.float32).tobytes() != b.pheromone.astype(np.float32).tobytes():
            return f"iteration {number}: the pheromone differs at {int(np.flatnonzero(a.pheromone != b.pheromone)[0])}"
        if np.float32(a.best).tobytes() != np.float32(b.best).tobytes():
            return f"iteration {number}: the best value differs, {float(a.best)!r} against {float(b.best)!r}"
    if len(theirs) != len(mine):
        return f"the original ran {len(theirs)} iterations, the package {len(mine)}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--source", help="the authors' sudoku_acs folder (default: $DEAP_SUDOKU_ACS_SOURCE, the mirror)"
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--trace", type=Path, default=None, help="write the original's digests here")
    parser.add_argument("--force", action="store_true", help="overwrite --trace")
    args = parser.parse_args(argv)
    if args.trace is not None and args.trace.exists() and not args.force:
        parser.error(f"{args.trace} exists: --force to overwrite it")
    different = 0
    cases = []
    with tempfile.TemporaryDirectory(prefix="acs_replay_") as temporary:
        folder = Path(temporary)
        source = source_folder(args.source, folder / "source")
        if source is None:
            parser.error(f"no source: give --source or set {SOURCE_ENV}")
        binary = build(source, folder / "build")
        for size, name, greedy in CASES:
            puzzle = case_puzzle(args.data, size, name)
            theirs = original(
                binary, puzzle, stream_for(args.seed, puzzle, args.iterations), greedy, args.iterations, folder
            )
            mine = ours(puzzle, stream_for(args.seed, puzzle, args.iterations), greedy, args.iterations)
            difference = first_difference(theirs, mine)
            different += difference is not None
            print(f"{size} {name} {greedy}: {len(theirs)} iterations, " + (difference or "the same"))
            digests = [state.digest() for state in theirs]
            cases.append({"size": size, "puzzle": name, "greedy": greedy, "iterations": digests})
    if args.trace is not None:
        record = {
            "provenance": provenance(seed=args.seed),
            "source": f"huwlloyd-mmu/sudoku_acs@{COMMIT}",
            "seed": args.seed,
            "stream": "DrawStream.from_seed(seed, iterations * 10 * (2 * cells + 1))",
            "iterations": args.iterations,
            "cases": cases,
        }
        write_atomic(args.trace, json.dumps(record, indent=1) + "\n", overwrite=True)
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
