"""Fuzz every reader and the CLI's error path with generated hostile files.

    python scripts/fuzz_readers.py [--examples 100000] [--cli-examples 5000] [--seed 0]

Inputs (tests/fuzzing.py): random bytes; valid files of every format, shape
and alphabet, alone or mixed, damaged by truncation, flipped, inserted or
deleted bytes, NUL bytes, invalid UTF-8, lines of up to 200,000 characters,
CRLF line ends, a wrong alphabet or a repeated line; read with every format,
box and alphabet option.  The only accepted outcomes are valid puzzles or the
project's PuzzleError with a message (the CLI: exit code 0, or 2 with one line).
Prints how many inputs were parsed and refused; any other outcome stops the run
with hypothesis's smallest failing example.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.fuzzing import check_cli, check_reader, hostile_inputs, reader_options  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100_000)
    parser.add_argument("--cli-examples", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    outcomes: collections.Counter = collections.Counter()
    options = dict(deadline=None, database=None, derandomize=False,
                   suppress_health_check=list(HealthCheck))

    @seed(args.seed)
    @settings(max_examples=args.examples, **options)
    @given(hostile_inputs(), reader_options)
    def readers(data, reader):
        outcomes["reader " + check_reader(data, reader)] += 1

    @seed(args.seed)
    @settings(max_examples=args.cli_examples, **options)
    @given(hostile_inputs())
    def cli(data):
        outcomes[f"cli exit {check_cli(data)}"] += 1

    start = time.perf_counter()
    readers()
    cli()
    print(f"{sum(outcomes.values())} inputs in {time.perf_counter() - start:.0f} s, no crash:")
    for outcome, count in sorted(outcomes.items()):
        print(f"  {outcome}: {count}")


if __name__ == "__main__":
    main()
