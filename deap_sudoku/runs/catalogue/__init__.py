"""The catalogue of bundled algorithms: one module per family, each declaring its records where its
runs are defined (:func:`~deap_sudoku.runs.record.bundled`, :func:`~deap_sudoku.runs.record.bundled_ga`).

The registry imports every module of this folder, found with :mod:`pkgutil` as the file formats
are, so a new module here is a new algorithm with nothing else to list (issue 61).  The modules:
``ga_recipes`` (the package's own GAs), ``lsga`` and ``mantere_koljonen`` (published GAs),
``local_search`` (tabu, annealing, iterated local search), ``colony`` (the ant colonies) and
``exact_solvers``.
"""
