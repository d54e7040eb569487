"""Bingfa's processes as a set a test or a bench controls one by one: each started from its
Procfile line (or a given command), with its own environment and log file, and then
restarted, stopped gracefully, killed with SIGKILL or measured (resident memory of its
whole process tree). The harness of the Redis Cluster deployment test and of
``bench.soak``; ``bingfa up`` is what runs the service for people.

Each process runs in a session of its own (so a stop reaches gunicorn's or Celery's own
children through the process group) and asks the kernel for SIGTERM when this process
dies (``service.pdeath``), so a crashed test or bench leaves nothing behind. For the
kernel, a child's parent is the *thread* that forked it: every process is started from
one thread the stack keeps until it is closed, so a restart made from a short-lived
thread (a bench's disruptions) does not kill what it started when that thread ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from honcho.environ import parse_procfile

from service.pdeath import set_parent_death_signal

PROCFILE = Path(__file__).resolve().parent.parent / "Procfile"


def procfile_commands(path: Path = PROCFILE) -> dict[str, str]:
    """The Procfile's processes by name, their command lines as written."""
    return dict(parse_procfile(path.read_text()).processes)


@dataclass
class Member:
    """One process of the set: its command line (a shell line), environment and log."""

    name: str
    command: str
    env: dict[str, str]
    log: Path
    popen: subprocess.Popen | None = None
    starts: int = 0
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None


class Stack:
    """Processes started in ``folder`` (their logs) with ``env`` as every one's base."""

    def __init__(self, folder: Path, env: dict[str, str] | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        base = dict(os.environ if env is None else env)
        # the Procfile's gunicorn, celery and python are this interpreter's
        bin_dir = str(Path(sys.executable).parent)
        base["PATH"] = bin_dir + os.pathsep + base.get("PATH", "")
        self.env = base
        self.members: dict[str, Member] = {}
        self.procfile = procfile_commands()
        self._spawner = ThreadPoolExecutor(1, thread_name_prefix="stack-spawner")

    def add(self, name: str, kind: str | None = None, command: str | None = None,
            **env: str) -> Member:  # fmt: skip
        """A process named ``name``: the Procfile's ``kind`` line (``name`` by default) or
        ``command``, with ``env`` added to the base environment. Not started yet."""
        line = command if command is not None else self.procfile[kind or name]
        member = Member(name, line, {**self.env, **env}, self.folder / f"{name}.log", extra=env)
        self.members[name] = member
        return member

    def start(self, *names: str) -> None:
        """Start the named processes (all of them if none is named)."""
        for name in names or tuple(self.members):
            member = self.members[name]
            if member.running:
                continue
            member.popen = self._spawner.submit(self._spawn, member).result()
            member.starts += 1

    @staticmethod
    def _spawn(member: Member) -> subprocess.Popen:
        """Runs on the spawner thread (see the module's docstring)."""
        supervisor = os.getpid()
        with member.log.open("ab") as log:
            return subprocess.Popen(
                ["sh", "-c", f"exec {member.command}"],
                env=member.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=lambda: set_parent_death_signal(signal.SIGTERM, parent=supervisor),
            )

    def _signal(self, member: Member, signum: int) -> None:
        if member.popen is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(member.popen.pid, signum)

    def stop(self, name: str, timeout: float = 15) -> int | None:
        """SIGTERM the process's group (a graceful stop: gunicorn finishes its requests, a
        Celery worker its tasks), SIGKILL what is left after ``timeout``; its exit code."""
        member = self.members[name]
        if member.popen is None:
            return None
        self._signal(member, signal.SIGTERM)
        try:
            member.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self._signal(member, signal.SIGKILL)
            member.popen.wait(5)
        self._signal(member, signal.SIGKILL)  # children that outlived their parent
        return member.popen.returncode

    def kill(self, name: str) -> None:
        """``kill -9`` of the process and everything in its group: no cleanup at all."""
        member = self.members[name]
        self._signal(member, signal.SIGKILL)
        if member.popen is not None:
            member.popen.wait(10)

    def restart(self, name: str, timeout: float = 15) -> None:
        self.stop(name, timeout)
        self.start(name)

    def rss_mb(self, *names: str) -> float:
        """Resident memory of the named processes and all their children, in MB."""
        total = 0
        for name in names or tuple(self.members):
            member = self.members[name]
            if not member.running:
                continue
            with contextlib.suppress(psutil.NoSuchProcess):
                root = psutil.Process(member.popen.pid)
                for proc in [root, *root.children(recursive=True)]:
                    with contextlib.suppress(psutil.NoSuchProcess):
                        total += proc.memory_info().rss
        return total / 1e6

    def log_tail(self, name: str, chars: int = 3000) -> str:
        path = self.members[name].log
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""

    def close(self) -> None:
        for name in reversed(tuple(self.members)):
            self.stop(name, timeout=10)
        self._spawner.shutdown()

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def wait_ready(base_url: str, timeout: float = 60, path: str = "/readyz") -> None:
    """Wait until ``base_url + path`` answers 200; RuntimeError with the last answer if not
    within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base_url + path, timeout=2) as answer:
                if answer.status == 200:
                    return
        except urllib.error.HTTPError as error:
            last = f"HTTP {error.code}: {error.read()[:300]!r}"
        except OSError as error:
            last = str(error)
        time.sleep(0.2)
    raise RuntimeError(f"{base_url}{path} not ready after {timeout:.0f} s ({last})")
