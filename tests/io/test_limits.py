"""Inputs beyond the supported sizes are refused with a message before any large allocation."""

from __future__ import annotations

import contextlib
import os
import threading
import tracemalloc

import pytest
from click.testing import CliRunner

from deap_sudoku import read
from deap_sudoku.grid.errors import PuzzleError
from deap_sudoku.cli import main
from deap_sudoku.io.formats import MAX_FILE_BYTES, iter_read

from tests.fuzzing import four_by_fours


def _peak_bytes(action) -> int:
    tracemalloc.start()
    try:
        action()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def test_a_file_over_the_size_limit_is_refused_without_reading_it(tmp_path):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used

    def attempt():
        with pytest.raises(PuzzleError, match=f"larger than the {MAX_FILE_BYTES} bytes allowed"):
            read(huge)

    assert _peak_bytes(attempt) < 1 << 20


MIB = 1 << 20
HOSTILE = {  # name: (text, part of the message); each text is 4-8 MiB of what a reader dreads
    "line of a 121x121 grid": ("1" * 121 * 121 + "\n", "14641 is more than the 10000 of the largest grid"),
    "grid row of 2 million values": ("0 " * 2_000_000 + "\n", "row has more than 100 values"),
    "dash row of 4 million symbols": ("-" * 4 * MIB + "\n", "row has more than 100 values"),
    "Lloyd & Amos row of 2 million values": ("5\n1\n" + "-1\t" * 2_000_000 + "\n", "row has more than 25 values"),
    "4 million one-symbol lines": ("x\n" * 2 * MIB, "more than 100 errors: stopped reading here"),
    "4 million one-value rows": ("1\n" * 2 * MIB, "more than 100 errors: stopped reading here"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_files_are_refused_in_memory_proportional_to_the_text(name, tmp_path):
    text, problem = HOSTILE[name]
    path = tmp_path / "big.txt"
    path.write_text(text)
    fmt = {"grid row": "grid", "dash row": "dash", "Lloyd & Amos": "lloyd", "4 million one-value": "grid"}

    def attempt():
        with pytest.raises(PuzzleError) as raised:
            read(path, format=next((f for key, f in fmt.items() if name.startswith(key)), None))
        assert problem in str(raised.value)

    # the text itself (and its decoded copy) at most: never a string, tuple or error per symbol
    assert _peak_bytes(attempt) < 3 * len(text) + 4 * MIB


def test_devices_and_pipes_are_read_up_to_the_limit_and_no_further(tmp_path):
    """Their size is 0, so the limit is counted as the bytes come: /dev/zero used to be read until the
    memory ran out (issue 16, point 3)."""

    def endless_device():
        with pytest.raises(PuzzleError, match=f"input is larger than the {MAX_FILE_BYTES} bytes allowed"):
            read("/dev/zero")

    assert _peak_bytes(endless_device) < 2 * MAX_FILE_BYTES
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def endless_writer():
        with contextlib.suppress(BrokenPipeError), open(fifo, "wb") as handle:
            while True:
                handle.write(b"1" * MIB)

    writer = threading.Thread(target=endless_writer, daemon=True)
    writer.start()
    with pytest.raises(PuzzleError, match="larger than"):
        read(fifo)
    writer.join(timeout=10)
    assert not writer.is_alive()


def test_streamed_reading_keeps_memory_a_small_multiple_of_the_text(tmp_path):
    """iter_read of half a MiB of 4x4 puzzles (30,800): the text, its bytes and a batch, 2.3 MiB.
    read() keeps every puzzle, about 18 times the text here (9.2 MiB): 64 MiB of them took 1.7 GiB
    (issue 16, point 3)."""
    text = four_by_fours(MIB // 2)
    path = tmp_path / "many.txt"
    path.write_text(text)
    count = []

    def stream():
        count.append(sum(1 for _ in iter_read(path)))

    assert _peak_bytes(stream) < 3 * len(text) + 2 * MIB
    assert count == [len(text) // 17]


def test_convert_streams_a_large_file(tmp_path):
    """convert checks the whole file, then reads and writes it a puzzle at a time: a quarter of a MiB
    of 4x4 puzzles (15,420) would take 4.7 MiB kept whole."""
    text = four_by_fours(MIB // 4)
    source, out = tmp_path / "many.txt", tmp_path / "out.txt"
    source.write_text(text)
    result = []

    def convert():
        result.append(CliRunner().invoke(main, ["convert", str(source), str(out), "--to", "line"]))

    assert _peak_bytes(convert) < 3 * len(text) + 2 * MIB  # streamed: 1.8 MiB (read whole: 4.7)
    assert result[0].exit_code == 0 and out.read_text() == text
