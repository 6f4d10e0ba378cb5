"""Every command of every shell block of the docs pages runs as written, in one new empty folder per
page, in the page's order: a file a command reads is made by a line the page shows before it.

The page says what the test cannot do, in the command's own comment, where a reader sees it:

- ``# slow: ~N s`` (or ``~N min``): measured at N; the test leaves it out (the suite has 5 minutes).
- ``# in a checkout``: run from the repository root (the benchmark scripts, the test suite).
- ``# not run here: why``: it needs what a test does not have (other hosts).
- ``exit 1`` in the comment: the exit code the command ends with, as documented (a puzzle left
  unsolved within its budget); any other command must end with 0.
- ``says "TEXT"`` in the comment: what the command prints (on either stream), checked.
- ``pip install``: not run (the test runs installed); the extras it names must exist.

A block that starts with ``#!`` is a script to save, not lines to type (the cluster page's SLURM job
script, which tests/cli/test_cluster.py runs in a simulated allocation). Commands run with ``HOME``
in the test's folder, so the completion lines write no real shell's start-up files.
"""

from __future__ import annotations

import configparser
import dataclasses
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import forked_cli
from tests.conftest import REPO

PAGES = sorted(p for p in (REPO / "docs").glob("*.md") if re.search(r"^```(sh|console|bash)$", p.read_text(), re.M))
SECONDS = 60  # a command without "# slow" that takes longer fails: the page should say how long it takes


@dataclass(frozen=True)
class Command:
    text: str  # as bash runs it: continuation lines and a here-document included
    comment: str  # the comment of its last line, without "#"
    line: int  # where it starts on the page

    @property
    def skip(self) -> str | None:
        if re.search(r"\bslow: ~\d+(\.\d+)? (s|min)\b", self.comment):
            return "slow"
        if "in a checkout" in self.comment:
            return "checkout"
        if "not run here" in self.comment:
            return "elsewhere"
        if re.match(r"(python -m )?pip (un)?install\b", self.text):
            return "pip"
        return None

    @property
    def says(self) -> str | None:
        found = re.search(r'\bsays "([^"]+)"', self.comment)
        return found.group(1) if found else None

    @property
    def exit(self) -> int:
        found = re.search(r"\bexit (?:code )?(\d+)\b", self.comment)
        return int(found.group(1)) if found else 0


def commands(text: str) -> list[Command]:
    """The commands of the page's ``sh`` blocks, in order, each with the comment its last line ends in."""
    found: list[Command] = []
    lines = text.splitlines()
    inside, index = False, 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if re.match(r"^```(sh|console|bash)$", line):
            inside = True
            continue
        if line.startswith("```"):
            inside = False
        if not inside or not line.strip() or line.lstrip().startswith("#"):
            continue
        start, parts = index, [line]
        while parts[-1].endswith("\\"):
            parts.append(lines[index])
            index += 1
        heredoc = re.search(r"<<-?'?(\w+)'?", parts[0])
        if heredoc:
            while lines[index] != heredoc.group(1):
                parts.append(lines[index])
                index += 1
            parts.append(lines[index])
            index += 1
        last = parts[-1] if not heredoc else parts[0]
        comment = re.search(r"\s#\s(.*)$", last)
        found.append(Command("\n".join(parts), comment.group(1) if comment else "", start))
    return found


def test_the_commands_are_read_as_a_shell_reads_them():
    page = (
        "text\n```sh\n"
        "a data/x.txt   # exit 1: unsolved\n"
        "b --long \\\n    --more   # slow: ~3 min\n"
        "cat > m.py <<'EOF'\nx = 1  # not a comment of the command\nEOF\n"
        "# a comment line\n"
        'pip install "deap_sudoku[plot]"\n'
        "python benchmarks/x.py   # in a checkout\n"
        "```\n```python\nnot = 'shell'\n```\n"
    )
    found = commands(page)
    assert [c.text.split()[0] for c in found] == ["a", "b", "cat", "pip", "python"]
    assert [c.exit for c in found] == [1, 0, 0, 0, 0]
    assert [c.skip for c in found] == [None, "slow", None, "pip", "checkout"]
    assert found[2].text.endswith("\nEOF") and found[1].line == 4


def test_the_checkpoint_example_stops_a_running_ga_and_resumes_it():
    """Issue 63: the page's checkpoint line ran the memetic GA, whose seed search solves at generation
    0, so it never showed a checkpoint of a GA still running; the resume it shows is checked where
    the block runs (``says``, in CI's wheel smoke)."""
    lines = [c for c in commands((REPO / "docs" / "command_line.md").read_text()) if "--checkpoint " in c.text]
    assert len(lines) >= 2 and lines[0].exit == 1  # the first run ends unsolved, its checkpoint saved
    assert lines[1].says and lines[1].says.startswith("resuming from run.ckpt at generation ")


def test_every_extra_a_page_installs_exists():
    config = configparser.ConfigParser(interpolation=None)
    config.read(REPO / "setup.cfg")
    extras = set(config["options.extras_require"])
    for page in [*PAGES, REPO / "README.md"]:
        for command in commands(page.read_text()):
            for named in re.findall(r"\[([\w,-]+)\]", command.text if command.skip == "pip" else ""):
                assert set(named.split(",")) <= extras, f"{page.name}:{command.line}: {named}"


def blocks(text: str) -> list[list[Command]]:
    """The commands of each shell block: a block runs in a folder of its own, so the blocks of a page
    spread over the test workers; a file a block reads is the bundled one or made in the block."""
    found: list[list[Command]] = []
    for block in re.finditer(r"^```(?:sh|console|bash)\n.*?^```$", text, flags=re.M | re.S):
        if block.group(0).split("\n", 2)[1].startswith("#!"):
            continue  # a script to save (a job script): its own test runs it
        offset = text.count("\n", 0, block.start())
        found.append([dataclasses.replace(c, line=c.line + offset) for c in commands(block.group(0))])
    return found


WHEEL_SMOKE = REPO / ".ci" / "wheel_smoke.sh"
"""Runs the command line page's first block (it needs no extra) under the rules above, from the
installed wheel in an empty folder, on two Pythons in CI: a third run here would add 25 CPU-s to
the suite and nothing else."""


def _in_the_wheel_smoke(page: Path, block: list[Command]) -> bool:
    return page.name == "command_line.md" and block == blocks(page.read_text())[0]


BY_HAND = "command -v deap-sudoku"
"""The cluster page's SCOOP started by hand: tests/cli/test_cluster.py runs the block as written,
with checks an exit code cannot make (SCOOP's launcher exits 0 whatever the program did)."""


def _run_elsewhere(page: Path, block: list[Command]) -> bool:
    return _in_the_wheel_smoke(page, block) or (page.name == "cluster.md" and BY_HAND in block[0].text)


RUNNABLE = [
    (page, block)
    for page in PAGES
    for block in blocks(page.read_text())
    if any(not command.skip for command in block) and not _run_elsewhere(page, block)
]


def test_the_cluster_pages_scoop_by_hand_runs_in_the_cluster_tests():
    cluster = REPO / "tests" / "cli" / "test_cluster.py"
    assert f'if "{BY_HAND}" in block]' in cluster.read_text()
    assert [b for b in blocks((REPO / "docs" / "cluster.md").read_text()) if BY_HAND in b[0].text]


def test_the_command_line_pages_first_block_runs_in_the_wheel_smoke_under_these_rules():
    """CI runs it (``.ci/run`` calls the smoke on the built wheel): each command as written, the exit
    code its comment gives, what it says it prints; none is skipped here, so none may be there."""
    script = WHEEL_SMOKE.read_text()
    assert "bash .ci/wheel_smoke.sh" in (REPO / ".ci" / "run").read_text()
    assert '"$docs"' in script and "expected=1 ;;" in script and 'grep -qF -- "$says"' in script
    first = blocks((REPO / "docs" / "command_line.md").read_text())[0]
    assert first and not any(command.skip for command in first)
    assert any(command.says for command in first) and any(command.exit == 1 for command in first)


@pytest.mark.slow
@pytest.mark.parametrize("page, block", RUNNABLE, ids=[f"{p.stem}:{b[0].line}" for p, b in RUNNABLE])
def test_every_command_of_the_block_runs_from_an_empty_folder(page, block, tmp_path):
    """In the page's order, from a new folder; `deap-sudoku` and `python` are this environment's
    (`deap-sudoku` forked from a process that has imported the package: tests/forked_cli.py)."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    env = {
        **os.environ,
        **forked_cli.shim_folder(tmp_path.parent / f"{tmp_path.name}-bin", path),
        "HOME": str(tmp_path),  # the completion lines append to ~/.bashrc: never the real one
    }
    ran = []
    for command in block:
        if command.skip:
            continue
        start = time.perf_counter()
        where = f"{page.name}:{command.line}: {command.text}"
        try:
            done = subprocess.run(
                ["bash", "-c", command.text], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=SECONDS
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"{where}\nran over {SECONDS} s: its comment should say '# slow: ~N min'")
        assert done.returncode == command.exit, f"{where}\nexit {done.returncode}\n{done.stderr[-2000:]}"
        assert command.says is None or command.says in done.stdout + done.stderr, f"{where}\n{done.stderr[-2000:]}"
        ran.append((round(time.perf_counter() - start, 1), command.line))
    print(page.name, "seconds per command (line):", ran)
