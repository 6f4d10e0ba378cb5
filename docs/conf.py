"""Sphinx configuration of the deap_sudoku site: ``python -m sphinx -W -b html docs docs/_build/html``.

Sphinx because the docstrings are reStructuredText with Sphinx roles (``:func:``, ``:class:``,
``:raises:``), which autodoc renders as written; MyST lets the Markdown pages (the tutorial, the
guides, the benchmark and reliability tables) join the site unchanged.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deap_sudoku import __version__  # noqa: E402

project = "deap_sudoku"
author = "The deap_sudoku developers"
copyright = "2026, The deap_sudoku developers"
release = version = __version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "img/*.html"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

autodoc_default_options = {"members": True, "show-inheritance": True, "member-order": "bysource"}
autodoc_typehints = "description"
autodoc_member_order = "bysource"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# Furo, the theme of pip, attrs and many scientific Python projects: below 63 em its sidebar folds into
# a menu, so a phone shows the page at full width. Its column is 46 em at any width (alabaster's stopped
# at 800 px and cut code lines after ~85 characters): _static/wide.css lets it take what the sidebar leaves.
html_theme = "furo"
html_title = f"deap_sudoku {release}"
html_static_path = ["_static"]
html_css_files = ["wide.css"]
