"""The tests' forked ``deap-sudoku`` (tests/forked_cli.py) behaves as a started one: the same
output, messages and exit codes, its own process, session and signals; and what it cannot be
forked for starts as a real process."""

import os
import signal
import subprocess
import sys
import time

import pytest

from tests import forked_cli
from tests.conftest import sitecustomize_env

pytestmark = pytest.mark.slow

COMMAND = [sys.executable, "-m", "deap_sudoku"]


@pytest.mark.parametrize(
    "args, given",
    [
        (["solve", "data/9x9-easy.txt", "-a", "memetic", "--seed", "1"], None),
        (["solve", "-", "--out", "-"], "1.3..4.2.1.3..2.\n"),
        (["solve", "data/9x9-easy.txt", "--max-generations", "0"], None),  # a usage error: exit 2
        (["check", "nowhere.txt"], None),
    ],
)
def test_a_forked_command_says_and_exits_as_a_started_one(args, given, tmp_path):
    def seconds_blurred(text):
        return " ".join(
            "T" if word.rstrip(",").replace(".", "").isdigit() and "." in word else word for word in text.split()
        )

    (tmp_path / "nowhere1.txt").write_text("1.3..4.2.1.3..2.\n")  # "did you mean ...?" reads the folder
    forked = forked_cli.run([*COMMAND, *args], input=given, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    started = subprocess.run([*COMMAND, *args], input=given, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert forked.returncode == started.returncode and "Traceback" not in forked.stderr
    assert (forked.returncode, forked.stdout) == (started.returncode, started.stdout)
    assert seconds_blurred(forked.stderr) == seconds_blurred(started.stderr)


def test_a_forked_command_is_a_process_of_its_own_that_a_signal_ends_as_the_shell_expects(tmp_path):
    out = tmp_path / "made.txt"
    command = [*COMMAND, "generate", "--box", "2x2", "--count", "1000000", "--any", "--out", str(out), "-q"]
    process = forked_cli.Popen(command, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert process._connection is not None  # forked, not started
    assert os.getpgid(process.pid) == process.pid != os.getpid()
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".made.txt.*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 130 and process.stderr.read() == "interrupted by SIGINT\n"
    assert out.exists()  # what it made before the Ctrl-C


def test_what_a_module_reads_as_it_loads_makes_a_real_process():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    for command, kwargs in (
        ([*COMMAND, "--version"], {"env": env}),
        ([sys.executable, "-c", "pass"], {}),
        ([*COMMAND, "--version"], {"preexec_fn": os.getpid}),
    ):
        process = forked_cli.Popen(command, stdout=subprocess.DEVNULL, **kwargs)
        assert process._connection is None and process.wait(timeout=60) == 0, command
    process = forked_cli.Popen([*COMMAND, "--version"], stdout=subprocess.DEVNULL)
    assert process._connection is not None and process.wait(timeout=60) == 0


def test_a_shim_runs_the_real_script_where_a_variable_read_at_import_differs(tmp_path):
    """The server judges (it knows its own environment): a shim's own is the command's.  A real
    Python runs ``sitecustomize`` on ``PYTHONPATH`` as it starts; a forked command never starts."""
    marker = tmp_path / "started"
    site = "import os\nopen(os.environ['MARKER'], 'a').write('real\\n')\n"
    shim = forked_cli.shim_folder(tmp_path / "bin", os.environ["PATH"])
    for variables, expected in (({}, ""), (sitecustomize_env(tmp_path, site), "real\n")):
        env = {**os.environ, **variables, **shim, "MARKER": str(marker)}
        done = subprocess.run(["deap-sudoku", "--version"], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.startswith("deap-sudoku"), done.stderr
        assert (marker.read_text() if marker.exists() else "") == expected, variables
