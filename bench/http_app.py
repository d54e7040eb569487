"""The WSGI app ``python -m bench.http`` runs under gunicorn: the service's own app plus one
bench-only route, registered here and nowhere else.

    gunicorn 'bench.http_app:app()'

- ``GET /bench/ping`` → ``{"ok": true}``: the trivial endpoint the command path is compared
  with (same server, same workers, same middleware: security headers, session).
- Every response carries ``X-Bench-Worker: <pid>`` so the bench can tell which worker
  served a connection.
- The write rate limit is raised out of the way (``RATELIMIT_WRITES``; the limiter itself
  still runs and still counts every write in Redis, as it does in production): the
  default (120 writes a minute per address) would refuse the bench's game creations.
- ``BENCH_PROFILE=<dir>``: profile ``POST …/commands`` requests with cProfile (one at a
  time per worker; the others run unprofiled) and dump ``<dir>/commands-<pid>.pstats``
  every 100 profiled requests and at exit.
"""

from __future__ import annotations

import atexit
import cProfile
import os
import threading
from typing import Any

from flask import Flask

from service.app import create_app

BENCH_RATELIMIT = "1000000 per second"


def app() -> Flask:
    flask_app = create_app({"RATELIMIT_WRITES": BENCH_RATELIMIT})
    pid = str(os.getpid())

    @flask_app.get("/bench/ping")
    def bench_ping():
        return {"ok": True}

    @flask_app.after_request
    def bench_worker(response):
        response.headers["X-Bench-Worker"] = pid
        return response

    folder = os.environ.get("BENCH_PROFILE")
    if folder:
        flask_app.wsgi_app = CommandProfiler(flask_app.wsgi_app, folder)
    return flask_app


class CommandProfiler:
    """WSGI middleware: cProfile around command submissions, one request at a time."""

    def __init__(self, wsgi: Any, folder: str, every: int = 100) -> None:
        self.wsgi = wsgi
        self.folder = folder
        self.every = every
        self.lock = threading.Lock()
        self.profile = cProfile.Profile()
        self.count = 0
        atexit.register(self.dump)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        wanted = environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO", "").endswith(
            "/commands"
        )
        if not wanted or not self.lock.acquire(blocking=False):
            return self.wsgi(environ, start_response)
        try:
            self.profile.enable()
            try:
                body = list(self.wsgi(environ, start_response))  # the whole answer, timed
            finally:
                self.profile.disable()
            self.count += 1
            if self.count % self.every == 0:
                self.dump()
            return body
        finally:
            self.lock.release()

    def dump(self) -> None:
        if self.count:
            self.profile.dump_stats(os.path.join(self.folder, f"commands-{os.getpid()}.pstats"))
