"""Server-Sent Events for the API's live streams: what is new is sent when the hub says its
channel changed (``service.live``), each entry with its ``id`` (a seq) so a browser
reconnecting with ``Last-Event-ID`` resumes; a comment line every ``SSE_HEARTBEAT``
seconds keeps proxies from closing an idle stream (and looks again, in case a wake-up
was lost); the connection is closed after ``SSE_SECONDS`` (the browser reconnects by
itself). A client holds at most ``STREAMS_PER_CLIENT`` streams (429 past that)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from flask import Response, current_app, request, stream_with_context

from events import metrics
from service import live
from service.errors import TooManyStreams
from service.security import client_address


def last_event_id(raw: str | None, default: int = 0) -> int:
    """The seq to resume after (``default`` when the browser sent none or nonsense)."""
    try:
        seq = int(raw) if raw and len(raw) < 20 else default
    except ValueError:
        return default
    return seq if 0 <= seq <= 2**53 else default


def stream(after: int, since: Callable[[int], Sequence[tuple[int, str]]], event: str,
           channel: str, retry_ms: int = 1000,
           ended: Callable[[], None] | None = None,
           notices: Callable[[], Sequence[tuple[str, str]]] | None = None) -> Response:  # fmt: skip
    """A text/event-stream of ``since(after)``: (seq, JSON text) pairs, read again each time
    ``channel`` changes, each sent as one ``event``; ``ended()`` when it is over.
    ``notices()``, asked at the same times: (event, JSON text) pairs of what changed
    beside the entries (a game's match), sent without an ``id`` (nothing to resume)."""
    config = current_app.config
    seconds, heartbeat = config["SSE_SECONDS"], config["SSE_HEARTBEAT"]
    hub: live.LocalHub = current_app.extensions["hub"]
    slots: live.StreamSlots = current_app.extensions["stream_slots"]
    address = client_address()
    slot = slots.take(address)
    if slot is None:
        raise TooManyStreams(slots.cap)
    environ = request.environ

    def generate():
        nonlocal after
        metrics.OPEN_STREAMS.inc()
        try:
            with hub.watch(channel) as watch:
                gone = live.on_hang_up(environ, watch)
                try:
                    watch.ready.wait(1.0)  # subscribed: nothing appended from now is missed
                    deadline = time.monotonic() + seconds
                    yield f"retry: {retry_ms}\n\n"
                    while True:
                        new = since(after)
                        if new:  # one write for all that is new (one syscall, one chunk)
                            yield "".join(f"id: {seq}\nevent: {event}\ndata: {text}\n\n"
                                          for seq, text in new)  # fmt: skip
                            after = new[-1][0]
                        told = notices() if notices is not None else ()
                        if told:
                            yield "".join(f"event: {name}\ndata: {text}\n\n"
                                          for name, text in told)  # fmt: skip
                        left = deadline - time.monotonic()
                        if left <= 0:
                            return
                        if not watch.wait(min(heartbeat, left)):
                            slots.renew(address, slot)
                            yield ": still here\n\n"
                        if gone is not None and gone():
                            return  # the client hung up: free everything at once
                finally:
                    if gone is not None:
                        gone.stop()  # type: ignore[attr-defined]
        finally:
            metrics.OPEN_STREAMS.dec()
            slots.give_back(address, slot)
            if ended is not None:
                ended()

    return Response(stream_with_context(generate()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})  # fmt: skip
