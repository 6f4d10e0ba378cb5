"""Block GA with switches, after the documented C++ "Sudoku Löser" GA.

Block-permutation individuals; random or smart initialisation; two-point band
or three-parent diagonal crossover; collision or closeness fitness; truncation
(``keeping_percentage``) or stochastic-universal selection; conflict-guided
in-box swap mutation; optional punish-same penalty.  Stops when solved or when
the best fitness equals the population mean (a local minimum).

    python examples/block_ga.py [PUZZLE_FILE] [--init smart] [--crossover diagonal] ...
"""

from __future__ import annotations

import random

from deap_sudoku import crossover, selection
from deap_sudoku.algorithms import Stop
from deap_sudoku.reporting import evolve, example_parser, load_puzzle
from deap_sudoku.toolbox import make_toolbox


def main(puzzle=None, *, seed: int = 0, population_size: int = 200, init: str = "smart",
         crossover_kind: str = "two_point", fitness: str = "collisions", select: str = "truncation",
         keeping_percentage: float = 0.5, cxpb: float = 0.9, mutpb: float = 0.5, punish_same: bool = False,
         max_generations: int = 1000, verbose: bool = True):
    """Run the block GA; return ``(population, logbook, hall_of_fame)``."""
    puzzle = puzzle or load_puzzle(None)
    random.seed(seed)
    toolbox = make_toolbox(puzzle, representation="block", smart=init == "smart", fitness=fitness,
                           mutate="conflict_swap_in_box", select="truncation" if select == "truncation" else "sus",
                           **({"keep": keeping_percentage} if select == "truncation" else {}))
    if crossover_kind == "diagonal":
        toolbox.register("mate", crossover.cx_diagonal, puzzle=puzzle)
    else:
        toolbox.register("mate", crossover.cx_band_two_point, puzzle=puzzle)
    if punish_same:
        toolbox.register("select", selection.with_punish_same(toolbox.select, free=~puzzle.givens))
    return evolve(puzzle, toolbox, population_size, cxpb, mutpb, parents=3 if crossover_kind == "diagonal" else 2,
                  stop=Stop(solved=0, stagnation=True, max_generations=max_generations), verbose=verbose)


def cli() -> None:
    parser = example_parser(__doc__.splitlines()[0])
    parser.add_argument("--init", choices=["random", "smart"], default="smart")
    parser.add_argument("--crossover", choices=["two_point", "diagonal"], default="two_point")
    parser.add_argument("--fitness", choices=["collisions", "closeness"], default="collisions")
    parser.add_argument("--selection", choices=["truncation", "sus"], default="truncation")
    parser.add_argument("--keeping-percentage", type=float, default=0.5)
    parser.add_argument("--cxpb", type=float, default=0.9)
    parser.add_argument("--mutpb", type=float, default=0.5)
    parser.add_argument("--punish-same", action="store_true")
    parser.add_argument("--max-generations", type=int, default=1000)
    args = parser.parse_args()
    main(load_puzzle(args.puzzle), seed=args.seed, population_size=args.population, init=args.init,
         crossover_kind=args.crossover, fitness=args.fitness, select=args.selection,
         keeping_percentage=args.keeping_percentage, cxpb=args.cxpb, mutpb=args.mutpb,
         punish_same=args.punish_same, max_generations=args.max_generations)


if __name__ == "__main__":
    cli()
