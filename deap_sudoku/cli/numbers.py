"""The command line's number options: whole numbers in a range, seeds, finite real numbers.

A module of its own, light to import (click alone): every command that takes a number uses them,
and :mod:`deap_sudoku.cli.options` imports the algorithms' registry.
"""

from __future__ import annotations

import math
import sys

import click

MAX_COUNT = sys.maxsize
"""The largest count an option takes (runs, generations, a population...): what a machine word holds."""


class Count(click.ParamType):
    """A whole number in a range, ``N`` in help: click's range check, whose message gives the
    range (``0 is not in the range x>=1``), without the range in help, where it was noise
    (``[1<=x<=9223372036854775807]`` after most options)."""

    name = "integer"

    def __init__(self, min: int, max: int) -> None:
        self.min, self.max = min, max
        self.range = click.IntRange(min=min, max=max)

    def convert(self, value, param, ctx):
        return self.range.convert(value, param, ctx)

    def get_metavar(self, param, ctx=None) -> str:
        return "N"


def count(minimum: int, maximum: int = MAX_COUNT) -> Count:
    """A whole-number option from ``minimum`` to ``maximum`` (by default what a machine word holds:
    ``--runs 100000000000000000000000`` is refused in one line, not an ``OverflowError`` later)."""
    return Count(min=minimum, max=maximum)


SEED = Count(min=-(2**63), max=2**63 - 1)
"""A seed: any 64-bit whole number."""


class Number(click.FloatRange):
    """A real-number option in a range that is a finite number: ``nan`` and ``inf`` pass every
    comparison of click's own range check (``--max-seconds nan`` was no limit at all)."""

    name = "number"

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number
