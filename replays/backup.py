"""``bingfa backup DIR`` and ``bingfa restore DIR``: a copy of the event store's Redis.

    backup(client, folder, event_store, replay_store) -> dict   counts (keys, exports)
    restore(client, folder) -> dict                             counts (keys)

The copy is every key of the store's Redis as Redis itself serialises it (DUMP, with its
time to live): the games' streams with their secrets as the store keeps them, the replay
store, profiles, notifications, and the read models too (they could be rebuilt with
``bingfa rebuild``, but copying them is simpler than leaving them out and costs little).
On one Redis the keys are dumped in one MULTI/EXEC, so the copy is of one instant; on a
Redis Cluster each key is read on its own node, without such a transaction (stop the
writers for an exact instant). Keys made between the SCAN and the dump are not copied, as
if the backup had been taken before they were made.

The folder holds:

    keys.jsonl        one key a line: {"key", "ttl" (ms, 0 = none), "dump"} (base64)
    exports/<id>.jsonl   every finished game's record, the JSON Lines ``bingfa export``
                      writes (readable and verifiable without Redis: ``bingfa verify``)
    manifest.json     format, time, counts, and the SHA-256 of keys.jsonl and each export

``restore`` reads only keys.jsonl (after checking the manifest's checksum) and refuses a
Redis that holds any key, changing nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
from pathlib import Path
from typing import Any

from games.i18n import said
from replays.record import NotFinished, dumps, record_of
from replays.store import ReplayStore

FORMAT = 1
KEYS_FILE = "keys.jsonl"
MANIFEST = "manifest.json"
EXPORTS = "exports"


class BackupError(Exception):
    """A backup that cannot be made or restored; its text says why."""


def _is_cluster(client: Any) -> bool:
    return hasattr(client, "get_primaries")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _dump_all(client: Any) -> list[tuple[bytes, int, bytes]]:
    """(key, ttl ms or 0, DUMP) of every key; one transaction on a single Redis."""
    keys = sorted(set(client.scan_iter(count=1000)))
    pipe = client.pipeline(transaction=not _is_cluster(client))
    for key in keys:
        pipe.dump(key)
        pipe.pttl(key)
    answers = pipe.execute()
    out = []
    for key, dumped, ttl in zip(keys, answers[0::2], answers[1::2], strict=True):
        if dumped is None:  # gone (expired or deleted) since the scan
            continue
        out.append((key, max(int(ttl), 0), dumped))
    return out


def backup(client: Any, folder: str | Path, event_store: Any,
           replay_store: ReplayStore) -> dict[str, int]:  # fmt: skip
    """Write the copy into ``folder`` (made if missing; it must hold no backup already)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if (folder / MANIFEST).exists() or (folder / KEYS_FILE).exists():
        raise BackupError(said("{folder} holds a backup already: choose an empty folder",
                               folder=str(folder)))  # fmt: skip
    dumped = _dump_all(client)
    keys_path = folder / KEYS_FILE
    with keys_path.open("w", encoding="utf-8") as out:
        for key, ttl, data in dumped:
            out.write(json.dumps({"key": base64.b64encode(key).decode(), "ttl": ttl,
                                  "dump": base64.b64encode(data).decode()}) + "\n")  # fmt: skip
    exports = folder / EXPORTS
    exports.mkdir(exist_ok=True)
    sums: dict[str, str] = {}
    for game_id in event_store.game_ids():
        text = _export_of(event_store, replay_store, game_id)
        if text is None:
            continue
        name = f"{game_id}.jsonl"
        (exports / name).write_text(text, encoding="utf-8")
        sums[name] = hashlib.sha256(text.encode()).hexdigest()
    manifest = {"format": FORMAT, "created": int(time.time()), "keys": len(dumped),
                "keys_sha256": _sha256(keys_path), "exports": sums}  # fmt: skip
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return {"keys": len(dumped), "exports": len(sums)}


def _export_of(event_store: Any, replay_store: ReplayStore, game_id: str) -> str | None:
    """The finished game's record as JSON Lines (as archived, else made from its stream,
    without writing anything); None while it is being played."""
    if replay_store.exists(game_id):
        return replay_store.text(game_id)
    try:
        return dumps(record_of(event_store, game_id))
    except NotFinished:
        return None


def read_manifest(folder: str | Path) -> dict[str, Any]:
    """The manifest, with keys.jsonl checked against its checksum."""
    folder = Path(folder)
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        raise BackupError(said("{folder} holds no readable backup (no {name})",
                               folder=str(folder), name=MANIFEST)) from None  # fmt: skip
    if manifest.get("format") != FORMAT:
        raise BackupError(said("this backup's format {found} is not the one this version "
                               "reads ({wanted})", found=manifest.get("format"),
                               wanted=FORMAT))  # fmt: skip
    keys_path = folder / KEYS_FILE
    if not keys_path.is_file() or _sha256(keys_path) != manifest.get("keys_sha256"):
        raise BackupError(said("{name} does not match the manifest's checksum: the backup "
                               "is damaged", name=KEYS_FILE))  # fmt: skip
    return manifest


def _key_count(client: Any) -> int:
    if _is_cluster(client):
        return sum(int(client.dbsize(target_nodes=node)) for node in client.get_primaries())
    return int(client.dbsize())


def restore(client: Any, folder: str | Path) -> dict[str, int]:
    """Put every key of the backup into ``client``'s Redis, which must be empty."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    held = _key_count(client)
    if held:
        raise BackupError(said("the Redis to restore into holds {count} keys already; "
                               "restore only into an empty Redis, nothing was changed",
                               count=held))  # fmt: skip
    count = 0
    with (folder / KEYS_FILE).open(encoding="utf-8") as lines:
        pipe = client.pipeline(transaction=False)
        for line in lines:
            row = json.loads(line)
            pipe.restore(base64.b64decode(row["key"]), row["ttl"], base64.b64decode(row["dump"]))
            count += 1
            if count % 500 == 0:
                pipe.execute()
        pipe.execute()
    if count != manifest["keys"]:
        raise BackupError(said("restored {count} keys but the manifest counts {expected}",
                               count=count, expected=manifest["keys"]))  # fmt: skip
    return {"keys": count}
