"""The ``bingfa`` command line.

    bingfa selfplay [--game sun-tzu] [-n 1000] [--seed 1] [--variant standard] [--events]
                    [--blue random] [--red random]
    bingfa rebuild [--partitions 16]     (REDIS_URL: the event store's Redis)

A policy is a name from ``games.playout.POLICIES`` or ``module:function`` with the
signature ``(rules, state, seat, rng) -> command``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import sys
from collections import Counter

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

import games
from games.playout import POLICIES, Policy, play


def load_policy(spec: str) -> Policy:
    if spec in POLICIES:
        return POLICIES[spec]
    module, _, name = spec.partition(":")
    if not name:
        known = ", ".join(sorted(POLICIES))
        raise SystemExit(f"unknown policy {spec!r}: use one of {known} or module:function")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as error:
        raise SystemExit(f"cannot load policy {spec!r}: {error}") from None


def selfplay(args: argparse.Namespace, console: Console) -> int:
    try:
        rules = games.get(args.game)
    except KeyError as error:
        console.print(f"[red]{error.args[0]}[/red]")
        return 2
    options = {"variant": args.variant, "events": args.events}
    policies = {
        seat: load_policy(spec)
        for seat, spec in zip(rules.seats, (args.blue, args.red), strict=True)
    }
    wins: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    rounds = length = 0
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(f"{rules.key} self-play", total=args.games)
        for i in range(args.games):
            game = play(rules, options, random.Random(f"{args.seed}:{i}"), policies)
            wins[game.outcome["winner"] or "draw"] += 1
            reasons[game.outcome["reason"]] += 1
            rounds += getattr(game.state, "round", 0)
            length += len(game.events)
            progress.advance(task)
    n = args.games
    events = "events on" if args.events else "events off"
    console.print(
        f"{n} games of {rules.key} ({args.variant}, {events}), seed {args.seed}", soft_wrap=True
    )
    seats = zip(rules.seats, (args.blue, args.red), strict=True)
    console.print("policies: " + ", ".join(f"{s} = {spec}" for s, spec in seats), soft_wrap=True)
    table = Table("result", "games", "rate")
    for who in (*rules.seats, "draw"):
        table.add_row(
            f"{who} wins" if who != "draw" else "draws", str(wins[who]), f"{wins[who] / n:.1%}"
        )
    console.print(table)
    ends = Table("ending", "games", "rate")
    for reason, count in reasons.most_common():
        ends.add_row(reason, str(count), f"{count / n:.1%}")
    console.print(ends)
    console.print(f"average length: {rounds / n:.2f} rounds, {length / n:.1f} events")
    return 0


def rebuild(args: argparse.Namespace, console: Console) -> int:
    """Throw the read models away and rebuild them from the event streams."""
    url = os.environ.get("REDIS_URL")
    if not url:
        console.print("[red]bingfa rebuild needs REDIS_URL (the event store's Redis)[/red]")
        return 2
    partitions = args.partitions or int(os.environ.get("BINGFA_PARTITIONS", 16))
    import redis

    from events.readmodels import ReadModels
    from events.redis_store import RedisEventStore, connect

    client = connect(url)
    try:
        store = RedisEventStore(client, partitions=partitions)
        counts = ReadModels(client, partitions).rebuild(store)
    except redis.ConnectionError as error:
        console.print(f"[red]cannot reach the Redis at REDIS_URL: {error}[/red]")
        return 1
    finally:
        client.close()
    console.print(
        f"deleted {counts['deleted']} read-model keys; rebuilt from {counts['games']} games: "
        f"{counts['lobby']} in the lobby, {counts['finished']} finished, "
        f"{counts['players']} players with games",
        soft_wrap=True,
    )
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="bingfa", description="Bingfa command line")
    sub = top.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play games between policies and summarise them")
    sp.add_argument("--game", default="sun-tzu")
    sp.add_argument("-n", "--games", type=int, default=1000)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--variant", default="standard", choices=["standard", "beginner"])
    sp.add_argument("--events", action=argparse.BooleanOptionalAction, default=True)
    sp.add_argument("--blue", default="random", help="policy for the first seat")
    sp.add_argument("--red", default="random", help="policy for the second seat")
    rb = sub.add_parser("rebuild", help="delete every read model and rebuild it from the streams")
    rb.add_argument(
        "--partitions", type=int, help="partitions of the event store (BINGFA_PARTITIONS, 16)"
    )
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    console = Console()
    if args.command == "selfplay":
        return selfplay(args, console)
    if args.command == "rebuild":
        return rebuild(args, console)
    return 2


if __name__ == "__main__":
    sys.exit(main())
