"""Live streams as the web process serves them (gunicorn's gevent workers, the event
store's Redis): waiting streams hold no request slot, a move reaches them through the
hub without polling, a client that hangs up frees its stream at once, and a client
holds at most so many streams.

Every wait has a deadline (a hung server fails the test, it does not hang it); nothing
here asserts how fast anything is (``python -m bench.http`` measures that).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from events.embedded import free_port
from service.live import LocalHub, StreamSlots

ROOT = Path(__file__).resolve().parents[2]


def until(check, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    pytest.fail(f"no {what} within {timeout} s")


@pytest.fixture
def web(redis_url, redis_client, tmp_path):
    """gunicorn with the Procfile's settings (one gevent worker), on the test Redis."""
    port = free_port()
    log = tmp_path / "web.log"
    env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(port), "WEB_CONCURRENCY": "1",
           "BINGFA_STREAMS_PER_CLIENT": "40", "BINGFA_RATELIMIT_WRITES": "1000 per second",
           "GUNICORN_CMD_ARGS": "--no-control-socket"}  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c",
                                    "python:service.gunicorn_conf"], cwd=ROOT, env=env,
                                   stdout=out, stderr=subprocess.STDOUT)  # fmt: skip

    def answers():
        try:
            return call(port, "GET", "/api/lobby")[0] == 200
        except OSError:
            return process.poll() is not None and pytest.fail(log.read_text()[-3000:])

    try:
        until(answers, 30, "answer from gunicorn")
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def call(port, method, path, body=None, token=None, timeout=10.0):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers=headers)  # fmt: skip
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def started(port):
    status, raw = call(port, "POST", "/api/games", {"options": {"events": True}})
    assert status == 201, raw
    created = json.loads(raw)
    tokens = {seat: link["token"] for seat, link in created["seats"].items()}
    for token in tokens.values():
        assert call(port, "POST", f"/api/games/{created['game_id']}/join", {}, token)[0] == 200
    return created["game_id"], tokens


def open_stream(port, game_id):
    """A raw connection holding ``GET …/stream`` open, its headers read."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /api/games/{game_id}/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 "\r\n".encode())  # fmt: skip
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, "the stream closed before its headers"
        head += chunk
    return sock, head


def slots_held(redis_client):
    return redis_client.zcard(StreamSlots.key("127.0.0.1"))


def test_waiting_streams_hold_no_request_slot_and_a_move_reaches_them(web, redis_client):
    game_id, tokens = started(web)
    streams = [open_stream(web, game_id) for _ in range(30)]
    try:
        assert all(head.startswith(b"HTTP/1.1 200") for _, head in streams)
        until(lambda: slots_held(redis_client) == 30, 10, "30 streams held")
        # one worker holds 30 open streams, and still answers everyone else
        for _ in range(20):
            assert call(web, "GET", "/api/lobby", timeout=5)[0] == 200
        # a move reaches every stream through the hub (the heartbeat is 15 s away)
        sent, _ = call(web, "POST", f"/api/games/{game_id}/commands",
                       {"command": {"type": "resign"}}, tokens["blue"])  # fmt: skip
        assert sent == 201
        for sock, head in streams:
            got = head
            deadline = time.monotonic() + 10
            while b"seed_revealed" not in got and time.monotonic() < deadline:
                got += sock.recv(65536)
            assert b"event: game" in got and b"seed_revealed" in got
    finally:
        for sock, _ in streams:
            sock.close()


def test_a_client_that_hangs_up_frees_its_stream_at_once(web, redis_client):
    game_id, _ = started(web)
    sock, _ = open_stream(web, game_id)
    until(lambda: slots_held(redis_client) == 1, 10, "the stream held")
    sock.close()
    # not at the next heartbeat (15 s) or the stream's end (300 s): now
    until(lambda: slots_held(redis_client) == 0, 3, "the stream freed after the hang-up")


def test_a_client_holds_at_most_so_many_streams(web, redis_client):
    game_id, _ = started(web)
    streams = [open_stream(web, game_id) for _ in range(40)]
    try:
        extra, head = open_stream(web, game_id)
        with contextlib.closing(extra):
            assert head.startswith(b"HTTP/1.1 429"), head[:200]
            body = head.split(b"\r\n\r\n", 1)[1]
            while body.count(b"}") < 1:
                body += extra.recv(4096)
            assert b"40 live streams open already" in body
    finally:
        for sock, _ in streams:
            sock.close()
    until(lambda: slots_held(redis_client) == 0, 5, "every stream freed")
    fresh, head = open_stream(web, game_id)  # room again
    fresh.close()
    assert head.startswith(b"HTTP/1.1 200")


# -- the parts, in one process ----------------------------------------------------------------
def test_the_local_hub_wakes_the_watchers_of_a_channel_only():
    hub = LocalHub()
    with hub.watch("g:a") as a, hub.watch("g:b") as b:
        assert a.ready.is_set() and hub.watched() == 2
        hub.publish("g:a")
        assert a.wait(1.0) and not b.wait(0.05)
    assert hub.watched() == 0


def test_slots_are_leases_per_client_given_back_or_lapsing():
    slots = StreamSlots(cap=2, lease_ms=50)
    first, second = slots.take("1.2.3.4"), slots.take("1.2.3.4")
    assert first and second and slots.take("1.2.3.4") is None
    assert slots.take("5.6.7.8")  # another client has its own
    slots.give_back("1.2.3.4", first)
    third = slots.take("1.2.3.4")
    assert third and slots.take("1.2.3.4") is None
    time.sleep(0.06)  # leases not renewed (a process that died) lapse
    assert slots.take("1.2.3.4")


def test_redis_slots_count_for_every_process_together(redis_client):
    one = StreamSlots(cap=2, lease_ms=10_000, client=redis_client)
    two = StreamSlots(cap=2, lease_ms=10_000, client=redis.Redis(
        connection_pool=redis_client.connection_pool))  # fmt: skip
    assert one.take("9.9.9.9") and two.take("9.9.9.9")
    assert one.take("9.9.9.9") is None and two.take("9.9.9.9") is None
