"""Security headers, the hosts and origins we serve, and rate limits.

Seats act with bearer tokens, which a forged cross-site request cannot carry, or with the
player id of the signed session cookie (the seats that player took). That cookie is
``SameSite=Lax``, so a cross-site form does not send it with a POST, and writes that come
from another origin are refused outright: the API needs no CSRF token.

The public origins (``BINGFA_PUBLIC_ORIGINS``: ``https://bingfa.example`` …, comma
separated) are the only hosts answered: another ``Host`` is a 400, so a DNS-rebinding page
cannot talk to the service in its victim's browser, and a write's ``Origin`` must be one
of them, scheme and port included. Without the setting, only loopback hosts (localhost,
127.0.0.1, [::1]) are served, on the scheme they were asked with. Over https
(``BINGFA_HTTPS=1``, or every public origin https) the session cookie is ``Secure`` and
every response carries HSTS. Client addresses are the connection's, or, behind
``BINGFA_PROXIES`` trusted proxies, what those proxies said (``X-Forwarded-For``);
never a header anyone else can set.
"""

from __future__ import annotations

import functools
import math
import os
import time
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from games.i18n import said
from service import access
from service.problems import N_, problem

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    ),
}
WRITES = ("POST", "PUT", "PATCH", "DELETE")


TRUE = ("1", "true", "yes", "on")
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
HSTS = "max-age=31536000; includeSubDomains"


def rate_key() -> str:
    """Writes are counted per seat when the request carries a valid token of a seat of the
    game it names, else per client address: a made-up token buys no budget of its own."""
    token = access.bearer(request.headers.get("Authorization"))
    game_id = (request.view_args or {}).get("game_id")
    if token and game_id:
        bingfa = current_app.extensions["bingfa"]
        try:
            seat = access.request_seat(bingfa, game_id, token)
        except LookupError:
            seat = None
        if seat is not None:
            return f"s:{game_id}:{seat}"
    return "a:" + client_address()


def client_address() -> str:
    """The client's address: the connection's (``ProxyFix`` has put the trusted proxies'
    word there when ``BINGFA_PROXIES`` says there are any)."""
    return request.remote_addr or "?"


def public_origins(config: Any) -> tuple[str, ...]:
    raw = config.get("PUBLIC_ORIGINS") or ""
    if isinstance(raw, str):
        raw = raw.split(",")
    return tuple(o.strip().rstrip("/").lower() for o in raw if o.strip())


def served_here(origin: str, origins: tuple[str, ...]) -> bool:
    """Whether ``origin`` (scheme://host[:port]) is this service's own."""
    if origins:
        return origin.lower() in origins
    parts = urlsplit(origin)
    return (parts.scheme == request.scheme and parts.netloc.lower() == request.host.lower()
            and (parts.hostname or "") in LOOPBACK)  # fmt: skip


@functools.lru_cache(maxsize=256)  # asked on every request, of the few hosts a site has
def host_served(host: str, origins: tuple[str, ...]) -> bool:
    if origins:
        return any(urlsplit(o).netloc == host.lower() for o in origins)
    hostname = urlsplit(f"//{host}").hostname or ""
    return hostname in LOOPBACK


class WriteLimits:
    """The write limits (``RATELIMIT_WRITES``, e.g. "120 per minute") counted in the
    app's Redis, so every web worker counts against the same budget; ``limits`` (the
    library under Flask-Limiter) does the counting. Checked only on the write endpoints:
    one Redis round trip per write and limit, nothing on reads."""

    def __init__(self, spec: str, storage_uri: str) -> None:
        self.limits = parse_many(spec)
        self.counter = FixedWindowRateLimiter(storage_from_string(storage_uri))

    def check(self) -> None:
        key = rate_key()
        for limit in self.limits:
            if not self.counter.hit(limit, "writes", key):
                raise TooManyWrites(limit, self.counter.get_window_stats(limit, "writes", key))


class TooManyWrites(Exception):
    def __init__(self, limit: RateLimitItem, stats: object) -> None:
        super().__init__(str(limit).replace(" per 1 ", " per "))
        self.limit = limit
        self.retry_after = max(1, math.ceil(getattr(stats, "reset_time", 0) - time.time()))


def register(app: Flask) -> None:
    default = os.environ.get("BINGFA_RATELIMIT_WRITES", "120 per minute")
    app.config.setdefault("RATELIMIT_WRITES", default)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    app.extensions["write_limits"] = WriteLimits(
        app.config["RATELIMIT_WRITES"], app.config["RATELIMIT_STORAGE_URI"]
    )
    app.config.setdefault("PUBLIC_ORIGINS", os.environ.get("BINGFA_PUBLIC_ORIGINS", ""))
    origins = public_origins(app.config)
    https = os.environ.get("BINGFA_HTTPS", "").lower() in TRUE
    https = app.config.setdefault("HTTPS", https or (bool(origins) and all(
        o.startswith("https://") for o in origins)))  # fmt: skip
    if https:
        app.config["SESSION_COOKIE_SECURE"] = True
    proxies = int(app.config.setdefault("PROXIES", int(os.environ.get("BINGFA_PROXIES") or 0)))
    if proxies:  # the last ``proxies`` hops of X-Forwarded-For are ours to believe
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies,
                                x_host=proxies)  # type: ignore[method-assign]  # fmt: skip

    @app.before_request
    def known_host_and_origin():
        if request.path in ("/healthz", "/readyz"):  # a load balancer probes by address
            return None
        host = request.host
        if not host_served(host, origins):
            served = ", ".join(origins) or "localhost, 127.0.0.1 and [::1] only"
            return problem(400, "unknown-host", N_("Not a host this server answers for"),
                           said("this server does not answer for {host!r}: it serves "
                                "{served} (an operator sets BINGFA_PUBLIC_ORIGINS)",
                                host=host[:100], served=served))  # fmt: skip
        if request.method not in WRITES:
            return None
        origin = request.headers.get("Origin")
        if origin == "null" and request.headers.get("Sec-Fetch-Site") == "same-origin":
            # a form of our own pages (the language picker): under "Referrer-Policy:
            # no-referrer" a browser sends "Origin: null" for a form's POST, and says
            # where it comes from in Sec-Fetch-Site, a header no page can set
            return None
        if origin is not None and not served_here(origin, origins):
            return problem(403, "cross-origin", N_("Cross-origin write refused"),
                           said("requests from {origin!r} may not change anything here; "
                                "write from this site's own pages",
                                origin=origin[:100]))  # fmt: skip
        return None

    hsts = [("Strict-Transport-Security", HSTS)] if https else []
    pages = [*HEADERS.items(), *hsts]  # made once: the same for every answer
    api = [*HEADERS.items(), ("Cache-Control", "no-store"), *hsts]  # hands and tokens are
    # never kept by a cache

    @app.after_request
    def headers(response):
        add_missing(response.headers, api if request.path.startswith("/api/") else pages)
        return response

    @app.errorhandler(TooManyWrites)
    def too_many(error):
        response = problem(429, "rate-limited", N_("Too many requests"),
                           said("slow down: at most {limit} for writes; try again in "
                                "{seconds} s", limit=str(error),
                                seconds=error.retry_after))  # fmt: skip
        response.headers["Retry-After"] = str(error.retry_after)
        return response


def add_missing(headers: Any, wanted: list[tuple[str, str]]) -> None:
    """``headers.setdefault`` for each of ``wanted``, with one look at the headers there
    (every response gets these: a setdefault each scanned the whole list every time)."""
    present = {name.lower() for name, _ in headers.items()}
    for name, value in wanted:
        if name.lower() not in present:
            headers.add(name, value)


def limit_writes(view):
    """Decorator for write endpoints: refuse with 429 past the write limits."""

    @functools.wraps(view)
    def limited(*args, **kwargs):
        current_app.extensions["write_limits"].check()
        return view(*args, **kwargs)

    limited.write_limited = True  # for the API documentation (service.api.error_docs)
    return limited
