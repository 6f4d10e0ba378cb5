"""A cluster on the loopback interface, for the ssh tests: an sshd of its own on 127.0.0.1 and
127.0.0.2 at a free port, with a throw-away host key and user key, and an ``ssh`` first on PATH that
reads this cluster's client configuration (port, key, the alias ``node-b`` for 127.0.0.2), so SCOOP's
ssh finds it and the user's ``~/.ssh`` is never read or changed.  Where this machine allows it
(root), the sshd runs in UTS and mount namespaces of its own: what it starts sees the host name
``node-b``, which resolves there, as on another machine (a command that ran there knows it is not
on the starter's machine).

Every Python process started with :attr:`Cluster.env` imports a ``sitecustomize`` that, in a process
started by this sshd (``SSH_CONNECTION`` names its port), writes a marker file per run it makes: the
proof that a worker really ran over ssh.  With ``DEAP_SUDOKU_TEST_WAIT_FOR_SSH=N``, a process started
here holds each run until more than N markers exist (30 s at most in all): on a fast machine this machine's
workers made every run before a worker over ssh had started."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"
ALIAS = "node-b"
"""A host name that only this cluster's ssh knows (127.0.0.2): no /etc/hosts entry is needed."""

MARKER = """
import os
_connection = os.environ.get("SSH_CONNECTION", "").split()
if len(_connection) == 4 and _connection[3] == "{port}":
    import deap_sudoku.runs.task as _task

    _run = _task.run_task

    def run_task(task, *args, **kwargs):
        with open(os.path.join({markers!r}, f"{{os.getpid()}}-{{task.index}}-{{task.seed}}"), "w") as handle:
            handle.write(" ".join(_connection))
        return _run(task, *args, **kwargs)

    _task.run_task = run_task
elif os.environ.get("DEAP_SUDOKU_TEST_WAIT_FOR_SSH"):
    import time
    import deap_sudoku.runs.task as _task

    _run = _task.run_task

    _deadline = time.monotonic() + 30  # once a process: a host that never starts costs 30 s, not 30 s a run

    def run_task(task, *args, **kwargs):
        before = int(os.environ["DEAP_SUDOKU_TEST_WAIT_FOR_SSH"])
        while len(os.listdir({markers!r})) <= before and time.monotonic() < _deadline:
            time.sleep(0.05)
        return _run(task, *args, **kwargs)

    _task.run_task = run_task
"""


@dataclass
class Cluster:
    folder: Path
    port: int
    env: dict[str, str]
    markers: Path
    log: Path
    process: subprocess.Popen
    other_host_name: str | None
    """The host name the processes started over ssh see (None where they share this machine's)."""

    def runs_over_ssh(self) -> list[str]:
        """The marker files: one per run a process started over this sshd made."""
        return sorted(p.name for p in self.markers.iterdir())

    def logins(self) -> int:
        return self.log.read_text(errors="replace").count("Accepted publickey")

    def stop(self) -> None:
        self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)


def unavailable() -> str | None:
    """Why this machine cannot hold the loopback cluster, or None."""
    if not os.path.exists(SSHD) or not shutil.which("ssh") or not shutil.which("ssh-keygen"):
        return "sshd, ssh or ssh-keygen is missing (Debian: apt-get install openssh-server)"
    try:
        with socket.socket() as probe:
            probe.bind(("127.0.0.2", 0))
    except OSError:
        return "127.0.0.2 is not on the loopback interface"
    return None


def _own_host_name_possible() -> bool:
    """Whether this machine can give the other host a host name of its own (UTS and mount namespaces,
    which need root)."""
    if shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "--uts", "--mount", "true"], capture_output=True).returncode == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(folder: Path, pythonpath: str) -> Cluster:
    """sshd on 127.0.0.1 and 127.0.0.2 (foreground, logging to ``folder/sshd.log``), the client side,
    and the environment for the commands: the ssh wrapper first on PATH, ``pythonpath`` after the
    marker's folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for key in ("host_key", "user_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(folder / key)], check=True)
    (folder / "authorized_keys").write_text((folder / "user_key.pub").read_text())
    (folder / "authorized_keys").chmod(0o600)
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation folder
    port = _free_port()
    (folder / "sshd_config").write_text(
        f"ListenAddress 127.0.0.1:{port}\nListenAddress 127.0.0.2:{port}\nHostKey {folder / 'host_key'}\n"
        f"AuthorizedKeysFile {folder / 'authorized_keys'}\nPidFile {folder / 'sshd.pid'}\nStrictModes no\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n"
        "PermitRootLogin prohibit-password\nLogLevel VERBOSE\nPrintMotd no\nPrintLastLog no\n"
        "MaxStartups 100\nMaxSessions 100\n"
        # bash started by sshd reads ~/.bashrc (Debian's build), whose `pyenv init` rehashes under a
        # lock: a session killed meanwhile (a test's kill) left the lock, and every later session
        # waited for it.  bash skips the file when it is not the first shell level.
        "SetEnv SHLVL=1\n"
    )
    (folder / "ssh_config").write_text(
        f"Host {ALIAS}\n  HostName 127.0.0.2\nHost *\n  Port {port}\n  IdentityFile {folder / 'user_key'}\n"
        "  IdentitiesOnly yes\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n"
        "  BatchMode yes\n"
    )
    bin_folder = folder / "bin"
    bin_folder.mkdir(exist_ok=True)
    ssh = bin_folder / "ssh"
    ssh.write_text(f'#!/bin/sh\nexec {shutil.which("ssh")} -F {folder / "ssh_config"} "$@"\n')
    ssh.chmod(0o755)
    markers = folder / "markers"
    markers.mkdir(exist_ok=True)
    site = folder / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(MARKER.format(port=port, markers=str(markers)))
    log = folder / "sshd.log"
    sshd = [SSHD, "-D", "-f", str(folder / "sshd_config"), "-E", str(log)]
    other_host_name = ALIAS if _own_host_name_possible() else None
    if other_host_name:  # the other host's processes see a name of their own, as on another
        # machine, which resolves there (SCOOP warns of a name it cannot resolve, amid the ports it reads)
        hosts = folder / "etc_hosts"
        hosts.write_text(Path("/etc/hosts").read_text() + f"\n127.0.0.2 {ALIAS}\n")
        own = f'hostname {ALIAS} && mount --bind "$0" /etc/hosts && exec "$@"'
        sshd = ["unshare", "--uts", "--mount", "sh", "-c", own, str(hosts), *sshd]
    process = subprocess.Popen(sshd)
    env = {
        **os.environ,
        "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join([str(site), pythonpath]),
    }
    cluster = Cluster(folder, port, env, markers, log, process, other_host_name)
    deadline = time.monotonic() + 10
    while True:  # up when a login works
        probe = subprocess.run([str(ssh), ALIAS, "true"], env=env, capture_output=True, timeout=30)
        if probe.returncode == 0:
            return cluster
        if process.poll() is not None or time.monotonic() > deadline:
            cluster.stop()
            raise RuntimeError(f"sshd did not start: {probe.stderr.decode()} {log.read_text(errors='replace')}")
        time.sleep(0.1)
