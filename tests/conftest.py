"""Shared fixtures: Redis servers for the store tests.

``redis_url``: the Redis given by ``TEST_REDIS_URL``, else the bundled ``redis-server``
started once per session on a free port (AOF on, data in a temporary folder). Each test
that takes ``redis_client`` gets a flushed database.
"""

from __future__ import annotations

import os

import pytest

from events.embedded import start_redis


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
