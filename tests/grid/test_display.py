"""Grids that show themselves: short reprs, bordered text and HTML with givens bold and clashes marked."""

import re

import numpy as np
import pytest
from deap import base as deap_base
from deap import tools as deap_tools

from deap_sudoku import HallOfFame, Individual, Puzzle, format_grid, load_sample, show
from deap_sudoku.grid import clashing_cells, grid_html
from deap_sudoku.tools import eval_collisions, init_block_permutation

PUZZLE = load_sample()


def _cells(html: str) -> list[tuple[str, str]]:
    """(style, text) of every table cell of an HTML grid."""
    return re.findall(r'<td style="([^"]*)"[^>]*>([^<]*)</td>', html)


def test_puzzle_renders_as_a_bordered_html_grid_with_its_givens_bold():
    html = PUZZLE._repr_html_()
    cells = _cells(html)
    assert len(cells) == 81 and "45 givens" in html
    assert [text for _, text in cells] == [str(v) if v else "" for v in PUZZLE.cells.tolist()]
    assert all(("font-weight:bold" in style) == bool(text) for style, text in cells)  # givens, and only they
    assert all(("border-left:2px" in style) == (i % 3 == 0) for i, (style, _) in enumerate(cells))  # box edges
    assert all(("border-top:2px" in style) == (i // 9 % 3 == 0) for i, (style, _) in enumerate(cells))


def test_six_by_six_html_draws_two_by_three_boxes():
    puzzle = Puzzle([0] * 36, box=(2, 3))
    styles = [style for style, _ in _cells(puzzle._repr_html_())]
    assert [("border-left:2px" in s) for s in styles[:6]] == [True, False, False, True, False, False]
    assert [("border-top:2px" in s) for s in styles[::6]] == [True, False, True, False, True, False]


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (4, 4)], ids=str)
def test_clashes_are_exactly_the_cells_that_share_a_value_with_a_peer(box):
    shape = Puzzle([0] * (box[0] * box[1]) ** 2, box=box).shape
    rng = np.random.default_rng(1)
    for _ in range(20):
        grid = rng.integers(0, shape.n + 1, shape.cells)
        n = shape.n

        def peers(cell):
            r, c = divmod(cell, n)
            br, bc = r // box[0] * box[0], c // box[1] * box[1]
            in_box = lambda other: br <= other // n < br + box[0] and bc <= other % n < bc + box[1]  # noqa: E731
            return {
                other
                for other in range(shape.cells)
                if other != cell and (other // n == r or other % n == c or in_box(other))
            }

        expected = [bool(grid[cell]) and any(grid[p] == grid[cell] for p in peers(cell)) for cell in range(shape.cells)]
        assert clashing_cells(shape, grid).tolist() == expected


def test_show_marks_clashes_in_text_and_html_and_captions_the_fitness():
    best = init_block_permutation(Individual, puzzle=PUZZLE, rng=__import__("random").Random(2))
    best.fitness.values = eval_collisions(best, puzzle=PUZZLE)
    view = show(best, PUZZLE)
    clashes = clashing_cells(PUZZLE.shape, best)
    assert view.clash_count == int(clashes.sum()) > 0
    text = str(view)
    score = int(best.fitness.values[0])
    assert text.splitlines()[0] == f"collisions {score}, 9x9 (3x3 boxes), {view.clash_count} cells clash"
    assert text.count("*") == view.clash_count
    cells = _cells(view._repr_html_())
    assert [("background:#f6c4c4" in style) for style, _ in cells] == clashes.tolist()
    assert [("font-weight:bold" in style) for style, _ in cells] == PUZZLE.givens.tolist()
    assert "cells clash" in best._repr_html_()  # an individual on its own: conventional boxes, no givens
    assert Individual([1] * 49)._repr_html_() is None  # 7x7: no box shape tiles it, the plain repr shows


def test_the_caption_names_the_objective_and_its_value_not_the_fitness_tuple():
    """``collisions 3`` where the notebook caption read ``fitness (3.0,)``: the package's fitness
    functions name what they score; an unnamed fitness reads ``fitness 3``, two objectives ``3, 5``."""
    grid = init_block_permutation(Individual, puzzle=PUZZLE, rng=__import__("random").Random(2))
    grid.fitness.values = eval_collisions(grid, puzzle=PUZZLE)
    score = int(grid.fitness.values[0])
    caption = re.search(r"<caption[^>]*>([^<]*)</caption>", show(grid, PUZZLE)._repr_html_())[1]
    assert caption.startswith(f"collisions {score}, 9x9 (3x3 boxes), ") and ",)" not in caption
    assert f"collisions {score}, " in grid._repr_html_()  # the individual alone
    unnamed = Individual(PUZZLE.cells)
    unnamed.fitness.values = (3,)
    assert show(unnamed).caption == "fitness 3"
    assert show(unnamed, caption="mine").caption == "mine" and show(Individual(PUZZLE.cells)).caption == ""

    class TwoObjectives(deap_base.Fitness):
        weights = (-1.0, -1.0)

    class Grid(list):  # DEAP's creator-style individual
        fitness: deap_base.Fitness

    two = Grid(PUZZLE.cells.tolist())
    two.fitness = TwoObjectives((3, 5))
    assert show(two).caption == "fitness 3, 5"


def test_format_grid_is_public_and_unchanged_without_marks():
    assert format_grid(PUZZLE.shape, PUZZLE.cells) == str(PUZZLE)
    assert str(PUZZLE).splitlines()[3] == "------+-------+------"


def test_short_reprs_and_plain_results_from_individuals():
    ind = Individual(PUZZLE.cells)
    assert repr(ind) == "<Individual 9x9, fitness invalid>" and repr(PUZZLE) == "<Puzzle 9x9 (3x3 boxes), 45 givens>"
    ind.fitness.values = (3,)
    assert repr(ind) == "<Individual 9x9, fitness (3.0,)>"
    assert type(ind.max()) is np.uint8 and type(ind.sum()) is np.uint64
    assert isinstance(ind == ind, np.ndarray) and type(ind + 1) is np.ndarray
    assert bool(ind == ind) and not bool(ind != ind.copy())  # in an `if`: the whole grid
    assert type(ind.copy()) is Individual and type(ind.reshape(9, 9)) is Individual  # copies and views stay
    assert type(ind[:9]) is np.ndarray  # a slice is a plain copy, as DEAP asks of numpy individuals


def test_hall_of_fame_needs_no_similar_and_keeps_distinct_grids():
    first, second = Individual(PUZZLE.cells), Individual(PUZZLE.cells)
    second[np.flatnonzero(~PUZZLE.givens)[0]] = 1
    for ind, value in ((first, 5), (second, 3)):
        ind.fitness.values = (value,)
    hof = HallOfFame(3)
    hof.update([first, second, first.copy()])
    assert len(hof) == 2
    theirs = deap_tools.HallOfFame(3)  # DEAP's own, with its default similar (operator.eq)
    theirs.update([first, second, first.copy()])
    assert len(theirs) == 2 and theirs[0].fitness.values == (3.0,)


def test_show_refuses_a_grid_of_the_wrong_size():
    with pytest.raises(ValueError, match="a grid of 16 cells does not fit 9x9"):
        show(np.ones(16, dtype=int), PUZZLE)
    assert grid_html(PUZZLE.shape, PUZZLE.cells).startswith("<table")
