"""Experiments: comparing algorithms, the user's beside the bundled ones, the way the field does
(pairwise tests against a baseline on solve rates and censored times to solve)."""

from .analysis import compare, to_markdown

__all__ = ["compare", "to_markdown"]
