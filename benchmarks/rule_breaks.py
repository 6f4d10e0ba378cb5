"""Break each rule of each published algorithm once, in a copy of the repository, and check that its test fails.

    python benchmarks/rule_breaks.py [--repo PATH] [--module tests/algorithms/test_X.py] [--rule TEXT]
        [--jobs N] [--timeout SECONDS] [--baseline] [--json FILE]

Every test module that tests a published algorithm's rule table (docs/literature.md) holds a
module-level literal list ``RULE_BREAKS``, one entry (or more) per row of the table::

    {"rule": "<the row's first cell, verbatim>",
     "edits": [["<file from the repo root>", "<old text, exactly once in the file>", "<new text>"], ...],
     "test": "<a test function of that module>"}

(or ``"test": None, "why": "..."`` for a row that cannot be broken alone).  The lists are read with
``ast.literal_eval``; the test modules are never imported.  The repository (``--repo``, by default the
checkout this script sits in) is copied once to a temporary folder per job (file times kept, so that
numba's cache, one folder shared by the whole run, stays valid); for each break the edits are made
in the copy, ``python -m pytest -n 0 -x -q -p no:cacheprovider tests/...::TEST`` runs there with
PYTHONPATH pointing at the copy, and the edited files are put back, bytes and times.

Each break ends as one of:

- ``caught``: the test failed (an assertion or an exception inside the test);
- ``not caught``: the test passed;
- ``skipped``: pytest skipped it (its data or an optional dependency is missing here);
- ``error``: the break made collection or a fixture fail (an unimportable module, say): that is not
  a test catching a rule, and it is reported as such;
- ``stale``: an edit's old text is not in its file exactly once (the code moved on), or a file is missing;
- ``timeout``: the test ran past ``--timeout`` seconds;
- ``why``: a row that cannot be broken alone (``"test": None``), listed with its reason and not counted.

The summary goes to stdout, one line per module (caught / total) and one per break that was not
caught; progress goes to stderr.  The exit code is 0 when every break was caught, 1 otherwise, 2 when
a ``RULE_BREAKS`` list cannot be read.  ``--json FILE`` keeps every break's outcome with the run's
provenance (the repository's git revision, the date, the command, the machine's load).
``--baseline`` first runs each named test once on the unbroken copy: a break whose test fails there
proves nothing and is reported ``baseline fails``.

Breaks run one after another unless ``--jobs N`` (N copies, N breaks at a time): the machine is shared.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import datetime
import importlib.util
import json
import os
import platform
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IGNORED = shutil.ignore_patterns(
    ".git", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", "build", "dist"
)


class RuleBreaksError(ValueError):
    """A ``RULE_BREAKS`` list that cannot be read: the file, the line and the problem."""


class Stale(ValueError):
    """An edit whose old text is not in its file exactly once, or whose file is missing."""


@dataclass(frozen=True)
class Break:
    module: str  # the test module, relative to the repository root
    index: int  # its place in the module's RULE_BREAKS
    line: int  # the line of the entry in the module
    rule: str
    edits: tuple[tuple[str, str, str], ...]
    test: str | None
    why: str = ""

    @property
    def name(self) -> str:
        return f"{self.module}[{self.index}] {self.rule!r}"


@dataclass
class Outcome:
    module: str
    index: int
    rule: str
    test: str | None
    outcome: str
    seconds: float = 0.0
    detail: str = ""
    edits: list = field(default_factory=list)


# -- reading the lists -----------------------------------------------------------------------------


def rule_breaks_literal(path: Path) -> list[tuple[int, object]] | None:
    """The module's ``RULE_BREAKS`` entries with their lines, read with ``ast.literal_eval``, or None
    when the module has no such list.  Raises :class:`RuleBreaksError` (file and line) when it is not
    a literal list."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: ast.Assign | ast.AnnAssign | None = None
    for node in tree.body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(isinstance(t, ast.Name) and t.id == "RULE_BREAKS" for t in targets):
            if found is not None:
                raise RuleBreaksError(f"{path}:{node.lineno}: RULE_BREAKS assigned a second time")
            found = node
    if found is None:
        return None
    value = found.value
    if not isinstance(value, ast.List):
        raise RuleBreaksError(f"{path}:{found.lineno}: RULE_BREAKS is not a literal list")
    entries = []
    for item in value.elts:
        try:
            entries.append((item.lineno, ast.literal_eval(item)))
        except ValueError as error:
            message = f"{path}:{item.lineno}: a RULE_BREAKS entry is not a plain literal ({error})"
            raise RuleBreaksError(message) from None
    return entries


def problems_of(entry: object) -> list[str]:
    """What is wrong with one entry's shape (empty when it is well formed)."""
    if not isinstance(entry, dict):
        return ["an entry is not a dict"]
    problems = []
    unknown = set(entry) - {"rule", "edits", "test", "why"}
    if unknown:
        problems.append(f"unknown keys {sorted(unknown)}")
    if not isinstance(entry.get("rule"), str) or not entry["rule"].strip():
        problems.append('"rule" is not a non-empty string')
    test = entry.get("test", "missing")
    if test is None:
        if not isinstance(entry.get("why"), str) or not entry["why"].strip():
            problems.append('"test": None without a "why"')
        if entry.get("edits"):
            problems.append('"test": None with edits')
        return problems
    if not isinstance(test, str) or not test.startswith("test"):
        problems.append('"test" is not the name of a test function')
    return problems + _edit_problems(entry.get("edits"))


def _edit_problems(edits: object) -> list[str]:
    if not isinstance(edits, list) or not edits:
        return ['"edits" is not a non-empty list']
    problems = []
    for edit in edits:
        if not (isinstance(edit, (list, tuple)) and len(edit) == 3 and all(isinstance(part, str) for part in edit)):
            problems.append(f"an edit is not [file, old text, new text]: {edit!r}")
        elif not edit[1] or edit[1] == edit[2]:
            problems.append(f"an edit of {edit[0]} changes nothing")
    return problems


def collect(repo: Path) -> list[Break]:
    """Every break of every ``tests/**/test_*.py`` of ``repo``, in file order; a malformed entry raises
    :class:`RuleBreaksError` naming its file and line."""
    breaks = []
    for path in sorted((repo / "tests").rglob("test_*.py")):
        entries = rule_breaks_literal(path)
        if entries is None:
            continue
        module = path.relative_to(repo).as_posix()
        for index, (line, entry) in enumerate(entries):
            problems = problems_of(entry)
            if problems:
                raise RuleBreaksError(f"{path}:{line}: " + "; ".join(problems))
            assert isinstance(entry, dict)
            edits = tuple(tuple(edit) for edit in entry.get("edits") or ())
            breaks.append(Break(module, index, line, entry["rule"], edits, entry["test"], entry.get("why", "")))
    return breaks


def edited(repo: Path, edits) -> dict[str, str]:
    """The edited files' new texts, the edits made in order; :class:`Stale` when an old text is not
    in its file exactly once (counted in the file as the earlier edits left it) or a file is missing."""
    texts: dict[str, str] = {}
    for name, old, new in edits:
        if name not in texts:
            path = repo / name
            if not path.is_file():
                raise Stale(f"{name}: no such file")
            texts[name] = path.read_text(encoding="utf-8")
        count = texts[name].count(old)
        if count != 1:
            raise Stale(f"{name}: the old text {old[:60]!r} occurs {count} times")
        texts[name] = texts[name].replace(old, new)
    return texts


def test_functions(path: Path) -> set[str]:
    """The module's test names as pytest addresses them: ``test_x`` and ``TestClass::test_x``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            methods = (item for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)))
            names |= {f"{node.name}::{item.name}" for item in methods}
    return names


# -- running them ------------------------------------------------------------------------------------


def copy_of(repo: Path, into: Path) -> Path:
    """The repository's files (no .git, no caches) copied to ``into/repo``, times kept."""
    target = into / "repo"
    shutil.copytree(repo, target, ignore=IGNORED, copy_function=shutil.copy2, symlinks=True)
    return target


def environment(copy: Path, repo: Path, cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(copy), *filter(None, [os.environ.get("PYTHONPATH", "")])])
    env["PYTHONPATH"] = os.pathsep.join(p for p in env["PYTHONPATH"].split(os.pathsep) if Path(p).resolve() != repo)
    env["NUMBA_CACHE_DIR"] = str(cache)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    shared = repo.parent / "shared" / "data"  # where tests/conftest.py looks beside the original
    if "DEAP_SUDOKU_SHARED_DATA" not in env and shared.is_dir():
        env["DEAP_SUDOKU_SHARED_DATA"] = str(shared)
    return env


def run_test(copy: Path, env: dict[str, str], module: str, test: str, timeout: float) -> tuple[str, str]:
    """Run one test in the copy: ``("failed" | "passed" | "skipped" | "error" | "timeout", detail)``."""
    report = copy / ".rule_break_report.xml"
    report.unlink(missing_ok=True)
    command = [sys.executable, "-m", "pytest", "-n", "0", "-x", "-q", "-p", "no:cacheprovider"]
    command += [f"--junitxml={report}", f"{module}::{test}"]
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", f"still running after {timeout:g} s"
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-3:])
    if not report.is_file():
        return "error", f"pytest exit {done.returncode}, no report: {tail}"
    kinds, first = _read_report(report)
    if kinds["error"] or done.returncode not in (0, 1):
        return "error", first or f"pytest exit {done.returncode}: {tail}"
    if kinds["failure"]:
        return "failed", first
    if kinds["passed"]:
        return "passed", ""
    if kinds["skipped"]:
        return "skipped", tail
    return "error", f"no test ran (pytest exit {done.returncode}): {tail}"


def _read_report(report: Path) -> tuple[Counter, str]:
    """The JUnit report's count of passed, failed, errored and skipped cases, and the first failure's message."""
    kinds: Counter = Counter()
    first = ""
    for case in ET.parse(report).getroot().iter("testcase"):
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                kinds[child.tag] += 1
                if child.tag != "skipped" and not first:
                    first = (child.get("message") or child.tag).splitlines()[0][:200]
        if not len(case):
            kinds["passed"] += 1
    return kinds, first


def _forget_bytecode(path: Path) -> None:
    """Remove the byte-code Python cached for ``path``: the tests' set-up byte-compiles the package,
    and a cache keyed by a modification time in whole seconds and a size took an earlier break's
    code, made within the same second at the same size, for this one's (a break was reported not
    caught that its test catches)."""
    Path(importlib.util.cache_from_source(str(path))).unlink(missing_ok=True)


def attempt(copy: Path, env: dict[str, str], item: Break, timeout: float) -> Outcome:
    """One break made in the copy, its test run, the files put back."""
    edits = [list(edit) for edit in item.edits]
    outcome = Outcome(item.module, item.index, item.rule, item.test, "why", detail=item.why, edits=edits)
    if item.test is None:
        return outcome
    try:
        texts = edited(copy, item.edits)
    except Stale as error:
        outcome.outcome, outcome.detail = "stale", str(error)
        return outcome
    saved = {}
    for name in texts:
        path = copy / name
        info = path.stat()
        saved[name] = (path.read_bytes(), info.st_atime_ns, info.st_mtime_ns)
    started = time.perf_counter()
    try:
        for name, text in texts.items():
            (copy / name).write_text(text, encoding="utf-8")
            _forget_bytecode(copy / name)
        result, detail = run_test(copy, env, item.module, item.test, timeout)
    finally:
        for name, (data, atime, mtime) in saved.items():
            (copy / name).write_bytes(data)
            os.utime(copy / name, ns=(atime, mtime))
            _forget_bytecode(copy / name)
    outcome.seconds = round(time.perf_counter() - started, 2)
    outcome.outcome = {"failed": "caught", "passed": "not caught"}.get(result, result)
    outcome.detail = detail
    return outcome


def provenance(repo: Path, started: str) -> dict:
    def git(*arguments: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(repo), *arguments], capture_output=True, text=True, timeout=10)
        except OSError:
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    changed = git("status", "--porcelain", "--untracked-files=no")
    return {
        "repository": str(repo),
        "revision": None if commit is None else f"{commit} + changes" if changed else commit,
        "started": started,
        "command": shlex.join([Path(sys.executable).name, *sys.argv]),
        "python": platform.python_version(),
        "host": platform.node(),
        "load": [round(x, 2) for x in os.getloadavg()],
    }


def selected(breaks: list[Break], modules: list[str], rules: list[str]) -> list[Break]:
    """The breaks of ``modules`` (all when empty) whose rule contains one of ``rules`` (all when empty);
    :class:`RuleBreaksError` for a module that has no breaks."""
    wanted = {Path(module).as_posix() for module in modules}
    missing = wanted - {b.module for b in breaks}
    if missing:
        raise RuleBreaksError(", ".join(f"{module}: no RULE_BREAKS there" for module in sorted(missing)))
    return [
        b for b in breaks if (not wanted or b.module in wanted) and (not rules or any(text in b.rule for text in rules))
    ]


def run_all(repo: Path, breaks: list[Break], *, jobs: int, timeout: float, baseline: bool) -> list[Outcome]:
    """Every break tried in one of ``jobs`` copies of ``repo``, numba's cache shared by all of them."""
    with tempfile.TemporaryDirectory(prefix="rule_breaks_") as temporary:
        folder = Path(temporary)
        cache = folder / "numba_cache"
        cache.mkdir()
        jobs = max(1, min(jobs, sum(1 for b in breaks if b.test is not None)))
        print(f"rule_breaks: copying {repo} ({jobs} cop{'y' if jobs == 1 else 'ies'})", file=sys.stderr)
        copies: queue.Queue = queue.Queue()
        for job in range(jobs):
            (folder / f"job{job}").mkdir()
            copies.put(copy_of(repo, folder / f"job{job}"))
        failing_unbroken: set[tuple[str, str | None]] = set()
        if baseline:
            copy = copies.get()
            for module, test in sorted({(b.module, b.test) for b in breaks if b.test is not None}):
                result, _ = run_test(copy, environment(copy, repo, cache), module, test, timeout)
                print(f"rule_breaks: unbroken {module}::{test}: {result}", file=sys.stderr)
                if result != "passed":
                    failing_unbroken.add((module, test))
            copies.put(copy)

        def one(item: Break) -> Outcome:
            if (item.module, item.test) in failing_unbroken:
                return Outcome(item.module, item.index, item.rule, item.test, "baseline fails")
            copy = copies.get()
            try:
                outcome = attempt(copy, environment(copy, repo, cache), item, timeout)
            finally:
                copies.put(copy)
            print(
                f"rule_breaks: {item.name} -> {item.test}: {outcome.outcome} ({outcome.seconds:g} s)", file=sys.stderr
            )
            return outcome

        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, breaks))


def summarise(outcomes: list[Outcome]) -> tuple[dict, bool]:
    """Print each module's count and every break not caught; the counts, and whether all were caught."""
    everything_caught = True
    by_module: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        by_module.setdefault(outcome.module, []).append(outcome)
    summary = {}
    for module, found in by_module.items():
        counted = [o for o in found if o.outcome != "why"]
        caught = sum(o.outcome == "caught" for o in counted)
        summary[module] = {"caught": caught, "total": len(counted), "why": len(found) - len(counted)}
        print(f"{module}: {caught} / {len(counted)} breaks caught")
        for o in found:
            if o.outcome == "why":
                print(f"    not breakable alone: {o.rule!r}: {o.detail}")
            elif o.outcome != "caught":
                everything_caught = False
                print(f"    {o.outcome}: [{o.index}] {o.rule!r} -> {o.test}" + (f": {o.detail}" if o.detail else ""))
    total = sum(s["total"] for s in summary.values())
    print(f"all: {sum(s['caught'] for s in summary.values())} / {total} breaks caught")
    return summary, everything_caught


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=ROOT, help="the checkout to break (default: this one)")
    parser.add_argument("--module", action="append", default=[], help="only this test module's breaks (repeatable)")
    parser.add_argument("--rule", action="append", default=[], help="only the breaks whose rule contains TEXT")
    parser.add_argument("--jobs", type=int, default=1, help="breaks run at once, each in its own copy (default 1)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a test may run (default 300)")
    parser.add_argument("--baseline", action="store_true", help="first run each named test on the unbroken copy")
    parser.add_argument("--json", type=Path, help="write every outcome, with provenance, to this file")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    repo = args.repo.resolve()
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    try:
        breaks = selected(collect(repo), args.module, args.rule)
    except (RuleBreaksError, SyntaxError) as error:
        print(f"rule_breaks: {error}", file=sys.stderr)
        return 2
    if not breaks:
        print("rule_breaks: no break to run", file=sys.stderr)
        return 2
    origin = provenance(repo, started)  # the revision the copies are made from, before anything else changes
    outcomes = run_all(repo, breaks, jobs=args.jobs, timeout=args.timeout, baseline=args.baseline)
    summary, everything_caught = summarise(outcomes)
    if args.json:
        origin["finished"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        report = {"provenance": origin, "summary": summary, "breaks": [asdict(o) for o in outcomes]}
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0 if everything_caught else 1


if __name__ == "__main__":
    sys.exit(main())
