"""The documentation's code runs: every Python block of the README and of docs/extending.md."""

import os
import re

import numpy as np

from tests.conftest import REPO


def _run_blocks(name: str) -> dict:
    text = (REPO / name).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, f"{name} has no python block"
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        namespace: dict = {}
        for block in blocks:
            exec(compile(block, name, "exec"), namespace)
    finally:
        os.chdir(cwd)
    return namespace


def test_extending_guide_code_runs_and_its_mutation_improves_the_population(capsys):
    namespace = _run_blocks("docs/extending.md")
    assert namespace["after"] < namespace["before"]
    assert capsys.readouterr().out.strip() == (f"best collisions: {namespace['before']} at the start, "
                                               f"{namespace['after']:g} after 10 generations")
    grids = np.array([[0, 1, 2, 0], [1, 2, 3, 4]])
    assert namespace["eval_empty_cells"].batch(grids, None).tolist() == [2, 0]
    assert namespace["eval_empty_cells"](grids[0], puzzle=None) == (2,)


def test_readme_code_blocks_run(capsys):
    """Every ``python`` block of README.md runs as written, in order, from the repository root."""
    namespace = _run_blocks("README.md")
    out = capsys.readouterr().out
    assert namespace["solution"].is_complete and "|" in out  # the solved grid was printed with box borders
