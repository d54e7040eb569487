"""The match sweep (events.matches.sweep, beat's workers.dispatch.sweep_matches): a next
game its end hook failed to make (a Redis error) is made later, once, however many sweeps
and end hooks run at once (the claim on the game's NEXT secret); a next game made but not
taken is given its players. The platform code names no game; these tests play one."""

from __future__ import annotations

import random
import threading
import time

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

import games
from events import matches
from events.store import InMemoryEventStore
from events.writepath import WritePath
from workers import celery_app
from workers.dispatch import MATCH_GRACE_MS, MATCH_WINDOW_MS, sweep_matches

KEY = "warring-states"
RULES = games.get(KEY)
NOW_MS = 1_900_000_000_000


class Finished:
    """The read model's finished-games index, as the sweep asks it."""

    def __init__(self, ids):
        self.ids, self.asked = list(ids), []

    def finished_between(self, low_ms, high_ms, limit=1000):
        self.asked.append((low_ms, high_ms))
        return self.ids


def first_game_ended(monkeypatch, fail):
    """A two-game match whose first game ended on the board; ``fail``: what the end hook
    meets instead of making the second game (once)."""
    bingfa = WritePath(InMemoryEventStore(), ai_levels={"random"})
    first = bingfa.create_game(KEY, {}, {"first": "human", "second": "human"}, match=True)
    bingfa.join(first, "first", player="p-alice")
    bingfa.join(first, "second", player="p-bob")
    real = {name: getattr(matches, name) for name in ("_make", "_seat_players")}
    failed = []

    def once(name):
        def broken(*args, **kwargs):
            if not failed:
                failed.append(name)
                raise RedisConnectionError("Redis went away")
            return real[name](*args, **kwargs)

        return broken

    monkeypatch.setattr(matches, fail, once(fail))
    rng = random.Random(3)
    for _ in range(3000):
        game = bingfa.load(first)
        if game.outcome is not None:
            break
        seat = sorted(game.pending)[0]
        bingfa.submit(first, seat, RULES.random_command(game.state, seat, rng))
    game = bingfa.load(first)
    assert "sides" in game.outcome and failed == [fail]  # on the board: the match goes on
    return bingfa, game


def made_games(bingfa):
    return sorted(set(bingfa.store.game_ids()))


def assert_second_game(bingfa, first):
    second = matches.next_id(bingfa, first.game_id)
    assert second is not None
    g2 = bingfa.load(second)
    assert g2.created["match"]["game"] == 2 and g2.created["match"]["first"] == first.game_id
    assert g2.joined["second"]["player"] == "p-alice" and g2.joined["first"]["player"] == "p-bob"
    assert g2.dealt
    return second


def test_a_failed_end_hook_is_made_good_by_the_sweep_once(monkeypatch):
    bingfa, first = first_game_ended(monkeypatch, "_make")
    # the end hook failed: no next game, no claim left behind, the match shows one game
    assert made_games(bingfa) == [first.game_id]
    assert bingfa.store.get_secret(first.game_id, matches.NEXT) is None
    assert matches.view(bingfa, first, "first")["games"] == [first.game_id]
    models = Finished([first.game_id])
    made = sweep_matches(bingfa, models, NOW_MS)
    assert models.asked == [(NOW_MS - MATCH_WINDOW_MS, NOW_MS - MATCH_GRACE_MS)]
    second = assert_second_game(bingfa, first)
    assert made == [second]
    assert matches.view(bingfa, first, "first")["games"] == [first.game_id, second]
    # again, and the end hook once more: nothing new
    assert sweep_matches(bingfa, models, NOW_MS) == []
    assert matches.on_end(bingfa, bingfa.load(first.game_id)) is None
    assert made_games(bingfa) == sorted([first.game_id, second])
    # a finished second game (or any game not owed one) is passed over
    assert matches.sweep(bingfa, [second, "no-such-game"]) == []


def test_sweeps_and_end_hooks_at_once_make_one_game(monkeypatch):
    bingfa, first = first_game_ended(monkeypatch, "_make")
    slow = matches._make

    def slower(*args, **kwargs):  # wide enough a window for a second maker to get in
        time.sleep(0.05)
        return slow(*args, **kwargs)

    monkeypatch.setattr(matches, "_make", slower)
    start = threading.Barrier(6)
    results = []

    def run(work):
        start.wait()
        results.append(work())

    works = [lambda: matches.sweep(bingfa, [first.game_id])] * 4
    works += [lambda: matches.on_end(bingfa, bingfa.load(first.game_id))] * 2
    threads = [threading.Thread(target=run, args=(w,)) for w in works]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    second = assert_second_game(bingfa, first)
    assert made_games(bingfa) == sorted([first.game_id, second])
    made = [r for r in results if r]
    assert made in ([[second]], [second])  # one sweep made it, or one end hook did
    assert matches.sweep(bingfa, [first.game_id]) == []


def test_a_next_game_made_but_not_taken_gets_its_players_from_the_sweep(monkeypatch):
    bingfa, first = first_game_ended(monkeypatch, "_seat_players")
    second = matches.next_id(bingfa, first.game_id)
    assert second is not None and not bingfa.load(second).joined
    assert matches.sweep(bingfa, [first.game_id]) == [second]
    assert assert_second_game(bingfa, first) == second
    assert matches.sweep(bingfa, [first.game_id]) == []
    assert made_games(bingfa) == sorted([first.game_id, second])


@pytest.mark.parametrize("name", ["sweep-matches"])
def test_beat_sweeps_the_matches(name):
    entry = celery_app.make_celery().conf.beat_schedule[name]
    assert entry["task"] == celery_app.SWEEP_MATCHES and entry["schedule"] <= 120
