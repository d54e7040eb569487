"""Security headers, a same-origin check for cookie-carrying writes, and rate limits.

Seats act with bearer tokens, which a forged cross-site request cannot carry, so the
API needs no CSRF token; the only thing a cookie decides is the player id recorded when
a seat is taken, and writes that come from another origin are refused outright.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded

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


limiter = Limiter(key_func=rate_key, default_limits=[])


def register(app: Flask) -> None:
    default = os.environ.get("BINGFA_RATELIMIT_WRITES", "120 per minute;20 per second")
    app.config.setdefault("RATELIMIT_WRITES", default)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    # No X-RateLimit-* headers: they cost two Redis round trips on every write.
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)
    limiter.init_app(app)

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

    @app.errorhandler(RateLimitExceeded)
    def too_many(error):
        return problem(429, "rate-limited", "Too many requests",
                       f"slow down: at most {error.description} for writes")  # fmt: skip


def limit_writes(view):
    """Decorator for write endpoints."""
    from flask import current_app

    return limiter.limit(lambda: current_app.config["RATELIMIT_WRITES"], methods=list(WRITES))(view)
