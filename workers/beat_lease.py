"""Beat runs once per deployment, however many copies are started: a leader lease.

    celery -A workers.celery_app beat   (the app's ``beat_scheduler`` is ``LeasedScheduler``)

Every copy of beat (one per host, say) ticks, but only the one holding the lease key
``bingfa:beat:leader`` in the broker's Redis sends anything; the others stay standbys. The
key holds its holder's identity (``host:pid:random``) and expires after the lease
(``BINGFA_BEAT_LEASE_SECONDS``, 15 s by default). The holder extends it every third of a
lease with a compare-and-extend script (only if the key still names it), so it keeps the
lead while it lives; a standby tries ``SET NX PX`` as often and takes the lead within a
lease and a third after the holder died (within a third of a lease when the holder stopped
cleanly: ``close`` gives the key back). A holder that finds the key gone or taken by
another (it was stalled for longer than a lease, or Redis lost the key) stops sending at
once and becomes a standby.

A holder sends only within a third of a lease after its last successful renewal, so two
copies send together only when a holder stalls for longer than a lease in the middle of a
tick. That is harmless too: every sweep beat sends is idempotent (a move or an archive
queued twice is done once) and carries ``expires`` (a backlog of sweeps is one sweep).

The copy that takes the lead also queues the AI sweep with no waiting time
(``celery_app.resume_owed_ai_moves``, at a start of the service and at a takeover), instead
of every copy doing so when it starts.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from typing import Any

import redis as redis_lib
from celery.beat import PersistentScheduler

LEASE_KEY = "bingfa:beat:leader"
DEFAULT_LEASE_SECONDS = 15.0
log = logging.getLogger("bingfa.beat")

# KEYS: the lease; ARGV: holder, lease in ms. 1 if the caller holds it now (extended, or
# taken because nobody held it), 0 if another holder does.
HOLD = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
# given back only by its holder
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def holder_identity() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Lease:
    """A lease key in Redis that one holder at a time keeps by renewing it."""

    def __init__(self, client: Any, seconds: float, key: str = LEASE_KEY,
                 holder: str | None = None) -> None:  # fmt: skip
        self.client = client
        self.key = key
        self.ms = max(1, int(seconds * 1000))
        self.holder = holder or holder_identity()
        self._hold = client.register_script(HOLD)
        self._release = client.register_script(RELEASE)

    def hold(self) -> bool:
        """Take the lease if nobody holds it, extend it if this holder does."""
        return bool(self._hold(keys=[self.key], args=[self.holder, self.ms]))

    def release(self) -> bool:
        return bool(self._release(keys=[self.key], args=[self.holder]))

    def holder_now(self) -> str | None:
        value = self.client.get(self.key)
        return value.decode() if isinstance(value, bytes) else value


def lease_seconds(environ: Any = None) -> float:
    env = os.environ if environ is None else environ
    return float(env.get("BINGFA_BEAT_LEASE_SECONDS") or DEFAULT_LEASE_SECONDS)


class LeasedScheduler(PersistentScheduler):
    """Celery beat's persistent scheduler that runs its schedule only while it holds the
    lease (see the module's doc). ``lease`` (a ``Lease``) may be given, else it is made on
    the broker's Redis with ``BINGFA_BEAT_LEASE_SECONDS``."""

    def __init__(self, *args: Any, lease: Lease | None = None, **kwargs: Any) -> None:
        self.lease = lease
        self.leading = False
        self._checked_at = float("-inf")
        super().__init__(*args, **kwargs)
        if self.lease is None:
            url = self.app.conf.broker_url
            if not str(url).startswith(("redis://", "rediss://", "unix://")):
                raise ValueError(f"the beat lease needs a Redis broker, not {url!r}")
            self.lease = Lease(redis_lib.Redis.from_url(url), lease_seconds())
        self.every = self.lease.ms / 1000 / 3  # renewals (and a standby's tries) per lease

    def check_lease(self) -> bool:
        """Renew or take the lease when a third of it has passed; whether this copy leads."""
        now = time.monotonic()
        if now - self._checked_at < self.every:
            return self.leading
        first = self._checked_at == float("-inf")
        try:
            held = self.lease.hold()
        except redis_lib.RedisError as error:  # cannot tell: sending could double the lead
            log.warning("beat lease unknown (%s): not sending", error)
            held = False
        self._checked_at = time.monotonic()
        if held and not self.leading:
            log.info("beat lease %s taken by %s: this beat sends", self.lease.key,
                     self.lease.holder)  # fmt: skip
            self.leading = True
            self.took_the_lead()
        elif not held and self.leading:
            log.warning("beat lease %s lost by %s: this beat stands by", self.lease.key,
                        self.lease.holder)  # fmt: skip
            self.leading = False
        elif not held and first:
            log.info("beat lease %s held by another beat: this one stands by", self.lease.key)
        return self.leading

    def took_the_lead(self) -> None:
        """The owed AI moves at once: at the service's start, or after the beat before died."""
        from workers.celery_app import resume_owed_ai_moves

        try:
            resume_owed_ai_moves(self.app)
        except Exception:  # the broker is down: the periodic sweep queues them later
            log.exception("could not queue the sweep of owed AI moves on taking the lead")

    def tick(self, *args: Any, **kwargs: Any) -> float:
        if not self.check_lease():
            return self.every  # a standby: try again in a third of a lease
        wait = super().tick(*args, **kwargs)
        until_renewal = self._checked_at + self.every - time.monotonic()
        return max(0.0, min(wait, until_renewal))

    def close(self) -> None:
        super().close()
        if self.leading and self.lease is not None:
            try:
                self.lease.release()  # the standby takes over at its next try
            except redis_lib.RedisError as error:
                log.warning("beat lease not given back (%s): it expires by itself", error)
            self.leading = False
