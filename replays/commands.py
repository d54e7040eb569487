"""``bingfa verify``, ``bingfa export`` and ``bingfa archive`` (wired in ``service.cli``).

    bingfa verify <file.jsonl | replay id>   audit a record; exit 0 if it holds, 1 if not
    bingfa export <replay id> [-o file]      a finished game's record as JSON Lines
    bingfa archive --all | <game id> ...     finished games into the replay store

A replay id is looked up in the replay store on ``REDIS_URL`` (a finished game not yet
archived is archived first).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table


def _replay_stores(console: Console, partitions: int | None = None) -> tuple[Any, Any] | None:
    """(event store, replay store) on REDIS_URL, or None after saying why not."""
    url = os.environ.get("REDIS_URL")
    if not url:
        console.print(
            "[error]set REDIS_URL to the event store's Redis (replays live there)[/error]"
        )
        return None
    from events.redis_store import RedisEventStore, connect
    from replays.store import ReplayStore

    client = connect(url)
    parts = partitions or int(os.environ.get("BINGFA_PARTITIONS", 16))
    return RedisEventStore(client, partitions=parts), ReplayStore(client)


def _stored_record(target: str, console: Console) -> Any:
    """The record of a replay id (archived now if the game ended but is not archived)."""
    import redis

    from events.store import UnknownGame
    from replays.archive import archive
    from replays.record import NotFinished

    stores = _replay_stores(console)
    if stores is None:
        return None
    events, replays = stores
    try:
        if not replays.exists(target):
            archive(events, replays, target)
        return replays.get(target)
    except (UnknownGame, NotFinished) as error:
        console.print(f"[error]{escape(str(error))}[/error]")
    except redis.ConnectionError as error:
        console.print(f"[error]cannot reach the Redis at REDIS_URL: {escape(str(error))}[/error]")
    return None


def verify(args: argparse.Namespace, console: Console) -> int:
    """Audit a record (a JSONL file, or a stored replay by id): 0 holds, 1 not, 2 unreadable."""
    from replays.record import RecordError, loads
    from replays.verify import verify as audit

    path = Path(args.target)
    if path.is_file() or args.target.endswith(".jsonl"):
        try:
            record = loads(path.read_bytes())
        except (OSError, RecordError) as error:
            console.print(f"[error]{escape(str(args.target))}: {escape(str(error))}[/error]")
            return 1
    else:
        record = _stored_record(args.target, console)
        if record is None:
            return 2
    report = audit(record)
    h = record.header
    said = f"{h['game']}, {h['events']} events, result {h['result']} ({h['reason']})"
    console.print(f"replay {escape(h['id'])}: {escape(said)}", soft_wrap=True)
    for check in report.checks:
        console.print(f"  [green]✓[/green] {check}")
    for note in report.notes:
        console.print(f"  [yellow]note:[/yellow] {escape(note)}", soft_wrap=True)
    d = report.divergence
    if d is None:
        console.print(f"[bold green]{escape(report.sentence)}[/bold green]", soft_wrap=True)
        return 0
    console.print(f"  [error]✗[/error] {d.check}", soft_wrap=True)
    table = Table("step", "field", "expected", "found")
    table.add_row(str(d.step), escape(d.field), escape(repr(d.expected)), escape(repr(d.found)))
    console.print(table)
    console.print(f"[error]{escape(report.sentence)}[/error]", soft_wrap=True)
    return 1


def export(args: argparse.Namespace, console: Console) -> int:
    from replays.record import dumps

    record = _stored_record(args.replay_id, console)
    if record is None:
        return 2
    text = dumps(record)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        console.print(f"wrote {len(record.events)} events to {escape(args.output)}")
    return 0


def archive(args: argparse.Namespace, console: Console) -> int:
    import redis

    from events.store import UnknownGame
    from replays.archive import archive as archive_one
    from replays.archive import archive_all
    from replays.record import NotFinished

    if not args.all and not args.games:
        console.print("[error]name the games to archive, or --all[/error]")
        return 2
    stores = _replay_stores(console, args.partitions)
    if stores is None:
        return 2
    events, replays = stores
    try:
        if args.all:
            counts = archive_all(events, replays)
            console.print(f"archived {counts['archived']} finished games "
                          f"({counts['already']} were archived already, "
                          f"{counts['running']} are still being played)")  # fmt: skip
            return 0
        failed = 0
        for game_id in args.games:
            try:
                console.print(f"archived {escape(archive_one(events, replays, game_id))}")
            except (UnknownGame, NotFinished) as error:
                console.print(f"[error]{escape(str(error))}[/error]")
                failed += 1
        return 1 if failed else 0
    except redis.ConnectionError as error:
        console.print(f"[error]cannot reach the Redis at REDIS_URL: {escape(str(error))}[/error]")
        return 1


def _copying(console: Console, step: Any) -> dict[str, int] | None:
    """Run a backup or restore ``step``; its counts, or None once the failure is said."""
    import redis

    from replays.backup import BackupError

    try:
        return step()
    except BackupError as error:
        console.print(f"[error]{escape(str(error))}[/error]", soft_wrap=True)
    except redis.ConnectionError as error:
        console.print(f"[error]cannot reach the Redis at REDIS_URL: {escape(str(error))}[/error]")
    return None


def backup(args: argparse.Namespace, console: Console) -> int:
    """Copy the store's Redis and every finished game's export into ``args.folder``."""
    from replays.backup import backup as copy

    stores = _replay_stores(console, args.partitions)
    if stores is None:
        return 2
    events, replays = stores
    counts = _copying(console, lambda: copy(events.redis, args.folder, events, replays))
    if counts is None:
        return 1
    console.print(f"backed up {counts['keys']} keys and {counts['exports']} finished games' "
                  f"records into {escape(args.folder)}", soft_wrap=True)  # fmt: skip
    return 0


def restore(args: argparse.Namespace, console: Console) -> int:
    """Put a backup into the empty Redis at REDIS_URL."""
    from replays.backup import restore as put_back

    stores = _replay_stores(console)
    if stores is None:
        return 2
    counts = _copying(console, lambda: put_back(stores[0].redis, args.folder))
    if counts is None:
        return 1
    console.print(f"restored {counts['keys']} keys from {escape(args.folder)}", soft_wrap=True)
    return 0
