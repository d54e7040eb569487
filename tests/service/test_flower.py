"""Flower, Celery's monitor: an optional Procfile process that `bingfa up --flower` adds,
bound to loopback unless FLOWER_ADDRESS says otherwise (it shows every task's arguments)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from honcho.environ import parse_procfile

from service.cli import OPTIONAL, chosen, parser

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = parse_procfile((ROOT / "Procfile").read_text()).processes


def test_flower_runs_only_when_asked_for():
    assert "flower" in PROCESSES and "flower" in OPTIONAL
    assert "flower" not in chosen(PROCESSES)
    assert set(chosen(PROCESSES)) == set(PROCESSES) - {"flower"}
    assert chosen(PROCESSES, flower=True) == PROCESSES
    assert parser().parse_args(["up", "--flower"]).flower is True
    assert parser().parse_args(["up"]).flower is False


def test_the_procfile_binds_flower_to_loopback_by_default():
    line = PROCESSES["flower"]
    assert '--address="${FLOWER_ADDRESS:-127.0.0.1}"' in line
    assert "celery -A workers.celery_app flower" in line


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_flower_answers_on_loopback(broker_url):
    port = free_port()
    env = {**os.environ, "CELERY_BROKER_URL": broker_url, "REDIS_URL": broker_url}
    command = [sys.executable, "-m", "celery", "-A", "workers.celery_app", "flower",
               "--address=127.0.0.1", f"--port={port}"]  # fmt: skip
    flower = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthcheck", timeout=2) as r:
                    assert r.status == 200 and r.read().strip() == b"OK"
                    break
            except OSError:
                assert flower.poll() is None, "Flower exited"
                assert time.monotonic() < deadline, "Flower did not answer within 60 s"
                time.sleep(0.5)
    finally:
        flower.terminate()
        flower.wait(timeout=30)
