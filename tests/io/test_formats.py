import glob
import math
import os
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deap_sudoku import FORMATS, Puzzle, PuzzleError, PuzzleFileError, Shape, detect_format, dumps, loads, read, write
from deap_sudoku.exact.generate import random_solution

from deap_sudoku.io.formats import scan

from tests.conftest import REPO, SHAPES

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


@lru_cache(maxsize=None)
def _solution(box):
    import random

    return random_solution(Shape(*box), random.Random(sum(box)))


@st.composite
def puzzles(draw, boxes=tuple(SHAPES)):
    box = draw(st.sampled_from(boxes))
    solution = _solution(box)
    mask = draw(st.lists(st.booleans(), min_size=solution.shape.cells, max_size=solution.shape.cells))
    return Puzzle([v if keep else 0 for v, keep in zip(solution.cells.tolist(), mask)], box=solution.shape)


def _formats_for(puzzle):
    fmts = ["grid"]
    if puzzle.n <= 35:
        fmts += ["line", "dash"]
    if puzzle.shape.box_rows == puzzle.shape.box_cols:
        fmts.append("lloyd")
    return fmts


@settings(max_examples=60, deadline=None)
@given(st.lists(puzzles(), min_size=1, max_size=3))
def test_every_format_round_trips(batch):
    shape = batch[0].shape
    batch = [p for p in batch if p.shape == shape]
    box = (shape.box_rows, shape.box_cols)
    for fmt in _formats_for(batch[0]):
        text = dumps(batch, format=fmt)
        assert loads(text, format=fmt, box=box) == batch, fmt
        assert loads(text, box=box) == batch, f"{fmt} detected as {detect_format(text, box=box)}"


@pytest.mark.parametrize("alphabet", ["digits", "hex", "letters"])
@pytest.mark.parametrize("box", [(4, 4), (5, 5), (2, 3)], ids=str)
def test_alphabets_round_trip(alphabet, box):
    puzzle = _solution(box)
    holes = Puzzle([v if i % 3 else 0 for i, v in enumerate(puzzle.cells.tolist())], box=box)
    for fmt in ("line", "dash"):
        text = dumps([holes], format=fmt, alphabet=alphabet)
        assert loads(text, format=fmt, alphabet=alphabet, box=box) == [holes]


def test_hex_and_letter_alphabets_match_other_tools():
    sixteen = _solution((4, 4))
    assert set(sixteen.format("line", alphabet="hex").strip()) == set("0123456789abcdef")
    twenty_five = _solution((5, 5))
    assert set(twenty_five.format("line", alphabet="letters").strip()) == set("abcdefghijklmnopqrstuvwxy")
    assert loads(EASY.replace("0", ".")) == loads(EASY)
    lower = _solution((4, 4)).format("line").lower()
    assert loads(lower) == [_solution((4, 4))]


def test_ascii_picture_reads_back_as_grid():
    puzzle = Puzzle.parse(EASY)
    assert loads(str(puzzle)) == [puzzle]
    assert loads(str(_solution((2, 3))), box=(2, 3)) == [_solution((2, 3))]


def test_the_analyzer_readme_example_reads_as_printed_there():
    """Source 004 prints its example with box borders and marks a square with stars: ``0*0*5``."""
    from tests.conftest import REPO

    text = (REPO / "data" / "sources" / "analyzer-example.txt").read_text()
    assert "0*0*5" in text and detect_format(text) == "grid"
    [puzzle] = loads(text)
    assert puzzle.num_givens == 30 and puzzle.cells[7 * 9 : 8 * 9].tolist() == [0, 0, 0, 4, 1, 9, 0, 0, 5]
    assert loads("1 2*3 4\n3 4 1 2\n2 1 4 3\n4 3|2 1\n")[0].num_givens == 16
    with pytest.raises(PuzzleError, match="unknown value '#'"):
        loads("1 2 3 #\n3 4 1 2\n2 1 4 3\n4 3 2 1\n")


def test_grid_format_skips_comments_and_needs_no_blank_line_between_puzzles():
    text = "# two 4x4\n1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 2\n1 2 0 0\n0 0 0 0\n# inside\n0 0 0 0\n0 0 0 0\n"
    assert [p.num_givens for p in loads(text)] == [2, 2]


def test_lloyd_format_is_byte_exact(shared_data):
    path = shared_data / "lloyd_amos_aco" / "general" / "inst16x16_50_20.txt"
    raw = path.read_bytes()
    [puzzle] = read(path)
    assert puzzle.format("lloyd").encode() == raw
    assert detect_format(raw.decode()) == "lloyd"


def test_line_sets_from_shared_data(shared_data):
    for name, count in [
        ("norvig_pytudes/top95.txt", 72),
        ("norvig_pytudes/orig/sudoku-top95.txt", 72),
        ("tdoku_data/orig/puzzles6_forum_hardest_1106", 280),
        ("tdoku_data/orig/puzzles2_17_clue_sample2000", 1500),
        ("lloyd_amos_aco/normalized/logic_solvable_9x9.txt", 13),
    ]:
        assert len(read(shared_data / name)) == count, name
    assert read(shared_data / "norvig_pytudes/top95.txt") == read(shared_data / "norvig_pytudes/orig/sudoku-top95.txt")


@pytest.mark.parametrize("size", [9, 16, 25])
def test_lloyd_general_instances_have_the_documented_givens(shared_data, size):
    files = sorted(glob.glob(str(shared_data / f"lloyd_amos_aco/general/inst{size}x{size}_*_*.txt")))
    for path in files[::25]:
        fraction = int(os.path.basename(path).split("_")[1])
        [puzzle] = read(path)
        assert puzzle.n == size
        assert puzzle.num_givens == math.ceil(fraction * size * size / 100)


def test_dash_format_solution_file_is_detected():
    solved = _solution((3, 3))
    text = solved.format("dash")
    assert "-" not in text and detect_format(text) == "dash"
    assert loads(text) == [solved]
    assert loads(
        "--3-2-6--\n9--3-5--1\n--18-64--\n--81-29--\n7-------8\n--67-82--\n--26-95--\n8--2-3--9\n--5-1-3--\n"
    ) == [Puzzle.parse(EASY)]


# -- errors: every kind, with source, line and column ---------------------------------------


def _error(text, **kwargs) -> PuzzleFileError:
    with pytest.raises(PuzzleFileError) as info:
        loads(text, source="in.txt", **kwargs)
    assert isinstance(info.value, ValueError)
    return info.value


def test_unknown_character_names_line_and_column():
    error = _error("# header\n" + EASY[:10] + "?" + EASY[11:] + "\n")
    assert str(error) == "in.txt:2:11: unknown character '?' for the digits alphabet (empty is '0' or '.')"
    assert (error.line, error.column) == (2, 11)
    error = _error(EASY[:10] + "x" + EASY[11:] + "\n")
    assert str(error) == "in.txt:1:11: character 'x' is not a value of a 9x9 grid (values 1-9, empty is '0' or '.')"


def test_wrong_number_of_cells():
    assert "in.txt:1: wrong number of cells: 80 is not the cell count" in str(_error(EASY[:80] + "\n"))
    error = _error(EASY + "\n", box=(2, 3))
    assert "wrong number of cells: 81, a 6x6 (2x3 boxes) grid has 36" in str(error)


def test_size_no_box_tiles():
    assert "rows of 7 values: no box shape tiles a 7x7 grid" in str(_error(("0 " * 7 + "\n") * 7))
    assert "49 is not the cell count" in str(_error("0" * 49 + "\n", format="line"))


def test_value_out_of_range_points_at_the_value():
    text = "1 0 0 0\n0 0 0 0\n0 0 7 0\n0 0 0 0\n"
    assert str(_error(text)) == "in.txt:3:5: value 7 at r3c3 is out of range 1..4 for a 4x4 (2x2 boxes) grid"


def test_equal_givens_name_unit_cells_and_place():
    text = "1 0 0 0\n0 0 0 0\n0 0 0 0\n1 0 0 0\n"
    assert str(_error(text)) == "in.txt:4:1: column 1 has 1 twice: r1c1 and r4c1"


def test_every_bad_puzzle_of_a_file_is_reported():
    text = "\n".join([EASY, EASY[:80], EASY, "003020603" + EASY[9:], EASY.replace("6", "?", 1)]) + "\n"
    error = _error(text)
    assert [(e.line, e.column) for e in error.errors] == [(2, None), (4, 9), (5, 7)]
    assert str(error).startswith("in.txt: 3 errors:\n  in.txt:2: wrong number of cells")


def test_grid_rows_of_unequal_length_and_missing_rows():
    assert "in.txt:2: row has 3 values, expected 4" in str(_error("1 0 0 0\n0 0 0\n0 0 0 0\n0 0 0 0\n"))
    assert "in.txt:1: puzzle has 2 rows, expected 4" in str(_error("1 0 0 0\n0 0 0 0\n"))
    assert "in.txt:1:3: unknown value 'a'" in str(_error("1 a 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"))


def test_lloyd_errors():
    assert "expected the constant line '1'" in str(_error("2\n7\n", format="lloyd"))
    text = "2\r\n1\r\n1\t-1\t-1\t-1\t\r\n-1\tx\t-1\t-1\t\r\n"
    assert "in.txt:4:4: unknown value 'x'" in str(_error(text, format="lloyd"))


def test_read_rejects_binary_and_non_utf8(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(EASY.encode() + b"\n" + b"12\xff4\n")
    with pytest.raises(PuzzleError, match=r"bad.txt:2:3: not UTF-8 text \(byte 0xff\)"):
        read(path)
    path.write_bytes(b"\x00" * 10)
    with pytest.raises(PuzzleError, match="NUL byte"):
        read(path)


# -- writing ----------------------------------------------------------------------------


def test_write_refuses_to_overwrite_and_is_atomic(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("precious\n")
    puzzle = Puzzle.parse(EASY)
    with pytest.raises(FileExistsError):
        write(target, [puzzle])
    assert target.read_text() == "precious\n"
    write(target, [puzzle], overwrite=True)
    assert read(target) == [puzzle]
    assert sorted(os.listdir(tmp_path)) == ["out.txt"]  # no temporary left behind


def test_written_files_get_the_mode_the_umask_gives(tmp_path):
    old = os.umask(0o022)
    try:
        write(tmp_path / "out.txt", [Puzzle.parse(EASY)])
    finally:
        os.umask(old)
    assert (tmp_path / "out.txt").stat().st_mode & 0o777 == 0o644  # not mkstemp's private 0o600


def test_write_refuses_what_a_format_cannot_hold(tmp_path):
    with pytest.raises(ValueError, match="square boxes only"):
        dumps([Puzzle([0] * 36)], format="lloyd")
    with pytest.raises(ValueError, match="up to 35 values"):
        dumps([Puzzle([0] * 1296)], format="line")
    with pytest.raises(ValueError, match="unknown format"):
        dumps([], format="xml")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_writes_what_it_reads_and_is_detected(name):
    """Each format in FORMATS (a new one included, without anyone listing it here) reads back what
    it writes, and detection names it."""
    puzzles = read(REPO / "data" / "9x9.txt")[:2]
    text = dumps(puzzles, format=name)
    assert [p.cells.tolist() for p in loads(text, format=name)] == [p.cells.tolist() for p in puzzles]
    assert detect_format(text) == name


def test_old_mac_line_endings_read_like_any_other():
    """A file whose lines end in CR alone used to be one long line, blamed on the grid size (issue 16, 13)."""
    lines = (REPO / "data" / "9x9.txt").read_text().splitlines()[:3]
    as_cr, as_lf = loads("\r".join(lines) + "\r"), loads("\n".join(lines))
    assert [p.cells.tolist() for p in as_cr] == [p.cells.tolist() for p in as_lf] and len(as_cr) == 3
    assert detect_format("\r".join(lines)) == "line"


@pytest.mark.parametrize(
    "text, message",
    [
        ("4\n0\n-1 -1 -1\n", "expected the constant line '1' after the box order"),
        ("4\n1\n-1\t2\n", "row has 2 values, expected 16 for box order 4"),
        ("4\n", "wrong number of cells: 1 is not the cell count"),
    ],
)
def test_a_damaged_lloyd_file_is_blamed_on_what_is_wrong_not_on_a_1x1_grid(text, message):
    found, errors = scan(text)
    assert not found and message in str(errors[0]) and "1x1" not in " ".join(str(e) for e in errors)


def test_a_users_format_is_one_record_made_of_public_names():
    """A format from outside the package: three functions using the public reading helpers and a
    Format record given to register_format (here comma-separated values) work through loads, dumps,
    detect_format and Puzzle.parse, and its reader's errors name the line and column."""
    from deap_sudoku.grid.formats import FORMAT_RECORDS, Draft, Format, content_lines, register_format

    def read_csv(text, reader, alphabet):
        for number, line in content_lines(text):
            if line.strip():
                draft = Draft(start=number)
                for column, token in enumerate(line.split(","), start=1):
                    draft.add(int(token), number, column)
                reader.finish(draft)
                yield from reader.drain()

    def write_csv(shape, cells, alphabet):
        return ",".join(map(str, cells.tolist())) + "\n"

    looks = lambda lines, sides: "," in lines[0]  # noqa: E731
    record = Format("csv", "comma-separated values", read_csv, write_csv, looks, detection=-1, alphabets=False)
    try:
        assert register_format(record) is record and FORMAT_RECORDS["csv"] is record
        with pytest.raises(ValueError, match="a format called 'csv' exists"):
            register_format(record)
        puzzles = read(REPO / "data" / "9x9.txt")[:2]
        text = dumps(puzzles, format="csv")
        assert text.count(",") == 2 * 80 and detect_format(text) == "csv"
        assert [p.cells.tolist() for p in loads(text)] == [p.cells.tolist() for p in puzzles]
        assert Puzzle.parse(text.splitlines()[0]).cells.tolist() == puzzles[0].cells.tolist()
        second = text.splitlines()[1].split(",")
        second[4] = "10"
        with pytest.raises(PuzzleFileError, match=r"<string>:2:5: value 10 at r1c5 is out of range"):
            loads(text.replace(text.splitlines()[1], ",".join(second)))
    finally:
        FORMAT_RECORDS.pop("csv", None)  # the other tests know the package's formats only


def test_a_format_of_the_package_is_one_module_of_its_name():
    """grid/formats imports every module it holds that is not a shared helper: each is one format,
    named as its file, so a new format is one new file (and its test), listed nowhere."""
    from deap_sudoku.grid.formats import SHARED

    modules = {path.stem for path in (REPO / "deap_sudoku" / "grid" / "formats").glob("*.py")}
    assert set(FORMATS) == modules - {"__init__", *SHARED} == {"dash", "grid", "line", "lloyd"}
