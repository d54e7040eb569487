"""/healthz and /readyz (service.health): ready over a working store, 503 saying why not."""

from __future__ import annotations

import time

import fakeredis
import pytest

from events.projector_process import ensure_groups
from events.redis_store import RedisEventStore, feed_key
from events.store import InMemoryEventStore
from service import create_app


class Down:
    """A Redis client that is down: every command fails as a refused connection would."""

    def ping(self):
        import redis

        raise redis.ConnectionError("Connection refused (secret-host:6379)")

    def pipeline(self, **_):
        return self


def make_app(**config):
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, **config})  # fmt: skip


def test_healthz_answers_without_the_store():
    app = make_app()
    app.extensions["health_probes"]["store"] = Down()  # not even asked
    response = app.test_client().get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_ready_over_the_in_memory_store():
    response = make_app().test_client().get("/readyz")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["status"] == "ready" and body["failed"] == []
    assert body["checks"]["store"] == {"ok": True}


def test_not_ready_when_the_stores_redis_fails():
    app = make_app()
    app.extensions["health_probes"]["store"] = Down()
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    assert response.headers["Retry-After"].isdigit()
    body = response.get_json()
    assert body["failed"] == ["store"]
    assert "ConnectionError" in body["checks"]["store"]["reason"]
    assert "secret-host" not in response.get_data(as_text=True)  # the kind, never the text


def test_not_ready_when_the_broker_fails():
    app = make_app(HEALTH_BROKER=Down())
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    body = response.get_json()
    assert body["failed"] == ["broker"]
    assert "broker" in body["checks"]["broker"]["reason"]


def test_a_working_broker_is_checked_and_ready():
    response = make_app(HEALTH_BROKER=fakeredis.FakeRedis()).test_client().get("/readyz")
    assert response.status_code == 200
    assert response.get_json()["checks"]["broker"] == {"ok": True}


@pytest.fixture
def projected():
    client = fakeredis.FakeRedis()
    store = RedisEventStore(client, partitions=4)
    ensure_groups(client, 4)
    app = create_app({"STORE": store, "REDIS": client, "TESTING": True,
                      "READY_PROJECTOR": True, "READY_MAX_LAG": 3})  # fmt: skip
    return app, client


def test_ready_while_the_projector_keeps_up(projected):
    app, client = projected
    for n in range(3):
        client.xadd(feed_key(1), {"game": "g", "seq": n + 1})
    response = app.test_client().get("/readyz")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["checks"]["projector"] == {"ok": True, "lag": 3, "max_lag": 3}


def test_lag_over_the_bound_names_the_projector(projected):
    app, client = projected
    for n in range(4):
        client.xadd(feed_key(2), {"game": "g", "seq": n + 1})
    client.xreadgroup("projectors", "c", {feed_key(2): ">"}, count=2)  # delivered, unacked
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    body = response.get_json()
    assert body["failed"] == ["projector"]
    check = body["checks"]["projector"]
    assert check["lag"] == 4 and check["max_lag"] == 3
    assert "projector is 4 entries behind" in check["reason"]
    assert "partition 2" in check["reason"]


def test_not_ready_before_the_projector_made_its_groups():
    client = fakeredis.FakeRedis()
    app = create_app({"STORE": RedisEventStore(client, partitions=2), "REDIS": client,
                      "TESTING": True, "READY_PROJECTOR": True})  # fmt: skip
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    assert "has not started" in response.get_json()["checks"]["projector"]["reason"]


def test_probes_answer_any_host():
    app = make_app()
    for path in ("/healthz", "/readyz"):
        response = app.test_client().get(path, headers={"Host": "10.0.0.7:8000"})
        assert response.status_code == 200, path
    assert app.test_client().get("/api/kinds", headers={"Host": "10.0.0.7"}).status_code == 400


def test_over_a_real_redis_url(redis_url, redis_client):
    """Production's wiring: probes of their own on REDIS_URL, the broker defaulting to it,
    the projector's groups read from the feeds."""
    app = create_app({"REDIS_URL": redis_url, "BINGFA_PARTITIONS": 2, "TESTING": True})
    client = app.test_client()
    body = client.get("/readyz").get_json()
    assert body["failed"] == ["projector"]  # no projector has started yet
    assert body["checks"]["store"] == {"ok": True} and body["checks"]["broker"] == {"ok": True}
    ensure_groups(redis_client, 2)
    response = client.get("/readyz")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["checks"]["projector"]["lag"] == 0


@pytest.fixture
def serve():
    """Serve an app on a free loopback port; yields a function app -> base URL."""
    import threading

    from werkzeug.serving import make_server

    servers = []

    def start(app):
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.port}/"

    yield start
    for server in servers:
        server.shutdown()


def test_bingfa_up_waits_for_readyz(serve):
    """`bingfa up` announces the URL only once /readyz says ready, and says why not."""
    from service.cli import ready_or_why

    assert ready_or_why(serve(make_app()) + "readyz") is None
    unready = make_app()
    unready.extensions["health_probes"]["store"] = Down()
    why = ready_or_why(serve(unready) + "readyz")
    assert why is not None and "event store's Redis did not answer" in why
    assert ready_or_why("http://127.0.0.1:9/readyz") == "the web process does not answer"


def test_reasons_are_said_in_the_asked_language():
    app = make_app()
    app.extensions["health_probes"]["store"] = Down()
    response = app.test_client().get("/readyz", headers={"Accept-Language": "ko"})
    reason = response.get_json()["checks"]["store"]["reason"]
    assert reason == "이벤트 저장소의 Redis가 응답하지 않았습니다: ConnectionError"


def test_watch_web_announces_only_once_ready(serve):
    import threading

    from rich.console import Console

    from service.cli import watch_web

    app = make_app()
    store = app.extensions["health_probes"]["store"]
    app.extensions["health_probes"]["store"] = Down()
    console = Console(record=True, width=300)
    done = threading.Event()
    watcher = threading.Thread(target=watch_web, args=(serve(app), done, console, 0.0))
    watcher.start()
    try:
        deadline = time.monotonic() + 10
        while "not ready" not in console.export_text(clear=False):
            assert time.monotonic() < deadline, "no word of waiting"
            done.wait(0.05)
        assert "Bingfa is running" not in console.export_text(clear=False)
        app.extensions["health_probes"]["store"] = store  # Redis is back
        watcher.join(10)
        assert not watcher.is_alive()
    finally:
        done.set()
    text = console.export_text()
    assert "event store's Redis did not answer" in text and "Bingfa is running" in text
