"""The RULE_BREAKS lists that benchmarks/rule_breaks.py runs: well formed, applicable, naming real tests,
and one (or more) for every row of every rule table of docs/literature.md.  No break is run here (the
script does that, in a copy of the repository); this only reads the lists and the page."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

_spec = importlib.util.spec_from_file_location("benchmarks_rule_breaks", REPO / "benchmarks" / "rule_breaks.py")
assert _spec is not None and _spec.loader is not None
rule_breaks = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))  # its dataclasses look it up
_spec.loader.exec_module(rule_breaks)

LITERATURE = REPO / "docs" / "literature.md"

SECTION_MODULES = {
    "Ant colony system (Lloyd & Amos)": "tests/algorithms/test_ant_colony.py",
    "Iterated local search with a constraint-programming perturbation (after Musliu & Winter)": (
        "tests/algorithms/test_iterated_local_search.py"
    ),
    "A GA and a cultural algorithm after Mantere & Koljonen": "tests/algorithms/test_mantere_koljonen.py",
    "Simulated annealing after Lewis": "tests/algorithms/test_annealing.py",
    "Local-search GA after Wang et al. (LSGA)": "tests/algorithms/test_lsga.py",
}
"""Each algorithm section of docs/literature.md (its ``## `` title) and the test module holding its breaks."""

TEST_COLUMN = "test that fails when it is broken"


def _cells(line: str) -> list[str]:
    """A Markdown table row's cells, split on the pipes that are not escaped (``\\|``)."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def rule_tables(text: str) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Each ``## `` section's rule table (the table whose header's first cell is ``rule``): its header
    and its rows' cells."""
    tables: dict[str, tuple[list[str], list[list[str]]]] = {}
    section, lines = None, text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("## "):
            section = line[3:].strip()
        elif section and line.startswith("|") and _cells(line)[:1] == ["rule"] and index + 1 < len(lines):
            rows = []
            for row in lines[index + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append(_cells(row))
            assert section not in tables, f"{LITERATURE}:{index + 1}: a second rule table in {section!r}"
            tables[section] = (_cells(line), rows)
    return tables


BREAKS = rule_breaks.collect(REPO)
TABLES = rule_tables(LITERATURE.read_text(encoding="utf-8"))


def test_every_break_is_well_formed_applies_once_and_names_a_test_of_its_module():
    problems = []
    names = {module: rule_breaks.test_functions(REPO / module) for module in {b.module for b in BREAKS}}
    for item in BREAKS:
        where = f"{item.module}:{item.line}"
        if item.test is None:
            continue
        if item.test not in names[item.module]:
            problems.append(f"{where}: no test {item.test} in {item.module}")
        try:
            rule_breaks.edited(REPO, item.edits)
        except rule_breaks.Stale as error:
            problems.append(f"{where}: stale: {error}")
    assert BREAKS and not problems, "\n".join(problems)


def test_every_row_of_every_rule_table_has_a_break():
    assert set(TABLES) == set(SECTION_MODULES), "a rule table's section is missing from SECTION_MODULES (or gone)"
    problems = []
    for section, (_, rows) in TABLES.items():
        module = SECTION_MODULES[section]
        rules = {b.rule for b in BREAKS if b.module == module}
        missing = [row[0] for row in rows if row[0] not in rules]
        problems += [f"{section!r}: no break in {module} for the row {rule!r}" for rule in missing]
        table_rows = {row[0] for row in rows}
        problems += [f"{module}: {rule!r} is no row of {section!r}" for rule in sorted(rules - table_rows)]
    assert not problems, "\n".join(problems)


def test_each_tables_last_column_names_the_tests_of_its_breaks():
    problems = []
    for section, (header, rows) in TABLES.items():
        module = SECTION_MODULES[section]
        if header[-1] != TEST_COLUMN:
            problems.append(f"{section!r}: the last column is {header[-1]!r}, not {TEST_COLUMN!r}")
            continue
        existing = rule_breaks.test_functions(REPO / module)
        for row in rows:
            named = set(re.findall(r"`(test_\w+)`", row[-1]))
            breaks = {b.test for b in BREAKS if b.module == module and b.rule == row[0]}
            problems += [f"{section!r}: {t} is not a test of {module}" for t in sorted(named - existing)]
            if None not in breaks and not named & breaks:
                problems.append(f"{section!r}, row {row[0]!r}: the last column names none of {sorted(breaks)}")
    assert not problems, "\n".join(problems)


def test_the_script_refuses_what_it_cannot_run(tmp_path: Path):
    (tmp_path / "code.py").write_text("x = 1\nx = 1\n")
    with pytest.raises(rule_breaks.Stale, match="occurs 2 times"):
        rule_breaks.edited(tmp_path, [["code.py", "x = 1", "x = 2"]])
    with pytest.raises(rule_breaks.Stale, match="no such file"):
        rule_breaks.edited(tmp_path, [["gone.py", "x", "y"]])
    assert rule_breaks.problems_of({"rule": "r", "test": None}) == ['"test": None without a "why"']
    assert rule_breaks.problems_of({"rule": "r", "edits": [["f", "a", "a"]], "test": "test_x"}) == [
        "an edit of f changes nothing"
    ]
    module = tmp_path / "test_x.py"
    module.write_text("NAME = 'f'\nRULE_BREAKS = [\n    {'rule': NAME},\n]\n")
    with pytest.raises(rule_breaks.RuleBreaksError, match=r"test_x.py:3: .*not a plain literal"):
        rule_breaks.rule_breaks_literal(module)


def test_a_break_never_runs_the_byte_code_of_the_break_before(tmp_path: Path):
    """Two breaks of one file at the same size within one second: Python's byte-code cache, keyed by
    the source's size and whole-second time, gave the second the first's code (a break of LSGA's
    table was reported not caught so).  The script forgets an edited file's byte-code."""
    import compileall
    import os
    import subprocess

    module = tmp_path / "broken.py"
    module.write_text("VALUE = 1\n")
    os.utime(module, (1_000_000_000, 1_000_000_000))
    compileall.compile_file(str(module), quiet=1)  # as the tests' set-up compiles the package
    module.write_text("VALUE = 2\n")  # the next break: the same size
    os.utime(module, (1_000_000_000, 1_000_000_000))  # within the same second
    rule_breaks._forget_bytecode(module)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    read = subprocess.run([sys.executable, "-c", "import broken; print(broken.VALUE)"], env=env, capture_output=True)
    assert read.stdout.strip() == b"2", read
