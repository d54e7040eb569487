"""Make a preset dictionary for compressing one game's stored payloads.

    python -m bench.zdict sun-tzu [--games 60] [--size 8192] > dictionary.txt

Plays ``--games`` random games (seeds 10000 and up: not the games ``bench.store``
measures), as ``bench.store`` records them, and keeps their most frequent payloads, most
frequent last (zlib matches nearer the end of a dictionary in fewer bits), up to
``--size`` bytes. Prints them as the lines of a Python tuple of bytes, to paste under a
NEW number of the game's ``payload_dictionaries`` (``games/sun_tzu/store_dictionary.py``):
one in use is never edited (the entries compressed with it would no longer read).
"""

from __future__ import annotations

import argparse
from collections import Counter

import games
from bench.store import OPTIONS, record
from events.envelope import fast_canonical


def payloads(game: str, seeds: range) -> Counter[bytes]:
    rules = games.get(game)
    counts: Counter[bytes] = Counter()
    for seed in seeds:
        for _, events, _ in record(rules, seed).batches:
            for event in events:
                body = {k: v for k, v in event.items() if k not in ("type", "visible_to")}
                counts[fast_canonical(body)] += 1
    return counts


def dictionary(counts: Counter[bytes], size: int) -> list[bytes]:
    """The most frequent payloads that fit in ``size`` bytes, the most frequent last."""
    kept, total = [], 0
    for payload, _ in counts.most_common():
        if total + len(payload) <= size:
            kept.append(payload)
            total += len(payload)
    return kept[::-1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.zdict", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--size", type=int, default=8192)
    args = parser.parse_args(argv)
    if args.game != "sun-tzu":
        raise SystemExit(f"bench.zdict records games as bench.store does: sun-tzu only {OPTIONS}")
    for payload in dictionary(payloads(args.game, range(10_000, 10_000 + args.games)), args.size):
        print(f"    {payload!r},")


if __name__ == "__main__":
    main()
