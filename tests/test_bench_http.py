"""``python -m bench.http --quick`` run as a user runs it: gunicorn, Redis, 20 clients.

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


def test_quick_http_bench_prints_its_three_figures_last():
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
    last = done.stdout.strip().splitlines()[-3:]
    ratio = re.fullmatch(r"command_ratio_vs_trivial: (\d+\.\d+)", last[0])
    p99 = re.fullmatch(r"command_p99_ms: (\d+\.\d) ms", last[1])
    rss = re.fullmatch(r"web_worker_rss_mb: (\d+\.\d) MB", last[2])
    assert ratio and p99 and rss, last
    assert 0 < float(ratio[1]) < 10
    assert float(p99[1]) > 0
    assert 10 < float(rss[1]) < 4096
