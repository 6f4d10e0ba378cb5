"""Hostile input never crashes a reader or the CLI (a short run of scripts/fuzz_readers.py)."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deap_sudoku.grid import formats as codec
from deap_sudoku.grid.formats import line as line_format
from deap_sudoku.grid.errors import PuzzleError

from tests.fuzzing import check_cli, check_reader, hostile_inputs, reader_options

FAST = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@FAST
@given(hostile_inputs(), reader_options)
def test_readers_parse_or_refuse_with_a_message(data, options):
    assert check_reader(data, options) in ("parsed", "refused")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(hostile_inputs())
def test_cli_answers_bad_input_with_one_line_and_exit_code_2(data):
    assert check_cli(data) in (0, 2)


HOSTILE = [
    (b"", "parsed", 2),  # no puzzle: nothing to read, "no puzzle found"
    (b"\x00" * 10, "refused", 2),  # NUL bytes
    (b"\xff\xfe1\x002", "refused", 2),  # UTF-16, not UTF-8
    (b"1" * 10**6, "refused", 2),  # a 1000x1000 grid: beyond the largest side
    (b"3\r\n1\r\n" + b"-1\t" * 81, "refused", 2),  # a Lloyd & Amos file without its rows
    (b"12345678.\n", "refused", 2),  # 9 cells: no box shape tiles a 3x3 grid
    (b"0" * 10000 + b"\n", "parsed", 0),  # the empty 100x100 grid, the largest allowed
    (b"1" * 4301 + b"\n1\n" + b"1 " * 9, "refused", 2),  # a Lloyd & Amos header beyond int()'s digit limit
]


@pytest.mark.parametrize("data, outcome, code", HOSTILE, ids=[f"case{i}" for i in range(len(HOSTILE))])
def test_known_hostile_files(data, outcome, code):
    assert check_reader(data, {"format": None, "box": None, "alphabet": None}) == outcome
    assert check_cli(data) == code


_LINE_SYMBOLS = "0123456789.ABCDEFGx# "  # plain symbols of 4x4, 9x9 and 16x16, and what needs the slow path


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "1234341221434321",
                    "0000000000000000",
                    "1200340000000000",
                    "4." * 8,
                    "." * 81,
                    "1" * 81,
                    "534678912" + "0" * 72,
                ]
            ),
            st.text(_LINE_SYMBOLS, min_size=0, max_size=20),
            st.text("01234", min_size=16, max_size=16),
            st.text("0123456789", min_size=81, max_size=81),
        ),
        max_size=40,
    ),
    st.sampled_from([None, (2, 2), (3, 3)]),
    st.sampled_from(["\n", "\r\n"]),
    st.sampled_from([1, 23, 1 << 18]),
)
def test_the_line_readers_batched_path_reads_as_its_line_by_line_path(lines, box, end, block):
    """Plain lines are decoded and checked in batches (of ``block`` bytes here); an indented line takes
    the line-by-line path.  Both must find the same puzzles and the same errors (an indent moves every
    column by one)."""
    text = end.join(lines) + end
    try:
        with mock.patch.object(line_format, "_BLOCK_BYTES", block):
            batched = list(codec.iter_grids(text, format="line", box=box))
    except PuzzleError:
        return
    single = list(codec.iter_grids(end.join(" " + line for line in lines) + end, format="line", box=box))
    assert len(batched) == len(single)
    for fast, slow in zip(batched, single):
        if isinstance(fast, PuzzleError):
            assert isinstance(slow, PuzzleError) and fast.problem == slow.problem and fast.line == slow.line
            assert fast.column is None or fast.column + 1 == slow.column
        else:
            assert not isinstance(slow, PuzzleError)
            assert fast[0] == slow[0] and fast[1] == slow[1] and fast[2].tolist() == slow[2].tolist()
