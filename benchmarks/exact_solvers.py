"""Time the exact solver on the public benchmark sets: median and maximum milliseconds per puzzle, and
total seconds, per set.

    python benchmarks/exact_solvers.py [--data ../shared/data] [--quick] [--json FILE] [--repeat K]
                                       [--kernel auto|python|compiled] [--only forum] [--tree]

Every solution is checked with ``verify``; a wrong or missing one aborts the run.
The table it prints is the one in docs/guide.md (Exact solvers).

``--tree`` times the deterministic search alone (no restarts, first solution,
at most 10^6 nodes per puzzle) and adds its node count, so two versions or
kernels can be compared on the very same trees: the columns are then nodes
and microseconds per node.  It uses only ``search(...).nodes``, so it runs on
older checkouts too (``PYTHONPATH=<checkout> python benchmarks/exact_solvers.py --tree``).
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import statistics
import time
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.exact import SearchBudgetExceeded, search, solve, verify

TREE_NODES = 1_000_000


def sets(data: Path) -> dict[str, list[Path]]:
    general = data / "lloyd_amos_aco" / "general"
    chosen = {
        "norvig easy50": [data / "norvig_pytudes/easy50.txt"],
        "norvig top95": [data / "norvig_pytudes/top95.txt"],
        "norvig hardest": [data / "norvig_pytudes/hardest.txt"],
        "forum hardest 1106": [data / "tdoku_data/forum_hardest_1106.txt"],
    }
    for size in (16, 25):
        for low, high in ((50, 50), (55, 55), (60, 100)):
            files = [
                Path(f)
                for fraction in range(low, high + 1, 5)
                for f in glob.glob(str(general / f"inst{size}x{size}_{fraction}_*.txt"))
            ]
            label = f"{low} %" if low == high else f"{low}-{high} %"
            chosen[f"{size}x{size} {label} givens"] = sorted(files)
    return chosen


def run_once(puzzle, tree: bool, seed: int, compiled: bool | None) -> tuple[float, int | None]:
    """Seconds for one solve (``tree``: one deterministic search) whose answer is verified, and with
    ``tree`` the nodes it visited (``None``: it hit :data:`TREE_NODES` without an answer)."""
    start = time.perf_counter()
    nodes = None
    if tree:
        try:
            result = search(puzzle, max_nodes=TREE_NODES, compiled=compiled)
        except SearchBudgetExceeded:
            return time.perf_counter() - start, None
        solution, nodes = (result.solutions[0] if result.solutions else None), result.nodes
    else:
        solution = solve(puzzle, rng=random.Random(seed), compiled=compiled)
    seconds = time.perf_counter() - start
    if solution is None or not verify(solution, puzzle):
        raise SystemExit(f"wrong answer for {puzzle!r}")
    return seconds, nodes


def arguments() -> argparse.Namespace:
    """The command line, ``--repeat`` checked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    parser.add_argument("--quick", action="store_true", help="every tenth puzzle only")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--only", default=None, help="only the sets whose name contains this text")
    parser.add_argument(
        "--kernel",
        choices=["auto", "python", "compiled"],
        default="auto",
        help="propagation kernel of the search (auto: compiled above 9x9 or once numba is loaded)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="solve each puzzle this many times and keep the fastest (this machine's timings vary)",
    )
    parser.add_argument(
        "--tree",
        action="store_true",
        help="deterministic search only, with node counts (compare kernels or versions node for node)",
    )
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, not {args.repeat}")
    return args


def time_set(puzzles: list, args: argparse.Namespace, compiled: bool | None) -> tuple[list[float], list[int]]:
    """The fastest of ``args.repeat`` seconds for each puzzle, and with ``--tree`` each one's nodes
    (:data:`TREE_NODES` for a search that hit the budget)."""
    if args.tree:
        solve(puzzles[0], compiled=compiled)  # load the kernels off the clock
    times, nodes = [], []
    for puzzle in puzzles:
        best = None
        for _ in range(args.repeat):
            seconds, visited = run_once(puzzle, args.tree, args.seed, compiled)
            best = seconds if best is None else min(best, seconds)
        times.append(best)
        if args.tree:
            nodes.append(visited if visited is not None else TREE_NODES)
    return times, nodes


def table_row(name: str, puzzles: int, times: list[float], nodes: list[int], tree: bool) -> str:
    """The set's line of the printed table (the columns of ``--tree`` or of a plain run)."""
    if tree:
        return (
            f"| {name} | {puzzles} | {len(times) - nodes.count(TREE_NODES)} | {sum(nodes)} |"
            f" {1e6 * sum(times) / sum(nodes):.1f} | {sum(times):.2f} |"
        )
    return (
        f"| {name} | {puzzles} | {len(times)} | {1e3 * statistics.median(times):.2f} "
        f"| {1e3 * max(times):.1f} |"
        f" {sum(times):.2f} |"
    )


def main() -> None:
    args = arguments()
    compiled = {"auto": None, "python": False, "compiled": True}[args.kernel]
    rows = []
    if args.tree:
        print("| set | puzzles | solved | nodes | µs per node | total s |")
    else:
        print("| set | puzzles | solved | median ms | max ms | total s |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, files in sets(args.data).items():
        if args.only and args.only not in name:
            continue
        puzzles = [p for f in files for p in read(f)]
        if args.quick:
            puzzles = puzzles[::10]
        times, nodes = time_set(puzzles, args, compiled)
        print(table_row(name, len(puzzles), times, nodes, args.tree), flush=True)
        rows.append({"set": name, "puzzles": len(puzzles), "seconds": times, **({"nodes": nodes} if nodes else {})})
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
