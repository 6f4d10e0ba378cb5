"""How hard are the instances for a clause-learning SAT solver?  A yardstick for the GA's targets.

    pip install python-sat      # this script only; the package never imports it
    python benchmarks/cdcl_yardstick.py SET.txt [--instances 4] [--solver cadical153] [--max-seconds 120]
                                       [--json FILE]

    e.g. python benchmarks/cdcl_yardstick.py ../instance-sets/36x36/inst36x36_50.txt --instances 4

Each of the first ``--instances`` puzzles is propagated with the package's rules (naked and
hidden singles, box-line reduction), and what is left is encoded in CNF the usual "3D" way, one
variable per open cell and candidate: every open cell takes one of its candidates, at most one,
and every value a unit still lacks goes to exactly one of the unit's cells that can hold it.
A CDCL solver (CaDiCaL 1.5.3 by default, through python-sat) then solves it, every model is
decoded into a grid and checked with ``verify``.  The time is wall time from the puzzle to the
decoded grid, encoding and starting the solver's process included; a solve that runs past
``--max-seconds`` is stopped and reported unsolved.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import statistics
import time
from pathlib import Path

from deap_sudoku import read
from deap_sudoku.exact import verify
from deap_sudoku.propagation import initial_masks, mask_values, propagate_masks, tables


def encode(puzzle) -> tuple[list[int], list[list[int]], dict[int, tuple[int, int]]]:
    """The candidates after propagation, the CNF of what they leave open, and each variable's
    (cell, value)."""
    t = tables(puzzle.shape)
    cands, queue = initial_masks(puzzle)
    if not propagate_masks(cands, queue, t, hidden=True, locked=True):
        return cands, [[]], {}  # the empty clause: no solution
    var = _variables(cands, puzzle.n)
    return cands, _clauses(cands, var, t.units, puzzle.n), {i: key for key, i in var.items()}


def _variables(cands: list[int], n: int) -> dict[tuple[int, int], int]:
    """A variable, numbered from 1, for each (open cell, candidate value): decided cells have none."""
    var: dict[tuple[int, int], int] = {}
    for c, m in enumerate(cands):
        if m & (m - 1):
            for v in range(n):
                if m >> v & 1:
                    var[c, v + 1] = len(var) + 1
    return var


def _exactly_one(lits: list[int]) -> list[list[int]]:
    """At least one of ``lits`` (one clause) and at most one (a clause per pair)."""
    return [lits, *([-a, -b] for a, b in itertools.combinations(lits, 2))]


def _clauses(cands: list[int], var: dict[tuple[int, int], int], units, n: int) -> list[list[int]]:
    """Every open cell takes exactly one of its candidates, and every value a unit still lacks goes to
    exactly one of the unit's cells that can hold it."""
    clauses: list[list[int]] = []
    for c, m in enumerate(cands):
        if m & (m - 1):
            clauses += _exactly_one([var[c, v + 1] for v in range(n) if m >> v & 1])
    for unit in units:
        for v in range(1, n + 1):
            places = [var[c, v] for c in unit if (c, v) in var]
            if places:  # a value decided in the unit is gone from its open cells: no places left
                clauses += _exactly_one(places)
    return clauses


def model_grid(puzzle, solver: str, answer) -> None:
    """Encode, solve and decode in a child process; send the grid's values (``None``: no solution)."""
    from pysat.solvers import Solver

    cands, clauses, decode = encode(puzzle)
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        model = sat.get_model() if sat.solve() else None
    cells = None
    if model is not None:
        cells = mask_values(cands, puzzle.cells.dtype)  # the cells propagation decided
        for lit in model:
            if lit > 0:
                c, v = decode[lit]
                cells[c] = v
    answer.send(cells)


def solve(puzzle, solver: str, max_seconds: float) -> tuple[float, str]:
    """Seconds, and "solved" (a verified grid), "no solution" (the solver proved it) or "unsolved"
    (``max_seconds`` passed).  The solver runs in a child process, stopped at the limit: not every
    python-sat solver can be interrupted."""
    started = time.perf_counter()
    receive, send = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.Process(target=model_grid, args=(puzzle, solver, send))
    child.start()
    send.close()  # the child's end alone: a child that dies ends the wait
    try:
        answered = receive.poll(max_seconds)
        cells = receive.recv() if answered else None
    except EOFError:
        raise SystemExit(f"the {solver} process ended without an answer (exit code {child.exitcode})") from None
    finally:
        seconds = time.perf_counter() - started
        child.kill()
        child.join()
    if not answered:
        return seconds, "unsolved"
    if cells is None:
        return seconds, "no solution"
    if not verify(puzzle.filled(cells), puzzle):
        raise SystemExit(f"the {solver} model does not decode to a valid solution")
    return seconds, "solved"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path)
    parser.add_argument("--instances", type=int, default=4)
    parser.add_argument("--solver", default="cadical153", help="a python-sat solver name")
    parser.add_argument("--max-seconds", type=float, default=120.0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    try:
        from pysat.solvers import NoSuchSolverError, Solver
    except ImportError:
        raise SystemExit("this benchmark needs python-sat: pip install python-sat") from None
    try:
        Solver(name=args.solver).delete()
    except NoSuchSolverError:
        raise SystemExit(f"--solver {args.solver}: python-sat has no solver of that name") from None
    runs = []
    for i, puzzle in enumerate(read(args.set)[: args.instances]):
        seconds, status = solve(puzzle, args.solver, args.max_seconds)
        runs.append({"instance": i, "seconds": round(seconds, 3), "solved": status == "solved"})
        print(
            f"{args.set.name} #{i}: "
            + (f"{seconds:.2f} s" if status == "solved" else f"{status} after {seconds:.0f} s"),
            flush=True,
        )
    times = [r["seconds"] if r["solved"] else args.max_seconds for r in runs]
    print(
        f"solved {sum(r['solved'] for r in runs)} of {len(runs)}, median {statistics.median(times):.2f} s "
        f"(unsolved counted as {args.max_seconds:g} s)"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {"file": args.set.name, "solver": args.solver, "max_seconds": args.max_seconds, "runs": runs}, indent=1
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
