"""The project's best solver: a memetic GA with propagation repair (deap_sudoku.memetic).

Block-permutation individuals started from the candidates propagation leaves;
tournament-selected mates and block-uniform crossover; every child improved
by a large-neighbourhood move (free the clashing cells and half their peers,
rebuild them under constraint propagation, never backtracking); a slot that
stalls restarts.  Solves the hardest 9x9 benchmark sets and 25x25 puzzles at
the phase transition (see the README's Performance section).

    python examples/memetic.py [PUZZLE_FILE] [--max-seconds 10] [--cxpb 0.2] [--stall 20]
"""

from __future__ import annotations

from deap_sudoku import recipes
from deap_sudoku.reporting import example_parser, load_puzzle, run_example


def main(puzzle=None, **options):
    """Run :func:`deap_sudoku.recipes.memetic` (where the composition is) on ``puzzle``, or on the default puzzle."""
    return recipes.memetic(puzzle or load_puzzle(None), **options)


if __name__ == "__main__":
    parser = example_parser(__doc__.splitlines()[0])
    parser.set_defaults(population=4)
    parser.add_argument("--cxpb", type=float, default=0.2, help="chance that a child is a crossover")
    parser.add_argument("--stall", type=int, default=20, help="children without improvement before a slot restarts")
    parser.add_argument("--share", type=float, default=0.5, help="part of a clashing cell's peers freed with it")
    parser.add_argument("--max-seconds", type=float, default=None)
    parser.add_argument("--max-generations", type=int, default=5000)
    args = parser.parse_args()
    run_example(main, args, "memetic", cxpb=args.cxpb, stall=args.stall, share=args.share,
                max_seconds=args.max_seconds, max_generations=args.max_generations)
