"""Where seeks and rematch offers are kept: ``RedisSeekStore`` (every key under the
``{seeks}`` hash tag, so it runs on a Redis Cluster; every change of state is one Lua
script, so two people accepting the same seek at once cannot both get it) and
``InMemorySeekStore`` (tests), with one contract (``SeekStore``). What they mean is
``service.matchmaking``'s."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from typing import Any

SEEK_DAYS = 7  # an open seek nobody accepted in a week is stale: hidden, then deleted
KEEP_SECONDS = 2 * SEEK_DAYS * 24 * 3600  # Redis forgets a seek or an offer after this
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
