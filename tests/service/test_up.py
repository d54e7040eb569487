"""`bingfa up` end to end: the real processes (gunicorn, Celery worker and beat, the projector,
the bundled redis-server), started as a subprocess and stopped the way a terminal's Ctrl-C
does (SIGINT to the whole foreground process group). Every wait polls with a deadline.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

from events.embedded import free_port

BINGFA = Path(sys.executable).parent / "bingfa"
START_TIMEOUT = 60
STOP_TIMEOUT = 20


class Up:
    """A running `bingfa up`, its log in a file (a pipe could fill up and block it)."""

    def __init__(self, tmp_path: Path, env: dict[str, str], port: int | None = None) -> None:
        self.data = tmp_path / "data"
        self.port = port or free_port()
        self.log_path = tmp_path / "up.log"
        self.log_file = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [str(BINGFA), "up", "--data", str(self.data), "--port", str(self.port)],
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # its own process group, as a terminal gives a command
        )
        self.seen: list[psutil.Process] = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, what: str, check: Callable[[], object], timeout: float = START_TIMEOUT):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            result = check()
            if result:
                return result
            if self.process.poll() is not None:
                pytest.fail(f"bingfa up exited ({self.process.returncode}) before {what}:\n"
                            f"{self.log()[-5000:]}")  # fmt: skip
            time.sleep(0.2)
        pytest.fail(f"no {what} within {timeout} s:\n{self.log()[-5000:]}")

    def descendants(self) -> list[psutil.Process]:
        try:
            found = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        known = {p.pid for p in self.seen}
        self.seen += [p for p in found if p.pid not in known]
        return found

    def ctrl_c(self) -> int:
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            return self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"bingfa up did not stop within {STOP_TIMEOUT} s:\n{self.log()[-5000:]}")

    def left_over(self, timeout: float = 10) -> list[str]:
        deadline = time.monotonic() + timeout
        while True:
            alive = [p for p in self.seen if running(p)]
            if not alive or time.monotonic() > deadline:
                return [describe(p) for p in alive]
            time.sleep(0.2)

    def cleanup(self) -> None:
        """After a failure: kill what this test started, and nothing else."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        for p in self.seen:
            if running(p):
                with contextlib.suppress(psutil.NoSuchProcess):
                    p.kill()
        self.log_file.close()


def running(p: psutil.Process) -> bool:
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def describe(p: psutil.Process) -> str:
    try:
        return f"{p.pid} {' '.join(p.cmdline())}"
    except psutil.Error:
        return str(p.pid)


def command_lines(processes: list[psutil.Process]) -> list[str]:
    lines = []
    for p in processes:
        with contextlib.suppress(psutil.Error):
            lines.append(" ".join(p.cmdline()))
    return lines


def kinds(processes: list[psutil.Process]) -> set[str]:
    found = set()
    for line in command_lines(processes):
        if "redis-server" in line:
            found.add("redis-server")
        if "gunicorn" in line:
            found.add("web")
        if "celery" in line and " worker" in line:  # one pool per queue (the Procfile's)
            queue = re.search(r"-Q (\S+)", line)
            found.add({"ai": "worker"}.get(queue.group(1), queue.group(1)) if queue else "worker")
        if "celery" in line and " beat" in line:
            found.add("beat")
        if "events.projector_process" in line:
            found.add("projector")
    return found


def request(method: str, url: str, body: dict | None = None) -> tuple[int, dict | None]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=5) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def answers(url: str) -> bool:
    try:
        return request("GET", url)[0] == 200
    except OSError:
        return False


def env_without_redis() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("REDIS_URL", "CELERY_BROKER_URL", "SECRET_KEY", "GUNICORN_CMD_ARGS"):
        env.pop(name, None)
    return env


def test_up_runs_everything_on_the_bundled_redis_and_stops_cleanly_on_ctrl_c(tmp_path):
    from events.readmodels import ReadModels
    from events.redis_store import connect

    up = Up(tmp_path, env_without_redis())
    try:
        up.wait_for("answer from the API", lambda: answers(f"{up.base}/api/openapi.json"))
        up.wait_for("URL printed", lambda: f"open http://127.0.0.1:{up.port}/" in up.log())
        status, ready = request("GET", f"{up.base}/readyz")  # printed once ready (service.health)
        assert status == 200 and ready["status"] == "ready", ready
        found = re.search(r"bundled redis-server at (redis://\S+)", up.log())
        assert found, up.log()
        store_url = found.group(1)
        assert store_url.endswith("/0")
        up.wait_for("Celery worker ready", lambda: re.search(r"ai@\S+ ready", up.log()))
        up.wait_for("projector consuming", lambda: "partition feeds" in up.log())
        up.wait_for("beat started", lambda: "beat: Starting" in up.log())
        everything = {"redis-server", "web", "worker", "analysis", "notify", "beat", "projector"}
        up.wait_for("every process", lambda: kinds(up.descendants()) >= everything)

        # An all-AI game: the web writes it to the bundled Redis and queues the AI's move on
        # the broker (db 1); the worker plays it; the projector keeps its read model up.
        status, created = request(
            "POST", f"{up.base}/api/games", {"seats": {"blue": "ai:random", "red": "ai:random"}}
        )
        assert status == 201, created
        game_id, version = created["game_id"], created["version"]
        up.wait_for(
            "an AI move",
            lambda: request("GET", f"{up.base}/api/games/{game_id}")[1]["version"] > version,
        )
        client = connect(store_url)
        try:
            models = ReadModels(client, 16)
            up.wait_for("the game projected", lambda: models.position(game_id) > 0)
        finally:
            client.close()

        # Every process writes its metrics to one folder and the web adds them up: the
        # projector's lag and the worker's AI move reach /metrics from other processes.
        assert list((up.data / "metrics").glob("*.db"))
        up.wait_for("the other processes' metrics", lambda: all(
            name in urllib.request.urlopen(f"{up.base}/metrics").read().decode()
            for name in ("bingfa_projector_lag_seconds{", 'task="ai_move"',
                         'bingfa_queue_depth{queue="ai"}')))  # fmt: skip

        key = up.data / "secret_key"
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
        assert len(key.read_text().strip()) >= 32
        assert (up.data / "redis" / "appendonly.aof").exists() or list(
            (up.data / "redis").glob("appendonly*")
        )
        up.descendants()  # everything started so far, gunicorn and celery pool children too

        assert up.ctrl_c() == 0, up.log()[-5000:]
        assert "everything stopped cleanly" in up.log()
        assert up.left_over() == [], up.log()[-5000:]
    finally:
        up.cleanup()


def test_the_secret_key_is_kept_across_restarts(tmp_path):
    from service.cli import load_secret_key

    first = load_secret_key(tmp_path)
    assert load_secret_key(tmp_path) == first
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
    (tmp_path / "secret_key").chmod(0o644)
    assert load_secret_key(tmp_path) == first
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600


def test_up_with_redis_url_starts_no_redis_of_its_own(
    tmp_path, redis_url, redis_client, broker_url
):
    from events.redis_store import RedisEventStore

    env = env_without_redis()
    env.update(REDIS_URL=redis_url, CELERY_BROKER_URL=broker_url)
    up = Up(tmp_path, env)
    try:
        up.wait_for("answer from the API", lambda: answers(f"{up.base}/api/openapi.json"))
        up.wait_for("Celery worker ready", lambda: re.search(r"ai@\S+ ready", up.log()))
        up.wait_for(
            "every process",
            lambda: (
                kinds(up.descendants())
                >= {"web", "worker", "analysis", "notify", "beat", "projector"}
            ),
        )
        assert "redis-server" not in kinds(up.descendants())
        assert "REDIS_URL from the environment" in up.log()
        assert "bundled redis-server" not in up.log()
        assert not (up.data / "redis").exists()

        status, created = request("POST", f"{up.base}/api/games", {})
        assert status == 201, created
        store = RedisEventStore(redis_client)
        assert store.version(created["game_id"]) == created["version"] > 0

        assert up.ctrl_c() == 0, up.log()[-5000:]
        assert up.left_over() == [], up.log()[-5000:]
    finally:
        up.cleanup()


def test_up_refuses_a_port_in_use_and_starts_nothing(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        up = Up(tmp_path, env_without_redis(), port=port)
        try:
            assert up.process.wait(30) == 1
            assert f"port {port} is in use" in up.log()
            assert not (up.data / "redis").exists()
        finally:
            up.cleanup()
