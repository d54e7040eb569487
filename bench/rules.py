"""Random games per second on one core, through the public protocol: Sun Tzu and Warring
States; ``--game warring-states`` times Warring States alone (its options are its own);
``--game KEY`` with any other registered game times that game alone, with its catalogue's
default options and ``--option name=value`` (repeatable, as ``bingfa selfplay`` reads it).

    python -m bench.rules [--games N] [--seconds S] [--quick] [--variant standard]
                          [--no-events] [--rng bingfa-sha256-ctr-1] [--no-warring-states]
                          [--game KEY] [--option name=value ...]

Each part is timed for at most ``--seconds`` (default 10; ``--quick``: 2) or ``--games``
games. Prints, last: ``warring_states_decisions_per_second`` (commands decided, both
scenarios together: ``random_command``, ``decide``, ``evolve`` per event),
``warring_states_five_kingdoms_games_per_second``,
``warring_states_qin_dominates_games_per_second``, then the other game's
``random_games_per_second``, ``events_per_game``, ``bytes_per_game``
(canonical JSON, as the event store will hold the payloads). Another game prints, last,
``<key>_random_games_per_second`` and ``<key>_events_per_game`` (its key, ``-`` as ``_``).
Every draw, the deal's and the random commands', comes from ``random.Random``, or with
``--rng`` from that generator of ``events.fairness`` (``docs/rng.md``): the cost of the
game's own generator per draw.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from events.fairness import rng_for
from games.playout import play
from service import tool_args


def canonical(event: dict) -> bytes:
    return json.dumps(event, sort_keys=True, separators=(",", ":")).encode()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rules", description=__doc__)
    parser.add_argument("--game", default="sun-tzu")
    parser.add_argument("--games", type=int, default=3000, help="games to time (at most)")
    parser.add_argument("--seconds", type=float, help="stop timing each part after this")
    parser.add_argument("--quick", action="store_true", help="time each part for 2 s")
    parser.add_argument("--no-warring-states", action="store_true", help="skip Warring States")
    parser.add_argument("--variant", default="standard", choices=["standard", "beginner"])
    parser.add_argument("--no-events", action="store_true", help="play without event cards")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rng", help="draw from this generator (events.fairness.rng_for)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of another game (repeatable)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.seconds is None:
        args.seconds = 2.0 if args.quick else 10.0
    try:
        rules = tool_args.rules_of(args.game)
        given = tool_args.parse_options(rules, args.option)
    except tool_args.ToolArgError as error:
        parser.error(str(error))
    if given and rules.key in ("sun-tzu", "warring-states"):
        parser.error("--option is for another game: Sun Tzu takes --variant and --no-events")

    def rng(label: str, n: int):
        if args.rng is None:
            return random.Random(f"{label}:{n}")
        return rng_for(label, {}, n, args.rng)

    if rules.key == "warring-states":  # --variant and --no-events are Sun Tzu's options
        print(*warring_states(args, rng), sep="\n")
        return
    if rules.key != "sun-tzu":
        print(*any_game(args, rules, given, rng), sep="\n")
        return
    options = {"variant": args.variant, "events": not args.no_events}

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
    figures = []
    if not args.no_warring_states:
        figures = warring_states(args, rng)
    print(*figures, sep="\n")
    print(f"random_games_per_second: {played / elapsed:.0f} games/s")
    print(f"events_per_game: {events / played:.1f}")
    print(f"bytes_per_game: {size / played:.0f} B")


def timed(args: argparse.Namespace, rules, options: dict, rng, label: str,
          scenario: str | None = None, warm: int = 5) -> tuple[int, float, int, int]:  # fmt: skip
    """(games, seconds, events, commands) of random games played until ``args.games`` or
    ``args.seconds``, after ``warm`` untimed ones (caches and the allocator warmed); the
    draws named by ``label`` (and ``scenario``), as the figures have always drawn them."""
    warm_name = f"{label}-warm" if scenario is None else f"{label}-warm:{scenario}"
    name = f"{label}:{args.seed}" if scenario is None else f"{label}:{scenario}:{args.seed}"
    for i in range(warm):
        play(rules, options, rng(warm_name, i))
    played = events = commands = 0
    elapsed = 0.0
    while played < args.games and elapsed < args.seconds:
        start = time.perf_counter()
        game = play(rules, options, rng(name, played))
        elapsed += time.perf_counter() - start
        played += 1
        events += len(game.events)
        commands += len(game.commands)
    return played, elapsed, events, commands


def any_game(args: argparse.Namespace, rules, given: dict, rng) -> list[str]:
    """Time random games of any registered game with its catalogue's default options (and
    those ``--option`` gave); print what was timed and return the figure lines."""
    declared = getattr(getattr(rules, "catalogue", None), "options", None) or ()
    options = {option.name: option.default for option in declared} | given
    played, elapsed, events, _ = timed(args, rules, options, rng, rules.key, warm=20)
    print(f"game: {rules.key} {options}, draws from {args.rng or 'random.Random'}")
    print(f"games timed: {played} in {elapsed:.2f} s (one core)")
    name = rules.key.replace("-", "_")
    return [
        f"{name}_random_games_per_second: {played / elapsed:.0f} games/s",
        f"{name}_events_per_game: {events / played:.1f}",
    ]


def warring_states(args: argparse.Namespace, rng) -> list[str]:
    """Time random Warring States games, each scenario for ``args.seconds``; print what was
    timed and return the figure lines."""
    from games.warring_states import RULES

    figures = []
    decisions = 0
    total = 0.0
    for scenario in ("FIVE_KINGDOMS", "QIN_DOMINATES"):
        options = {"scenario": scenario}
        played, elapsed, _, commands = timed(args, RULES, options, rng, "ws", scenario, warm=5)
        decisions += commands
        total += elapsed
        print(f"game: {RULES.key} {options}: {played} games timed in {elapsed:.2f} s (one core)")
        name = f"warring_states_{scenario.lower()}_games_per_second"
        figures.append(f"{name}: {played / elapsed:.1f} games/s")
    rate = f"{decisions / total:.0f}"
    return [f"warring_states_decisions_per_second: {rate} decisions/s", *figures]


if __name__ == "__main__":
    main()
