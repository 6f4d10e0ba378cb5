"""Block GA with switches, after the documented C++ "Sudoku Löser" GA.

Block-permutation individuals; random or smart initialisation; two-point band
or three-parent diagonal crossover; collision or closeness fitness; truncation
(``keeping_percentage``) or stochastic-universal selection; conflict-guided
in-box swap mutation; optional punish-same penalty.  Stops when solved or when
the best fitness equals the population mean (a local minimum).

    python examples/block_ga.py [PUZZLE_FILE] [--init smart] [--crossover diagonal] ...
"""

from __future__ import annotations

from deap_sudoku import recipes
from deap_sudoku.reporting import example_parser, load_puzzle, run_example


def main(puzzle=None, **options):
    """Run :func:`deap_sudoku.recipes.block_ga` (where the composition is) on ``puzzle``, or on the default puzzle."""
    return recipes.block_ga(puzzle or load_puzzle(None), **options)


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
    run_example(main, args, "block-ga", init=args.init, crossover_kind=args.crossover, fitness=args.fitness,
                select=args.selection, keeping_percentage=args.keeping_percentage, cxpb=args.cxpb, mutpb=args.mutpb,
                punish_same=args.punish_same, max_generations=args.max_generations)


if __name__ == "__main__":
    cli()
