"""Security headers, a same-origin check for cookie-carrying writes, and rate limits.

Seats act with bearer tokens, which a forged cross-site request cannot carry, or with the
player id of the signed session cookie (the seats that player took). That cookie is
``SameSite=Lax``, so a cross-site form does not send it with a POST, and writes that come
from another origin are refused outright: the API needs no CSRF token.
"""

from __future__ import annotations

import functools
import math
import os
import time
from urllib.parse import urlsplit

from flask import Flask, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from service import access
from service.problems import problem

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


def rate_key() -> str:
    """Writes are counted per seat token when there is one, else per address."""
    token = access.bearer(request.headers.get("Authorization"))
    return "t:" + access.token_hash(token) if token else "a:" + (request.remote_addr or "?")


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

    @app.before_request
    def same_origin_writes():
        if request.method not in WRITES:
            return None
        origin = request.headers.get("Origin")
        if origin and urlsplit(origin).netloc != request.host:
            return problem(403, "cross-origin", "Cross-origin write refused",
                           f"requests from {origin} may not change games here")  # fmt: skip
        return None

    @app.after_request
    def headers(response):
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.errorhandler(TooManyWrites)
    def too_many(error):
        response = problem(429, "rate-limited", "Too many requests",
                           f"slow down: at most {error} for writes; try again in "
                           f"{error.retry_after} s")  # fmt: skip
        response.headers["Retry-After"] = str(error.retry_after)
        return response


def limit_writes(view):
    """Decorator for write endpoints: refuse with 429 past the write limits."""

    @functools.wraps(view)
    def limited(*args, **kwargs):
        current_app.extensions["write_limits"].check()
        return view(*args, **kwargs)

    return limited
