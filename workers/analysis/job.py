"""One analysis of a stored replay, run once: the body of the ``analyse_replay`` task.

Plain code over injected stores (a ``replays.store.ReplayStore`` and a
``replays.analysis_store.AnalysisStore``), so it is tested without a broker.
"""

from __future__ import annotations

import logging
from typing import Any

from replays.store import UnknownReplay
from workers.analysis.engine import DEFAULT, Strength, analyse

log = logging.getLogger(__name__)


def run(replays: Any, analyses: Any, replay_id: str, strength: Strength = DEFAULT,
        seed: int = 0, event_store: Any = None) -> str:  # fmt: skip
    """Analyse replay ``replay_id`` unless another job runs it or it is done; store the
    progress after every decision and the result at the end. A failure is stored with
    its reason (a new request may retry) and raised again. A finished game that is not
    archived yet is archived first when ``event_store`` is given. A short status."""
    if not analyses.start(replay_id):
        return f"analysis of {replay_id} already {analyses.get(replay_id).status}"
    try:
        record = _record(replays, replay_id, event_store)
    except LookupError as error:  # no such replay, or the game is still being played
        analyses.fail(replay_id, str(error))
        return str(error)

    def on_progress(done: int, total: int) -> None:
        analyses.progress(replay_id, done, total)

    try:
        result = analyse(record, strength, seed, on_progress=on_progress)
    except BaseException as error:  # a time limit too: stored so that it can be retried
        analyses.fail(replay_id, f"the analysis stopped: {type(error).__name__}: {error}")
        raise
    analyses.finish(replay_id, result)
    return f"analysed {replay_id}: {len(result['decisions'])} decisions in {result['seconds']} s"


def _record(replays: Any, replay_id: str, event_store: Any) -> Any:
    try:
        return replays.get(replay_id)
    except UnknownReplay:
        if event_store is None:
            raise
    from replays.archive import archive

    archive(event_store, replays, replay_id)  # UnknownGame / NotFinished: LookupErrors
    return replays.get(replay_id)


def inline(event_store: Any, redis: Any, strength: Strength | None = None, seed: int = 0):
    """An ``ANALYSE`` callable for an app without workers (tests, tools): it analyses the
    replay at once, in the caller, at ``strength`` (default: the quick test strength);
    the replays and analyses are the app's, on ``redis`` (its ``REDIS``)."""
    from replays.analysis_store import AnalysisStore
    from replays.store import ReplayStore
    from workers.analysis.engine import QUICK

    def analyse_now(replay_id: str) -> None:
        run(ReplayStore(redis), AnalysisStore(redis), replay_id, strength or QUICK, seed,
            event_store=event_store)  # fmt: skip

    return analyse_now
