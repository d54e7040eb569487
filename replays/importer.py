"""Importing a record exported elsewhere: parse, verify, store it marked ``imported``.

    import_record(text, replay_store, *, taken=None, new_id=None) -> Imported

Nothing is stored unless the record verifies: ``RecordError`` for text that is not a
record (the line and the fault), ``ImportRefused`` (with the ``Report``) for a record that
does not hold. The record keeps its id when that is free; when the id is taken by another
record, or ``taken(id)`` says so (the service passes "a game of this server has that id",
so an import can never squat on the replay id of a game still being played here), it is
stored under a new id and ``Imported.renamed`` says so. One history is stored once: a
record whose hash chain ends where a stored replay's does is that replay
(``Imported.duplicate``, its id), whatever id the copy came under; ``archive(id)`` (the
service passes "archive this server's game if it is finished") first makes a finished game
of this server a replay, so importing its own export finds it. A record id that is not an
id (letters, digits, ``-`` and ``_``, at most 64) is refused (``RecordError``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from events.store import VALID_ID
from games.i18n import said
from replays.record import RecordError, loads
from replays.store import ReplayClash, ReplayStore
from replays.verify import Report, verify


class ImportRefused(ValueError):
    """The record does not verify; ``report`` says where it first goes wrong."""

    def __init__(self, report: Report) -> None:
        super().__init__(said("the record was not imported: {why}", why=report.sentence))
        self.report = report


@dataclass(frozen=True)
class Imported:
    id: str
    report: Report
    renamed: bool = False  # stored under a new id: the record's own was taken
    original_id: str = ""
    duplicate: bool = False  # this very record was here already: nothing new stored

    @property
    def sentence(self) -> str:
        if self.duplicate:
            return said("This record is already here as replay {id}.", id=self.id)
        if self.renamed:
            return said("Imported as replay {id}: the id {original} was already taken by "
                        "another game.", id=self.id, original=self.original_id)  # fmt: skip
        return said("Imported as replay {id}.", id=self.id)


def import_record(
    text: str | bytes,
    replay_store: ReplayStore,
    *,
    taken: Callable[[str], bool] | None = None,
    new_id: Callable[[], str] | None = None,
    archive: Callable[[str], None] | None = None,
) -> Imported:
    record = loads(text)
    original = record.id
    if not VALID_ID.fullmatch(original):
        raise RecordError(
            said(
                "line 1: the header's id {original!r} is not an id (letters, "
                "digits, - and _, at most 64 of them)",
                original=original[:80],
            )
        )
    report = verify(record)
    if not report.ok:
        raise ImportRefused(report)
    if archive is not None and taken is not None and taken(original):
        archive(original)  # this server's own game: its replay, if it has ended
    known = replay_store.by_head(record.head)
    if known is not None:
        return Imported(known, report, known != original, original, duplicate=True)
    record = record.with_header(imported=True)
    make_id = new_id or (lambda: secrets.token_hex(9))
    replay_id = original
    for _ in range(10):
        if taken is None or not taken(replay_id):
            summary = replay_store.summary(replay_id)
            try:
                stored = replay_store.put(record.with_header(id=replay_id))
            except ReplayClash:
                pass
            else:
                duplicate = summary is not None
                return Imported(stored, report, stored != original, original, duplicate)
        replay_id = make_id()
    raise RuntimeError("no free replay id after 10 tries")
