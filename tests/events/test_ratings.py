"""The ratings read model: which games count, the pure table, and the Redis follower on a
real Redis (in order, out of order, re-delivered, rebuilt: always the same model)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from events import glicko2
from events.followers import followers_for
from events.projector import load
from events.ratings import (
    PREFIX,
    PROVISIONAL_GAMES,
    RatedResult,
    RedisRatings,
    Standing,
    leaderboard,
    result_of,
    table_from_games,
    table_of,
    timeouts_of,
)
from events.readmodels import ReadModels
from events.redis_store import RedisEventStore
from events.store import InMemoryEventStore
from events.writepath import WritePath

HUMANS = {"blue": "human", "red": "human"}
MINUTE_CLOCK = {"per_move_seconds": 60}


class Clock:
    """The write path's injected clock, moved by hand."""

    def __init__(self) -> None:
        self.at = datetime(2025, 3, 1, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def tick(self, **delta: float) -> None:
        self.at += timedelta(**delta)


def writer(store) -> tuple[WritePath, Clock]:
    clock = Clock()
    return WritePath(store, clock=clock), clock


def play(bingfa: WritePath, clock: Clock, blue: str, red: str, result: str, rated: bool = True,
         seats=HUMANS) -> str:  # fmt: skip
    """A game between ``blue`` and ``red`` that ends at once: "blue" or "red" wins (the
    other resigns), "draw" (agreed), or "time" (red's time runs out)."""
    control = MINUTE_CLOCK if result == "time" else None
    game_id = bingfa.create_game("sun-tzu", {"variant": "beginner"}, seats, rated=rated,
                                 clock=control)  # fmt: skip
    for seat, player in (("blue", blue), ("red", red)):
        if seats[seat] == "human":
            bingfa.join(game_id, seat, player=player)
    clock.tick(seconds=30)  # within a minute's clock: nobody's time is up yet
    if result in ("blue", "red"):
        loser = "red" if result == "blue" else "blue"
        bingfa.submit(game_id, loser, {"type": "resign"})
    elif result == "draw":
        bingfa.draw(game_id, "blue", "offer")
        bingfa.draw(game_id, "red", "accept")
    elif result == "time":
        game = bingfa.load(game_id)
        seat = sorted(game.pending)[0]  # blue decides in time; red does not
        bingfa.submit(game_id, "blue", game.rules.random_command(game.state, seat,
                                                                 random.Random(1)))  # fmt: skip
        clock.tick(minutes=2)
        assert bingfa.expire(game_id) == ["red"]
    clock.tick(hours=1)
    return game_id


def dump(redis) -> dict:
    out = {}
    for name in sorted(redis.scan_iter(match=PREFIX + "*")):
        kind = redis.type(name).decode()
        if kind == "hash":
            out[name] = dict(redis.hgetall(name))
        elif kind == "list":
            out[name] = redis.lrange(name, 0, -1)
        elif kind == "zset":
            out[name] = redis.zrange(name, 0, -1, withscores=True)
        else:
            out[name] = sorted(redis.smembers(name))
    return out


# -- which games count ----------------------------------------------------------------------
def test_only_finished_rated_games_between_two_people_are_rated():
    bingfa, clock = writer(InMemoryEventStore())
    won = play(bingfa, clock, "ann", "bo", "blue")
    unrated = play(bingfa, clock, "ann", "bo", "red", rated=False)
    against_ai = {"blue": "human", "red": "ai:random"}
    ai = play(bingfa, clock, "ann", "", "blue", rated=False, seats=against_ai)
    alone = play(bingfa, clock, "ann", "ann", "blue")  # one player on both seats
    running = bingfa.create_game("sun-tzu", {}, HUMANS, rated=True)
    bingfa.join(running, "blue", player="ann")
    bingfa.join(running, "red", player="bo")
    found = {g: result_of(load(bingfa.store, g), clock().isoformat())
             for g in (won, unrated, ai, alone, running)}  # fmt: skip
    assert found[won].players == {"blue": "ann", "red": "bo"} and found[won].winner == "blue"
    assert [g for g, r in found.items() if r is not None] == [won]


def test_a_draw_and_a_loss_on_time_are_results_too():
    bingfa, clock = writer(InMemoryEventStore())
    draw = play(bingfa, clock, "ann", "bo", "draw")
    timed = play(bingfa, clock, "ann", "bo", "time")
    at = clock().isoformat()
    assert result_of(load(bingfa.store, draw), at).winner is None
    assert result_of(load(bingfa.store, timed), at).winner == "blue"
    assert timeouts_of(load(bingfa.store, timed)) == {"bo": 1}
    assert timeouts_of(load(bingfa.store, draw)) == {}


def test_a_rated_game_with_an_ai_seat_is_refused_so_ai_games_are_never_rated():
    bingfa, _ = writer(InMemoryEventStore())
    with pytest.raises(Exception, match="not rated"):
        bingfa.create_game("sun-tzu", {}, {"blue": "human", "red": "ai:random"}, rated=True)


# -- the pure table -------------------------------------------------------------------------
def result(n: int, blue: str, red: str, winner: str | None, ms: int | None = None):
    return RatedResult(f"g{n:03d}", "sun-tzu", ms if ms is not None else 1000 * n,
                       {"blue": blue, "red": red}, winner)  # fmt: skip


def test_one_game_is_one_glicko2_period_for_its_two_players():
    table = table_of([result(1, "ann", "bo", "blue")])
    ann, bo = table.standing("sun-tzu", "ann"), table.standing("sun-tzu", "bo")
    expected = glicko2.rate(glicko2.Rating(), [glicko2.Result(glicko2.Rating(), 1.0)])
    assert (ann.rating, ann.rd, ann.volatility) == (expected.rating, expected.rd,
                                                    expected.volatility)  # fmt: skip
    assert ann.rating > 1500 > bo.rating and ann.rating - 1500 == pytest.approx(1500 - bo.rating)
    assert (ann.games, ann.wins, bo.losses, ann.provisional) == (1, 1, 1, True)
    [entry], total = table.history("sun-tzu", "ann", 0, 10)
    assert total == 1 and entry["opponent"] == "bo" and entry["result"] == "win"
    assert entry["rating_before"] == 1500 and entry["rating_after"] == ann.rating


def test_games_are_applied_in_finish_time_then_id_order_whatever_the_input_order():
    # pairs of games share a finish time: the id breaks the tie
    games = []
    for n in range(30):
        rng = random.Random(n)
        blue, red = rng.sample(["ann", "bo", "cy", "di"], 2)
        games.append(result(n, blue, red, rng.choice(["blue", "red", None]), ms=1000 * (n // 2)))
    ordered = table_of(games)
    for seed in range(3):
        shuffled = games[:]
        random.Random(seed).shuffle(shuffled)
        assert table_of(shuffled) == ordered
    assert table_of(games[::-1]).standings != _applied_as_given(games[::-1]).standings


def _applied_as_given(games):
    from events.ratings import Table

    table = Table()
    for game in games:
        table.apply(game)
    return table


def test_the_rd_grows_between_a_players_games():
    soon = table_of([result(1, "ann", "bo", "blue"), result(2, "ann", "bo", "blue", ms=2000)])
    later = table_of([result(1, "ann", "bo", "blue"),
                      result(2, "ann", "bo", "blue", ms=1000 + 365 * 86_400_000)])  # fmt: skip
    [soon_entry], _ = soon.history("sun-tzu", "ann", 0, 1)
    [later_entry], _ = later.history("sun-tzu", "ann", 0, 1)
    assert later_entry["rd_before"] > soon_entry["rd_before"]
    assert later.standing("sun-tzu", "ann").rating > soon.standing("sun-tzu", "ann").rating


def test_provisional_until_ten_games_and_an_rd_at_most_110():
    assert Standing(games=PROVISIONAL_GAMES - 1, rd=60).provisional
    assert Standing(games=PROVISIONAL_GAMES, rd=111).provisional
    assert not Standing(games=PROVISIONAL_GAMES, rd=110).provisional


def test_the_leaderboard_puts_established_players_first_then_provisional_ones():
    standings = {
        "new": Standing(rating=2000, rd=200, games=2),
        "old": Standing(rating=1600, rd=60, games=40),
        "top": Standing(rating=1700, rd=70, games=12),
    }
    rows = leaderboard(standings, 10)
    assert [(r["player"], r["rank"], r["provisional"]) for r in rows] == [
        ("top", 1, False), ("old", 2, False), ("new", None, True)]  # fmt: skip
    assert [r["player"] for r in leaderboard(standings, 1)] == ["top"]


def test_the_in_memory_table_reads_the_streams():
    bingfa, clock = writer(InMemoryEventStore())
    for _ in range(3):
        play(bingfa, clock, "ann", "bo", "time")
    table = table_from_games(load(bingfa.store, g) for g in bingfa.store.game_ids())
    assert table.standing("sun-tzu", "ann").wins == 3
    assert table.timeouts(["bo", "ann"]) == {
        "bo": {"times": 3, "games": 3, "often": True},
        "ann": {"times": 0, "games": 0, "often": False},
    }


# -- Redis: the follower ---------------------------------------------------------------------
@pytest.fixture
def redis_setup(redis_client):
    store = RedisEventStore(redis_client, partitions=4)
    models = ReadModels(redis_client, 4, followers_for(redis_client, 4))
    bingfa, clock = writer(store)
    return store, models, bingfa, clock


def ratings_of(models) -> RedisRatings:
    [found] = [f for f in models.followers if isinstance(f, RedisRatings)]
    return found


def test_the_follower_is_in_the_followers_list(redis_client):
    assert any(isinstance(f, RedisRatings) for f in followers_for(redis_client, 4))


def test_games_projected_as_they_finish_are_rated_at_once(redis_setup, redis_client):
    store, models, bingfa, clock = redis_setup
    played = []
    games = [("ann", "bo", "blue"), ("bo", "cy", "draw"), ("cy", "ann", "red"),
             ("ann", "bo", "time")]  # fmt: skip
    for n, (blue, red, how) in enumerate(games):
        played.append(play(bingfa, clock, blue, red, how))
        models.project(store, played[-1])
        assert not redis_client.smembers(PREFIX + "dirty"), n  # in order: applied at once
    ratings = ratings_of(models)
    expected = table_from_games(load(store, g) for g in played)
    assert ratings.reader().standings_of("sun-tzu") == expected.standings_of("sun-tzu")
    assert ratings.history("sun-tzu", "ann", 0, 2) == expected.history("sun-tzu", "ann", 0, 2)
    assert ratings.history("sun-tzu", "ann", 2, 5) == expected.history("sun-tzu", "ann", 2, 5)
    assert ratings.timeouts(["bo"])["bo"] == {"times": 1, "games": 1, "often": False}


def test_a_game_that_arrives_out_of_order_gives_the_same_model_as_a_rebuild(
    redis_setup, redis_client
):
    store, models, bingfa, clock = redis_setup
    people = ["ann", "bo", "cy", "di"]
    rng = random.Random(5)
    played = []
    for _ in range(12):
        blue, red = rng.sample(people, 2)
        played.append(play(bingfa, clock, blue, red, rng.choice(["blue", "red", "draw"])))
    arrival = played[:]
    rng.shuffle(arrival)
    ratings = ratings_of(models)
    outcomes = set()
    for game_id in arrival:  # each projector takes games as they come
        models.project(store, game_id)
        outcomes.add(ratings.add(result_of(load(store, game_id), _finished_at(store, game_id))))
    assert outcomes == {"known"}  # the projection had added each already
    assert redis_client.smembers(PREFIX + "dirty") == {b"sun-tzu"}
    ratings.reader()  # the first reader settles the late arrivals
    incremental = dump(redis_client)
    models.rebuild(store)
    ratings.reader()
    assert dump(redis_client) == incremental
    expected = table_from_games(load(store, g) for g in played)
    assert ratings.standings_of("sun-tzu") == expected.standings_of("sun-tzu")
    for player in people:
        assert ratings.history("sun-tzu", player, 0, 50) == expected.history(
            "sun-tzu", player, 0, 50)  # fmt: skip


def test_a_redelivered_game_changes_nothing(redis_setup, redis_client):
    store, models, bingfa, clock = redis_setup
    game_id = play(bingfa, clock, "ann", "bo", "blue")
    models.project(store, game_id)
    before = dump(redis_client)
    game = load(store, game_id)
    entries = type("Entries", (), {"finished": {"finished_at": game.table.last_at}})()
    ratings_of(models).follow(game, entries)
    assert dump(redis_client) == before


def test_timeouts_are_counted_per_game_and_marked_from_three_games(redis_setup):
    store, models, bingfa, clock = redis_setup
    for n in range(3):
        models.project(store, play(bingfa, clock, "ann", "bo", "time"))
        record = ratings_of(models).timeouts(["bo"])["bo"]
        assert record == {"times": n + 1, "games": n + 1, "often": n == 2}


def test_delete_all_removes_every_ratings_key(redis_setup, redis_client):
    store, models, bingfa, clock = redis_setup
    models.project(store, play(bingfa, clock, "ann", "bo", "time"))
    assert ratings_of(models).delete_all() > 0
    assert dump(redis_client) == {}


def _finished_at(store, game_id: str) -> str:
    return load(store, game_id).table.last_at
