import os
import re

from .conftest import REPO


def test_extending_guide_code_runs(capsys):
    text = (REPO / "docs" / "extending.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 2
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        namespace: dict = {}
        for block in blocks:
            exec(compile(block, "docs/extending.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    assert float(capsys.readouterr().out.strip()) >= 0
    import numpy as np
    grids = np.array([[0, 1, 2, 0], [1, 2, 3, 4]])
    assert namespace["eval_empty_cells"].batch(grids, None).tolist() == [2, 0]
    assert namespace["eval_empty_cells"](grids[0], None) == (2,)
