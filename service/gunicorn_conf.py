"""gunicorn's settings for the web process (the Procfile's ``web``, ``bingfa up`` and
``bench.http`` all use them: ``gunicorn -c python:service.gunicorn_conf``).

gevent workers: a request is a greenlet, so a live stream waiting for the next move (most
of a game's life) holds no thread and no request slot, and thousands of idle watchers
cost a few kilobytes each (see ``service.live``). The rest of a request is short (a
command is a few milliseconds of Python); the one long thing the web did, the AI's hint,
runs on the AI workers. Each setting can be changed with ``GUNICORN_CMD_ARGS``.
"""

from __future__ import annotations

import os

from events.logs import configure

bind = f"{os.environ.get('BINGFA_HOST') or '127.0.0.1'}:{os.environ.get('PORT') or 8000}"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2)
worker_class = "gevent"
worker_connections = int(os.environ.get("BINGFA_WORKER_CONNECTIONS") or 4000)  # per worker
keepalive = 60  # seconds an idle keep-alive connection is kept
graceful_timeout = 3
timeout = 60  # a worker silent this long is restarted
wsgi_app = "service:create_app()"

# The application's log lines (readable, or JSON with BINGFA_LOG_FORMAT=json; see
# events.logs). Set here, in the master: the workers it forks inherit it.
configure("web")


def child_exit(_server, worker) -> None:
    """A web worker ended: in multiprocess mode its live gauges (open streams) stop
    counting (``events.metrics``; nothing to do without ``PROMETHEUS_MULTIPROC_DIR``)."""
    from events import metrics

    metrics.process_gone(worker.pid)
