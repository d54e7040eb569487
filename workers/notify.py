"""Webhooks: checking a URL, the signing secret, signing, and the outbox sweeps.

The projector puts deliveries in the outbox (``events.notifications``); beat's sweep
(``sweep_outbox``, every few seconds, on the ``notify`` queue) sends them, so a move never
waits for anyone's webhook. Each delivery is claimed atomically before it is sent (two
sweeps never send the same one), sent once with a short timeout, and on a failure (not a
2xx answer, a timeout, a refused connection) tried again after 10 s, 30 s, 90 s … until
``MAX_ATTEMPTS``; then it is given up and logged. A sweep that dies mid-send leaves the
delivery claimed until its lease ends, then it is tried again: a receiver may so see a
delivery twice, and drops the repeat by ``X-Bingfa-Delivery``. Everything takes ``now``
in milliseconds, so tests drive time.

The signing secret is never stored: it is derived from the server's ``SECRET_KEY`` and a
random nonce kept with the webhook (``secret_for``), so what Redis holds cannot sign.
Changing ``SECRET_KEY`` changes every secret; the players then register again.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from events import metrics
from events.notifications import (
    DIGEST,
    NOTICES,
    OUTBOX,
    NotificationStore,
    message_json,
    payload,
)
from games.i18n import said
from games.messages import msg, render

TIMEOUT_S = 5.0
MAX_ATTEMPTS = 8
FIRST_RETRY_MS = 10_000  # then three times longer each time: 10 s, 30 s, 90 s … ~2 h
LEASE_MS = 60_000  # a claimed delivery comes back if its sweep has not finished by then
PER_SWEEP = 20  # deliveries one sweep sends at most (the next sweep takes the rest)
MAX_URL = 2000
SIGNATURE = "X-Bingfa-Signature"
DELIVERY = "X-Bingfa-Delivery"
LOCAL_NAMES = ("localhost", ".localhost", ".local", ".internal", ".home.arpa")


class BadWebhook(ValueError):
    """A URL that cannot be a webhook; the message says why, for the player."""


def backoff_ms(attempts: int) -> int:
    """How long to wait after the ``attempts``-th failed try."""
    return FIRST_RETRY_MS * 3 ** (attempts - 1)


# -- the URL ------------------------------------------------------------------------------
def check_url(url: Any, allow_local: bool = False, resolve: bool = False) -> str:
    """The URL, if a webhook may be sent to it: http or https, a host, and (unless
    ``allow_local``) no loopback, private, link-local or otherwise internal address, so
    nobody can make the server call its own network. ``resolve`` also looks the name up
    (at delivery: a name may point inside)."""
    if not isinstance(url, str) or not url.strip():
        raise BadWebhook(said("the webhook is a URL such as https://example.com/bingfa"))
    url = url.strip()
    if len(url) > MAX_URL:
        raise BadWebhook(
            said("the webhook URL is longer than {MAX_URL} characters", MAX_URL=MAX_URL)
        )
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise BadWebhook(said("the webhook URL must start with http:// or https://"))
    if not parts.hostname:
        raise BadWebhook(said("the webhook URL has no host name"))
    if parts.username or parts.password:
        raise BadWebhook(said("the webhook URL may not carry a user name or password"))
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise BadWebhook(said("the webhook URL's port is not a number")) from None
    if allow_local:
        return url
    host = parts.hostname.lower().rstrip(".")
    if host == LOCAL_NAMES[0] or host.endswith(LOCAL_NAMES[1:]):
        raise BadWebhook(
            said("{host} is a local name: webhooks go to public addresses only", host=host)
        )
    addresses = [host] if _is_ip(host) else (_resolve(host, parts.port) if resolve else [])
    for address in addresses:
        if not ipaddress.ip_address(address).is_global:
            raise BadWebhook(
                said(
                    "{host} is a private or local address ({address}): "
                    "webhooks go to public addresses only",
                    host=host,
                    address=address,
                )
            )
    return url


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _resolve(host: str, port: int | None) -> list[str]:
    try:
        found = socket.getaddrinfo(host, port or 443, proto=socket.IPPROTO_TCP)
    except OSError:
        raise BadWebhook(said("the host {host} cannot be found", host=host)) from None
    return sorted({info[4][0].split("%")[0] for info in found})


# -- the secret and the signature -------------------------------------------------------------
def secret_for(server_key: str, player: str, nonce: str) -> str:
    """The signing secret of ``player``'s webhook registered with ``nonce``."""
    mac = hmac.new(server_key.encode(), f"bingfa-webhook:{player}:{nonce}".encode(), "sha256")
    return "whsec_" + mac.hexdigest()


def signature(secret: str, body: bytes, timestamp: int) -> str:
    """``t=<unix time>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`` (as Stripe signs)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify(secret: str, body: bytes, header: str, now_s: int, tolerance_s: int = 300) -> bool:
    """What a receiver does (docs/webhooks.md): the HMAC matches and the time is recent."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        timestamp = int(fields["t"])
    except (KeyError, ValueError):
        return False
    expected = signature(secret, body, timestamp).split("v1=", 1)[1]
    fresh = abs(now_s - timestamp) <= tolerance_s
    return fresh and hmac.compare_digest(expected, fields.get("v1", ""))


# -- sending ------------------------------------------------------------------------------------
class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a redirect is an answer that is not 2xx: a failure, never followed


_opener = urllib.request.build_opener(_NoRedirects)


@dataclass(frozen=True)
class Sent:
    ok: bool
    status: int | None  # the receiver's HTTP status (None: no answer)
    detail: str


def post(url: str, body: bytes, headers: Mapping[str, str], timeout: float = TIMEOUT_S) -> Sent:
    """POST ``body`` to ``url``; ``ok`` for a 2xx answer."""
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "User-Agent": "Bingfa-Webhook/1",
                                              **headers})  # fmt: skip
    try:
        with _opener.open(request, timeout=timeout) as answer:
            return Sent(200 <= answer.status < 300, answer.status, f"HTTP {answer.status}")
    except urllib.error.HTTPError as error:
        return Sent(False, error.code, f"HTTP {error.code}")
    except (urllib.error.URLError, OSError) as error:  # refused, timed out, no such host
        reason = getattr(error, "reason", error)
        return Sent(False, None, f"no answer: {reason}")


Sender = Callable[[str, bytes, Mapping[str, str]], Sent]


@dataclass
class Webhooks:
    """The outbox sweeps over one ``NotificationStore``; ``server_key`` is SECRET_KEY."""

    store: NotificationStore
    server_key: str
    allow_local: bool = False
    send: Sender = post
    # player -> their profile's language (``ProfileStore.language``): each delivery is
    # said in it (``said``, ``lang``), English without one; ``text`` stays English
    language: Callable[[str], str | None] | None = None

    def deliver(self, player: str, hook: Mapping[str, str], record: Mapping[str, Any],
                now_ms: int) -> Sent:  # fmt: skip
        """Sign and send one delivery now (no retry here)."""
        try:
            url = check_url(hook["url"], self.allow_local, resolve=True)
        except BadWebhook as error:
            return Sent(False, None, str(error))
        from events.notices import language_of, told_in

        record = told_in(record, language_of(player, self.language))
        body = json.dumps(payload(record, hook.get("base", "")), separators=(",", ":")).encode()
        secret = secret_for(self.server_key, player, hook["nonce"])
        headers = {SIGNATURE: signature(secret, body, now_ms // 1000), DELIVERY: record["id"]}
        return self.send(url, body, headers)

    def sweep_outbox(self, now_ms: int, limit: int = PER_SWEEP) -> dict[str, int]:
        """Send the deliveries due by ``now_ms``: counts of sent, retried, given up.

        Sending takes time (up to ``TIMEOUT_S`` a delivery), so each claim and each retry
        is timed from ``now_ms`` plus the time the sweep has taken so far, and the sweep
        stops claiming before a claim could outlive its lease while it is still sending
        (another sweep would then take it and send it a second time)."""
        counts = {"sent": 0, "retry": 0, "given_up": 0}
        started = time.monotonic()
        for _ in range(limit):
            spent_ms = int((time.monotonic() - started) * 1000)
            if spent_ms + 2 * TIMEOUT_S * 1000 > LEASE_MS:
                break  # the next sweep takes the rest
            claimed = self.store.claim(now_ms + spent_ms, LEASE_MS)
            if not claimed:
                break
            player, delivery_id = claimed[0]
            outcome = self._one(player, delivery_id, now_ms + spent_ms)
            counts[outcome] += 1
            metrics.WEBHOOKS.labels(outcome).inc()
        return counts

    def _one(self, player: str, delivery_id: str, now_ms: int) -> str:
        record = self.store.delivery(player, delivery_id)
        hook = self.store.webhook(player)
        if record is None:  # finished meanwhile: only its outbox entry was left
            self.store.redis.zrem(OUTBOX, f"{player} {delivery_id}")
            return "given_up"
        if hook is None:  # the webhook was removed meanwhile
            self.store.finish(player, delivery_id, {"id": delivery_id, "result": "dropped"})
            return "given_up"
        attempts = int(record.get("attempts", 0)) + 1
        sent = self.deliver(player, hook, record, now_ms)
        result = {"id": delivery_id, "attempts": attempts, "status": sent.status,
                  "detail": sent.detail, "at_ms": now_ms}  # fmt: skip
        if sent.ok:
            self.store.finish(player, delivery_id, {**result, "result": "sent"})
            return "sent"
        if attempts >= MAX_ATTEMPTS:
            self.store.finish(player, delivery_id, {**result, "result": "given up"})
            return "given_up"
        self.store.retry_at(player, delivery_id, {**record, "attempts": attempts,
                                                  "last": sent.detail},
                            now_ms + backoff_ms(attempts))  # fmt: skip
        return "retry"

    def sweep_digests(self, now_ms: int) -> list[str]:
        """Queue the daily digest of each player whose digest hour has come (one a day,
        of the unread notifications not in a digest yet; none when there are none)."""
        queued = []
        for player in self.store.take_due_digest(now_ms):
            items, upto = self.store.undigested(player)
            if not items:
                continue
            day = time.strftime("%Y-%m-%d", time.gmtime(now_ms // 1000))
            message = (msg("table.notice.digest.one") if len(items) == 1
                       else msg("table.notice.digest", count=len(items)))  # fmt: skip
            record = {"id": f"digest:{day}", "kind": DIGEST, "game": None, "seat": None,
                      "text": render(NOTICES, message), "url": "/", "at": _iso(now_ms),
                      "items": items, "message": message_json(message)}  # fmt: skip
            if self.store.enqueue(player, record["id"], record, now_ms):
                queued.append(player)
            self.store.digested(player, upto)
        return queued

    def ping(self, player: str, now_ms: int) -> Sent:
        """Send a test delivery at once (``POST /api/me/webhook/test``)."""
        hook = self.store.webhook(player)
        if hook is None:
            return Sent(False, None, "no webhook is registered")
        message = msg("table.notice.test")
        record = {"id": f"test:{now_ms}", "kind": "test", "game": None, "seat": None,
                  "text": render(NOTICES, message), "url": "/", "at": _iso(now_ms),
                  "message": message_json(message)}  # fmt: skip
        sent = self.deliver(player, hook, record, now_ms)
        self.store.log(player, {"id": record["id"], "attempts": 1, "status": sent.status,
                                "detail": sent.detail, "at_ms": now_ms,
                                "result": "sent" if sent.ok else "failed"})  # fmt: skip
        return sent


def _iso(now_ms: int) -> str:
    from events.clocks import iso

    return iso(now_ms)


def sweep(store: NotificationStore, environ: Mapping[str, str], now_ms: int,
          send: Sender = post,
          language: Callable[[str], str | None] | None = None) -> dict[str, int]:  # fmt: skip
    """Beat's sweep: queue the digests now due, then send what the outbox holds. The
    signing key is ``SECRET_KEY`` (the web's): without it nothing is sent (a delivery
    signed with another key would fail every check), and it all waits in the outbox."""
    key = environ.get("SECRET_KEY")
    if not key:
        raise RuntimeError("SECRET_KEY is not set: webhooks are signed with the web's key")
    allow_local = environ.get("BINGFA_WEBHOOK_ALLOW_LOCAL", "").lower() in ("1", "true", "yes",
                                                                             "on")  # fmt: skip
    hooks = Webhooks(store, key, allow_local=allow_local, send=send, language=language)
    digests = hooks.sweep_digests(now_ms)
    return {**hooks.sweep_outbox(now_ms), "digests": len(digests)}
