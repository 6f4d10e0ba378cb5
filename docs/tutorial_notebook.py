"""Makes docs/tutorial.ipynb from docs/tutorial.md, so that the tutorial can be run as a notebook:
its prose as Markdown cells, its Python blocks as code cells, without outputs.

    python docs/tutorial_notebook.py     (from the repository root; no Jupyter needed)

The page's pictures and its ``text`` blocks of expected output are left out, since a notebook
draws and prints its own; so is the page's link to the notebook itself.
tests/test_docs.py checks that the notebook is the one this script makes from the page.
"""

import json
import re
import sys
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


def main() -> int:
    NOTEBOOK.write_text(text(PAGE.read_text()))
    print(f"wrote {NOTEBOOK}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
