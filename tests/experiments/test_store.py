"""Experiments that survive: every run on disk as it finishes, a killed experiment resumed to the
uninterrupted result, files merged by concatenation, a file for another experiment refused (issue 33)."""

import dataclasses
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from deap_sudoku import load_sample
from deap_sudoku.cli import main
from deap_sudoku.experiments import ResultsFile, StoreError, add_digests, read_results
from deap_sudoku.experiments.store import _digest
from deap_sudoku.runs.task import Task, run_task

from tests import forked_cli
from tests.conftest import REPO, run_lines, said

EASY = load_sample("testdata/easy.txt")
DATA = str(REPO / "data" / "testdata" / "medium.txt")


def _task(seed=0, **options):
    return Task("block-ga", EASY, seed=seed, dataset="easy.txt", options=options or {"max_generations": 3})


def test_a_run_is_on_disk_when_append_returns_and_reads_back_equal(tmp_path):
    store = ResultsFile(tmp_path / "r.jsonl")
    task = _task()
    result = run_task(task)
    store.append(task, result)
    again = ResultsFile(tmp_path / "r.jsonl")
    assert again.check(task) and again.result(task) == result  # objective and trace included
    assert not again.check(_task(seed=1))


def test_a_line_cut_short_by_a_kill_is_dropped_when_the_next_session_writes(tmp_path):
    path = tmp_path / "r.jsonl"
    store = ResultsFile(path)
    store.append(_task(), run_task(_task()))
    whole = path.read_bytes()
    path.write_bytes(whole + whole[:57])  # a second line cut off by SIGKILL
    again = ResultsFile(path)
    assert len(again.done) == 1 and path.read_bytes() == whole + whole[:57]  # reading cuts nothing
    again.append(_task(seed=1), run_task(_task(seed=1)))
    lines = path.read_bytes().splitlines(keepends=True)
    assert path.read_bytes().startswith(whole) and len(lines) == 2 and len(ResultsFile(path).done) == 2


def test_a_complete_last_record_without_its_newline_is_kept(tmp_path):
    path = tmp_path / "r.jsonl"
    ResultsFile(path).append(_task(), run_task(_task()))
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    again = ResultsFile(path)
    assert again.check(_task())
    again.append(_task(seed=1), run_task(_task(seed=1)))
    assert len(ResultsFile(path).done) == 2 and path.read_bytes().count(b"\n") == 2


@pytest.mark.parametrize("text", [b"my notes", b"my notes\nand more", b"", b"\x00\xff" * 10, b'{"a": 1}\n'])
def test_a_file_this_package_did_not_write_is_refused_untouched(tmp_path, text):
    path = tmp_path / "notes.txt"
    path.write_bytes(text)
    if text:
        with pytest.raises(StoreError, match=r"notes\.txt: not a results file of deap_sudoku"):
            ResultsFile(path)
        assert path.read_bytes() == text
    else:  # an empty file holds nothing to lose: it becomes the results file
        ResultsFile(path).append(_task(), run_task(_task()))
        assert len(ResultsFile(path).done) == 1


def test_a_changed_digit_in_a_record_is_refused_never_believed(tmp_path):
    path = tmp_path / "r.jsonl"
    ResultsFile(path).append(_task(), run_task(_task()))
    whole = path.read_text()
    edits = 0
    for field in ('"fitness": ', '"evaluations": ', '"generations": ', '"seconds": ', '"index": 0', '"seed": 0'):
        at = whole.index(field) + len(field)
        while not whole[at].isdigit():
            at += 1
        edited = whole[:at] + str((int(whole[at]) + 1) % 10) + whole[at + 1 :]
        path.write_text(edited)
        with pytest.raises(StoreError, match=r"r\.jsonl:1: a damaged record \(its digest does not match"):
            ResultsFile(path)
        edits += 1
    assert edits == 6


def test_a_record_without_its_digest_is_refused_and_a_trusted_file_is_given_digests_once(tmp_path):
    path = tmp_path / "r.jsonl"
    ResultsFile(path).append(_task(), run_task(_task()))
    record = json.loads(path.read_text())
    del record["digest"]
    record["result"]["evaluations"] = 7  # an edit a deleted digest hid: believed, and bench reported it
    path.write_text(json.dumps(record) + "\n")
    for read in (ResultsFile, read_results):
        with pytest.raises(StoreError, match=r"r\.jsonl:1: a record without a digest .* add_digests\('.*r\.jsonl'\)"):
            read(path)
    assert add_digests(path) == 1  # the user's word that the file is whole: then it is read as any other
    assert ResultsFile(path).results()[0].evaluations == 7 and add_digests(path) == 0
    damaged = path.read_text().replace('"evaluations": 7', '"evaluations": 8')
    path.write_text(damaged)
    with pytest.raises(StoreError, match=r"r\.jsonl:1: a damaged record"):
        add_digests(path)  # never a digest for a line that says other than it did
    assert path.read_text() == damaged


def test_a_record_that_says_solved_with_a_grid_that_does_not_is_refused(tmp_path):
    from deap_sudoku.exact import solve

    path = tmp_path / "r.jsonl"
    task = Task("backtracking", EASY, dataset="easy.txt")
    result = run_task(task)
    assert result.solved
    wrong = list(result.grid)
    wrong[0], wrong[1] = wrong[1], wrong[0]
    ResultsFile(path).append(task, dataclasses.replace(result, grid=wrong))  # written as ours, digest and all
    with pytest.raises(StoreError, match=r"r\.jsonl:1: says backtracking solved easy\.txt puzzle 1, seed 0, but"):
        ResultsFile(path).result(task)
    assert solve(EASY).cells.tolist() == result.grid


def test_a_file_of_another_experiment_or_another_kind_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "r.jsonl"
    ResultsFile(path).append(_task(), run_task(_task()))
    with pytest.raises(StoreError, match=r"r\.jsonl:1: holds block-ga on easy\.txt puzzle 1, seed 0 with other"):
        ResultsFile(path).check(_task(max_generations=4))
    other = tmp_path / "notes.jsonl"
    record = {"format": "deap_sudoku.run/1", "identity": [], "result": {}}
    other.write_text(json.dumps({**record, "digest": _digest(record)}) + "\n")
    with pytest.raises(StoreError, match=r"notes\.jsonl:1: not a run record of deap_sudoku"):
        ResultsFile(other)


def _bench(*extra, cwd=None):
    return [
        sys.executable,
        "-m",
        "deap_sudoku",
        "bench",
        DATA,
        "-a",
        "block-ga",
        "-a",
        "row-ga",
        "--runs",
        "3",
        "--limit",
        "3",
        "--max-generations",
        "25",
        "--population",
        "30",  # 18 runs in about 1.5 s: a kill lands mid-experiment all the same
        "-q",
        *extra,
    ]


def _comparable(path):
    runs = json.loads(path.read_text())["runs"]
    return sorted(
        (
            r["dataset"],
            r["index"],
            r["algorithm"],
            r["seed"],
            r["solved"],
            r["fitness"],
            r["generations"],
            r["evaluations"],
        )
        for r in runs
    )


@pytest.mark.slow
def test_an_experiment_killed_at_random_resumes_to_the_uninterrupted_results(tmp_path):
    whole = subprocess.run(
        _bench("--results", str(tmp_path / "whole.jsonl"), "--json", str(tmp_path / "whole.json")),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert whole.returncode == 0, whole.stderr
    expected = _comparable(tmp_path / "whole.json")
    assert len(expected) == 18
    rng = random.Random(5)
    for attempt in range(2):  # two random kills (each a kill and a resume: 1 s of CPU)
        results = tmp_path / f"killed{attempt}.jsonl"
        started = forked_cli.Popen(
            _bench("--results", str(results)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 60
        wanted = rng.randint(1, 14)  # kill after a random number of finished runs, mid-run
        while time.monotonic() < deadline and (not results.exists() or run_lines(results) < wanted):
            time.sleep(0.01)
        time.sleep(rng.random() * 0.05)
        started.send_signal(signal.SIGKILL)
        started.wait()
        kept = run_lines(results)
        assert 0 < kept < 18
        resumed = forked_cli.run(
            _bench("--results", str(results), "--json", str(tmp_path / f"resumed{attempt}.json")),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert resumed.returncode == 0, resumed.stderr
        assert run_lines(results) == 18  # the runs it held were not run again
        assert _comparable(tmp_path / f"resumed{attempt}.json") == expected


def test_results_of_two_machines_merge_by_concatenation(tmp_path):
    first, second, merged = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "all.jsonl"
    common = [DATA, "-a", "block-ga", "--limit", "2", "--max-generations", "20", "-q"]
    assert CliRunner().invoke(main, ["bench", *common, "--runs", "2", "--results", str(first)]).exit_code == 0
    assert (
        CliRunner().invoke(main, ["bench", *common, "--runs", "2", "--seed", "2", "--results", str(second)]).exit_code
        == 0
    )
    merged.write_bytes(first.read_bytes() + second.read_bytes())
    together = CliRunner().invoke(main, ["bench", *common, "--runs", "4", "--results", str(merged), "--json", "-"])
    assert together.exit_code == 0
    assert len(json.loads(together.stdout)["runs"]) == 8 and run_lines(merged) == 8  # nothing rerun
    assert merged.read_bytes().count(b"deap_sudoku.experiment/1") == 2  # each machine's header kept


def test_the_iohprofiler_export_is_read_by_iohprofilers_own_reader(tmp_path):
    inspector = pytest.importorskip("iohinspector", reason="the [test] extra installs IOHprofiler's reader")
    data = str(REPO / "data" / "testdata" / "easy.txt")
    folder = tmp_path / "ioh"
    result = CliRunner().invoke(
        main,
        [
            "bench",
            data,
            "-a",
            "row-ga",
            "-a",
            "memetic",
            "-a",
            "backtracking",
            "--runs",
            "3",
            "--limit",
            "2",
            "--max-generations",
            "30",
            "-q",
            "--json",
            "-",
            "--iohprofiler",
            str(folder),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "--iohprofiler: backtracking: left out: it traces no fitness against evaluations" in result.stderr
    runs = {(r["algorithm"], r["index"], r["seed"]): r for r in json.loads(result.stdout)["runs"]}
    manager = inspector.DataManager()
    for algorithm in sorted(os.listdir(folder)):
        manager.add_folder(str(folder / algorithm))
    overview = manager.overview
    assert sorted(overview["algorithm_name"].unique().to_list()) == ["memetic", "row-ga"]
    assert overview.height == 12 and set(overview["dimension"].to_list()) == {81}
    assert set(overview["instance"].to_list()) == {1, 2}
    table = manager.load(monotonic=False, include_meta_data=True)
    for (algorithm, instance), rows in table.group_by(["algorithm_name", "instance"]):
        spent = sorted(r["evaluations"] for key, r in runs.items() if key[0] == algorithm and key[1] == instance - 1)
        assert sorted(rows.group_by("run_id").agg(last=inspector_max("evaluations"))["last"].to_list()) == spent
        assert rows["raw_y"].min() == min(
            r["fitness"] for key, r in runs.items() if key[0] == algorithm and key[1] == instance - 1
        )
    with pytest.raises(FileExistsError, match="exists and is not an empty folder"):
        from deap_sudoku.experiments.iohprofiler import export_iohprofiler

        export_iohprofiler([], folder)


def inspector_max(column):
    import polars

    return polars.col(column).max()


def test_bench_keeps_a_users_notes_file_byte_for_byte(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"my notes")
    data = str(REPO / "data" / "9x9.txt")
    done = CliRunner().invoke(main, ["bench", data, "-a", "backtracking", "--results", str(notes), "-q"])
    assert done.exit_code == 2 and notes.read_bytes() == b"my notes"
    assert f"--results {notes}: not a results file of deap_sudoku" in said(done.stderr)
