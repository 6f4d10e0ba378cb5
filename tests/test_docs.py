"""The documentation's code runs (every Python block of the README, the package index page, the
tutorial, the user guide and docs/extending.md), the README example stops at its solving generation,
and the site builds with warnings as errors."""

import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from deap_sudoku import __version__
from deap_sudoku.exact import verify
from deap_sudoku.grid.formats import FORMAT_RECORDS
from tests.conftest import REPO


def _run_blocks(name: str, cwd: Path | None = None) -> dict:
    """Every ``python`` block of ``name``, in one namespace, run from ``cwd`` (by default a new empty
    folder outside the repository, as a user of the installed package runs them)."""
    text = (REPO / name).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, f"{name} has no python block"
    before = os.getcwd()
    os.chdir(cwd or tempfile.mkdtemp(prefix="deap_sudoku_docs_"))
    try:
        namespace: dict = {}
        for block in blocks:
            exec(compile(block, name, "exec"), namespace)
    finally:
        os.chdir(before)
    return namespace


def test_extending_guide_code_runs_and_its_mutation_improves_the_population(capsys):
    """The guide's code runs here, after the global generators were scrambled, and its experiment
    prints the three tables the page shows: a function of its seeds, whatever a process drew before."""
    states = random.getstate(), np.random.get_state()
    random.seed(os.getpid())
    np.random.seed(os.getpid() % 2**32)
    known = dict(FORMAT_RECORDS)
    try:
        namespace = _run_blocks("docs/extending.md")
    finally:  # the guide registers a format of its own: the other tests know the package's
        FORMAT_RECORDS.clear()
        FORMAT_RECORDS.update(known)
        random.setstate(states[0])
        np.random.set_state(states[1])
    assert namespace["after"] < namespace["before"]
    out = capsys.readouterr().out
    assert "\nTrue\n" in out and "csv" not in FORMAT_RECORDS  # its own format read back, and gone
    shown = (REPO / "docs/extending.md").read_text().split("holds\nit to them):\n\n", 1)[1].split("\n\nIn a", 1)[0]
    assert out.count("| dataset |") == 3 and out[out.index("| dataset |") :].rstrip("\n") == shown
    assert out.startswith(
        f"best collisions: {namespace['before']} at the start, {namespace['after']:g} after 10 generations\n"
    )
    # the experiment: 5 algorithms x 2 puzzles x 3 seeds, its tables printed, its two figures drawn
    assert len(namespace["results"]) == 30 and "| testdata/easy | block-ga + mine |" in out
    assert "| 16x16 Lloyd & Amos | restart-ga | 0/3 | memetic |" in out
    assert len(namespace["ecdf"].axes) == 1
    assert len(namespace["fixed_budget"].axes) == 3  # cell collisions, collisions, threats: never one axis
    grids = np.array([[0, 1, 2, 0], [1, 2, 3, 4]])
    assert namespace["eval_empty_cells"].batch(grids, None).tolist() == [2, 0]
    assert namespace["eval_empty_cells"](grids[0], puzzle=None) == (2,)


def test_readme_example_stops_at_the_generation_that_solves_the_puzzle(capsys):
    """Every ``python`` block of README.md runs as written; DEAP's eaSimple would have gone on to 300."""
    namespace = _run_blocks("README.md")
    logbook, puzzle = namespace["logbook"], namespace["puzzle"]
    minima = logbook.select("min")
    assert logbook.stop_reason == "solved" and minima[-1] == 0 and 0 not in minima[:-1]
    assert verify(namespace["hof"][0], puzzle)
    out = capsys.readouterr().out
    assert out.startswith(f"solved at generation {logbook[-1]['gen']}\n") and "no clashes" in out
    assert "solved at generation 10" in (REPO / "README.md").read_text()  # the comment tells the truth


def test_every_page_with_python_blocks_is_run_here():
    pages = {
        str(p.relative_to(REPO))
        for p in [*REPO.glob("*.md"), *(REPO / "docs").glob("*.md")]
        if "```python" in p.read_text()
    }
    assert pages == {
        "README.md",
        "PACKAGE_INDEX.md",
        "docs/extending.md",
        "docs/guide.md",
        "docs/tutorial.md",
        "docs/literature.md",
        "docs/cluster.md",  # its script runs under SCOOP across two hosts: tests/cli/test_cluster.py
    }


def test_the_package_index_page_runs_and_links_nowhere_relative(capsys):
    """The long description a package index shows: its Python runs from an empty folder, and every
    link is absolute, since the index has none of the repository's files to link to."""
    namespace = _run_blocks("PACKAGE_INDEX.md")
    assert verify(namespace["hof"][0], namespace["puzzle"]) and "no clashes" in capsys.readouterr().out
    text = (REPO / "PACKAGE_INDEX.md").read_text()
    links = re.findall(r"\]\(([^)]*)\)", text)
    assert links and all(link.startswith("https://") for link in links), links
    assert "long_description = file: PACKAGE_INDEX.md" in (REPO / "setup.cfg").read_text()


def test_guide_code_runs(capsys):
    namespace = _run_blocks("docs/guide.md")
    out = capsys.readouterr().out
    assert namespace["solution"].is_complete and "no clashes" in out
    assert namespace["logbook"].stop_reason in out and namespace["hof"][0].fitness.valid  # ea_generational ran


def test_the_ant_colony_composition_on_the_literature_page_runs_and_solves(capsys):
    namespace = _run_blocks("docs/literature.md")
    assert namespace["logbook"].stop_reason == "solved" and verify(namespace["hof"][0], namespace["puzzle"])
    assert capsys.readouterr().out.startswith("solved after ")


def test_tutorial_code_runs_and_says_what_it_shows(tmp_path, capsys):
    namespace = _run_blocks("docs/tutorial.md", cwd=tmp_path)
    out = capsys.readouterr().out
    text = (REPO / "docs" / "tutorial.md").read_text()
    assert namespace["logbook"].stop_reason == "solved" and verify(namespace["hof"][0], namespace["puzzle"])
    assert f"solved at generation {namespace['logbook'][-1]['gen']}" in out and "solved at generation 10" in text
    view = namespace["view"]
    assert view.clash_count > 0 and f"{view.clash_count} cells clash" in text  # the medium puzzle stalls
    assert namespace["hard_logbook"].stop_reason == "no improvement"
    assert (tmp_path / "tutorial-convergence.png").stat().st_size > 10_000


@pytest.mark.slow
def test_the_site_builds_with_warnings_as_errors(tmp_path):
    pytest.importorskip("sphinx", reason="the [test] extra installs Sphinx")
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(REPO / "docs"),
            str(tmp_path / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-5000:]
    api = (tmp_path / "html" / "api.html").read_text()
    for name in ("eval_collisions", "ea_simple", "grid_operator", "plot_logbook", "show", "HallOfFame"):
        assert f'<span class="sig-name descname"><span class="pre">{name}</span>' in api, name
    tutorial = (tmp_path / "html" / "tutorial.html").read_text()
    assert "tutorial-convergence.png" in tutorial and "tutorial-best.png" in tutorial
    assert (tmp_path / "html" / "_images" / "tutorial-convergence.png").exists()
    # Furo with the wide column (docs/_static/wide.css): code lines use the window's width
    assert 'href="_static/wide.css' in tutorial and "furo" in tutorial
    assert _names_split_in_tables(tmp_path / "html", (390, 1280)) == []  # a phone, a laptop


LAYOUT_CHECK = """<script>window.addEventListener("load", () => { const split = [];
for (const page of document.querySelectorAll("iframe")) {
  for (const word of page.contentDocument.querySelectorAll("article table code span.pre")) {
    if (word.getClientRects().length > 1) split.push(page.getAttribute("width") + " px, " +
      page.getAttribute("src") + ": " + word.textContent); } }
document.body.setAttribute("data-split", JSON.stringify(split)); });</script>"""


def _names_split_in_tables(site: Path, widths: tuple[int, ...]) -> list[str]:
    """The words of code spans in the site's tables that a browser of one of ``widths`` (px) breaks
    over two lines (Sphinx puts each word of inline code in a ``span.pre``): issue 63 found 25 on the
    literature page at 1280 px and up to 130 a page at 390 px.  Every page with a table is laid
    out at each width in one headless Chromium, each in a frame of its own."""
    import html
    import json
    import shutil

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        message = "headless chromium lays the pages out (CI installs it: .ci/run)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    pages = sorted(page.name for page in site.glob("*.html") if "<table" in page.read_text())
    frames = "".join(f'<iframe src="{p}" width="{w}" height="3000"></iframe>' for w in widths for p in pages)
    (site / "_layout.html").write_text(f"<!doctype html><html><body>{frames}{LAYOUT_CHECK}</body></html>")
    laid_out = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"]
        + ["--virtual-time-budget=20000", "--dump-dom", (site / "_layout.html").as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r'data-split="([^"]*)"', laid_out.stdout)
    assert found and "literature.html" in pages, laid_out.stderr[-2000:]
    return json.loads(html.unescape(found.group(1)))


def test_the_citation_names_this_version_everywhere_it_is_given():
    """CITATION.cff (CFF 1.2.0: ``cffconvert --validate``) and the BibTeX of README and the docs'
    front page cite the version the package reports."""
    citation = (REPO / "CITATION.cff").read_text()
    assert citation.startswith("cff-version: 1.2.0\n") and f"\nversion: {__version__}\n" in citation
    for page in ("README.md", "docs/index.md"):
        versions = re.findall(r"version = \{([^}]*)\}", (REPO / page).read_text())
        assert versions == [__version__], page
