"""The sample puzzles shipped inside the package (``deap_sudoku/data``), found with ``importlib.resources``.

They are the puzzles the examples default to and the documentation quotes;
``data/README.md`` says how each file was made.  Reading them through the
package works after a regular (non-editable) install too.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..grid.puzzle import Puzzle
from .formats import loads

__all__ = ["sample_names", "sample_path", "load_samples", "load_sample"]


def _data():
    return resources.files("deap_sudoku") / "data"


def sample_names() -> list[str]:
    """The bundled puzzle files, e.g. ``9x9-easy.txt``, ``testdata/hard.txt`` and ``sources/report-example.txt``."""
    names = [entry.name for entry in _data().iterdir() if entry.name.endswith(".txt")]
    for folder in ("testdata", "sources"):
        names += [f"{folder}/{entry.name}" for entry in (_data() / folder).iterdir() if entry.name.endswith(".txt")]
    return sorted(names)


def sample_path(name: str):
    """The bundled file ``name`` (see :func:`sample_names`) as a path on disk, or ``None`` when no such
    file is bundled or the package is not unpacked on disk (a zip import)."""
    if name not in sample_names():
        return None
    resource = _data().joinpath(*name.split("/"))
    return resource if isinstance(resource, Path) else None


def load_samples(name: str) -> list[Puzzle]:
    """Every puzzle of the bundled file ``name`` (see :func:`sample_names`).

    :raises FileNotFoundError: for a name that is not bundled, listing the ones that are.
    """
    resource = _data().joinpath(*name.split("/"))
    if not name.endswith(".txt") or not resource.is_file():
        raise FileNotFoundError(f"no bundled puzzle file {name!r}; choose from {', '.join(sample_names())}")
    return loads(resource.read_text(encoding="utf-8"), source=f"deap_sudoku/data/{name}")


def load_sample(name: str = "9x9-easy.txt", index: int = 0) -> Puzzle:
    """Puzzle ``index`` of the bundled file ``name``: ``load_sample()`` is the 45-given 9x9 the examples use."""
    return load_samples(name)[index]
