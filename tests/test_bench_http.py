"""``python -m bench.http --quick`` run as a user runs it: gunicorn (gevent), Redis, 20 clients,
1,000 live streams.

Needs gunicorn (a project dependency). Redis: ``TEST_REDIS_URL`` if given, else the bench
starts the bundled redis-server itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 180  # seconds; --quick is meant to take under two minutes


FIGURES = {
    "command_rate": r"(\d+) commands/s",
    "trivial_rate": r"(\d+) requests/s",
    "command_p50_ms": r"(\d+\.\d\d) ms",
    "command_ratio_vs_trivial": r"(\d+\.\d+)",
    "command_p99_ms": r"(\d+\.\d) ms",
    "web_worker_rss_mb": r"(\d+\.\d) MB",
    "command_rate_with_streams": r"(\d+) commands/s",
    "command_p99_ms_with_streams": r"(\d+\.\d) ms",
    "sse_idle_streams_held": r"(\d+) streams",
    "command_rate_ratio_with_streams": r"(\d+\.\d+)",
    "commands_per_second": r"(\d+) commands/s",
    "cpu_ms_per_command": r"(\d+\.\d+) ms",
}


def test_quick_http_bench_prints_its_figures_last():
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "BENCH_PROFILE")}
    if os.environ.get("TEST_REDIS_URL"):
        env["REDIS_URL"] = os.environ["TEST_REDIS_URL"]
    done = subprocess.run(
        [sys.executable, "-m", "bench.http", "--quick"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    last = done.stdout.strip().splitlines()[-len(FIGURES) :]
    got = {}
    for line, (name, value) in zip(last, FIGURES.items(), strict=True):
        match = re.fullmatch(f"{name}: {value}", line)
        assert match, (name, last)
        got[name] = float(match[1])
    assert 0 < got["command_ratio_vs_trivial"] < 10
    assert got["command_p99_ms"] > 0 and got["command_p99_ms_with_streams"] > 0
    assert 10 < got["web_worker_rss_mb"] < 4096
    assert got["command_rate_with_streams"] > 0
    assert 0 < got["command_rate_ratio_with_streams"] < 10
    # the lease set is read (some of the streams that follow the clients' games are
    # between two games at any moment; how many depends on the machine's load)
    assert 0 < got["sse_idle_streams_held"] <= 1000
    assert got["commands_per_second"] == got["command_rate"]
    assert 0 < got["cpu_ms_per_command"] < 1000
