"""Matchmaking without Flask: the seek store contract (in memory and a real Redis), racing
accepts, and seeks and rematches made into games through the write path."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from events.errors import Invalid
from events.store import InMemoryEventStore
from events.writepath import Forbidden, NotFound, WritePath
from games.base import RulesError
from service import access
from service.matchmaking import (
    SEEK_DAYS,
    SEEK_LIMIT,
    Conflict,
    InMemorySeekStore,
    Matchmaking,
    RedisSeekStore,
    describe,
)

START = datetime(2030, 1, 1, tzinfo=UTC)
DAY = 24 * 3600 * 1000


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture(params=["memory", "redis"])
def seek_store(request):
    if request.param == "memory":
        return InMemorySeekStore()
    return RedisSeekStore(request.getfixturevalue("redis_client"))


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def bingfa(clock):
    return WritePath(InMemoryEventStore(), ai_levels={"random", "easy", "medium"}, clock=clock)


@pytest.fixture
def mm(bingfa, seek_store):
    return Matchmaking(bingfa, seek_store)


def seek(seek_id: str, player: str = "p1", created_ms: int = 1000, **extra) -> dict:
    return {"id": seek_id, "player": player, "game": "sun-tzu", "options": {},
            "clock": None, "rated": False, "colour": "random", "created_at": "t",
            "created_ms": created_ms, "nonce": None, "token_hash": "h", **extra}  # fmt: skip


# -- the store contract --------------------------------------------------------------------
def test_open_seeks_are_listed_newest_first_and_read_back_whole(seek_store):
    assert seek_store.add(seek("a", created_ms=1000, options={"events": True}), 5, 0)
    assert seek_store.add(seek("b", player="p2", created_ms=2000), 5, 0)
    assert [s["id"] for s in seek_store.open_seeks(0)] == ["b", "a"]
    found = seek_store.get("a")
    assert found["options"] == {"events": True} and found["status"] == "open"
    assert found["game_id"] is None and seek_store.get("nope") is None


def test_a_player_has_at_most_the_limit_of_open_seeks(seek_store):
    for n in range(3):
        assert seek_store.add(seek(f"s{n}", created_ms=1000 + n), 3, 0)
    assert not seek_store.add(seek("s3", created_ms=2000), 3, 0)
    assert seek_store.add(seek("other", player="p2"), 3, 0)  # the limit is per player
    assert seek_store.get("s3") is None
    assert seek_store.cancel("s0", "p1") == "ok"
    assert seek_store.add(seek("s3", created_ms=2000), 3, 0)


def test_expired_seeks_leave_the_list_and_free_the_limit(seek_store):
    assert seek_store.add(seek("old", created_ms=1000), 1, 0)
    assert not seek_store.add(seek("new", created_ms=5000), 1, 0)
    assert seek_store.claim("old", "p2", cutoff_ms=2000) == "expired"
    assert seek_store.open_seeks(2000) == []
    assert seek_store.get("old") is None  # deleted once seen to be stale
    assert seek_store.add(seek("new", created_ms=5000), 1, 2000)


def test_a_seek_is_claimed_once_released_and_made(seek_store):
    seek_store.add(seek("a"), 5, 0)
    assert seek_store.claim("a", "p2", 0) == "ok"
    assert seek_store.claim("a", "p3", 0) == "taken"
    assert seek_store.open_seeks(0) == []
    seek_store.release("a")
    assert [s["id"] for s in seek_store.open_seeks(0)] == ["a"]
    assert seek_store.claim("a", "p3", 0) == "ok"
    seek_store.made("a", "game1", "red")
    assert seek_store.claim("a", "p4", 0) == "made"
    made = seek_store.get("a")
    assert (made["status"], made["game_id"], made["seat"], made["acceptor"]) == (
        "made", "game1", "red", "p3")  # fmt: skip
    assert [s["id"] for s in seek_store.player_seeks("p1", 0)] == ["a"]
    assert seek_store.claim("nope", "p2", 0) == "gone"


def test_only_the_seeker_cancels_an_open_seek(seek_store):
    seek_store.add(seek("a"), 5, 0)
    seek_store.add(seek("b"), 5, 0)
    assert seek_store.cancel("a", "p2") == "not yours"
    assert seek_store.cancel("a", "p1") == "ok"
    assert seek_store.get("a") is None and seek_store.cancel("a", "p1") == "gone"
    assert seek_store.claim("b", "p2", 0) == "ok"
    assert seek_store.cancel("b", "p1") == "taken"
    assert [s["id"] for s in seek_store.player_seeks("p1", 0)] == ["b"]


def test_of_racing_claims_exactly_one_wins(seek_store):
    seek_store.add(seek("a"), 5, 0)
    answers: list[str] = []
    barrier = threading.Barrier(8)

    def claim(n: int) -> None:
        barrier.wait()
        answers.append(seek_store.claim("a", f"acceptor{n}", 0))

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == ["ok"] + ["taken"] * 7


def test_rematch_offers_are_claimed_once_both_seats_ask(seek_store):
    assert seek_store.offer_rematch("g", "blue", "h1", None, solo=False) == ("offered", {})
    assert seek_store.offer_rematch("g", "blue", "h2", "n", solo=False) == ("offered", {})
    state, offer = seek_store.offer_rematch("g", "red", "h3", None, solo=False)
    assert state == "claimed"
    assert offer == {**offer, "offered_by": "blue", "token_hash": "h2", "nonce": "n"}
    assert seek_store.offer_rematch("g", "blue", "h4", None, solo=False)[0] == "making"
    seek_store.rematch_made("g", "g2", "blue")
    assert seek_store.offer_rematch("g", "red", "h5", None, solo=False)[0] == "made"
    found = seek_store.rematch("g")
    assert (found["status"], found["game_id"], found["offered_by"]) == ("made", "g2", "blue")


def test_a_rematch_against_the_ai_is_claimed_at_once_and_released_on_failure(seek_store):
    assert seek_store.offer_rematch("g", "blue", "h", None, solo=True) == ("claimed", {})
    seek_store.rematch_release("g", {})
    assert seek_store.rematch("g") is None
    seek_store.offer_rematch("h", "blue", "h1", None, solo=False)
    _, offer = seek_store.offer_rematch("h", "red", "h2", None, solo=False)
    seek_store.rematch_release("h", offer)  # the game could not be made: blue's offer stands
    assert seek_store.rematch("h")["offered_by"] == "blue"
    assert seek_store.offer_rematch("h", "red", "h2", None, solo=False)[0] == "claimed"


# -- seeks become games --------------------------------------------------------------------
def test_accepting_a_seek_makes_a_dealt_game_of_both_players(mm, bingfa):
    posted, seeker_token = mm.post("seeker", options={"variant": "beginner", "events": True},
                                   clock={"per_move_seconds": 86400}, colour="red",
                                   nonce="mine")  # fmt: skip
    assert posted["created_at"] == "2030-01-01T00:00:00.000Z"
    assert "token_hash" in posted and seeker_token not in str(posted)
    made = mm.accept(posted["id"], "acceptor", nonce="theirs")
    game = bingfa.load(made.game_id)
    assert made.seat == "blue" and game.dealt
    assert {s: j["player"] for s, j in game.joined.items()} == {"red": "seeker",
                                                                 "blue": "acceptor"}  # fmt: skip
    assert game.created["seek"] == posted["id"]
    assert game.created["options"] == {"variant": "beginner", "events": True}
    assert game.created["clock"]["per_move_seconds"] == 86400
    assert access.seat_of(seeker_token, bingfa.access(made.game_id)) == "red"
    assert access.seat_of(made.token, bingfa.access(made.game_id)) == "blue"
    mine = mm.mine("seeker")
    assert [(s["status"], s["game_id"], s["seat"]) for s in mine] == [
        ("made", made.game_id, "red")]  # fmt: skip
    assert mm.listing() == []


def test_a_random_colour_is_picked_when_the_seek_is_accepted(bingfa, seek_store):
    mm = Matchmaking(bingfa, seek_store, pick=lambda seats: seats[-1])
    posted, _ = mm.post("seeker")
    assert mm.accept(posted["id"], "acceptor").seat == "blue"  # the seeker got red


def test_racing_accepts_make_exactly_one_game(mm, bingfa):
    posted, _ = mm.post("seeker")
    results: list[object] = []
    barrier = threading.Barrier(6)

    def accept(n: int) -> None:
        barrier.wait()
        try:
            results.append(mm.accept(posted["id"], f"acceptor{n}"))
        except Conflict as refused:
            results.append(refused)

    threads = [threading.Thread(target=accept, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    games = [r for r in results if not isinstance(r, Conflict)]
    assert len(games) == 1 and len(results) == 6
    assert "someone else accepted" in str(next(r for r in results if isinstance(r, Conflict)))
    assert list(bingfa.store.game_ids()) == [games[0].game_id]


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"options": {"variant": "expert"}}, "variant"),
        ({"clock": {"per_move_seconds": 5}}, "per_move_seconds"),
        ({"clock": {"per_move_seconds": 3600, "on_timeout": "ai:godlike"}}, "no AI level"),
        ({"clock": {"per_move_seconds": 3600, "on_timeout": "ai:easy"}, "rated": True},
         "forfeit"),
        ({"colour": "green"}, "blue, red or random"),
        ({"game": "go"}, "no game called"),
        ({"nonce": "x" * 201}, "nonce"),
    ],
)  # fmt: skip
def test_a_bad_seek_is_refused_with_a_sentence_and_nothing_is_stored(mm, bingfa, kwargs, words):
    with pytest.raises((RulesError, Invalid, NotFound), match=words):
        mm.post("seeker", **kwargs)
    assert mm.listing() == [] and mm.mine("seeker") == []
    assert list(bingfa.store.game_ids()) == []


def test_your_own_seek_is_not_yours_to_accept_but_to_cancel(mm):
    posted, _ = mm.post("seeker")
    with pytest.raises(Forbidden, match="your own seek"):
        mm.accept(posted["id"], "seeker")
    with pytest.raises(Forbidden, match="only the player who posted"):
        mm.cancel(posted["id"], "someone")
    mm.cancel(posted["id"], "seeker")
    with pytest.raises(NotFound):
        mm.accept(posted["id"], "acceptor")


def test_an_accepted_seek_cannot_be_cancelled_or_accepted_again(mm):
    posted, _ = mm.post("seeker")
    mm.accept(posted["id"], "acceptor")
    with pytest.raises(Conflict, match="already been accepted"):
        mm.cancel(posted["id"], "seeker")
    with pytest.raises(Conflict, match="someone else"):
        mm.accept(posted["id"], "late")


def test_the_open_seek_limit_and_the_week_of_a_seek(mm, clock):
    for _ in range(SEEK_LIMIT):
        mm.post("seeker")
    with pytest.raises(Conflict, match=f"{SEEK_LIMIT} open seeks"):
        mm.post("seeker")
    clock.advance(days=SEEK_DAYS, seconds=1)
    assert mm.listing() == [] and mm.mine("seeker") == []
    posted, _ = mm.post("seeker")  # the stale ones no longer count
    assert [s["id"] for s in mm.listing()] == [posted["id"]]


def test_a_seek_whose_game_cannot_be_made_is_open_again(mm, bingfa, monkeypatch):
    posted, _ = mm.post("seeker")

    def broken(*args, **kwargs):
        raise ConnectionError("the store is down")

    monkeypatch.setattr(bingfa, "create_game", broken)
    with pytest.raises(ConnectionError):
        mm.accept(posted["id"], "acceptor")
    assert [s["id"] for s in mm.listing()] == [posted["id"]]


def test_a_seek_in_words():
    clock = {"per_move_seconds": 86400, "bank_seconds": 3 * 86400, "vacation_days": 1}
    assert describe({"options": {"events": True}, "clock": clock, "rated": True}) == (
        "Sun Tzu, Standard, events, 1 day per move, 3 days bank, 1 vacation day, rated"
    )
    assert describe({"options": {"variant": "beginner"}, "clock": None}) == (
        "Sun Tzu, Beginner, no events, no clock, unrated")  # fmt: skip


# -- rematch -------------------------------------------------------------------------------
def finished_seek_game(mm, bingfa, **kwargs):
    posted, _ = mm.post("seeker", colour="blue", **kwargs)
    made = mm.accept(posted["id"], "acceptor")
    bingfa.submit(made.game_id, "red", {"type": "resign"})
    return made.game_id


def test_a_rematch_swaps_the_colours_once_both_seats_ask(mm, bingfa):
    clock = {"per_move_seconds": 3600, "bank_seconds": 86400}
    old = finished_seek_game(mm, bingfa, options={"events": True}, clock=clock, rated=True)
    first = mm.rematch(old, "red", nonce="n1")
    assert (first.offered_by, first.game_id, first.seat) == ("red", None, "blue")
    assert mm.rematch_state(old).offered_by == "red"
    second = mm.rematch(old, "blue")
    new = bingfa.load(second.game_id)
    assert second.seat == "red" and new.dealt and new.created["rematch_of"] == old
    assert {s: j["player"] for s, j in new.joined.items()} == {"blue": "acceptor",
                                                                "red": "seeker"}  # fmt: skip
    assert new.created["options"] == {"events": True} and new.rated
    assert new.created["clock"] == bingfa.load(old).created["clock"]
    assert access.seat_of(first.token, bingfa.access(new.game_id)) == "blue"
    assert access.seat_of(second.token, bingfa.access(new.game_id)) == "red"
    again = mm.rematch(old, "red")  # idempotent: the same game, no new token
    assert (again.game_id, again.seat, again.token) == (new.game_id, "blue", None)
    state = mm.rematch_state(old, "blue")
    assert (state.offered_by, state.game_id, state.seat) == ("red", new.game_id, "red")
    assert len(list(bingfa.store.game_ids())) == 2


def test_a_rematch_against_the_ai_is_made_at_once_with_the_same_level(mm, bingfa):
    old = bingfa.create_game("sun-tzu", {}, {"blue": "human", "red": "ai:easy"})
    bingfa.join(old, "blue", player="me")
    bingfa.submit(old, "blue", {"type": "resign"})
    made = mm.rematch(old, "blue")
    new = bingfa.load(made.game_id)
    assert made.seat == "red" and new.created_seats == {"blue": "ai:easy", "red": "human"}
    assert new.dealt and new.joined["red"]["player"] == "me"
    assert mm.rematch(old, "blue").game_id == made.game_id


def test_no_rematch_of_a_running_game_or_for_a_spectator(mm, bingfa):
    posted, _ = mm.post("seeker")
    running = mm.accept(posted["id"], "acceptor").game_id
    with pytest.raises(Invalid, match="still being played"):
        mm.rematch(running, "blue")
    with pytest.raises(Forbidden):
        mm.rematch(running, "green")
    assert mm.rematch_state(running).offered_by is None


def test_the_redis_store_runs_on_a_redis_cluster(redis_cluster):
    """Every key is under one hash tag: the scripts run on a cluster's one slot."""
    store = RedisSeekStore(redis_cluster)
    tag = access.new_token()  # the cluster is shared by the session: keys of our own
    try:
        assert store.add(seek(f"a{tag}", player=tag), 5, 0)
        assert [s["id"] for s in store.player_seeks(tag, 0)] == [f"a{tag}"]
        assert store.claim(f"a{tag}", "p2", 0) == "ok"
        store.release(f"a{tag}")
        assert store.cancel(f"a{tag}", tag) == "ok"
        assert store.add(seek(f"old{tag}", player=tag, created_ms=1), 5, 0)
        assert f"old{tag}" not in [s["id"] for s in store.open_seeks(2)]
        assert store.get(f"old{tag}") is None
        assert store.offer_rematch(tag, "blue", "h", None, solo=False) == ("offered", {})
        assert store.offer_rematch(tag, "red", "h2", None, solo=False)[0] == "claimed"
    finally:
        for key in redis_cluster.scan_iter(match="mm:{seeks}:*"):
            if tag in key.decode():
                redis_cluster.delete(key)
