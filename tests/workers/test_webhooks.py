"""Webhooks against a local receiver that fails its first attempts: signed, retried with
backoff by an injected clock (no sleeping), delivered exactly once; the daily digest; the
real beat task on a real Redis."""

from __future__ import annotations

import http.server
import json
import threading
from datetime import UTC, datetime

import pytest

from events.notifications import Notification, NotificationStore
from workers import notify
from workers.notify import (
    DELIVERY,
    MAX_ATTEMPTS,
    SIGNATURE,
    BadWebhook,
    Webhooks,
    backoff_ms,
    check_url,
    secret_for,
    verify,
)

KEY = "server-secret-key"
NOW = round(datetime(2025, 3, 1, 9, 0, tzinfo=UTC).timestamp() * 1000)


class Receiver:
    """An HTTP server on 127.0.0.1 that answers 500 to its first ``fail`` requests."""

    def __init__(self, fail: int = 0) -> None:
        self.fail = fail
        self.received: list[tuple[dict[str, str], bytes, int]] = []
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                status = 500 if len(receiver.received) < receiver.fail else 204
                receiver.received.append((dict(self.headers), body, status))
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def delivered(self) -> list[tuple[dict[str, str], bytes, int]]:
        return [r for r in self.received if r[2] < 300]


@pytest.fixture
def receiver():
    made: list[Receiver] = []

    def make(fail: int = 0) -> Receiver:
        made.append(Receiver(fail))
        return made[-1]

    yield make
    for r in made:
        r.close()


def hook(url, digest="off", hour=0):
    return {"url": url, "base": "https://bingfa.example", "digest": digest,
            "digest_hour": hour, "nonce": "nonce-1"}  # fmt: skip


def note(i=1, player="P1", at="2025-03-01T09:00:00.000Z"):
    text = f"Your turn in game g{i} (Blue) against Red."
    return Notification(f"turn:g{i}:blue:9", "turn", f"g{i}", "blue", player, text,
                        f"/g/g{i}/blue", at)  # fmt: skip


def test_a_delivery_that_fails_twice_arrives_once_after_backoff(redis_client, receiver):
    r = receiver(fail=2)
    store = NotificationStore(redis_client)
    store.set_webhook("P1", hook(r.url), NOW)
    assert store.add(note(), NOW) == (1, True)
    assert store.add(note(), NOW) == (0, False)  # the same id again: nothing queued
    hooks = Webhooks(store, KEY, allow_local=True)
    now = NOW
    assert hooks.sweep_outbox(now) == {"sent": 0, "retry": 1, "given_up": 0}
    assert hooks.sweep_outbox(now + backoff_ms(1) - 1)["retry"] == 0  # not due yet
    now += backoff_ms(1)
    assert hooks.sweep_outbox(now) == {"sent": 0, "retry": 1, "given_up": 0}
    assert backoff_ms(2) == 3 * backoff_ms(1) == 30_000
    now += backoff_ms(2)
    assert hooks.sweep_outbox(now) == {"sent": 1, "retry": 0, "given_up": 0}
    for later in (now, now + 10**6, now + 10**9):
        assert hooks.sweep_outbox(later) == {"sent": 0, "retry": 0, "given_up": 0}
    assert [status for _, _, status in r.received] == [500, 500, 204]
    [(headers, body, _)] = r.delivered
    assert headers[DELIVERY] == "turn:g1:blue:9"
    assert {h[DELIVERY] for h, _, _ in r.received} == {"turn:g1:blue:9"}
    secret = secret_for(KEY, "P1", "nonce-1")
    assert verify(secret, body, headers[SIGNATURE], now // 1000)
    assert not verify(secret, body + b" ", headers[SIGNATURE], now // 1000)
    assert not verify("whsec_other", body, headers[SIGNATURE], now // 1000)
    assert not verify(secret, body, headers[SIGNATURE], now // 1000 + 3600)  # too old
    assert json.loads(body) == {
        "id": "turn:g1:blue:9", "kind": "turn", "game": "g1", "seat": "blue",
        "text": "Your turn in game g1 (Blue) against Red.",
        "url": "https://bingfa.example/g/g1/blue", "at": "2025-03-01T09:00:00.000Z",
        # the text in the player's language too (no profile language here: English)
        "said": "Your turn in game g1 (Blue) against Red.", "lang": "en",
    }  # fmt: skip
    assert store.outbox_size() == 0
    assert store.deliveries("P1")[0]["result"] == "sent"
    assert store.deliveries("P1")[0]["attempts"] == 3


def test_two_sweeps_at_once_send_a_delivery_once(redis_client, receiver):
    r = receiver()
    store = NotificationStore(redis_client)
    store.set_webhook("P1", hook(r.url), NOW)
    for i in range(6):
        store.add(note(i), NOW)
    assert store.claim(NOW, 60_000, limit=2) and store.claim(NOW, 60_000, limit=10)
    assert store.claim(NOW, 60_000) == []  # all taken: a second sweep finds nothing
    later = NOW + 60_000  # the leases are over (as if both sweeps had died)
    hooks = Webhooks(store, KEY, allow_local=True)
    results: list[dict] = []
    threads = [threading.Thread(target=lambda: results.append(hooks.sweep_outbox(later)))
               for _ in range(4)]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(res["sent"] for res in results) == 6
    assert sorted(h[DELIVERY] for h, _, _ in r.received) == [f"turn:g{i}:blue:9" for i in range(6)]


def test_a_receiver_that_never_answers_is_given_up_after_the_last_attempt(redis_client):
    store = NotificationStore(redis_client)
    store.set_webhook("P1", hook("http://127.0.0.1:9/closed"), NOW)  # nothing listens there
    store.add(note(), NOW)
    hooks = Webhooks(store, KEY, allow_local=True)
    now, tries = NOW, 0
    while store.outbox_size():
        counts = hooks.sweep_outbox(now)
        tries += counts["retry"] + counts["given_up"]
        now += backoff_ms(max(tries, 1))
    assert tries == MAX_ATTEMPTS
    last = store.deliveries("P1")[0]
    assert last["result"] == "given up" and last["status"] is None
    assert "no answer" in last["detail"]


def test_a_private_address_is_refused_unless_allowed(redis_client, receiver):
    r = receiver()
    store = NotificationStore(redis_client)
    store.set_webhook("P1", hook(r.url), NOW)
    store.add(note(), NOW)
    hooks = Webhooks(store, KEY, allow_local=False)  # checked again at delivery
    assert hooks.sweep_outbox(NOW)["retry"] == 1 and r.received == []
    assert "private or local" in store.delivery("P1", "turn:g1:blue:9")["last"]


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("ftp://example.com/x", "http:// or https://"),
        ("example.com/hook", "http:// or https://"),
        ("https:///path", "no host"),
        ("http://user:pw@example.com/", "user name"),
        ("http://127.0.0.1:8000/", "private or local"),
        ("http://10.1.2.3/", "private or local"),
        ("http://[::1]/", "private or local"),
        ("http://169.254.169.254/latest", "private or local"),
        ("http://localhost:5000/", "local name"),
        ("http://printer.local/", "local name"),
        ("https://example.com:port/", "port"),
        (42, "is a URL"),
    ],
)
def test_a_url_that_cannot_be_a_webhook_says_why(url, words):
    with pytest.raises(BadWebhook, match=words):
        check_url(url)


def test_a_public_url_or_a_local_one_when_allowed_is_accepted():
    assert check_url(" https://example.com/bingfa ") == "https://example.com/bingfa"
    assert check_url("http://93.184.216.34/x") == "http://93.184.216.34/x"
    assert check_url("http://127.0.0.1:8000/x", allow_local=True) == "http://127.0.0.1:8000/x"


def test_the_daily_digest_comes_once_a_day_at_its_hour(redis_client, receiver):
    r = receiver()
    store = NotificationStore(redis_client)
    h = 3600_000
    store.add(note(0), NOW)  # before the digest was chosen: not in it
    store.set_webhook("P1", hook(r.url, digest="daily", hour=18), NOW)  # 09:00 now
    hooks = Webhooks(store, KEY, allow_local=True)
    for i in (1, 2):
        assert store.add(note(i), NOW + i * h) == (i + 1, False)  # not sent one by one
    for at in (NOW, NOW + 8 * h, NOW + 9 * h - 1):  # until 18:00
        assert hooks.sweep_digests(at) == [] and hooks.sweep_outbox(at)["sent"] == 0
    six = NOW + 9 * h
    assert hooks.sweep_digests(six + 5000) == ["P1"]
    assert hooks.sweep_digests(six + 5000) == []  # a second sweep at once: no second digest
    assert hooks.sweep_outbox(six + 5000)["sent"] == 1
    assert hooks.sweep_digests(six + 3 * h) == []
    [(headers, body, _)] = r.delivered
    digest = json.loads(body)
    assert digest["kind"] == "digest" and headers[DELIVERY] == "digest:2025-03-01"
    assert [i["game"] for i in digest["items"]] == ["g1", "g2"]
    assert digest["text"] == "Your Bingfa day: 2 notifications."
    # The next day: nothing new, no digest; the day after, only what is new (and unread).
    assert hooks.sweep_digests(six + 24 * h) == []
    store.add(note(3), six + 30 * h)
    store.add(note(4), six + 31 * h)
    store.mark_read("P1", store.last_seq("P1") - 1)  # g3 was read on the site
    assert hooks.sweep_digests(six + 48 * h) == ["P1"]
    hooks.sweep_outbox(six + 48 * h)
    assert [i["game"] for i in json.loads(r.delivered[-1][1])["items"]] == ["g4"]
    assert len(r.delivered) == 2


def test_the_beat_task_sends_the_outbox_on_a_real_redis(redis_client, redis_url, receiver,
                                                        monkeypatch):  # fmt: skip
    from events.redis_store import RedisEventStore
    from events.writepath import WritePath
    from workers import bootstrap
    from workers.celery_app import NOTIFY_QUEUE, SWEEP_WEBHOOKS, make_celery
    from workers.tasks import sweep_webhooks

    r = receiver(fail=1)
    store = NotificationStore(redis_client)
    store.set_webhook("P1", hook(r.url), NOW)
    store.add(note(), NOW)  # due long ago: the task's clock is the real one
    monkeypatch.setenv("SECRET_KEY", KEY)
    monkeypatch.setenv("BINGFA_WEBHOOK_ALLOW_LOCAL", "1")
    bootstrap.use(WritePath(RedisEventStore(redis_client)))
    try:
        assert sweep_webhooks.run()["retry"] == 1
        assert sweep_webhooks.run()["sent"] == 0  # its retry is 10 s away
        # Its retry comes due (moved back, as the clock cannot be driven inside the task):
        store.retry_at("P1", "turn:g1:blue:9", store.delivery("P1", "turn:g1:blue:9"), 0)
        assert sweep_webhooks.run()["sent"] == 1
        assert sweep_webhooks.run() == {"sent": 0, "retry": 0, "given_up": 0, "digests": 0}
    finally:
        bootstrap.reset()
    assert len(r.delivered) == 1
    app = make_celery({"broker_url": "memory://"})
    schedule = {e["task"]: e["schedule"] for e in app.conf.beat_schedule.values()}
    assert schedule[SWEEP_WEBHOOKS] <= 10
    assert app.conf.task_routes[SWEEP_WEBHOOKS] == {"queue": NOTIFY_QUEUE}


def test_without_a_secret_key_the_sweep_sends_nothing(redis_client):
    store = NotificationStore(redis_client)
    with pytest.raises(RuntimeError, match="SECRET_KEY"):
        notify.sweep(store, {}, NOW)
