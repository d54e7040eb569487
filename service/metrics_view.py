"""``GET /metrics``: the Prometheus text exposition (``events.metrics`` defines what is
counted; ``docs/operations.md`` says what each means). Under gunicorn with
``PROMETHEUS_MULTIPROC_DIR`` it sums every worker process (and the Celery workers and the
projector if they share the folder); without it, this process's own values.

The Celery queues' depths are read from the broker at each scrape (``QueueDepths``): a
count kept by the processes would drift with every lost worker, the broker's lists do not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Flask, Response
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from events import metrics
from workers.celery_app import AI_QUEUE, ANALYSIS_QUEUE, NOTIFY_QUEUE

QUEUES = (AI_QUEUE, ANALYSIS_QUEUE, NOTIFY_QUEUE)
# kombu's Redis transport keeps a queue as one list per priority step ("ai", then
# "ai\x06\x163" and so on) and the messages workers took but have not acknowledged in
# one hash for all queues (kombu.transport.redis: PRIORITY_STEPS, sep, unacked_key).
PRIORITY_STEPS = (0, 3, 6, 9)
PRIORITY_SEP = "\x06\x16"
UNACKED_KEY = "unacked"


def priority_lists(queue: str) -> list[str]:
    """The broker's lists that hold ``queue``'s waiting messages."""
    return [queue if step == 0 else f"{queue}{PRIORITY_SEP}{step}" for step in PRIORITY_STEPS]


class QueueDepths(Collector):
    """``bingfa_queue_depth{queue}`` (messages waiting) and ``bingfa_queue_unacked``
    (taken by a worker, not yet acknowledged), read from the broker when scraped. Nothing
    is exported when the broker does not answer (``/readyz`` says why)."""

    def __init__(self, broker: Any, queues: tuple[str, ...] = QUEUES) -> None:
        self.broker = broker
        self.queues = queues

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            pipe = self.broker.pipeline(transaction=False)
            for queue in self.queues:
                for name in priority_lists(queue):
                    pipe.llen(name)
            pipe.hlen(UNACKED_KEY)
            counts = pipe.execute()
        except Exception:  # the broker is down or slow: no figure rather than a wrong one
            return
        depth = GaugeMetricFamily("bingfa_queue_depth",
                                  "Celery messages waiting in each queue of the broker.",
                                  labels=["queue"])  # fmt: skip
        steps = len(PRIORITY_STEPS)
        for i, queue in enumerate(self.queues):
            depth.add_metric([queue], sum(counts[i * steps : (i + 1) * steps]))
        yield depth
        yield GaugeMetricFamily("bingfa_queue_unacked",
                                "Celery messages workers took and have not acknowledged "
                                "(running, or lost with a worker until redelivered).",
                                value=counts[-1])  # fmt: skip


def register(app: Flask) -> None:
    @app.get("/metrics")
    def prometheus_metrics() -> Response:
        broker = app.extensions.get("health_probes", {}).get("broker")
        extra = [QueueDepths(broker)] if broker is not None else []
        body, content_type = metrics.exposition(extra)
        return Response(body, content_type=content_type, headers={"Cache-Control": "no-store"})
