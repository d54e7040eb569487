"""Makes the legacy records in this folder: finished games whose chance came from the
``cpython-random`` generator (``random.Random`` seeded from sha256), as every game did
before games named their generator (``docs/rng.md``).

They were made at commit a1307e2, the last one before the change, with

    git worktree add /tmp/before a1307e2
    cd /tmp/before && python tests/replays/data/make_legacy_records.py OUT_DIR

(run from a later commit this script makes records of the new generator instead: the
committed files are the ones to keep). Ids, seeds, times and the random commands are
fixed, so at a1307e2 it makes the same games every time; the salts of hidden events are
the store's own random ones, so not the same bytes.
"""

from __future__ import annotations

import itertools
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[3])]

from replay_helpers import counter_tokens, play_game  # noqa: E402

from events.store import InMemoryEventStore  # noqa: E402
from events.writepath import WritePath  # noqa: E402
from replays.record import dumps, record_of  # noqa: E402

# name -> (options, seats, random-command seed, nonces, hand blue's seat to the AI)
GAMES = {
    "legacy-standard-events-nonces": ({"events": True}, None, 7, ("blue's nonce", "紅"), False),
    "legacy-beginner": ({"variant": "beginner", "events": False}, None, 3, (None, None), False),
    "legacy-standard-handed-to-ai": ({}, None, 5, (None, "red nonce"), True),
}


def stepping_clock(start: datetime, step: timedelta):
    times = itertools.count()
    return lambda: start + next(times) * step


def main(out: Path) -> None:
    for n, (name, (options, seats, seed, nonces, hand_over)) in enumerate(GAMES.items()):
        app = WritePath(
            InMemoryEventStore(),
            token=counter_tokens(1000 * n),
            clock=stepping_clock(datetime(2024, 5, 1, 12, tzinfo=UTC), timedelta(minutes=3)),
        )
        game_id = play_game(app, options, seats, seed, nonces, hand_over)
        text = dumps(record_of(app.store, game_id))
        (out / f"{name}.jsonl").write_text(text, encoding="utf-8")
        print(f"{name}: {len(text)} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
