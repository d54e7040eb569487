"""The replay store on fakeredis, a real Redis and a Redis Cluster; archive and import."""

from __future__ import annotations

import dataclasses
import zlib

import pytest
from replay_helpers import counter_tokens, play_game

from events.store import InMemoryEventStore, UnknownGame
from events.writepath import WritePath
from replays.archive import archive, archive_all
from replays.importer import ImportRefused, import_record
from replays.record import NotFinished, RecordError, dumps, record_of
from replays.store import BadCursor, ReplayClash, ReplayStore, UnknownReplay


@pytest.fixture(scope="module")
def played():
    """An event store with five finished games (one with an AI seat) and one running."""
    app = WritePath(InMemoryEventStore(), token=counter_tokens())
    ids = [play_game(app, {"events": s % 2 == 0}, seed=s) for s in range(4)]
    ids.append(play_game(app, {}, {"blue": "human", "red": "ai:random"}, seed=9))
    running = app.create_game("sun-tzu", {}, {"blue": "human", "red": "human"})
    return app.store, ids, running


@pytest.fixture(params=["fakeredis", "redis", "cluster"])
def replays(request):
    if request.param == "fakeredis":
        return ReplayStore(request.getfixturevalue("fake_redis"))
    if request.param == "redis":
        return ReplayStore(request.getfixturevalue("redis_client"))
    client = request.getfixturevalue("redis_cluster")
    client.flushall()
    request.addfinalizer(client.flushall)
    return ReplayStore(client)


def test_put_get_exists_and_idempotent_archive(played, replays):
    store, ids, running = played
    record = record_of(store, ids[0])
    assert not replays.exists(ids[0])
    with pytest.raises(UnknownReplay):
        replays.get(ids[0])
    assert archive(store, replays, ids[0]) == ids[0]
    assert replays.exists(ids[0]) and replays.get(ids[0]) == record
    assert replays.text(ids[0]) == dumps(record)
    assert archive(store, replays, ids[0]) == ids[0]  # once
    assert replays.put(record) == ids[0]
    assert replays.list().total == 1
    other = record_of(store, ids[1]).with_header(id=ids[0])
    with pytest.raises(ReplayClash):
        replays.put(other)
    with pytest.raises(NotFinished, match="still being played"):
        archive(store, replays, running)
    with pytest.raises(UnknownGame):
        archive(store, replays, "nope")


def test_a_put_cut_short_before_indexing_is_completed(played, replays):
    store, ids, _ = played
    record = record_of(store, ids[2])
    blob = zlib.compress(dumps(record).encode())
    replays.redis.set(replays.record_key(ids[2]), blob)  # a put stopped before indexing
    assert replays.list().total == 0
    replays.put(record)
    assert [r["id"] for r in replays.list().items] == [ids[2]]
    replays.redis.delete(replays.index_key("time"))  # the index lost
    replays.put(record)
    assert [r["id"] for r in replays.list().items] == [ids[2]]


def test_list_pages_and_filters(played, replays):
    store, ids, _ = played
    counts = archive_all(store, replays)
    assert counts == {"archived": 5, "already": 0, "running": 1}
    assert archive_all(store, replays)["already"] == 5
    records = {i: replays.get(i) for i in ids}
    newest = sorted(ids, key=lambda i: (records[i].header["ended_at"], i), reverse=True)
    everything = replays.list(limit=100)
    assert [r["id"] for r in everything.items] == newest and everything.total == 5
    assert "seed" not in everything.items[0] and everything.next is None
    seen, cursor = [], None
    while True:
        page = replays.list(limit=2, cursor=cursor)
        assert page.total == 5
        seen += [r["id"] for r in page.items]
        cursor = page.next
        if cursor is None:
            break
    assert seen == newest
    for result in ("blue", "red", "draw"):
        want = [i for i in newest if records[i].header["result"] == result]
        assert [r["id"] for r in replays.list(result=result).items] == want
    player = records[ids[0]].header["players"]["blue"]
    mine = [i for i in newest if player in records[i].header["players"].values()]
    assert [r["id"] for r in replays.list(player=player).items] == mine
    assert [r["id"] for r in replays.list(player="ai:random").items] == [ids[4]]
    result = records[ids[0]].header["result"]
    both = [i for i in mine if records[i].header["result"] == result]
    page = replays.list(player=player, result=result, imported=False, limit=1)
    assert page.total == len(both) and [r["id"] for r in page.items] == both[:1]
    assert replays.list(imported=True).total == 0
    with pytest.raises(BadCursor):
        replays.list(cursor="garbage")


def test_import_ok_refused_and_clashing(played, replays):
    store, ids, _ = played
    record = record_of(store, ids[3])
    text = dumps(record)
    done = import_record(text, replays)
    assert (done.id, done.renamed, done.duplicate) == (ids[3], False, False)
    assert replays.get(ids[3]).header["imported"] is True
    assert replays.list(imported=True).total == 1
    again = import_record(text, replays)
    assert again.duplicate and again.id == ids[3] and replays.list().total == 1
    clash = dumps(record_of(store, ids[1]).with_header(id=ids[3]))
    moved = import_record(clash, replays, new_id=lambda: "fresh")
    assert moved.renamed and moved.id == "fresh" and "already taken" in moved.sentence
    assert replays.get("fresh").header["game_id"] == ids[1]
    squat = import_record(
        dumps(record_of(store, ids[0])),
        replays,
        taken=lambda i: i == ids[0],
        new_id=lambda: "elsewhere",
    )
    assert squat.id == "elsewhere"
    events = list(record.events)
    events[40] = dataclasses.replace(events[40], at="2001-01-01T00:00:00.000Z")
    tampered = dumps(dataclasses.replace(record, events=tuple(events)).with_header(id="t"))
    with pytest.raises(ImportRefused, match="Event 41") as refused:
        import_record(tampered, replays)
    assert refused.value.report.divergence.step == 41
    assert not replays.exists("t")
    with pytest.raises(RecordError, match="line 1"):
        import_record("not json\n", replays)
