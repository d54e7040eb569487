"""Asking for a hint: from the cache of this position (``events.hints``), else the work is
queued on the AI workers once (``HINT`` in the app config: a callable ``(game_id,
version, seat)``; over Redis it sends the ``bingfa.hint`` task; over a store given in the
config, tests and tools, it works the hint out at once in this process), and the answer
waits a few seconds for it on the live hub (a parked greenlet: no request slot)."""

from __future__ import annotations

from typing import Any

from events.hints import HintCache, channel
from games.i18n import said
from service.errors import Unavailable

WAIT_S = 5.0  # how long an ask waits for the worker before answering 202


def ask(app: Any, game_id: str, version: int, seat: str) -> dict[str, Any] | None:
    cache: HintCache = app.extensions["hints"]
    found = cache.get(game_id, version, seat)
    if found is not None:
        return found
    with app.extensions["hub"].watch(channel(game_id, seat)) as watch:
        watch.ready.wait(1.0)
        if cache.claim(game_id, version, seat):
            try:
                app.config["HINT"](game_id, version, seat)
            except Exception as error:  # the broker is down: say so, the next ask retries
                app.logger.exception("could not queue the hint for %s", game_id)
                raise Unavailable(
                    said(
                        "hints cannot be worked out right now ({error}); try again later",
                        error=type(error).__name__,
                    )
                ) from None
        found = cache.get(game_id, version, seat)
        if found is None and watch.wait(WAIT_S):
            found = cache.get(game_id, version, seat)
    return found


def register(app: Any) -> None:
    """The hint cache beside the event store, and how the work is queued."""
    parts = app.extensions["parts"]
    bingfa, cache = parts.write_path, parts.hints
    app.extensions["hints"] = cache
    if app.config.get("HINT") is not None:
        return
    if parts.projected:  # on the event store's Redis: the AI workers do it

        def send(game_id: str, version: int, seat: str) -> None:
            from workers.celery_app import HINT
            from workers.celery_app import app as celery

            celery.send_task(HINT, args=(game_id, version, seat))

        app.config["HINT"] = send
        return

    def inline(game_id: str, version: int, seat: str) -> None:
        from workers.hints import work_out  # in this process: the in-memory store's tools

        work_out(bingfa, cache, game_id, version, seat)
        app.extensions["hub"].publish(channel(game_id, seat))

    app.config["HINT"] = inline
