"""Each web request's id: taken from ``X-Request-Id`` when it is a short plain token (a
proxy in front may have made one), else made here; returned in the response's
``X-Request-Id``, put on every log line of the request (``events.logs``) and carried into
the Celery tasks the request queues (``workers.celery_app``'s publish signal).

Each request also gets one log line: method, path, status and time taken. The path only:
a query string or a body may carry what a log must not (a command's cards)."""

from __future__ import annotations

import logging
import time

from flask import Flask, Response, g, request

from events.logs import HEADER, clean_request_id
from events.logs import request_id as current_id

log = logging.getLogger("bingfa.web")


def register(app: Flask) -> None:
    # Registered first, so the id is set before any other hook can log or refuse.
    @app.before_request
    def take_request_id() -> None:
        g.request_id = clean_request_id(request.headers.get(HEADER))
        g.request_started = time.perf_counter()
        current_id.set(g.request_id)

    @app.after_request
    def give_request_id(response: Response) -> Response:
        if "request_id" in g:
            response.headers[HEADER] = g.request_id
            ms = round((time.perf_counter() - g.request_started) * 1000, 1)
            log.info("%s %s %s %.1f ms", request.method, request.path, response.status_code, ms,
                     extra={"method": request.method, "path": request.path,
                            "status": response.status_code, "ms": ms})  # fmt: skip
        return response

    @app.teardown_request
    def forget_request_id(_error: BaseException | None) -> None:
        current_id.set(None)  # a thread (or greenlet) serves the next request afresh
