"""Logging for every Bingfa process (web, workers, beat, projector): one setup, two looks.

``configure(process)`` puts one handler on the root logger: readable lines by default, JSON
lines (one object a line, for a log shipper) when ``BINGFA_LOG_FORMAT=json``.
``BINGFA_LOG_LEVEL`` sets the level (default INFO). Each record carries the request id of
the web request it serves, or that caused the Celery task it runs in (``request_id``),
so one player's command can be followed from the web into the AI's move it queued.

The id lives in a context variable (a greenlet or thread of its own under gevent), set by
the web (``service.app``) and by the workers' task signals (``workers.celery_app``).
Nothing here logs game data: callers log ids and counts, never hands, seeds or tokens.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import UTC, datetime

request_id: ContextVar[str | None] = ContextVar("bingfa_request_id", default=None)

# An incoming id is kept only if it is short and plain (it is echoed in a header and
# written in logs: no spaces, quotes or line breaks a client could forge lines with).
SAFE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
HEADER = "X-Request-Id"
TASK_HEADER = "bingfa_request_id"  # the Celery message header that carries it

READABLE = "%(asctime)s %(levelname)s %(process_name)s %(name)s [%(request_id)s] %(message)s"
# The attributes every LogRecord has: whatever else a record carries came as `extra`.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
_configured: list[logging.Handler] = []


def new_request_id() -> str:
    return secrets.token_hex(8)


def clean_request_id(value: str | None) -> str:
    """The incoming id if it is safe to echo and log, else a fresh one."""
    if value and SAFE_ID.fullmatch(value):
        return value
    return new_request_id()


class ContextFilter(logging.Filter):
    """Adds ``request_id`` (``-`` outside a request or task) and the process's role."""

    def __init__(self, process: str = "-") -> None:
        super().__init__()
        self.process = process

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get() or "-"
        if not hasattr(record, "process_name"):
            record.process_name = self.process
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request id, process, the
    record's extras, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line:
                line[key] = value
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def formatter(env: Mapping[str, str]) -> logging.Formatter:
    if (env.get("BINGFA_LOG_FORMAT") or "").strip().lower() == "json":
        return JsonFormatter()
    return logging.Formatter(READABLE)


def configure(
    process: str, environ: Mapping[str, str] | None = None, level: str | int | None = None
) -> logging.Handler:
    """Set up the root logger for ``process`` ("web", "celery", "projector"). Called
    again, it replaces its own handler (never stacks a second one). The level is
    ``BINGFA_LOG_LEVEL``, else ``level`` (a Celery worker's ``--loglevel``), else INFO."""
    env = os.environ if environ is None else environ
    root = logging.getLogger()
    for old in _configured:
        root.removeHandler(old)
    _configured.clear()
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(env))
    handler.addFilter(ContextFilter(process))
    root.addHandler(handler)
    chosen = env.get("BINGFA_LOG_LEVEL") or level or "INFO"
    root.setLevel(chosen.upper() if isinstance(chosen, str) else chosen)
    _configured.append(handler)
    return handler
