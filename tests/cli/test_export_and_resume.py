"""The IOHprofiler export guarded like every other output, and an interrupted ``bench --results``
going on as documented: the same command, no ``--force``."""

from __future__ import annotations

import re
import json
import os
import sys

import pytest

from tests import forked_cli
from tests.conftest import run_lines, REPO, messages, said

pytest.importorskip("ioh", reason="the [test] extra installs the ioh package")
pytestmark = pytest.mark.slow  # whole commands, as a user runs them

DATA = str(REPO / "data" / "testdata" / "easy.txt")

ARMS = """
import os
import signal
from pathlib import Path

from deap_sudoku.exact import solve


def appear(puzzle, *, rng):
    "Makes the export's folder while the experiment runs, as another program might."
    folder = Path(os.environ["APPEAR"])
    folder.mkdir(exist_ok=True)
    (folder / "theirs.txt").write_text("not yours")
    return solve(puzzle, rng=rng).cells


def stop_once(puzzle, *, rng, seed):
    "Solves; on its second run, the first time, Ctrl-C is pressed: the terminal signals the command's"
    "process group (this run's process, a contained child of the command, leads a group of its own)."
    marker = Path(os.environ["STOPPED"])
    if seed == 1 and not marker.exists():
        marker.write_text("")
        os.killpg(os.getpgid(os.getppid()), signal.SIGINT)
    return solve(puzzle, rng=rng).cells
"""


def _bench(tmp_path, *arguments, **variables):
    (tmp_path / "arms_for_faults.py").write_text(ARMS)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path), str(REPO))), **variables}
    command = [sys.executable, "-m", "deap_sudoku", "bench", DATA, "--limit", "2", "-q", *arguments]
    return forked_cli.run(  # a group of its own, as a terminal's foreground job is
        command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300, start_new_session=True
    )


def test_an_export_folder_that_appears_during_the_runs_is_left_alone_and_the_rest_is_whole(tmp_path):
    folder = tmp_path / "ioh"
    done = _bench(
        tmp_path, "-a", "block-ga", "-a", "arms_for_faults:appear", "--max-generations", "3",
        "--json", "runs.json", "--iohprofiler", str(folder), APPEAR=str(folder),
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        f"--iohprofiler {folder} not written: {folder} exists and is not an empty folder; export into a new folder"
    )
    assert os.listdir(folder) == ["theirs.txt"] and (folder / "theirs.txt").read_text() == "not yours"
    assert (
        re.search(r"^easy\.txt +block-ga ", done.stdout, re.M)
        and len(json.loads((tmp_path / "runs.json").read_text())["runs"]) == 4
    )
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]  # nothing half-written left


def test_a_long_dataset_name_is_exported_under_a_shortened_name(tmp_path):
    long_name = tmp_path / ("a" * 200 + ".txt")
    long_name.write_text((REPO / "data" / "testdata" / "easy.txt").read_text())
    folder = tmp_path / "ioh"
    command = [sys.executable, "-m", "deap_sudoku", "bench", str(long_name), "--limit", "1", "-a", "block-ga"]
    command += ["--max-generations", "2", "-q", "--iohprofiler", str(folder)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = forked_cli.run(command, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    [info] = folder.rglob("IOHprofiler_*.json")
    name = json.loads(info.read_text())["function_name"]
    assert name.startswith("a" * 40) and name.endswith("__cell_collisions") and len(info.name) < 255


@pytest.mark.parametrize("kind", ["a dangling link", "a file", "a folder with files"])
def test_an_export_that_cannot_be_written_is_refused_before_any_run(tmp_path, kind):
    folder = tmp_path / "ioh"
    if kind == "a dangling link":
        folder.symlink_to(tmp_path / "nowhere")
    elif kind == "a file":
        folder.write_text("mine")
    else:
        folder.mkdir()
        (folder / "mine.txt").write_text("mine")
    from click.testing import CliRunner

    from deap_sudoku.cli import main

    command = ["bench", DATA, "--limit", "2", "-q", "-a", "block-ga", "--max-generations", "2"]
    done = CliRunner().invoke(main, [*command, "--iohprofiler", str(folder)])  # refused before any run: in process
    assert done.exit_code == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert messages(done.stderr.strip())[-1].startswith("Error:") and str(folder) in said(done.stderr)


def test_an_export_cut_short_leaves_nothing_and_the_old_folder_as_it_was(tmp_path, monkeypatch):
    """ioh's own writes fail silently on a full disk (files left empty or cut): the export is checked
    whole before it takes the folder's place."""
    from deap_sudoku.experiments import iohprofiler, run_experiment
    from deap_sudoku.io.samples import load_samples

    results = run_experiment(["block-ga"], {"easy": load_samples("testdata/easy.txt")[:1]}, runs=2,
                             options={"block-ga": {"max_generations": 2}})  # fmt: skip
    folder = tmp_path / "ioh"
    iohprofiler.export_iohprofiler(results, folder)
    before = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    check = iohprofiler._check_whole

    def full_disk(building, runs):
        [data] = building.rglob("*.dat")
        data.write_bytes(data.read_bytes()[:40])  # what a full disk leaves of it
        check(building, runs)

    monkeypatch.setattr(iohprofiler, "_check_whole", full_disk)
    with pytest.raises(OSError, match="could not be written whole .* nothing of it is kept"):
        iohprofiler.export_iohprofiler(results, folder, replace=True)
    assert {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert sorted(os.listdir(tmp_path)) == ["ioh"]


def test_the_same_command_goes_on_after_an_interrupt_without_force(tmp_path):
    arguments = ["-a", "arms_for_faults:stop_once", "--runs", "2", "--results", "runs.jsonl", "--json", "runs.json"]
    arguments += ["--markdown", "table.md", "--iohprofiler", "ioh"]
    stopped = _bench(tmp_path, *arguments, STOPPED=str(tmp_path / "stopped"))
    assert stopped.returncode == 130 and json.loads((tmp_path / "runs.json").read_text())["missing_count"] == 3
    left = (tmp_path / "table.md").read_text()
    (tmp_path / "table.md").write_text("my edits")  # no longer what the interrupted run left: kept
    edited = _bench(tmp_path, *arguments, STOPPED=str(tmp_path / "stopped"))
    assert edited.returncode == 2 and "--markdown table.md exists; refusing to overwrite it" in edited.stderr
    assert (tmp_path / "table.md").read_text() == "my edits"
    (tmp_path / "table.md").write_text(left)
    again = _bench(tmp_path, *arguments, STOPPED=str(tmp_path / "stopped"))
    assert again.returncode == 0, again.stderr
    assert len(json.loads((tmp_path / "runs.json").read_text())["runs"]) == 4
    # run again when done (a resubmitted batch job, issue 62): its outputs rewritten from the file, no run made
    (tmp_path / "stopped").unlink()
    finished = _bench(tmp_path, *arguments, STOPPED=str(tmp_path / "stopped"))
    assert finished.returncode == 0, finished.stderr
    assert len(json.loads((tmp_path / "runs.json").read_text())["runs"]) == 4 == run_lines(tmp_path / "runs.jsonl")


def test_a_results_file_that_cannot_be_written_is_refused_before_any_run(tmp_path, monkeypatch):
    """A read-only results file was found out after the first run's work.  (Root may write any file:
    the file's permission is what the command asks, as an ordinary user's would answer.)"""
    from click.testing import CliRunner

    from deap_sudoku.cli import main

    monkeypatch.chdir(tmp_path)
    command = [
        "bench",
        DATA,
        "--limit",
        "2",
        "-q",
        "-a",
        "block-ga",
        "--max-generations",
        "2",
        "--results",
        "runs.jsonl",
    ]
    assert CliRunner().invoke(main, command).exit_code == 0
    os.chmod(tmp_path / "runs.jsonl", 0o444)
    access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: access(path, mode) and not (
        str(path).endswith("runs.jsonl") and mode & os.W_OK and not os.stat(path).st_mode & 0o200
    ))  # fmt: skip
    done = CliRunner().invoke(main, [*command, "--runs", "2"])
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr.strip().endswith("--results runs.jsonl: is not writable; it could not keep this run's work")
