"""The Prometheus metrics, all of them, in one place (``docs/operations.md`` says what each
means and which alerts are worth setting).

They live in ``events`` because the lowest package that counts something is here (the
write path, the projector); ``workers`` and ``service`` import them from here. Under
gunicorn or Celery with ``PROMETHEUS_MULTIPROC_DIR`` set (before anything imports
``prometheus_client``), every process writes its values to files in that folder and
``/metrics`` adds them up; without it the values are this process's own.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.registry import Collector

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

COMMANDS = Counter(
    "bingfa_commands",
    "Commands submitted to the write path, by game and result "
    "(accepted, refused, conflict, error).",
    ["game", "result"],
)
COMMAND_SECONDS = Histogram(
    "bingfa_command_seconds",
    "Time to decide and append one command (whatever its result), by game.",
    ["game"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
CONFLICTS = Counter(
    "bingfa_version_conflicts",
    "Appends refused because the game had moved on (resolved by a retry or not).",
    ["game"],
)
RETRIES = Counter(
    "bingfa_command_retries",
    "Commands decided again (reason=reload: on the stream's position after a conflict "
    "or a stale cache) or answered as a retry of one already applied (reason=duplicate).",
    ["game", "reason"],
)
TASK_SECONDS = Histogram(
    "bingfa_task_seconds",
    "Duration of the workers' long tasks (task=ai_move, hint, analysis), by outcome.",
    ["task", "outcome"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0),
)
PROJECTOR_LAG = Gauge(
    "bingfa_projector_lag_seconds",
    "Age of the newest feed entry the projector handled, per partition (0 when idle).",
    ["partition"],
    multiprocess_mode="mostrecent",  # a restarted projector's word wins over its last life
)
OPEN_STREAMS = Gauge(
    "bingfa_open_streams",
    "Live (server-sent events) streams open now.",
    multiprocess_mode="livesum",
)
WEBHOOKS = Counter(
    "bingfa_webhook_deliveries",
    "Webhook delivery attempts by outcome (sent, retry, given_up).",
    ["outcome"],
)


@contextmanager
def timed(histogram: Histogram, **labels: str) -> Iterator[dict[str, str]]:
    """Observe the block's duration; the block may set ``outcome`` in the dict it gets
    (left "error" if it raises)."""
    extra = {"outcome": "error"} if "outcome" in histogram._labelnames else {}
    started = time.perf_counter()
    try:
        yield extra
    finally:
        histogram.labels(**labels, **extra).observe(time.perf_counter() - started)


def exposition(extra: Iterable[Collector] = ()) -> tuple[bytes, str]:
    """The text exposition of every process's metrics (multiprocess mode) or of this
    process's (single process), then of the ``extra`` collectors (figures read when
    scraped, such as the broker's queues), and its content type."""
    folder = os.environ.get(MULTIPROC_ENV)
    if folder and os.path.isdir(folder):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=folder)
    else:
        registry = REGISTRY
    scraped = CollectorRegistry(auto_describe=False)
    for collector in extra:
        scraped.register(collector)
    return generate_latest(registry) + generate_latest(scraped), CONTENT_TYPE_LATEST


def process_gone(pid: int) -> None:
    """A worker process ended (gunicorn's ``child_exit``): its live gauges stop counting."""
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)
