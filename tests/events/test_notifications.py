"""Notifications: what a game's state calls for (pure ``due``), and the follower that adds
each one once to its player's list on a real Redis."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from events.notifications import (
    LIST_SIZE,
    MAX_AGE_MS,
    Notification,
    Notifications,
    NotificationStore,
    due,
)
from events.readmodels import ReadModels
from events.redis_store import RedisEventStore
from events.store import InMemoryEventStore
from events.writepath import WritePath

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def ms(self) -> int:
        return round(self.now.timestamp() * 1000)

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def bingfa(clock):
    return WritePath(InMemoryEventStore(), clock=clock)


def friends(bingfa, clock, first="blue"):
    """A game between P1 (blue) and P2 (red); ``first`` takes their seat first."""
    game_id = bingfa.create_game("sun-tzu", {}, {"blue": "human", "red": "human"})
    second = "red" if first == "blue" else "blue"
    bingfa.join(game_id, first, player="P1" if first == "blue" else "P2")
    clock.advance(minutes=5)
    bingfa.join(game_id, second, player="P1" if second == "blue" else "P2")
    return game_id


def kinds(found: list[Notification]) -> list[tuple[str, str, str]]:
    return sorted((n.kind, n.player, n.seat) for n in found)


def play_one(bingfa, game_id, seat, rng):
    game = bingfa.load(game_id)
    bingfa.submit(game_id, seat, game.rules.random_command(game.state, seat, rng))


# -- due: pure ------------------------------------------------------------------------------
def test_nothing_is_due_while_waiting_for_an_opponent(bingfa, clock):
    game_id = bingfa.create_game("sun-tzu", {}, {"blue": "human", "red": "human"})
    assert due(bingfa.load(game_id)) == []
    bingfa.join(game_id, "blue", player="P1")
    assert due(bingfa.load(game_id)) == []


def test_the_player_waiting_is_told_the_opponent_joined_and_it_is_their_turn(bingfa, clock):
    game_id = friends(bingfa, clock)
    found = due(bingfa.load(game_id))
    # Red just took the last seat and is looking at the game: nothing for them.
    assert kinds(found) == [("joined", "P1", "blue"), ("turn", "P1", "blue")]
    joined = next(n for n in found if n.kind == "joined")
    assert joined.id == f"joined:{game_id}:red"
    assert joined.url == f"/g/{game_id}/blue"
    assert joined.at == "2025-03-01T09:05:00.000Z"  # when Red joined
    assert "joined" in joined.text and game_id in joined.text
    turn = next(n for n in found if n.kind == "turn")
    assert turn.id.startswith(f"turn:{game_id}:blue:")
    assert turn.text == f"Your turn in game {game_id} (Blue) against Red."


def test_whoever_joined_first_is_the_one_told(bingfa, clock):
    game_id = friends(bingfa, clock, first="red")
    assert kinds(due(bingfa.load(game_id))) == [("joined", "P2", "red"), ("turn", "P2", "red")]


def test_the_same_state_gives_the_same_ids(bingfa, clock):
    game_id = friends(bingfa, clock)
    assert due(bingfa.load(game_id)) == due(bingfa.load(game_id))
    # from a snapshot too (it stores the joined seats sorted)
    from events.projector import load, save_snapshot

    save_snapshot(bingfa.store, bingfa.load(game_id))
    assert due(load(bingfa.store, game_id)) == due(bingfa.load(game_id))


def test_your_turn_is_never_for_the_seat_that_just_moved(bingfa, clock):
    game_id = friends(bingfa, clock)
    rng = random.Random(5)
    told = 0
    for _ in range(120):
        game = bingfa.load(game_id)
        if game.outcome is not None:
            break
        turns = game.table.turns
        for n in due(game):
            if n.kind == "turn":
                assert turns[n.seat].by != n.seat
                assert n.id == f"turn:{game_id}:{n.seat}:{turns[n.seat].since}"
                told += 1
        clock.advance(minutes=1)
        play_one(bingfa, game_id, sorted(game.pending)[0], rng)
    assert told > 5


def test_a_turn_started_by_your_own_move_is_not_notified(bingfa, clock):
    game_id = friends(bingfa, clock)
    rng = random.Random(2)
    seen_own = False
    for _ in range(200):
        game = bingfa.load(game_id)
        if game.outcome is not None:
            break
        own = [s for s, t in game.table.turns.items() if t.by == s]
        if own:
            seen_own = True
            assert not [n for n in due(game) if n.kind == "turn" and n.seat in own]
        play_one(bingfa, game_id, sorted(game.pending)[0], rng)
    assert seen_own


def test_ai_seats_get_nothing_and_an_ai_reply_is_no_news(bingfa, clock):
    game_id = bingfa.create_game("sun-tzu", {}, {"blue": "human", "red": "ai:random"})
    bingfa.join(game_id, "blue", player="P1")
    game = bingfa.load(game_id)
    # The AI sat down at creation: nobody waited for it; Blue is on the page.
    assert due(game) == []
    rng = random.Random(1)
    while (game := bingfa.load(game_id)).outcome is None:
        seat = sorted(game.pending)[0]
        assert all(n.player == "P1" for n in due(game))
        assert not [n for n in due(game) if n.kind in ("turn", "joined")]
        play_one(bingfa, game_id, seat, rng)
    [over] = due(bingfa.load(game_id))
    assert over.kind == "over" and over.player == "P1" and over.seat == "blue"


def test_a_seat_handed_to_the_ai_is_not_told_its_turn(bingfa, clock):
    game_id = friends(bingfa, clock)
    bingfa.hand_to_ai(game_id, "blue", "random")
    assert not [n for n in due(bingfa.load(game_id)) if n.kind == "turn"]


def test_game_over_for_each_player_from_their_side(bingfa, clock):
    game_id = friends(bingfa, clock)
    clock.advance(hours=2)
    bingfa.submit(game_id, "red", {"type": "resign"})
    found = due(bingfa.load(game_id))
    assert [n.kind for n in found] == ["over", "over"]  # no turns once it is over
    over = {n.player: n for n in found}
    # in the game's own words (its text's end), from each player's side
    assert over["P1"].text == f"Game {game_id} is over: You win. Red resigned."
    assert over["P2"].text == f"Game {game_id} is over: Blue wins — you lose. You resigned."
    assert over["P1"].id == over["P2"].id == f"over:{game_id}"
    assert over["P2"].url == f"/g/{game_id}/red" and over["P1"].at == "2025-03-01T11:05:00.000Z"


def test_an_agreed_draw_and_the_offer_before_it(bingfa, clock):
    game_id = friends(bingfa, clock)
    bingfa.draw(game_id, "blue", "offer")
    offers = [n for n in due(bingfa.load(game_id)) if n.kind == "draw"]
    assert [(n.player, n.seat) for n in offers] == [("P2", "red")]
    assert offers[0].text == f"Blue offers a draw in game {game_id}."
    bingfa.draw(game_id, "red", "accept")
    over = [n for n in due(bingfa.load(game_id)) if n.kind == "over"]
    assert {n.text for n in over} == {
        f"Game {game_id} is over: The game is a draw. Both players agreed to a draw."
    }


def test_one_player_in_both_seats_is_told_once_who_won(bingfa, clock):
    game_id = bingfa.create_game("sun-tzu", {}, {"blue": "human", "red": "human"})
    bingfa.join(game_id, "blue", player="P1")
    bingfa.join(game_id, "red", player="P1")
    assert due(bingfa.load(game_id)) == []  # their own join, their own turns
    bingfa.submit(game_id, "blue", {"type": "resign"})
    [over] = due(bingfa.load(game_id))
    assert over.text == f"Game {game_id} is over: Red wins. Blue resigned."


# -- the follower on a real Redis --------------------------------------------------------------
@pytest.fixture
def redis_game(redis_client, clock):
    store = RedisEventStore(redis_client, partitions=4)
    return WritePath(store, clock=clock)


def test_following_a_game_twice_stores_each_notification_once(redis_client, redis_game, clock):
    notes = NotificationStore(redis_client)
    follower = Notifications(notes, clock=clock.ms)
    game_id = friends(redis_game, clock)
    game = redis_game.load(game_id)
    first = follower.follow(game)
    assert kinds(first) == [("joined", "P1", "blue"), ("turn", "P1", "blue")]
    assert follower.follow(game) == []
    assert follower.follow(redis_game.load(game_id)) == []
    listed = notes.newest("P1")
    assert [n["kind"] for n in listed] == ["turn", "joined"]  # newest first
    assert [n["seq"] for n in listed] == [2, 1] and not any(n["read"] for n in listed)
    assert notes.unread("P1") == 2 and notes.newest("P2") == []
    assert notes.mark_read("P1", 1) == 1
    assert notes.mark_read("P1", 0) == 1  # never moves back
    assert [n["read"] for n in notes.newest("P1")] == [False, True]
    assert notes.since("P1", 1) == notes.newest("P1", limit=1)


def test_the_projector_and_a_rebuild_tell_nothing_twice(redis_client, redis_game, clock):
    from events.followers import followers_for

    clock.now = datetime.now(UTC)  # the projector's followers read the real time
    store = redis_game.store
    models = ReadModels(redis_client, 4, followers_for(redis_client, 4))
    notes = NotificationStore(redis_client)
    notes.set_webhook("P1", {"url": "http://127.0.0.1:9/x", "digest": "off", "digest_hour": 0,
                             "nonce": "n"}, clock.ms())  # fmt: skip
    game_id = friends(redis_game, clock)
    models.project(store, game_id)
    models.project(store, game_id)
    assert notes.last_seq("P1") == 2 and notes.outbox_size() == 2
    redis_game.submit(game_id, "red", {"type": "resign"})
    models.project(store, game_id)
    assert [n["kind"] for n in notes.newest("P2")] == ["over"]
    assert notes.outbox_size() == 3  # P2 has no webhook
    models.rebuild(store)
    assert notes.last_seq("P1") == 3 and notes.last_seq("P2") == 1
    assert notes.outbox_size() == 3


def test_the_list_keeps_the_newest_and_old_news_is_not_added(redis_client, clock):
    notes = NotificationStore(redis_client)
    now = clock.ms()

    def note(i, at="2025-03-01T09:00:00.000Z"):
        return Notification(f"turn:g:blue:{i}", "turn", "g", "blue", "P1", f"t{i}", "/g/g/blue",
                            at)  # fmt: skip

    for i in range(LIST_SIZE + 5):
        assert notes.add(note(i), now)[0] == i + 1
    listed = notes.newest("P1", limit=LIST_SIZE + 10)
    assert len(listed) == LIST_SIZE and listed[0]["text"] == f"t{LIST_SIZE + 4}"
    assert notes.add(note(0), now) == (0, False)  # trimmed from the list, still seen
    assert notes.add(note(999, "2025-01-01T09:00:00.000Z"), now + MAX_AGE_MS) == (0, False)
    older = notes.newest("P1", before=listed[-1]["seq"] + 2, limit=5)
    assert [n["seq"] for n in older] == [listed[-1]["seq"] + 1, listed[-1]["seq"]]
