"""Matchmaking, without Flask: open seeks anyone may accept, and rematches.

A *seek* is "looking for a game: these options, this clock, rated or not, this colour".
Accepting one makes the game through the ordinary write path (``WritePath.create_game`` and
two ``join``\\ s), so a seek's game is a game like any other. The seeker gets their seat's
token when they post the seek (only its sha256 is kept, in the seek); the acceptor gets
theirs in the answer; both can also act by the player id that took the seat.

A *rematch* of a finished game is asked for by its seats; the offer is kept beside the
seeks (the finished game's stream ends with ``seed_revealed`` and gets nothing more). When
the other seat asks too, the new game is made with the colours swapped. Against the AI it
is made at once.

Two stores: ``RedisSeekStore`` (every key under the ``{seeks}`` hash tag, so it runs on a
Redis Cluster; every change of state is one Lua script, so two people accepting the same
seek at once cannot both get it) and ``InMemorySeekStore`` (tests), with one contract.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from events import clocks
from events.errors import Invalid
from events.writepath import MAX_NONCE_LENGTH, Forbidden, NotFound, WritePath
from service import access, kinds

SEEK_LIMIT = 5  # open seeks per player: enough to offer a few kinds of game
SEEK_DAYS = 7  # an open seek nobody accepted in a week is stale: hidden, then deleted
DAY_MS = 24 * 3600 * 1000
KEEP_SECONDS = 2 * SEEK_DAYS * 24 * 3600  # Redis forgets a seek or an offer after this
RANDOM = "random"  # the colour of a seek whose seeker takes whichever seat comes


def colours(game: str) -> tuple[str, ...]:
    """The colours a seek of ``game`` may want: each of its seats, or random."""
    return (*(seat.id for seat in kinds.catalogue(game).seats), RANDOM)


class Conflict(Exception):
    """Someone else got there first, or there is a limit: HTTP 409, with the sentence."""


# -- the stores ----------------------------------------------------------------------------
# A seek record: {"id", "player", "game", "options", "clock", "rated", "colour",
#  "created_at", "created_ms", "nonce", "token_hash", "status", "acceptor", "game_id",
#  "seat"}; status is open → taken (being made into a game) → made, or cancelled.
# A rematch record: {"status": offered | making | made, "offered_by", "token_hash",
#  "nonce", "game_id"}.

CLAIM_CODES = ("ok", "gone", "taken", "made", "cancelled", "expired")


class SeekStore:
    """Where seeks and rematch offers live. Every method is atomic."""

    def add(self, seek: Mapping[str, Any], limit: int, cutoff_ms: int) -> bool:
        """Store an open seek unless its player has ``limit`` open ones (created after
        ``cutoff_ms``): False then."""
        raise NotImplementedError

    def get(self, seek_id: str) -> dict[str, Any] | None:
        raise NotImplementedError

    def open_seeks(self, cutoff_ms: int) -> list[dict[str, Any]]:
        """Open seeks created after ``cutoff_ms``, newest first; older ones are deleted."""
        raise NotImplementedError

    def player_seeks(self, player: str, cutoff_ms: int) -> list[dict[str, Any]]:
        """The player's seeks created after ``cutoff_ms`` (open, being made, made), newest
        first."""
        raise NotImplementedError

    def claim(self, seek_id: str, acceptor: str, cutoff_ms: int) -> str:
        """Take an open seek for ``acceptor``: "ok" for exactly one caller; otherwise why
        not: "gone", "taken" (someone is being given it), "made", "cancelled", "expired"."""
        raise NotImplementedError

    def release(self, seek_id: str) -> None:
        """A claimed seek whose game could not be made is open again."""
        raise NotImplementedError

    def made(self, seek_id: str, game_id: str, seat: str) -> None:
        """The claimed seek became ``game_id``, its seeker playing ``seat``."""
        raise NotImplementedError

    def cancel(self, seek_id: str, player: str) -> str:
        """Returns "ok", or why not: "gone", "not yours", "taken", "made"."""
        raise NotImplementedError

    def offer_rematch(
        self, game_id: str, seat: str, token_hash: str, nonce: str | None, solo: bool
    ) -> tuple[str, dict[str, Any]]:
        """``seat`` of finished ``game_id`` asks for a rematch. Returns ("offered", {}) the
        first time (a seat asking again replaces its token hash and nonce), ("claimed",
        the other seat's offer) for exactly one caller once both asked (or at once when
        ``solo``: the other seat is the AI), ("making", {}) while that caller makes the
        game, ("made", record) once it exists."""
        raise NotImplementedError

    def rematch_made(self, game_id: str, new_game_id: str, offered_by: str) -> None:
        raise NotImplementedError

    def rematch_release(self, game_id: str, offer: Mapping[str, Any]) -> None:
        """The claimed rematch could not be made: back to ``offer`` (empty: no offer)."""
        raise NotImplementedError

    def rematch(self, game_id: str) -> dict[str, Any] | None:
        raise NotImplementedError


class InMemorySeekStore(SeekStore):
    """Dicts behind one lock: the reference for the contract tests."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seeks: dict[str, dict[str, Any]] = {}
        self._rematches: dict[str, dict[str, Any]] = {}

    def add(self, seek, limit, cutoff_ms):
        with self._lock:
            mine = [s for s in self._seeks.values() if s["player"] == seek["player"]
                    and s["status"] == "open" and s["created_ms"] >= cutoff_ms]  # fmt: skip
            if len(mine) >= limit:
                return False
            self._seeks[seek["id"]] = {**seek, "status": "open", "acceptor": None,
                                       "game_id": None, "seat": None}  # fmt: skip
            return True

    def get(self, seek_id):
        with self._lock:
            found = self._seeks.get(seek_id)
            return None if found is None else dict(found)

    def open_seeks(self, cutoff_ms):
        with self._lock:
            for seek_id, seek in list(self._seeks.items()):
                if seek["status"] == "open" and seek["created_ms"] < cutoff_ms:
                    del self._seeks[seek_id]
            found = [dict(s) for s in self._seeks.values() if s["status"] == "open"]
        return sorted(found, key=lambda s: (-s["created_ms"], s["id"]))

    def player_seeks(self, player, cutoff_ms):
        with self._lock:
            found = [dict(s) for s in self._seeks.values()
                     if s["player"] == player and s["created_ms"] >= cutoff_ms]  # fmt: skip
        return sorted(found, key=lambda s: (-s["created_ms"], s["id"]))

    def claim(self, seek_id, acceptor, cutoff_ms):
        with self._lock:
            seek = self._seeks.get(seek_id)
            if seek is None:
                return "gone"
            if seek["status"] != "open":
                return seek["status"]
            if seek["created_ms"] < cutoff_ms:
                return "expired"
            seek.update(status="taken", acceptor=acceptor)
            return "ok"

    def release(self, seek_id):
        with self._lock:
            seek = self._seeks.get(seek_id)
            if seek is not None and seek["status"] == "taken":
                seek.update(status="open", acceptor=None)

    def made(self, seek_id, game_id, seat):
        with self._lock:
            seek = self._seeks.get(seek_id)
            if seek is not None:
                seek.update(status="made", game_id=game_id, seat=seat)

    def cancel(self, seek_id, player):
        with self._lock:
            seek = self._seeks.get(seek_id)
            if seek is None:
                return "gone"
            if seek["player"] != player:
                return "not yours"
            if seek["status"] != "open":
                return seek["status"]
            del self._seeks[seek_id]
            return "ok"

    def offer_rematch(self, game_id, seat, token_hash, nonce, solo):
        with self._lock:
            found = self._rematches.get(game_id)
            if found is not None and found["status"] in ("made", "making"):
                return found["status"], dict(found) if found["status"] == "made" else {}
            if solo or (found is not None and found["offered_by"] != seat):
                self._rematches[game_id] = {**(found or {}), "status": "making"}
                return "claimed", dict(found or {})
            self._rematches[game_id] = {"status": "offered", "offered_by": seat,
                                        "token_hash": token_hash, "nonce": nonce,
                                        "game_id": None}  # fmt: skip
            return "offered", {}

    def rematch_made(self, game_id, new_game_id, offered_by):
        with self._lock:
            made = {"status": "made", "game_id": new_game_id, "offered_by": offered_by}
            self._rematches[game_id] = {**self._rematches.get(game_id, {}), **made}

    def rematch_release(self, game_id, offer):
        with self._lock:
            if offer:
                self._rematches[game_id] = {**offer, "status": "offered"}
            else:
                self._rematches.pop(game_id, None)

    def rematch(self, game_id):
        with self._lock:
            found = self._rematches.get(game_id)
            return None if found is None else dict(found)


PREFIX = "mm:{seeks}:"  # one hash tag: every key in one Redis Cluster slot

ADD_LUA = """
local open_of_player = KEYS[4]
redis.call('ZREMRANGEBYSCORE', open_of_player, '-inf', '(' .. ARGV[3])
if redis.call('ZCARD', open_of_player) >= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[5], 'status', 'open', 'created_ms', ARGV[2],
           'player', ARGV[6])
redis.call('EXPIRE', KEYS[1], ARGV[7])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[3], ARGV[7])
redis.call('ZADD', open_of_player, ARGV[2], ARGV[1])
redis.call('EXPIRE', open_of_player, ARGV[7])
return 1
"""

# Open seeks past the cutoff: out of the list and deleted (their players' indexes too).
SWEEP_LUA = """
local old = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
for _, id in ipairs(old) do
  local key = ARGV[2] .. 's:' .. id
  local player = redis.call('HGET', key, 'player')
  if player then
    redis.call('ZREM', ARGV[2] .. 'po:' .. player, id)
    redis.call('ZREM', ARGV[2] .. 'p:' .. player, id)
  end
  redis.call('DEL', key)
  redis.call('ZREM', KEYS[1], id)
end
return #old
"""

CLAIM_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'open' then return status end
if tonumber(redis.call('HGET', KEYS[1], 'created_ms')) < tonumber(ARGV[2]) then
  return 'expired'
end
redis.call('HSET', KEYS[1], 'status', 'taken', 'acceptor', ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('ZREM', KEYS[3], ARGV[3])
return 'ok'
"""

RELEASE_LUA = """
if redis.call('HGET', KEYS[1], 'status') ~= 'taken' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'open')
redis.call('HDEL', KEYS[1], 'acceptor')
local created = redis.call('HGET', KEYS[1], 'created_ms')
redis.call('ZADD', KEYS[2], created, ARGV[1])
redis.call('ZADD', KEYS[3], created, ARGV[1])
return 1
"""

CANCEL_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
if redis.call('HGET', KEYS[1], 'player') ~= ARGV[2] then return 'not yours' end
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'open' then return status end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return 'ok'
"""

OFFER_LUA = """
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'made' or status == 'making' then
  return {status, redis.call('HGET', KEYS[1], 'game_id') or ''}
end
local by = redis.call('HGET', KEYS[1], 'offered_by')
if ARGV[5] == '1' or (by and by ~= ARGV[1]) then
  local offer = redis.call('HMGET', KEYS[1], 'offered_by', 'token_hash', 'nonce')
  redis.call('HSET', KEYS[1], 'status', 'making')
  redis.call('EXPIRE', KEYS[1], ARGV[4])
  return {'claimed', offer[1] or '', offer[2] or '', offer[3] or ''}
end
redis.call('HSET', KEYS[1], 'status', 'offered', 'offered_by', ARGV[1], 'token_hash', ARGV[2],
           'nonce', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return {'offered'}
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisSeekStore(SeekStore):
    """Seek ``mm:{seeks}:s:<id>`` (a hash: the seek's JSON and its changing fields), the
    open list ``…:open`` and per player ``…:p:<player>`` (all their seeks) and
    ``…:po:<player>`` (their open ones), sorted sets by creation time; rematch offers
    ``…:r:<game id>``. Every key expires after two weeks."""

    def __init__(self, client: Any) -> None:
        self.redis = client
        self._add = client.register_script(ADD_LUA)
        self._sweep = client.register_script(SWEEP_LUA)
        self._claim = client.register_script(CLAIM_LUA)
        self._release = client.register_script(RELEASE_LUA)
        self._cancel = client.register_script(CANCEL_LUA)
        self._offer = client.register_script(OFFER_LUA)

    @staticmethod
    def _key(*parts: str) -> str:
        return PREFIX + ":".join(parts)

    def add(self, seek, limit, cutoff_ms):
        player = seek["player"]
        keys = [self._key("s", seek["id"]), self._key("open"), self._key("p", player),
                self._key("po", player)]  # fmt: skip
        args = [seek["id"], seek["created_ms"], cutoff_ms, limit, json.dumps(dict(seek)),
                player, KEEP_SECONDS]  # fmt: skip
        return bool(self._add(keys=keys, args=args))

    def get(self, seek_id):
        return self._record(self.redis.hgetall(self._key("s", seek_id)))

    @staticmethod
    def _record(raw: Mapping[Any, Any]) -> dict[str, Any] | None:
        if not raw:
            return None
        fields = {_text(k): _text(v) for k, v in raw.items()}
        seek = json.loads(fields["data"])
        seek.update(status=fields["status"], acceptor=fields.get("acceptor"),
                    game_id=fields.get("game_id"), seat=fields.get("seat"))  # fmt: skip
        return seek

    def _many(self, ids: Sequence[Any]) -> list[dict[str, Any]]:
        pipe = self.redis.pipeline(transaction=False)
        for seek_id in ids:
            pipe.hgetall(self._key("s", _text(seek_id)))
        return [r for r in map(self._record, pipe.execute() if ids else []) if r is not None]

    def open_seeks(self, cutoff_ms):
        self._sweep(keys=[self._key("open")], args=[cutoff_ms, PREFIX])
        found = self._many(self.redis.zrevrangebyscore(self._key("open"), "+inf", cutoff_ms))
        return sorted(found, key=lambda s: (-s["created_ms"], s["id"]))

    def player_seeks(self, player, cutoff_ms):
        ids = self.redis.zrevrangebyscore(self._key("p", player), "+inf", cutoff_ms)
        found = self._many(ids)
        return sorted(found, key=lambda s: (-s["created_ms"], s["id"]))

    def _seek_keys(self, seek_id: str) -> list[str] | None:
        player = self.redis.hget(self._key("s", seek_id), "player")
        if player is None:
            return None
        return [self._key("s", seek_id), self._key("open"), self._key("po", _text(player))]

    def claim(self, seek_id, acceptor, cutoff_ms):
        keys = self._seek_keys(seek_id)
        if keys is None:
            return "gone"
        return _text(self._claim(keys=keys, args=[acceptor, cutoff_ms, seek_id]))

    def release(self, seek_id):
        keys = self._seek_keys(seek_id)
        if keys is not None:
            self._release(keys=keys, args=[seek_id])

    def made(self, seek_id, game_id, seat):
        self.redis.hset(self._key("s", seek_id),
                        mapping={"status": "made", "game_id": game_id, "seat": seat})  # fmt: skip

    def cancel(self, seek_id, player):
        keys = self._seek_keys(seek_id)
        if keys is None:
            return "gone"
        keys.append(self._key("p", player))
        return _text(self._cancel(keys=keys, args=[seek_id, player]))

    def offer_rematch(self, game_id, seat, token_hash, nonce, solo):
        answer = self._offer(keys=[self._key("r", game_id)],
                             args=[seat, token_hash, nonce or "", KEEP_SECONDS,
                                   "1" if solo else "0"])  # fmt: skip
        answer = [_text(a) for a in answer]
        if answer[0] == "made":
            return "made", {"status": "made", "game_id": answer[1]}
        if answer[0] == "claimed":
            if not answer[1]:
                return "claimed", {}
            return "claimed", {"offered_by": answer[1], "token_hash": answer[2],
                               "nonce": answer[3] or None}  # fmt: skip
        return answer[0], {}

    def rematch_made(self, game_id, new_game_id, offered_by):
        fields = {"status": "made", "game_id": new_game_id, "offered_by": offered_by}
        self.redis.hset(self._key("r", game_id), mapping=fields)

    def rematch_release(self, game_id, offer):
        key = self._key("r", game_id)
        if not offer:
            self.redis.delete(key)
            return
        fields = {"status": "offered", "offered_by": offer["offered_by"],
                  "token_hash": offer["token_hash"], "nonce": offer.get("nonce") or ""}  # fmt: skip
        self.redis.hset(key, mapping=fields)

    def rematch(self, game_id):
        raw = self.redis.hgetall(self._key("r", game_id))
        if not raw:
            return None
        found = {_text(k): _text(v) for k, v in raw.items()}
        found["nonce"] = found.get("nonce") or None
        found.setdefault("game_id", None)
        return found


# -- the use cases -------------------------------------------------------------------------
@dataclass
class Accepted:
    game_id: str
    seat: str  # the acceptor's
    token: str  # the acceptor's seat token, shown once


@dataclass
class Rematch:
    offered_by: str | None
    game_id: str | None
    seat: str | None = None  # the caller's seat in the new game
    token: str | None = None  # the caller's token for it, shown once (None on a repeat)


@dataclass
class Matchmaking:
    bingfa: WritePath
    store: SeekStore = field(default_factory=InMemorySeekStore)
    ids: Callable[[int], str] = secrets.token_hex
    pick: Callable[[Sequence[str]], str] = secrets.choice  # the colour of a "random" seek

    def _cutoff(self) -> int:
        return self.bingfa.now_ms() - SEEK_DAYS * DAY_MS

    # -- seeks -------------------------------------------------------------------------
    def post(
        self,
        player: str,
        game: str | None = None,
        options: Mapping[str, Any] | None = None,
        clock: Mapping[str, Any] | None = None,
        rated: bool = False,
        colour: str = RANDOM,
        nonce: str | None = None,
    ) -> tuple[dict[str, Any], str]:
        """A new open seek by ``player`` for ``game`` (the registry's first when None):
        (the seek, the seeker's seat token, shown once). Everything the game would refuse
        is refused now, with the same sentence."""
        game = kinds.default_key() if game is None else game
        _check_nonce(nonce)
        options = dict(options or {})
        self._check_game(game, options, clock, rated)
        if colour not in colours(game):
            wanted = kinds.said(list(colours(game)))
            raise Invalid(f"the colour you want is {wanted}, not {colour!r}")
        clock = clocks.parse(clock)  # its stored form, as the game will keep it
        token = access.new_token()
        seek = {
            "id": self.ids(8),
            "player": player,
            "game": game,
            "options": options,
            "clock": clock,
            "rated": bool(rated),
            "colour": colour,
            "created_at": self.bingfa.now(),
            "created_ms": self.bingfa.now_ms(),
            "nonce": nonce,
            "token_hash": access.token_hash(token),
        }
        if not self.store.add(seek, SEEK_LIMIT, self._cutoff()):
            raise Conflict(f"you already have {SEEK_LIMIT} open seeks; cancel one to post "
                           "another")  # fmt: skip
        return self.store.get(seek["id"]) or seek, token

    def _check_game(self, game: str, options: Mapping[str, Any], clock: Any, rated: bool):
        """Refuse what ``create_game`` would refuse (the same check, writing nothing); an
        unknown game is a bad field of the seek here, not a missing resource."""
        rules = self.bingfa.registry.get(game)
        seats = {seat: "human" for seat in getattr(rules, "seats", ())}
        try:
            if rules is not None:
                kinds.check_options(game, options)
            self.bingfa.check_new_game(game, options, seats, rated=rated, clock=clock)
        except NotFound as error:
            raise Invalid(str(error)) from None

    def listing(self) -> list[dict[str, Any]]:
        return self.store.open_seeks(self._cutoff())

    def mine(self, player: str) -> list[dict[str, Any]]:
        return self.store.player_seeks(player, self._cutoff())

    def cancel(self, seek_id: str, player: str) -> None:
        answer = self.store.cancel(seek_id, player)
        if answer == "gone":
            raise NotFound(f"there is no seek {seek_id!r} (it may have expired)")
        if answer == "not yours":
            raise Forbidden("only the player who posted a seek can cancel it")
        if answer in ("taken", "made"):
            raise Conflict("this seek has already been accepted, so it cannot be cancelled; "
                           "you can resign the game instead")  # fmt: skip

    def accept(self, seek_id: str, player: str, nonce: str | None = None) -> Accepted:
        """``player`` takes the seek: exactly one of two accepting at once gets the game."""
        _check_nonce(nonce)
        seek = self.store.get(seek_id)
        if seek is None:
            raise NotFound(f"there is no seek {seek_id!r}: it may have been cancelled or "
                           "have expired")  # fmt: skip
        if seek["player"] == player:
            raise Forbidden("this is your own seek: someone else has to accept it (you can "
                            "cancel it)")  # fmt: skip
        answer = self.store.claim(seek_id, player, self._cutoff())
        if answer in ("taken", "made"):
            raise Conflict("someone else accepted this seek just before you; pick another")
        if answer != "ok":
            raise NotFound(f"the seek {seek_id!r} is no longer open: it was cancelled or "
                           "has expired")  # fmt: skip
        rules = self.bingfa.registry[seek["game"]]
        seeker = seek["colour"] if seek["colour"] != RANDOM else self.pick(list(rules.seats))
        acceptor = next(s for s in rules.seats if s != seeker)
        token = access.new_token()
        try:
            game_id = self.bingfa.create_game(
                seek["game"], seek["options"], {s: "human" for s in rules.seats},
                access={seeker: seek["token_hash"], acceptor: access.token_hash(token)},
                rated=seek["rated"], clock=seek["clock"], extra={"seek": seek_id},
            )  # fmt: skip
        except BaseException:
            self.store.release(seek_id)  # nothing was made: the seek is open again
            raise
        self.store.made(seek_id, game_id, seeker)
        self.bingfa.join(game_id, seeker, player=seek["player"], nonce=seek["nonce"])
        self.bingfa.join(game_id, acceptor, player=player, nonce=nonce)
        return Accepted(game_id, acceptor, token)

    # -- rematch -----------------------------------------------------------------------
    def rematch(self, game_id: str, seat: str, nonce: str | None = None) -> Rematch:
        """``seat`` of finished ``game_id`` asks for a rematch: the colours swapped, the
        same options, clock and rated flag. Asking again gives the same new game."""
        _check_nonce(nonce)
        game = self.bingfa.load(game_id)
        if seat not in game.seats:
            raise Forbidden("only the players of a game can ask for its rematch")
        if game.outcome is None:
            raise Invalid("the game is still being played: a rematch can be asked for "
                             "once it is over")  # fmt: skip
        kinds = dict(game.created_seats)  # as created: a seat handed to the AI was human
        swap = dict(zip(game.seats, reversed(list(game.seats)), strict=True))
        humans = [s for s, kind in kinds.items() if kind == "human"]
        token = access.new_token()
        state, offer = self.store.offer_rematch(game_id, seat, access.token_hash(token), nonce,
                                                solo=len(humans) == 1)  # fmt: skip
        if state == "made":
            found = self.store.rematch(game_id) or offer
            return Rematch(found.get("offered_by"), found["game_id"], swap[seat])
        if state == "making":
            raise Conflict("the rematch is being set up right now; ask again in a moment")
        if state == "offered":
            return Rematch(seat, None, swap[seat], token)
        created = game.created
        players = {s: (game.joined.get(s) or {}).get("player") for s in game.seats}
        hashes = {swap[seat]: access.token_hash(token)}
        if offer:
            hashes[swap[offer["offered_by"]]] = offer["token_hash"]
        try:
            new_id = self.bingfa.create_game(
                created["game"], created.get("options") or {},
                {swap[s]: kind for s, kind in kinds.items()}, access=hashes,
                rated=bool(created.get("rated")), clock=created.get("clock"),
                extra={"rematch_of": game_id},
            )  # fmt: skip
        except BaseException:
            self.store.rematch_release(game_id, offer)
            raise
        first = offer.get("offered_by", seat)
        self.store.rematch_made(game_id, new_id, first)
        if offer:  # the seat that asked first joins first; the deal is at the second join
            self.bingfa.join(new_id, swap[first], player=players[first], nonce=offer["nonce"])
        self.bingfa.join(new_id, swap[seat], player=players[seat], nonce=nonce)
        return Rematch(first, new_id, swap[seat], token)

    def rematch_state(self, game_id: str, seat: str | None = None) -> Rematch:
        """Who asked for a rematch of ``game_id`` and the new game once it exists."""
        game = self.bingfa.load(game_id)  # a game that does not exist is a 404
        found = self.store.rematch(game_id) or {}
        swap = dict(zip(game.seats, reversed(list(game.seats)), strict=True))
        return Rematch(found.get("offered_by"), found.get("game_id"),
                       swap.get(seat) if seat else None)  # fmt: skip


def _check_nonce(nonce: Any) -> None:
    if nonce is not None and (not isinstance(nonce, str) or len(nonce) > MAX_NONCE_LENGTH):
        raise Invalid(f"a nonce is a string of at most {MAX_NONCE_LENGTH} characters")


# -- words ---------------------------------------------------------------------------------
def describe(seek: Mapping[str, Any]) -> str:
    """The seek in a few words: its game's options (defaults included, as its catalogue
    says them), the clock, rated or not: "Standard, events, 1 day per move, rated"."""
    game = seek.get("game") or kinds.default_key()
    parts = kinds.options_words(game, seek.get("options") or {})
    if len(kinds.games.REGISTRY) > 1:  # which game, once there is more than one
        parts.insert(0, kinds.catalogue(game).title)
    clock = seek.get("clock")
    if clock:
        parts.append(f"{duration(clock['per_move_seconds'])} per move")
        if clock.get("bank_seconds"):
            parts.append(f"{duration(clock['bank_seconds'])} bank")
        if clock.get("vacation_days"):
            days = clock["vacation_days"]
            parts.append(f"{days} vacation day{'s' if days != 1 else ''}")
    else:
        parts.append("no clock")
    parts.append("rated" if seek.get("rated") else "unrated")
    return ", ".join(parts)


def duration(seconds: int) -> str:
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} seconds"
