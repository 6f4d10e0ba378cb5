"""The stamp of compiled kernels, the lock of the background process that compiles them, and the
faults a cache meets (issue 60): a compiler killed half-way, a lock nobody holds, a damaged cache
file, a cache folder that cannot be written.  Nothing here compiles a real kernel: a stand-in of one
line is compiled where numba itself must load and save."""

import dataclasses
import errno
import fcntl
import importlib.util
import os
import resource
import signal
import subprocess
import time

import pytest

from deap_sudoku import load_sample
from deap_sudoku.propagation import choice, numba_cache
from deap_sudoku.runs import kernel_cache, kernels, registry
from tests.conftest import messages

SIXTEEN = load_sample("16x16.txt")


@pytest.fixture
def cache(monkeypatch, tmp_path):
    folder = tmp_path / "cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(folder))
    kernel_cache.notices()
    return folder


def _lock(cache, text: str, age: float = 0.0):
    lock = kernel_cache._lock("memetic")
    assert lock.parent == cache
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text(text)
    os.utime(lock, (time.time() - age, time.time() - age))
    return lock


@pytest.fixture
def started(monkeypatch):
    """The background compilers compile_elsewhere starts: ``sleep 60`` in their place, each handed
    the lock as a compiler is; killed at the end."""
    children = []
    popen = subprocess.Popen

    def start(command, **options):
        assert command[-4] == "memetic" and command[-1].isdigit()  # the name, ..., the lock's descriptor
        children.append(popen(["sleep", "60"], **options))
        return children[-1]

    monkeypatch.setattr(kernel_cache.subprocess, "Popen", start)
    yield children
    for child in children:
        child.kill()
        child.wait()


def test_a_lock_counts_while_a_process_holds_it_and_never_for_what_it_says(cache):
    lock = _lock(cache, "")
    with open(lock) as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)  # a live compiler holds its lock
        assert kernel_cache.compiling_elsewhere("memetic")
    assert not kernel_cache.compiling_elsewhere("memetic")  # a fresh lock with no pid, nobody holding it
    _lock(cache, str(os.getpid()))  # a live process, but another program (this one): taken over
    assert not kernel_cache.compiling_elsewhere("memetic")


def test_a_compiler_killed_half_way_is_started_again_by_the_next_run(cache, started):
    assert kernel_cache.compile_elsewhere("memetic", SIXTEEN) and len(started) == 1
    lock = kernel_cache._lock("memetic")
    assert lock.read_text().strip() == str(started[0].pid)
    assert kernel_cache.compiling_elsewhere("memetic")
    assert kernel_cache.compile_elsewhere("memetic", SIXTEEN) and len(started) == 1  # no second compiler
    started[0].send_signal(signal.SIGKILL)  # mid-compile; not reaped: a zombie keeps its pid alive
    deadline = time.monotonic() + 10
    while kernel_cache.compiling_elsewhere("memetic") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not kernel_cache.compiling_elsewhere("memetic") and lock.exists()  # its lock left behind
    assert kernel_cache.compile_elsewhere("memetic", SIXTEEN) and len(started) == 2  # and taken over
    kernel_cache.release("memetic")  # not this process's lock: kept
    assert lock.exists() and kernel_cache.compiling_elsewhere("memetic")


def test_a_lock_of_another_program_or_without_a_pid_starts_a_compiler(cache, started):
    _lock(cache, str(os.getpid()))
    assert kernel_cache.compile_elsewhere("memetic", SIXTEEN) and len(started) == 1
    started[0].kill()
    started[0].wait()
    _lock(cache, "")
    assert kernel_cache.compile_elsewhere("memetic", SIXTEEN) and len(started) == 2


def _sealed_cache(cache, files: int = 2) -> list:
    """Cache files as a compile leaves them (sealed), and cdcl's stamp listing them."""
    folder = cache / "exact_0"
    folder.mkdir(parents=True)
    paths = [folder / "clause_learning_kernel.run-81.py311.nbi"]
    paths += [folder / f"clause_learning_kernel.run-81.py311.{i}.nbc" for i in range(1, files)]
    for path in paths:
        path.write_bytes(numba_cache.sealed(os.urandom(3000)))
    stamp = kernel_cache._stamp("cdcl")
    stamp.write_text(kernel_cache.json.dumps({"format": kernel_cache.FORMAT, "files": [str(p) for p in paths]}))
    return paths


@pytest.mark.parametrize("damage", ["truncated", "flipped", "missing"])
def test_a_damaged_cache_file_is_found_before_numba_loads_it_and_removed(cache, damage):
    paths = _sealed_cache(cache, 3)
    assert kernel_cache.compiled_before("cdcl")
    data = bytearray(paths[1].read_bytes())
    if damage == "truncated":
        paths[1].write_bytes(data[:1000])
    elif damage == "flipped":
        data[2000] ^= 0x10
        paths[1].write_bytes(bytes(data))
    else:
        paths[1].unlink()
    assert not kernel_cache.compiled_before("cdcl")  # compiled again, as on a first run
    assert not any(p.exists() for p in paths) and not kernel_cache._stamp("cdcl").exists()
    [said] = kernel_cache.notices()
    assert said.startswith("a damaged file in the kernel cache (clause_learning_kernel.run-81.py311.1.nbc: ")


def test_a_damaged_cache_sends_a_run_to_the_twins_while_a_background_process_compiles(cache, monkeypatch, capsys):
    """Through the command line's warm-up: the run is held on the Python twins, a compile starts
    elsewhere, and one line says both."""
    from deap_sudoku.cli.progress import warm_up_announced

    paths = _sealed_cache(cache)
    paths[0].write_bytes(paths[0].read_bytes()[:-1])
    calls = []
    record = dataclasses.replace(registry.ALGORITHMS["cdcl"], warm_up=lambda p, c: calls.append(c))
    monkeypatch.setattr(kernels, "_WARM", set())
    monkeypatch.setattr(kernels, "compile_elsewhere", lambda name, puzzle: not calls.append("elsewhere"))
    monkeypatch.setattr(choice, "_held", [])
    warm_up_announced(record, [SIXTEEN], compiled=None, budgeted=True)
    assert calls == ["elsewhere"] and not choice.prefer_compiled(256, 16)
    [line] = messages(capsys.readouterr().err)
    assert line.startswith("a damaged file in the kernel cache (clause_learning_kernel.run-81.py311.nbi: ")
    assert line.endswith("was removed; compiling the clause-learning kernels in a background process, while the run "
                         "goes on with their Python twins")  # fmt: skip


def _stand_in(tmp_path, monkeypatch):
    """A one-line kernel cached by numba as the package's are (sealed), in ``tmp_path``'s own
    __pycache__; a fresh module each call, as a new process would load it."""
    numba = pytest.importorskip("numba")
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setattr(numba_cache, "_GUARDED", [])  # the stand-in's alone, for this test
    source = tmp_path / "stand_in.py"
    if not source.exists():
        source.write_text(
            "import numba\nfrom deap_sudoku.propagation.numba_cache import guard\n\n\n"
            "@numba.njit(cache=True)\ndef twice(x):\n    return 2 * x\n\n\nguard(globals())\n"
        )
    spec = importlib.util.spec_from_file_location("stand_in", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_numba_never_loads_a_damaged_cache_file_it_compiles_the_kernel_again(tmp_path, monkeypatch):
    """A truncated data file ended a command in an UnpicklingError, a flipped index byte in a
    UnicodeDecodeError or a ModuleNotFoundError (issue 60)."""
    assert _stand_in(tmp_path, monkeypatch).twice(21) == 42  # compiled and saved
    files = sorted((tmp_path / "__pycache__").glob("stand_in.twice-*.nb*"))
    assert [f.suffix for f in files] == [".nbc", ".nbi"] and not any(numba_cache.sound(f) for f in files)
    before = len(numba_cache.damaged())
    cut = lambda raw: raw[: len(raw) // 2]  # noqa: E731
    flip = lambda raw: raw[:100] + bytes([raw[100] ^ 1]) + raw[101:]  # noqa: E731
    for file, damage in zip(files, (cut, flip)):  # the data file cut short, a byte of the index flipped
        file.write_bytes(damage(file.read_bytes()))
        assert _stand_in(tmp_path, monkeypatch).twice(4) == 8  # no traceback: compiled again
        assert not any(numba_cache.sound(f) for f in files)  # and saved whole
    assert len(numba_cache.damaged()) == before + 2


def test_a_cache_that_cannot_keep_a_kernel_leaves_it_compiled_in_memory_and_no_stamp(tmp_path, monkeypatch, cache):
    """A full disk (here ``ulimit -f``) while numba saves: the kernel runs, no stamp claims it is cached."""
    monkeypatch.setattr(numba_cache, "_UNSAVED", [])
    _stand_in(tmp_path, monkeypatch)  # its source written, not compiled yet
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, hard))
    try:
        assert _stand_in(tmp_path, monkeypatch).twice(5) == 10
        assert "limited to 0 KiB (ulimit -f)" in kernel_cache.cache_trouble()
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert numba_cache.unsaved() and not kernel_cache.mark_compiled("memetic")
    assert not kernel_cache.compiled_before("memetic")


def _unwritable(cache, monkeypatch, how: str) -> None:
    if how == "a file":
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text("not a folder\n")
    elif os.geteuid() == 0:  # root writes through permissions: the file system refuses instead
        cache.mkdir(parents=True)
        refuse = OSError(errno.EROFS, "Read-only file system")
        monkeypatch.setattr(kernel_cache.tempfile, "TemporaryFile", lambda **_: (_ for _ in ()).throw(refuse))
    else:
        cache.mkdir(parents=True)
        cache.chmod(0o500)


@pytest.mark.parametrize("how", ["read-only", "a file"])
def test_a_budgeted_run_on_a_cache_that_cannot_be_used_runs_the_twins_and_says_so(cache, monkeypatch, how):
    """A read-only cache folder made `solve -a memetic --max-seconds 3` on a 36x36 take 10.5 s (a
    compile in the foreground, every run); a cache path that is a file, a NotADirectoryError."""
    calls = []
    monkeypatch.setitem(
        registry.ALGORITHMS,
        "memetic",
        dataclasses.replace(registry.ALGORITHMS["memetic"], warm_up=lambda p, c: calls.append(c)),
    )
    monkeypatch.setattr(kernels, "_WARM", set())
    monkeypatch.setattr(choice, "_held", [])
    _unwritable(cache, monkeypatch, how)
    monkeypatch.setattr(kernel_cache, "_fallbacks", lambda: [cache])  # and nowhere else for numba to go
    assert kernel_cache.cache_trouble()
    assert not kernel_cache.compile_elsewhere("memetic", SIXTEEN)
    assert not kernels.warm_up("memetic", SIXTEEN, None, budgeted=True)
    assert calls == [] and not choice.prefer_compiled(256, 16)  # nothing compiled: the twins, to the end
    assert not choice.take_up_compiled(None)
    [said] = kernel_cache.notices()
    assert said.startswith("the kernel cache cannot be used: ") and said.endswith(
        "the run goes on with the Python twins"
    )
    choice.hold_compiled(None)
    monkeypatch.setattr(kernels, "_WARM", set())
    kernels.warm_up("memetic", SIXTEEN, None)  # no budget: compiled here, for this run only
    assert calls == [True] and kernel_cache.notices()[0].endswith("the kernels are compiled for this run only")
    kernel_cache.mark_compiled("memetic")  # quietly nothing


def test_where_numba_cache_dir_cannot_be_used_the_cache_goes_where_numba_puts_it_and_a_line_says_so(
    cache, monkeypatch, tmp_path
):
    """numba itself passes over a NUMBA_CACHE_DIR it cannot write (for the package's __pycache__, or
    the user's cache); the stamps and locks follow it there."""
    _unwritable(cache, monkeypatch, "a file")
    monkeypatch.setattr(kernel_cache, "_fallbacks", lambda: [tmp_path / "in-tree"])
    assert kernel_cache.cache_folder() == tmp_path / "in-tree" and not kernel_cache.cache_trouble()
    assert kernel_cache.moved() == (
        f"NUMBA_CACHE_DIR cannot be used ({cache} is not a folder): numba keeps the kernels in {tmp_path / 'in-tree'} "
        "instead"
    )
    assert kernel_cache.mark_compiled("memetic") and kernel_cache.compiled_before("memetic")


def test_a_copy_of_the_package_elsewhere_is_not_taken_for_compiled(tmp_path):
    """numba files a kernel under its source's path: a copy of the package at another path, its files'
    times kept (``cp -a``, the same wheel installed twice), found this package's stamps, loaded its
    kernels as compiled, and numba compiled them inside the run (a 3 s cdcl run took 13-18 s)."""
    import shutil
    import sys

    from tests.conftest import REPO

    shutil.copytree(REPO / "deap_sudoku", tmp_path / "copy" / "deap_sudoku", copy_function=shutil.copy2)
    code = "from deap_sudoku.runs import kernel_cache as k; print(k.__file__); print(k._facts())"
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "copy")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    where, facts = done.stdout.split()
    assert where.startswith(str(tmp_path)) and facts != kernel_cache._facts(), done.stderr
