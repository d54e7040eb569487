"""Notifications: "your turn", "your opponent joined", "a draw is offered", "game over".

``due(game)`` (pure) is what a game's current state calls for; each notification has an
id that names the event it is about (``turn:<game>:<seat>:<since>`` …), so computing it
again — the projector follows a game at least once per change, and may skip versions —
finds the same ids, and ``NotificationStore.add`` keeps each id once.

Notifications are not a read model but a record of what each player was told: throwing
them away and computing them again would tell everyone again (and ``due`` only sees the
present, so past turns would be lost). So ``Notifications.delete_all`` (the rebuild)
keeps them, and re-following every game adds only what was never added: a catch-up.
A notification older than ``MAX_AGE_MS`` is never added (the "seen" ids are kept that
long), so neither a catch-up nor a lost key ever tells anyone of old news again.

Keys, all of one player under the hash tag ``{<player>}`` (one slot: Redis Cluster safe):

    nt:{P}:seen      zset  id -> at (ms): every id ever added, kept MAX_AGE_MS
    nt:{P}:seq       counter: the last notification's number (never reset)
    nt:{P}:list      zset  id -> seq, newest last, at most LIST_SIZE
    nt:{P}:items     hash  id -> notification (JSON)
    nt:{P}:read      the seq up to which the player has read
    nt:{P}:webhook   hash  url, base, digest, digest_hour, nonce (never the secret)
    nt:{P}:out       hash  id -> a webhook delivery waiting in the outbox (JSON)
    nt:{P}:log       list  the latest delivery results (JSON), newest first
    nt:{P}:digested  the seq up to which a digest covered

and two indexes over all players (single-key commands only):

    nt:outbox        zset  "<player> <id>" -> when to try the delivery next (ms)
    nt:digests       zset  player -> when their next daily digest is due (ms)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from events.clocks import ms
from events.projector import LoadedGame
from events.readmodels import players_of
from games.messages import Join, Message, is_message, msg, render

TURN, JOINED, DRAW, OVER, DIGEST, TEST = "turn", "joined", "draw", "over", "digest", "test"
MAX_AGE_MS = 30 * 24 * 3600_000  # older news is not worth telling (and ids are kept as long)
LIST_SIZE = 200
LOG_SIZE = 20
PREFIX = "nt:"
OUTBOX = f"{PREFIX}outbox"
DIGESTS = f"{PREFIX}digests"
DIGEST_OFF, DIGEST_DAILY = "off", "daily"

# What a notification says, as messages of the platform's table (``service.narration``
# merges them into ``TABLE``, so the catalogs hold them, context = id): each notification
# keeps its message (``message``, with its game ``rules``) beside its English ``text``, and
# is said again in its reader's language where it is delivered (``service.notices``).
NOTICES: dict[str, str] = {
    "table.notice.turn": "Your turn in game {game} ({seat}) against {opponent}.",
    "table.notice.nobody": "nobody",
    "table.notice.joined": "Your opponent joined game {game}: {seat} took their seat.",
    "table.notice.draw": "{seat} offers a draw in game {game}.",
    "table.notice.over": "Game {game} is over: {end}",
    "table.notice.digest": "Your Bingfa day: {count} notifications.",
    "table.notice.digest.one": "Your Bingfa day: 1 notification.",
    "table.notice.test": "A test from Bingfa: your webhook works.",
    # the seat and the computer, as the narration says them (same ids, same English)
    "table.seat": "{label}",
    "table.computer": "the computer ({level})",
}


@dataclass(frozen=True)
class Notification:
    id: str
    kind: str
    game: str
    seat: str
    player: str
    text: str
    url: str
    at: str  # when what it tells of happened (the event's time)
    # ``text`` as a message (JSON: ``message_json``) and the game whose words it uses:
    # what ``service.notices`` says again in the reader's language
    message: Any = None
    rules: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- pure: what a game's state calls for -------------------------------------------------
def due(game: LoadedGame) -> list[Notification]:
    """The notifications ``game`` calls for now, for its human players."""
    players = players_of(game)  # player -> seats, for seats created for a human
    if not players:
        return []
    player_of = {seat: player for player, seats in players.items() for seat in seats}
    gid = game.game_id
    out: list[Notification] = []

    table = {**game.rules.text.messages, **NOTICES}

    def add(kind: str, key: str, seat: str, message: Message, at: str) -> None:
        text = render(table, message)  # English, as it always was
        out.append(Notification(f"{kind}:{gid}{key}", kind, gid, seat, player_of[seat], text,
                                f"/g/{gid}/{seat}", at, message_json(message),
                                getattr(game.rules, "key", None)))  # fmt: skip

    _joined(game, player_of, add)
    outcome = game.outcome
    if outcome is not None:
        for seats in players.values():
            add(OVER, "", seats[0],
                msg("table.notice.over", game=gid, end=_result(game, outcome, seats)),
                game.table.last_at)  # fmt: skip
        return out
    seats_now = game.seats  # handed to the AI, or an AI standing in: not the player's turn
    for seat, turn in sorted(game.table.turns.items()):
        if seat not in player_of or seats_now.get(seat) != "human":
            continue
        by = turn.by
        if player_of.get(by) == player_of[seat] or seats_now.get(by, "").startswith("ai:"):
            continue  # they just moved (and owe more at once), or the AI answered at once
        text = msg("table.notice.turn", game=gid, seat=_label(game, seat),
                   opponent=_opponent(game, seat))  # fmt: skip
        add(TURN, f":{seat}:{turn.since}", seat, text, turn.at)
    offer = game.draw_offer
    if offer is not None:
        acted = game.table.acted.get(offer, 0)  # a new offer after a new move
        for seat in sorted(player_of):
            if seat != offer and player_of[seat] != player_of.get(offer):
                add(DRAW, f":{offer}:{acted}", seat,
                    msg("table.notice.draw", seat=_label(game, offer), game=gid),
                    game.table.last_at)  # fmt: skip
    return out


def _joined(game: LoadedGame, player_of: Mapping[str, str], add: Callable) -> None:
    """The "your opponent joined" notifications, for the players already seated when the
    last seat was taken. Who joined last is read from the turns the deal began (their ``by`` is the
    joining seat) while nobody has moved yet: the joined seats keep no order (a snapshot
    stores them sorted). Once someone has moved it is no longer computed, which is safe:
    it was added when the game began, and notifications are never taken back."""
    turns = game.table.turns
    if not game.dealt or game.table.acted or game.open_seats or not turns:
        return
    openers = {turn.by for turn in turns.values()}
    last = openers.pop() if len(openers) == 1 else None
    if last not in player_of:
        return  # an AI seat (taken at creation): nobody was waiting for it
    at = next(iter(turns.values())).at
    told: set[str] = set()
    for seat in sorted(player_of):
        player = player_of[seat]
        if seat == last or player == player_of[last] or player in told:
            continue
        told.add(player)
        text = msg("table.notice.joined", game=game.game_id, seat=_label(game, last))
        add(JOINED, f":{last}", seat, text, at)


def _opponent(game: LoadedGame, seat: str) -> Message:
    others = [s for s in game.created_seats if s != seat]
    if not others:
        return msg("table.notice.nobody")
    kind = game.seats.get(others[0], "")
    if kind.startswith("ai:"):
        return msg("table.computer", level=kind[3:])
    return _label(game, others[0])


def _label(game: LoadedGame, seat: str) -> Message:
    """The seat as players read it: its label in its game's catalogue (a catalogue word,
    said again in the reader's language by ``service.notices``)."""
    for info in getattr(getattr(game.rules, "catalogue", None), "seats", ()):
        if info.id == seat:
            return msg("table.seat", label=info.label)
    return msg("table.seat", label=seat.capitalize())


def _result(game: LoadedGame, outcome: Mapping[str, Any], seats: list[str]) -> Message:
    """How the game ended, in its game's own words (``text.end``): to the player of one
    seat from that seat's side; to a player who held every seat as to anyone."""
    seat = seats[0] if len(seats) == 1 else None
    return game.rules.text.end(outcome, seat)


# -- a message kept in JSON (a notification is stored, and said again later) -------------
def message_json(value: Any) -> Any:
    """``value`` (a message, its values) as JSON: a message is ``{"m": id, "v": {...}}``,
    a ``Join`` ``{"join": [...], "sep": sep}``."""
    if is_message(value):
        return {"m": value[0], "v": {k: message_json(v) for k, v in value[1].items()}}
    if isinstance(value, Join):
        return {"join": [message_json(v) for v in value.items], "sep": value.sep}
    if isinstance(value, list | tuple):
        return [message_json(v) for v in value]
    return value


def message_of(value: Any) -> Any:
    """The message ``message_json`` kept, as ``games.messages.render`` takes it."""
    if isinstance(value, dict) and "m" in value:
        return (value["m"], {k: message_of(v) for k, v in (value.get("v") or {}).items()})
    if isinstance(value, dict) and "join" in value:
        return Join(tuple(message_of(v) for v in value["join"]), value.get("sep", ", "))
    if isinstance(value, list):
        return [message_of(v) for v in value]
    return value


# -- Redis: the player's list, once per id; the webhook outbox ----------------------------
ADD_LUA = """
-- KEYS: seen, seq, list, items, webhook, out   ARGV: id, at_ms, json, oldest_ms, size, player
if redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1]) == 0 then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[4])
local seq = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[3], seq, ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
local extra = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[5])
if extra > 0 then
  local old = redis.call('ZRANGE', KEYS[3], 0, extra - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, extra - 1)
  redis.call('HDEL', KEYS[4], unpack(old))
end
redis.call('PUBLISH', 'live:n:' .. ARGV[6], seq)  -- the player's open pages wait on it
local url = redis.call('HGET', KEYS[5], 'url')
local digest = redis.call('HGET', KEYS[5], 'digest')
if url and digest ~= 'daily' then
  redis.call('HSET', KEYS[6], ARGV[1], ARGV[3])
  return {seq, 1}
end
return {seq, 0}
"""

# Take the deliveries due by ARGV[1] (at most ARGV[3]) and push each one's next try to
# ARGV[2] (a lease): two sweeps at once never take the same one, and one whose sweep died
# is tried again when its lease is over.
CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], member) end
return due
"""


MARK_LUA = """
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1])
end
"""


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def next_digest_ms(now_ms: int, hour: int) -> int:
    """The first ``hour``:00 UTC after ``now_ms``."""
    now = datetime.fromtimestamp(now_ms / 1000, UTC)
    at = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    if at <= now:
        at += timedelta(days=1)
    return round(at.timestamp() * 1000)


class NotificationStore:
    """Each player's notifications, their webhook and its outbox, in one Redis."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._add = redis.register_script(ADD_LUA)
        self._claim = redis.register_script(CLAIM_LUA)
        self._mark = redis.register_script(MARK_LUA)

    @staticmethod
    def key(player: str, name: str) -> str:
        return f"{PREFIX}{{{player}}}:{name}"

    # -- the list ------------------------------------------------------------------------
    def add(self, n: Notification, now_ms: int) -> tuple[int, bool]:
        """Add ``n`` unless its id was ever added: (its seq or 0 when not added, whether a
        webhook delivery was put in the outbox)."""
        at_ms = ms(n.at) if n.at else now_ms
        if at_ms < now_ms - MAX_AGE_MS:
            return 0, False
        k = lambda name: self.key(n.player, name)  # noqa: E731
        body = json.dumps(n.to_dict(), separators=(",", ":"))
        found = self._add(keys=[k("seen"), k("seq"), k("list"), k("items"), k("webhook"),
                                k("out")],
                          args=[n.id, at_ms, body, now_ms - MAX_AGE_MS, LIST_SIZE,
                                n.player])  # fmt: skip
        if not found:
            # Seen before. Its delivery may still wait in ``out`` without an outbox entry
            # (a process died between the script and the ZADD below): put it back, so the
            # retried projection repairs it. NX: a delivery already waiting keeps its time.
            if self.redis.hexists(k("out"), n.id):
                self.redis.zadd(OUTBOX, {f"{n.player} {n.id}": now_ms}, nx=True)
            return 0, False
        seq, queued = int(found[0]), bool(found[1])
        if queued:  # the outbox is one key for every player: a command of its own
            self.redis.zadd(OUTBOX, {f"{n.player} {n.id}": now_ms}, nx=True)
        return seq, queued

    def _items(self, player: str, rows: list) -> list[dict[str, Any]]:
        if not rows:
            return []
        ids = [_text(member) for member, _ in rows]
        raws = self.redis.hmget(self.key(player, "items"), ids)
        read = self.read_upto(player)
        out = []
        for (_, seq), raw in zip(rows, raws, strict=True):
            if raw is not None:
                item = json.loads(raw)
                item.pop("player", None)
                out.append({**item, "seq": int(seq), "read": int(seq) <= read})
        return out

    def newest(self, player: str, before: int | None = None, limit: int = 50) -> list[dict]:
        """Newest first; ``before`` a seq: only older ones (paging)."""
        high = f"({before}" if before is not None else "+inf"
        rows = self.redis.zrevrangebyscore(self.key(player, "list"), high, "-inf", 0, limit,
                                           withscores=True)  # fmt: skip
        return self._items(player, rows)

    def since(self, player: str, after: int, limit: int = 100) -> list[dict[str, Any]]:
        """Those after seq ``after``, oldest first (a stream catching up)."""
        rows = self.redis.zrangebyscore(self.key(player, "list"), f"({after}", "+inf", 0, limit,
                                        withscores=True)  # fmt: skip
        return self._items(player, rows)

    def last_seq(self, player: str) -> int:
        return int(self.redis.get(self.key(player, "seq")) or 0)

    def read_upto(self, player: str) -> int:
        return int(self.redis.get(self.key(player, "read")) or 0)

    def unread(self, player: str) -> int:
        return self.redis.zcount(self.key(player, "list"), f"({self.read_upto(player)}", "+inf")

    def mark_read(self, player: str, upto: int) -> int:
        """Everything up to seq ``upto`` is read (never moves back); the unread count."""
        upto = min(upto, self.last_seq(player))
        self._mark(keys=[self.key(player, "read")], args=[upto])
        return self.unread(player)

    # -- the webhook ------------------------------------------------------------------------
    def webhook(self, player: str) -> dict[str, str] | None:
        raw = self.redis.hgetall(self.key(player, "webhook"))
        return {_text(k): _text(v) for k, v in raw.items()} if raw else None

    def set_webhook(self, player: str, hook: Mapping[str, Any], now_ms: int) -> None:
        key = self.key(player, "webhook")
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            pipe.hset(key, mapping={k: str(v) for k, v in hook.items()})
            pipe.execute()
        if hook.get("digest") == DIGEST_DAILY:
            self.redis.zadd(DIGESTS, {player: next_digest_ms(now_ms, int(hook["digest_hour"]))})
            self.redis.set(self.key(player, "digested"), self.last_seq(player))
        else:
            self.redis.zrem(DIGESTS, player)

    def delete_webhook(self, player: str) -> bool:
        """Forget the webhook and whatever waited to be sent to it."""
        pending = self.redis.hkeys(self.key(player, "out"))
        if pending:
            self.redis.zrem(OUTBOX, *[f"{player} {_text(i)}" for i in pending])
        self.redis.delete(self.key(player, "out"))
        self.redis.zrem(DIGESTS, player)
        return bool(self.redis.delete(self.key(player, "webhook")))

    # -- the outbox -------------------------------------------------------------------------
    def enqueue(self, player: str, delivery_id: str, payload: Mapping[str, Any],
                now_ms: int) -> bool:  # fmt: skip
        """Put a delivery in the outbox (once per id while it waits); whether it was."""
        body = json.dumps(dict(payload), separators=(",", ":"))
        if not self.redis.hsetnx(self.key(player, "out"), delivery_id, body):
            return False
        self.redis.zadd(OUTBOX, {f"{player} {delivery_id}": now_ms}, nx=True)
        return True

    def claim(self, now_ms: int, lease_ms: int, limit: int = 1) -> list[tuple[str, str]]:
        """(player, delivery id) of deliveries due by ``now_ms``, taken for ``lease_ms``."""
        members = self._claim(keys=[OUTBOX], args=[now_ms, now_ms + lease_ms, limit])
        return [tuple(_text(m).split(" ", 1)) for m in members]  # type: ignore[misc]

    def delivery(self, player: str, delivery_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self.key(player, "out"), delivery_id)
        return None if raw is None else json.loads(raw)

    def retry_at(self, player: str, delivery_id: str, record: Mapping[str, Any],
                 when_ms: int) -> None:  # fmt: skip
        self.redis.hset(self.key(player, "out"), delivery_id,
                        json.dumps(dict(record), separators=(",", ":")))  # fmt: skip
        self.redis.zadd(OUTBOX, {f"{player} {delivery_id}": when_ms}, xx=True)

    def finish(self, player: str, delivery_id: str, result: Mapping[str, Any]) -> None:
        """The delivery is over (sent, or given up): out of the outbox, into the log."""
        self.redis.zrem(OUTBOX, f"{player} {delivery_id}")
        self.redis.hdel(self.key(player, "out"), delivery_id)
        self.log(player, result)

    def log(self, player: str, result: Mapping[str, Any]) -> None:
        key = self.key(player, "log")
        self.redis.lpush(key, json.dumps(dict(result), separators=(",", ":")))
        self.redis.ltrim(key, 0, LOG_SIZE - 1)

    def deliveries(self, player: str) -> list[dict[str, Any]]:
        return [json.loads(r) for r in self.redis.lrange(self.key(player, "log"), 0, -1)]

    def outbox_size(self) -> int:
        return self.redis.zcard(OUTBOX)

    # -- the daily digest -------------------------------------------------------------------
    def take_due_digest(self, now_ms: int) -> list[str]:
        """The players whose digest is due, each taken by moving its time to the next day
        (``ZADD XX GT CH``: of two sweeps at once only one moves it)."""
        taken = []
        for raw, _ in self.redis.zrangebyscore(DIGESTS, "-inf", now_ms, 0, 100,
                                               withscores=True):  # fmt: skip
            player = _text(raw)
            hook = self.webhook(player)
            if hook is None or hook.get("digest") != DIGEST_DAILY:
                self.redis.zrem(DIGESTS, player)
                continue
            upcoming = next_digest_ms(now_ms, int(hook.get("digest_hour") or 0))
            if self.redis.zadd(DIGESTS, {player: upcoming}, xx=True, gt=True, ch=True):
                taken.append(player)
        return taken

    def undigested(self, player: str) -> tuple[list[dict[str, Any]], int]:
        """The unread notifications a digest has not covered yet, oldest first, and the
        seq the digest covers up to."""
        since = max(self.read_upto(player), int(self.redis.get(self.key(player, "digested"))
                                                 or 0))  # fmt: skip
        items = self.since(player, since, limit=LIST_SIZE)
        return items, (items[-1]["seq"] if items else since)

    def digested(self, player: str, upto: int) -> None:
        self.redis.set(self.key(player, "digested"), upto)


# -- the follower -------------------------------------------------------------------------
class Notifications:
    """A ``ReadModels`` follower: adds each notification a game calls for, once."""

    def __init__(self, store: NotificationStore,
                 clock: Callable[[], int] | None = None) -> None:  # fmt: skip
        self.store = store
        self.clock = clock or (lambda: round(datetime.now(UTC).timestamp() * 1000))

    def follow(self, game: LoadedGame, entries: Any = None) -> list[Notification]:
        """Add what ``game`` calls for; the notifications that were new."""
        now = self.clock()
        return [n for n in due(game) if self.store.add(n, now)[0]]

    def delete_all(self) -> int:
        """Nothing: notifications are what players were told, not a view to rebuild (see
        the module's docstring); re-following every game only adds what was missed."""
        return 0


def payload(item: Mapping[str, Any], base: str = "") -> dict[str, Any]:
    """A webhook's body for a notification: what the player may see of it."""
    url = item.get("url") or ""
    body = {"id": item["id"], "kind": item["kind"], "game": item.get("game"),
            "seat": item.get("seat"), "text": item["text"],
            "url": base.rstrip("/") + url if url else url, "at": item["at"]}  # fmt: skip
    if "said" in item:  # the text in the reader's language (``service.notices``)
        body["said"], body["lang"] = item["said"], item.get("lang")
    if "items" in item:  # a digest: the notifications it gathers
        body["items"] = [payload(i, base) for i in item["items"]]
    return body
