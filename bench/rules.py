"""Random Sun Tzu games per second on one core, through the public protocol.

    python -m bench.rules [--games N] [--seconds S] [--variant standard] [--no-events]
                          [--rng bingfa-sha256-ctr-1]

Prints, last: ``random_games_per_second``, ``events_per_game``, ``bytes_per_game``
(canonical JSON, as the event store will hold the payloads). Every draw, the deal's and
the random commands', comes from ``random.Random``, or with ``--rng`` from that generator
of ``events.fairness`` (``docs/rng.md``): the cost of the game's own generator per draw.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import games
from events.fairness import rng_for
from games.playout import play


def canonical(event: dict) -> bytes:
    return json.dumps(event, sort_keys=True, separators=(",", ":")).encode()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rules", description=__doc__)
    parser.add_argument("--game", default="sun-tzu")
    parser.add_argument("--games", type=int, default=3000, help="games to time (at most)")
    parser.add_argument("--seconds", type=float, default=20.0, help="stop timing after this")
    parser.add_argument("--variant", default="standard", choices=["standard", "beginner"])
    parser.add_argument("--no-events", action="store_true", help="play without event cards")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rng", help="draw from this generator (events.fairness.rng_for)")
    args = parser.parse_args(argv)
    rules = games.get(args.game)
    options = {"variant": args.variant, "events": not args.no_events}

    def rng(label: str, n: int):
        if args.rng is None:
            return random.Random(f"{label}:{n}")
        return rng_for(label, {}, n, args.rng)

    for i in range(20):  # warm up caches and the allocator before timing
        play(rules, options, rng("warm", i))

    played = events = size = 0
    elapsed = 0.0
    while played < args.games and elapsed < args.seconds:
        start = time.perf_counter()
        game = play(rules, options, rng(str(args.seed), played))
        elapsed += time.perf_counter() - start
        played += 1
        events += len(game.events)
        size += sum(len(canonical(e)) for e in game.events)  # measured outside the timing
    print(f"game: {rules.key} {options}, draws from {args.rng or 'random.Random'}")
    print(f"games timed: {played} in {elapsed:.2f} s (one core)")
    print(f"random_games_per_second: {played / elapsed:.0f} games/s")
    print(f"events_per_game: {events / played:.1f}")
    print(f"bytes_per_game: {size / played:.0f} B")


if __name__ == "__main__":
    main()
