"""Server-Sent Events for the API's live streams: a poll loop that sends what is new, each
entry with its ``id`` (a seq) so a browser reconnecting with ``Last-Event-ID`` resumes, and
a connection closed after ``SSE_SECONDS`` (the browser reconnects by itself)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Response, current_app, stream_with_context


def last_event_id(raw: str | None, default: int = 0) -> int:
    """The seq to resume after (``default`` when the browser sent none or nonsense)."""
    try:
        seq = int(raw) if raw and len(raw) < 20 else default
    except ValueError:
        return default
    return seq if 0 <= seq <= 2**53 else default


def stream(after: int, since: Callable[[int], Iterable[tuple[int, Any]]], event: str,
           retry_ms: int = 1000) -> Response:  # fmt: skip
    """A text/event-stream of ``since(after)``: (seq, data) pairs, polled every
    ``SSE_POLL`` seconds, each sent as one ``event``."""
    seconds = current_app.config["SSE_SECONDS"]
    poll = current_app.config["SSE_POLL"]

    def generate():
        nonlocal after
        deadline = time.monotonic() + seconds
        yield f"retry: {retry_ms}\n\n"
        while True:
            for seq, data in since(after):
                text = json.dumps(data, separators=(",", ":"))
                yield f"id: {seq}\nevent: {event}\ndata: {text}\n\n"
                after = seq
            if time.monotonic() >= deadline:
                return
            time.sleep(poll)

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})  # fmt: skip
