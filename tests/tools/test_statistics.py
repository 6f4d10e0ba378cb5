"""What a run keeps: the statistics the package registers log plain Python numbers."""

import random

from deap_sudoku import load_sample, make_toolbox
from deap_sudoku.algorithms import ea_simple
from deap_sudoku.tools import fitness_statistics


def test_fitness_statistics_log_plain_floats_so_a_logbook_reads_like_deaps_examples():
    """numpy scalars made a logbook as a notebook cell's value 270 lines, 162 of them ``np.float64(...)``."""
    puzzle = load_sample()
    toolbox = make_toolbox(puzzle, rng=random.Random(1))
    _, logbook = ea_simple(toolbox.population(n=20), toolbox, 0.5, 0.5, 3, stats=fitness_statistics())
    assert len(logbook) == 4
    assert {type(record[name]) for record in logbook for name in ("min", "avg", "max")} == {float}
    assert {type(record[name]) for record in logbook for name in ("gen", "nevals")} == {int}
    assert "np." not in repr(logbook) and "np." not in repr(logbook.select("avg"))
    assert logbook[0]["min"] <= logbook[0]["avg"] <= logbook[0]["max"]
