"""The sample puzzles ship inside the package and read the same as the repository's data/ files."""

import pytest

from deap_sudoku import load_sample, read
from deap_sudoku.io import load_samples, sample_names

from tests.conftest import REPO


def test_every_bundled_file_is_a_sample_and_reads_like_the_file():
    names = sample_names()
    assert "9x9-easy.txt" in names and "testdata/expert.txt" in names and "sources/report-example.txt" in names
    assert len(names) == 15
    for name in names:
        assert load_samples(name) == read(REPO / "data" / name)


def test_default_sample_is_the_45_given_9x9():
    puzzle = load_sample()
    assert puzzle.n == 9 and puzzle.num_givens == 45


def test_unknown_sample_names_the_choices():
    with pytest.raises(FileNotFoundError, match="choose from .*9x9-easy.txt"):
        load_samples("nope.txt")
    with pytest.raises(FileNotFoundError):
        load_samples("../setup.cfg")
