"""Experiments: comparing algorithms, the user's beside the bundled ones, the way the field does
(pairwise tests against a baseline on solve rates and censored times to solve), with every run kept
on disk as it finishes so that a killed experiment resumes and experiments merge."""

from .analysis import compare, to_markdown
from .experiment import run_experiment
from .store import ResultsFile, StoreError

__all__ = ["run_experiment", "compare", "to_markdown", "ResultsFile", "StoreError"]
