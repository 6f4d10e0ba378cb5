"""The tutorial as a notebook (docs/tutorial.ipynb): made from docs/tutorial.md and stored with the
outputs of a run, which a fresh run gives again; run in a fresh Jupyter kernel it shows what the
page promises: the plot, once; the grid as a table with its givens bold, its clashes red and its
caption in words; a logbook of plain numbers."""

import copy
import importlib.util
import json
import os
import re

import pytest

from deap_sudoku import load_sample
from tests.conftest import REPO


def _maker():
    """docs/tutorial_notebook.py, which makes the notebook from the page."""
    spec = importlib.util.spec_from_file_location("tutorial_notebook", REPO / "docs" / "tutorial_notebook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tutorial_notebook_is_made_from_the_tutorial_page_and_stored_with_its_outputs():
    """Its cells are the page's, and every code cell was run, in order, by one kernel: a reader
    sees the outputs without running it (the stored notebook used to have none)."""
    maker = _maker()
    page = (REPO / "docs" / "tutorial.md").read_text()
    committed = json.loads((REPO / "docs" / "tutorial.ipynb").read_text())
    code = [cell for cell in committed["cells"] if cell["cell_type"] == "code"]
    assert [cell["execution_count"] for cell in code] == list(range(1, len(code) + 1))
    assert sum(bool(cell["outputs"]) for cell in code) >= len(code) - 1  # all but the cell that defines the toolbox
    assert any("image/png" in output.get("data", {}) for cell in code for output in cell["outputs"])
    for cell in code:
        cell.update(execution_count=None, outputs=[])
    stripped = json.dumps(committed, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    assert stripped == maker.text(page), "docs/tutorial.ipynb is out of step: run python docs/tutorial_notebook.py"
    sources = ["".join(cell["source"]) for cell in code]
    assert sources == [block.rstrip("\n") for block in re.findall(r"```python\n(.*?)```", page, flags=re.S)]


def _images(cell) -> int:
    return sum("image/png" in output.get("data", {}) for output in cell.outputs)


def _texts(cell) -> list:
    """A cell's outputs as text: its streams (joined, however the kernel split them) and every
    non-image value; PNG bytes differ across matplotlib versions, so images are left to _pictures."""
    texts: list = []
    for output in cell.outputs:
        if output.output_type == "stream":
            if texts and texts[-1][0] == output.name:
                texts[-1] = (output.name, texts[-1][1] + output.text)
            else:
                texts.append((output.name, output.text))
        elif "data" in output:
            texts.append({kind: value for kind, value in output.data.items() if not kind.startswith("image/")})
    return texts


def _pictures(cell) -> list:
    """A cell's PNGs by the size they are shown at (IPython's width and height)."""
    return [output.metadata.get("image/png") for output in cell.outputs if "image/png" in output.get("data", {})]


def _value(cell) -> dict:
    [result] = [output for output in cell.outputs if output.output_type == "execute_result"]
    return result.data


@pytest.mark.slow
def test_the_tutorial_notebook_shows_its_plot_once_and_its_grids_in_a_fresh_kernel(tmp_path, monkeypatch):
    """The old plots showed ``<Figure size 700x420 with 1 Axes>`` in a fresh kernel and were drawn
    twice on pyplot's axes; the old statistics made a logbook ``np.float64(...)`` lines; the old
    caption read ``fitness (4.0,)``.  The run also gives the stored outputs, cell by cell: the same
    text, and every picture stored at the same size.  About 11 s on 2 shared cores: a kernel starts
    and runs the tutorial's two GAs; without nbclient and ipykernel (the [test] extra) it skips."""
    pytest.importorskip("matplotlib")
    nbformat = pytest.importorskip("nbformat", reason="the [test] extra installs nbclient")
    nbclient = pytest.importorskip("nbclient", reason="the [test] extra installs nbclient")
    pytest.importorskip("ipykernel", reason="the [test] extra installs ipykernel")
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's own choice: pyplot's inline backend
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    notebook = nbformat.read(REPO / "docs" / "tutorial.ipynb", as_version=4)
    stored = copy.deepcopy(notebook.cells)
    extra = [  # what a user tries next: pyplot's axes, and the logbook as a cell's value
        "import matplotlib.pyplot as plt\n\nfig, ax = plt.subplots()\nplot_logbook(logbook, toolbox.evaluate, ax=ax)",
        "logbook",
    ]
    notebook.cells += [nbformat.v4.new_code_cell(source) for source in extra]
    nbclient.NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(tmp_path)}}).execute()
    cells = {cell.source.strip().splitlines()[-1]: cell for cell in notebook.cells if cell.cell_type == "code"}

    stale = "docs/tutorial.ipynb's stored outputs are not a fresh run's: run python docs/tutorial_notebook.py"
    for old, new in zip(stored, notebook.cells):  # the extra cells are not stored
        if new.cell_type == "code":
            assert _texts(old) == _texts(new), f"{stale} ({new.id})"
            assert _pictures(old) == _pictures(new), f"{stale} ({new.id})"

    plot = cells["figure  # a notebook shows the cell's value: the plot"]
    assert _images(plot) == 1 and "image/png" in _value(plot)  # shown by the figure itself, pyplot never imported
    on_axes = cells["plot_logbook(logbook, toolbox.evaluate, ax=ax)"]
    assert _images(on_axes) == 1 and _value(on_axes)["text/plain"].startswith("<Axes: ")  # the axes returned

    grid = _value(cells["view"])["text/html"]
    caption = re.search(r"<caption[^>]*>([^<]*)</caption>", grid)[1]
    assert re.fullmatch(r"collisions \d+, 9x9 \(3x3 boxes\), \d+ cells clash", caption), caption
    givens = int(load_sample("testdata/medium.txt").givens.sum())
    assert grid.count("font-weight:bold") == givens and grid.count("background:#f6c4c4") > 0  # givens, clashes

    logbook = _value(cells["logbook"])["text/plain"]
    records = logbook.count("'gen':")
    assert "np.float64" not in logbook and records > 10 and logbook.count("\n") < 2 * records
    assert (tmp_path / "tutorial-convergence.png").stat().st_size > 10_000  # the script's way still saves
