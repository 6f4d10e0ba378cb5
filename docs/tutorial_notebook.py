"""Makes docs/tutorial.ipynb from docs/tutorial.md, so that the tutorial can be run as a notebook:
its prose as Markdown cells, its Python blocks as code cells; then runs it in a fresh Jupyter kernel
and stores it with its outputs, so that GitHub's viewer and a reader who opens it see the printed
grids, the logbook, the plot and the grid table without running a cell.

    python docs/tutorial_notebook.py     (from the repository root, with the [test] and [plot] extras)

The page's pictures and its ``text`` blocks of expected output are left out, since a notebook
draws and prints its own; so is the page's link to the notebook itself.  The page seeds its runs
(``random.seed(1)``), so the outputs are the same run for run; the kernel imports this checkout's
package and runs in a temporary directory (the page's ``savefig`` lands there), and the file is
replaced only once the run has succeeded.  Cells keep no timings and the notebook keeps its own
metadata (not the kernel's Python version), so that a rerun changes the file only where an output does.
tests/test_tutorial_notebook.py checks that the notebook is the one this script makes from the page
and that a fresh run gives its stored outputs.
"""

import json
import os
import re
import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parent
PAGE, NOTEBOOK = DOCS / "tutorial.md", DOCS / "tutorial.ipynb"

_BLOCK = re.compile(r"```(\w*)\n(.*?)```\n?", flags=re.S)
_LEFT_OUT = re.compile(r"^!\[.*\]\(.*\)$|\{download\}")  # pictures, and the link to this notebook


def _lines(text: str) -> list[str]:
    """A cell's source as Jupyter writes it: lines that keep their line ends, the last without."""
    return text.splitlines(keepends=True)


def _markdown(text: str) -> str:
    kept = [line for line in text.splitlines() if not _LEFT_OUT.search(line)]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def notebook(page: str) -> dict:
    """The notebook (nbformat 4.5, as a dict) of a Markdown page's prose and Python blocks."""
    cells: list[dict] = []

    def add(kind: str, text: str) -> None:
        if not text:
            return
        cell: dict = {"cell_type": kind, "id": f"cell-{len(cells) + 1}", "metadata": {}, "source": _lines(text)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)

    start = 0
    for block in _BLOCK.finditer(page):
        add("markdown", _markdown(page[start : block.start()]))
        if block[1] == "python":
            add("code", block[2].rstrip("\n"))
        start = block.end()
    add("markdown", _markdown(page[start:]))
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def text(page: str) -> str:
    """The notebook's file, written as Jupyter writes one (indent 1, sorted keys)."""
    return json.dumps(notebook(page), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def run(page: str, timeout: int = 300) -> str:
    """The file of the page's notebook run in a fresh kernel, with its outputs (as :func:`text` writes it)."""
    import nbclient  # the [test] extra, with ipykernel
    import nbformat

    executed = nbformat.reads(text(page), as_version=4)
    env_path = os.pathsep.join(filter(None, [str(DOCS.parent), os.environ.get("PYTHONPATH")]))
    os.environ["PYTHONPATH"] = env_path  # the kernel imports this checkout's deap_sudoku
    os.environ.pop("MPLBACKEND", None)  # the kernel's own choice, as a reader's
    with tempfile.TemporaryDirectory() as scratch:
        client = nbclient.NotebookClient(
            executed,
            timeout=timeout,
            record_timing=False,
            coalesce_streams=True,
            resources={"metadata": {"path": scratch}},
        )
        client.execute()
    executed.metadata = nbformat.from_dict(notebook(page)["metadata"])
    return nbformat.writes(executed) + "\n"


def main() -> int:
    made = run(PAGE.read_text())
    fd, scratch = tempfile.mkstemp(dir=DOCS, prefix=".tutorial-", suffix=".ipynb")  # same disk: an atomic replace
    try:
        with os.fdopen(fd, "w") as file:
            file.write(made)
        os.chmod(scratch, 0o644)  # mkstemp's file is private; the notebook is not
        os.replace(scratch, NOTEBOOK)
    except BaseException:
        os.unlink(scratch)
        raise
    print(f"wrote {NOTEBOOK} ({NOTEBOOK.stat().st_size // 1024} KiB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
