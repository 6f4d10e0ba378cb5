"""Hostile input never crashes a reader or the CLI (a short run of scripts/fuzz_readers.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.fuzzing import check_cli, check_reader, hostile_inputs, reader_options

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.data_too_large])


@FAST
@given(hostile_inputs(), reader_options)
def test_readers_parse_or_refuse_with_a_message(data, options):
    assert check_reader(data, options) in ("parsed", "refused")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(hostile_inputs())
def test_cli_answers_bad_input_with_one_line_and_exit_code_2(data):
    assert check_cli(data) in (0, 2)


HOSTILE = [
    (b"", "parsed", 2),                              # no puzzle: nothing to read, "no puzzle found"
    (b"\x00" * 10, "refused", 2),                    # NUL bytes
    (b"\xff\xfe1\x002", "refused", 2),               # UTF-16, not UTF-8
    (b"1" * 10**6, "refused", 2),                     # a 1000x1000 grid: beyond the largest side
    (b"3\r\n1\r\n" + b"-1\t" * 81, "refused", 2),     # a Lloyd & Amos file without its rows
    (b"12345678.\n", "refused", 2),                  # 9 cells: no box shape tiles a 3x3 grid
    (b"0" * 10000 + b"\n", "parsed", 0),             # the empty 100x100 grid, the largest allowed
    (b"1" * 4301 + b"\n1\n" + b"1 " * 9, "refused", 2),  # a Lloyd & Amos header beyond int()'s digit limit
]


@pytest.mark.parametrize("data, outcome, code", HOSTILE, ids=[f"case{i}" for i in range(len(HOSTILE))])
def test_known_hostile_files(data, outcome, code):
    assert check_reader(data, {"format": None, "box": None, "alphabet": None}) == outcome
    assert check_cli(data) == code
