"""Experiments: comparing algorithms, the user's beside the bundled ones, the way the field does
(pairwise tests against a baseline on solve rates and censored times to solve), with every run kept
on disk as it finishes so that a killed experiment resumes and experiments merge."""

from .analysis import compare, to_markdown
from .store import ResultsFile, StoreError

__all__ = ["compare", "to_markdown", "ResultsFile", "StoreError"]
