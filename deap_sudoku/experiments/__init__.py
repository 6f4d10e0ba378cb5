"""Experiments: many runs of many algorithms, the user's beside the bundled ones, compared the way the
field does.  The plan and its one loop (:class:`Experiment`, :func:`run_experiment`), the results
file that keeps every run as it finishes (so a killed experiment resumes), the summaries (solve
rates with Wilson intervals, ERT), the pairwise tests against a baseline (on solve rates and
censored times to solve), the plots, the IOHprofiler export, and the provenance every output
carries.  ``deap-sudoku bench`` is this layer behind a command line."""

from .analysis import compare, comparison_table
from .experiment import Experiment, run_experiment
from .plan import Plan
from .provenance import provenance
from .store import ResultsFile, StoreError, add_digests, read_results
from .summary import ert, report_json, summarise, summary_csv, summary_table, wilson_interval

__all__ = [
    "Experiment",
    "run_experiment",
    "Plan",
    "ResultsFile",
    "StoreError",
    "read_results",
    "add_digests",
    "summarise",
    "ert",
    "wilson_interval",
    "summary_table",
    "summary_csv",
    "report_json",
    "compare",
    "comparison_table",
    "provenance",
]
