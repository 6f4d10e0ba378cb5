"""Generated hostile inputs for the readers, and the oracle they must satisfy.

Used by ``tests/test_fuzz.py`` (a short run) and ``scripts/fuzz_readers.py``
(100,000 inputs and more).  The oracle: reading any bytes either gives valid
puzzles or raises :class:`~deap_sudoku.grid.errors.PuzzleError` with a message;
the CLI answers with exit code 0 or 2 and a one-line message, never a traceback.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import numpy as np
from click.testing import CliRunner
from hypothesis import strategies as st

from deap_sudoku import Shape
from deap_sudoku.io import formats
from deap_sudoku.cli import main
from deap_sudoku.grid.errors import PuzzleError
from deap_sudoku.exact.generate import dig_puzzle, random_solution
from deap_sudoku.grid.puzzle import Puzzle, problems

BOXES = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)]
_SOLUTIONS = {box: random_solution(Shape(*box), random.Random(1)) for box in BOXES}


@st.composite
def valid_texts(draw) -> str:
    """One to three puzzles of one shape in one format, as a file would hold them."""
    box = draw(st.sampled_from(BOXES))
    fmt = draw(st.sampled_from(formats.FORMATS))
    solution = _SOLUTIONS[box]
    seed = draw(st.integers(0, 2**16))
    puzzles = [
        dig_puzzle(solution, draw(st.integers(0, solution.shape.cells)), random.Random(seed + i), unique=False)
        for i in range(draw(st.integers(1, 3)))
    ]
    alphabet = {16: "hex", 25: "letters"}.get(solution.n, "digits") if fmt in ("line", "dash") else None
    try:
        return formats.dumps(puzzles, format=fmt, alphabet=alphabet)
    except ValueError:  # a shape this format cannot hold
        return formats.dumps(puzzles, format="grid")


def _mutate(data: bytes, draw) -> bytes:
    kind = draw(
        st.sampled_from(
            [
                "truncate",
                "flip",
                "insert",
                "delete",
                "nul",
                "bad utf-8",
                "huge line",
                "crlf",
                "wrong alphabet",
                "duplicate line",
            ]
        )
    )
    at = draw(st.integers(0, len(data)))
    if kind == "truncate":
        return data[:at]
    if kind == "flip":
        return data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
    if kind == "insert":
        return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    if kind == "delete":
        return data[:at] + data[at + draw(st.integers(1, 8)) :]
    if kind == "nul":
        return data[:at] + b"\x00" + data[at:]
    if kind == "bad utf-8":
        return data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80"])) + data[at:]
    if kind == "huge line":
        return (
            data[:at]
            + draw(st.sampled_from([b"1", b".", b" ", b"-1\t", b"z"])) * draw(st.integers(1000, 200_000))
            + data[at:]
        )
    if kind == "crlf":
        return data.replace(b"\n", b"\r\n")
    if kind == "wrong alphabet":
        return data.translate(bytes.maketrans(b"123456789", b"abcdefghi"))
    lines = data.split(b"\n")
    i = draw(st.integers(0, max(len(lines) - 1, 0)))
    return b"\n".join(lines[: i + 1] + lines[i:])


@st.composite
def hostile_inputs(draw) -> bytes:
    """Random bytes, or valid files of every format (mixed or not) damaged in one to three places."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=2000))
    parts = [draw(valid_texts()).encode() for _ in range(draw(st.integers(1, 2)))]  # two parts: mixed formats
    data = b"\n".join(parts)
    for _ in range(draw(st.integers(0, 3))):
        data = _mutate(data, draw)
    return data


reader_options = st.fixed_dictionaries(
    {
        "format": st.sampled_from([None, *formats.FORMATS]),
        "box": st.sampled_from([None, None, (2, 3), (3, 3), (5, 5), (1, 9)]),
        "alphabet": st.sampled_from([None, None, *formats.ALPHABETS]),
    }
)


def check_reader(data: bytes, options: dict) -> str:
    """Read ``data`` from a file; return "parsed" or "refused", fail on anything else."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.txt"
        path.write_bytes(data)
        try:
            puzzles = formats.read(path, **options)
        except PuzzleError as exc:
            assert str(exc).strip() and exc.source == str(path)
            return "refused"
    for puzzle in puzzles:
        assert isinstance(puzzle, Puzzle)
        assert not problems(puzzle.shape, puzzle.cells), "a parsed puzzle must be valid"
        assert int(puzzle.cells.max(initial=0)) <= puzzle.n
    return "parsed"


def check_cli(data: bytes) -> int:
    """Convert ``data`` with the CLI: exit 0, or 2 with a one-line message; never a traceback."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.txt"
        path.write_bytes(data)
        result = CliRunner().invoke(main, ["convert", str(path), "-", "--to", "grid"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    return result.exit_code


def four_by_fours(size: int) -> str:
    """About ``size`` bytes of distinct-looking 4x4 puzzles in the line format, 17 bytes each."""
    rng = np.random.default_rng(0)
    solved = np.frombuffer(b"1234341221434321", np.uint8)
    grids = np.where(rng.random((size // 17, 16)) < 0.5, ord("0"), solved)
    lines = np.concatenate([grids, np.full((len(grids), 1), ord("\n"))], axis=1).astype(np.uint8)
    return lines.tobytes().decode()
