"""The tests.  Imported before any test module: one OpenBLAS thread in pytest's workers and in every
process they start, as ``deap-sudoku`` asks for itself (:func:`deap_sudoku.__main__.launch`): the
threads OpenBLAS starts when numpy loads spin for a moment, 0.1 s of CPU in each of the suite's
hundreds of Python processes on two cores, for a package that does no linear algebra."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
