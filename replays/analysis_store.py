"""The analysis of a replay, kept beside it in Redis: its status, progress and result.

    analyses = AnalysisStore(redis_client)
    analyses.request(id) -> bool    mark it queued; True if the caller should queue the job
                                    (there was none, the last one failed, or it went stale)
    analyses.start(id) -> bool      the job takes it (queued -> running); False if another
                                    job is running it (and is alive) or it is done
    analyses.progress(id, done, total)
    analyses.finish(id, result)     done, with the result (JSON)
    analyses.fail(id, error)        failed, with a sentence; a new request may retry
    analyses.get(id) -> Status      status none|queued|running|done|failed, done, total,
                                    error, result (only when done)

Keys (the replay's own hash tag, so the record and its analysis share a slot):

    replay:{ID}:analysis            hash: status, done, total, error, updated (ms), result

Idempotence: ``request`` and ``start`` are Lua scripts (check and set in one step), so two
requests queue one job and two deliveries of the job run it once. A queued or running
analysis that has not moved for ``stale_ms`` (its worker died, its message was lost) may
be requested and started again; a running job updates ``updated`` after every decision.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

STALE_MS = 10 * 60 * 1000  # a queued or running analysis untouched this long is lost
STATUSES = ("none", "queued", "running", "done", "failed")

# KEYS: the hash; ARGV: now (ms), stale (ms), the status to set, statuses it may replace
CLAIM_LUA = """
local status = redis.call('HGET', KEYS[1], 'status')
local updated = tonumber(redis.call('HGET', KEYS[1], 'updated') or '0')
local ok = (status == false)
for i = 4, #ARGV do if status == ARGV[i] then ok = true end end
if not ok and (status == 'queued' or status == 'running')
   and tonumber(ARGV[1]) - updated >= tonumber(ARGV[2]) then ok = true end
if not ok then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[3], 'updated', ARGV[1], 'error', '')
if ARGV[3] == 'queued' then redis.call('HSET', KEYS[1], 'done', 0, 'total', 0) end
return 1
"""


@dataclass(frozen=True)
class Status:
    status: str = "none"  # one of STATUSES
    done: int = 0
    total: int = 0
    error: str | None = None
    result: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "done": self.done, "total": self.total,
                "error": self.error, "result": self.result}  # fmt: skip


def _str(raw: bytes | str | None) -> str | None:
    return raw.decode() if isinstance(raw, bytes) else raw


def now_ms() -> int:
    return int(time.time() * 1000)


class AnalysisStore:
    def __init__(self, client: Any, stale_ms: int = STALE_MS, clock: Any = now_ms) -> None:
        self.redis = client
        self.stale_ms = stale_ms
        self.clock = clock
        self._claim = client.register_script(CLAIM_LUA)

    @staticmethod
    def key(replay_id: str) -> str:
        return f"replay:{{{replay_id}}}:analysis"

    def request(self, replay_id: str) -> bool:
        """Queue it unless it is queued, running or done. True: the caller sends the job."""
        return self._set(replay_id, "queued", ("failed",))

    def start(self, replay_id: str) -> bool:
        """The job takes the analysis (also when nobody requested it: a task called by
        hand). False when another live job runs it or it is done."""
        return self._set(replay_id, "running", ("queued", "failed"))

    def _set(self, replay_id: str, status: str, replaces: tuple[str, ...]) -> bool:
        args = [self.clock(), self.stale_ms, status, *replaces]
        return bool(self._claim(keys=[self.key(replay_id)], args=args))

    def progress(self, replay_id: str, done: int, total: int) -> None:
        fields = {"status": "running", "done": done, "total": total, "updated": self.clock()}
        self.redis.hset(self.key(replay_id), mapping=fields)

    def finish(self, replay_id: str, result: dict[str, Any]) -> None:
        total = len(result.get("decisions", ()))
        text = json.dumps(result, separators=(",", ":"))
        fields = {"status": "done", "done": total, "total": total, "error": "",
                  "updated": self.clock(), "result": text}  # fmt: skip
        self.redis.hset(self.key(replay_id), mapping=fields)

    def fail(self, replay_id: str, error: str) -> None:
        fields = {"status": "failed", "error": error, "updated": self.clock()}
        self.redis.hset(self.key(replay_id), mapping=fields)

    def get(self, replay_id: str) -> Status:
        raw = {_str(k): _str(v) for k, v in self.redis.hgetall(self.key(replay_id)).items()}
        if not raw.get("status"):
            return Status()
        status = raw["status"]
        result = json.loads(raw["result"]) if status == "done" and raw.get("result") else None
        return Status(status, int(raw.get("done") or 0), int(raw.get("total") or 0),
                      raw.get("error") or None, result)  # fmt: skip
