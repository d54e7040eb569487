"""``GET /metrics``: the Prometheus text exposition (``events.metrics`` defines what is
counted; ``docs/operations.md`` says what each means). Under gunicorn with
``PROMETHEUS_MULTIPROC_DIR`` it sums every worker process (and the Celery workers and the
projector if they share the folder); without it, this process's own values."""

from __future__ import annotations

from flask import Flask, Response

from events import metrics


def register(app: Flask) -> None:
    @app.get("/metrics")
    def prometheus_metrics() -> Response:
        body, content_type = metrics.exposition()
        return Response(body, content_type=content_type, headers={"Cache-Control": "no-store"})
