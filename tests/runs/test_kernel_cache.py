"""The stamp of compiled kernels and the lock of the background process that compiles them."""

import os
import subprocess
import sys
import time

import pytest

from deap_sudoku import load_sample
from deap_sudoku.runs import kernel_cache


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    return tmp_path


def _lock(cache, text: str, age: float = 0.0):
    lock = kernel_cache._lock("memetic")
    assert lock.parent == cache
    lock.write_text(text)
    os.utime(lock, (time.time() - age, time.time() - age))
    return lock


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_lock_counts_while_its_process_lives(cache):
    _lock(cache, str(os.getpid()))
    assert kernel_cache.compiling_elsewhere("memetic")
    _lock(cache, str(_dead_pid()))
    assert not kernel_cache.compiling_elsewhere("memetic")
    _lock(cache, "")  # just made, its process id not written yet
    assert kernel_cache.compiling_elsewhere("memetic")
    _lock(cache, "", age=2 * kernel_cache.STALE_SECONDS)
    assert not kernel_cache.compiling_elsewhere("memetic")


def test_a_live_lock_starts_no_second_compiler_and_a_dead_one_is_replaced(cache, monkeypatch):
    started, dead = [], _dead_pid()

    class Child:
        pid = 4242

    monkeypatch.setattr(kernel_cache.subprocess, "Popen", lambda command, **_: started.append(command) or Child())
    _lock(cache, str(os.getpid()))
    assert kernel_cache.compile_elsewhere("memetic", load_sample("16x16.txt")) and started == []
    lock = _lock(cache, str(dead))
    assert kernel_cache.compile_elsewhere("memetic", load_sample("16x16.txt"))
    assert len(started) == 1 and started[0][-3:-1] == ["memetic", "4x4"]
    assert lock.read_text() == "4242"  # the new child's
    kernel_cache.release("memetic")  # not this process's lock: kept
    assert lock.exists()


def test_where_the_cache_folder_cannot_be_written_the_caller_compiles(cache, monkeypatch):
    if os.geteuid() == 0:
        monkeypatch.setattr(kernel_cache.os, "open", lambda *args: (_ for _ in ()).throw(PermissionError(13, "no")))
    else:
        cache.chmod(0o500)
    assert not kernel_cache.compile_elsewhere("memetic", load_sample("16x16.txt"))
    kernel_cache.mark_compiled("memetic")  # quietly nothing, as on a read-only installation
