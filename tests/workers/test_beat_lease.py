"""Two copies of beat on one broker: only the lease's holder sends, the other takes over
when the holder stops, and a holder that lost its lease stops sending. The lease lives in
the real (test) Redis; leases are short, and every wait has a deadline."""

from __future__ import annotations

import time

import pytest
import redis

from workers.beat_lease import Lease, LeasedScheduler
from workers.celery_app import make_celery

LEASE = 0.6  # seconds: renewed (or tried) every 0.2 s
WAIT = 10.0  # seconds any expected change may take before the test fails


class Recording(LeasedScheduler):
    """Records what it would send instead of sending it (the lease is real)."""

    def __init__(self, *args, **kwargs):
        self.sent: list[str] = []
        self.leads = 0
        super().__init__(*args, **kwargs)

    def apply_entry(self, entry, producer=None):
        self.sent.append(entry.name)

    def took_the_lead(self):
        self.leads += 1


@pytest.fixture
def beats(broker_url, tmp_path):
    client = redis.Redis.from_url(broker_url)
    app = make_celery({
        "broker_url": broker_url,
        "beat_schedule": {"often": {"task": "bingfa.nothing", "schedule": 0.05}},
    })  # fmt: skip
    made = []

    def beat(name: str) -> Recording:
        scheduler = Recording(app=app, schedule_filename=str(tmp_path / f"{name}-schedule"),
                              lease=Lease(client, LEASE, holder=name))  # fmt: skip
        made.append(scheduler)
        return scheduler

    yield beat
    for scheduler in made:
        scheduler.close()
    client.close()


def run(schedulers, until, what: str) -> None:
    """Tick the schedulers (as beat's loop does, without its long sleeps) until ``until()``."""
    deadline = time.monotonic() + WAIT
    while not until():
        assert time.monotonic() < deadline, f"not within {WAIT} s: {what}"
        for scheduler in schedulers:
            scheduler.tick()
        time.sleep(0.01)


def run_for(schedulers, seconds: float) -> None:
    end = time.monotonic() + seconds
    run(schedulers, lambda: time.monotonic() >= end, "")


def test_only_the_holder_of_the_lease_sends(beats):
    first, second = beats("first"), beats("second")
    run([first, second], lambda: len(first.sent) >= 5, "the first beat sends")
    run_for([first, second], 3 * LEASE)  # renewed several times over
    assert second.sent == [] and second.leads == 0
    assert first.leads == 1  # the owed AI moves sent once, by the holder
    assert first.lease.holder_now() == "first"


def test_the_standby_takes_over_when_the_holder_stops(beats):
    first, second = beats("first"), beats("second")
    run([first, second], lambda: first.sent, "the first beat sends")
    first.close()  # a clean stop gives the lease back
    sent_by_first = len(first.sent)
    run([second], lambda: second.sent, "the standby takes over")
    assert second.leads == 1 and second.lease.holder_now() == "second"
    assert len(first.sent) == sent_by_first


def test_the_standby_takes_over_when_the_holder_dies(beats):
    first, second = beats("first"), beats("second")
    run([first, second], lambda: first.sent, "the first beat sends")
    # the first beat no longer ticks (killed: its lease is not given back, it expires)
    run([second], lambda: second.sent, "the standby takes over once the lease expired")
    assert second.lease.holder_now() == "second"


def test_a_holder_that_lost_its_lease_stops_sending(beats):
    first, second = beats("first"), beats("second")
    run([first, second], lambda: first.sent, "the first beat sends")
    # the first beat stalls for longer than a lease; the second takes the lead meanwhile
    run([second], lambda: second.sent, "the standby takes over")
    sent_by_first = len(first.sent)
    run_for([first, second], 3 * LEASE)  # the first wakes up: it finds the lease taken
    assert len(first.sent) == sent_by_first
    assert not first.leading and second.leading
    assert second.lease.holder_now() == "second"


def test_beat_sends_the_owed_ai_moves_when_it_takes_the_lead_only(broker_url, tmp_path):
    """The real ``took_the_lead``: the AI sweep with no waiting time, on the ai queue of
    the broker, sent by the holder and not by the standby."""
    client = redis.Redis.from_url(broker_url)
    app = make_celery({"broker_url": broker_url, "beat_schedule": {}})
    first = LeasedScheduler(app=app, schedule_filename=str(tmp_path / "a"),
                            lease=Lease(client, LEASE, holder="first"))  # fmt: skip
    second = LeasedScheduler(app=app, schedule_filename=str(tmp_path / "b"),
                             lease=Lease(client, LEASE, holder="second"))  # fmt: skip
    try:
        first.tick()
        second.tick()
        assert first.leading and not second.leading
        assert client.llen("ai") == 1  # one sweep message, from the holder
    finally:
        first.close()
        second.close()
        client.close()


def test_the_service_s_beat_is_leased():
    from workers.celery_app import app

    assert app.conf.beat_scheduler == "workers.beat_lease:LeasedScheduler"
