"""How fast the clause-learning loop runs, compiled and as Python: the figure to hold two versions of
the kernel against each other (the same search, node for node, so only the time may differ).

    python benchmarks/clause_learning_speed.py BIG.txt SMALL.txt [--instances 4] [--conflicts 6000]
                                               [--small-instances 20]

    e.g. (the 36x36 set from benchmarks/instance_sets.sh, then two source trees side by side)
    PYTHONPATH=OLD python benchmarks/clause_learning_speed.py ../instance-sets/36x36/inst36x36_45.txt \
        ../shared/data/tdoku_data/forum_hardest_1106.txt
    PYTHONPATH=NEW python benchmarks/clause_learning_speed.py ...

In this process: ``load`` is the first compiled call (numba's cache read, or the compilation when
there is none); ``compiled`` the seconds of ``exact.solve_learning`` on the first ``--instances``
puzzles of BIG, compiled, each stopped after ``--conflicts`` conflicts (seed 1); ``python`` the
seconds of the Python twin solving the first ``--small-instances`` puzzles of SMALL (seed 3).
Prints one JSON line with the three figures and the conflicts searched, so that two runs can be
checked to have searched alike.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from deap_sudoku import read
from deap_sudoku.exact import SearchBudgetExceeded, solve_learning


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("big", help="puzzles for the compiled loop (e.g. 36x36 at 45 %% givens)")
    parser.add_argument("small", help="puzzles for the Python twin (e.g. hard 9x9)")
    parser.add_argument("--instances", type=int, default=4)
    parser.add_argument("--conflicts", type=int, default=6000)
    parser.add_argument("--small-instances", type=int, default=20)
    args = parser.parse_args()
    big, small = read(args.big)[: args.instances], read(args.small)[: args.small_instances]

    start = time.perf_counter()
    solve_learning(small[0], compiled=True)
    load = time.perf_counter() - start

    searched = {"compiled": 0, "python": 0}
    start = time.perf_counter()
    for puzzle in big:
        statistics: dict = {}
        try:
            solve_learning(
                puzzle, rng=random.Random(1), compiled=True, max_conflicts=args.conflicts, statistics=statistics
            )
        except SearchBudgetExceeded:
            pass
        searched["compiled"] += statistics["conflicts"]
    compiled = time.perf_counter() - start

    start = time.perf_counter()
    for puzzle in small:
        statistics = {}
        solve_learning(puzzle, rng=random.Random(3), compiled=False, statistics=statistics)
        searched["python"] += statistics["conflicts"]
    python = time.perf_counter() - start

    print(
        json.dumps(
            {"load": round(load, 3), "compiled": round(compiled, 3), "python": round(python, 3), "conflicts": searched}
        )
    )


if __name__ == "__main__":
    main()
