"""Duel (tests/toy_game/, registered here only) on the generic game page in chromium: the
shell loads its front end by its key, a person plays it against the computer to the end
from the invite link, and its replay shows every step; nothing outside its folder knows
the game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from browser_play import kind, over, until
from conftest import serving

import games

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the toy game
import toy_game


@pytest.fixture
def duel_server(monkeypatch):
    monkeypatch.setitem(games.REGISTRY, toy_game.RULES.key, toy_game.RULES)
    with serving() as running:
        yield running


def test_a_newcomer_plays_duel_on_the_generic_page(duel_server, watch, shot):
    client = duel_server.app.test_client()
    seats = {"north": "human", "south": "ai:random"}
    made = client.post("/api/games", json={"game": "duel", "options": {"hand": 3}, "seats": seats})
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    page = watch().page
    page.goto(duel_server.url + made.json["seats"]["north"]["invite"])
    until(lambda: kind(page) == "play", 20, "the first card to play")
    assert page.locator("#hand .card").count() == 3
    shot(page, "first-round")
    for _ in range(3):
        until(lambda: kind(page) == "play" or over(page), 20, "a card to play")
        if over(page):
            break
        page.locator("[data-play-card]").first.click()
        until(lambda: page.locator("#duel-rounds li").count() >= 1 or over(page), 20,
              "the round shown")  # fmt: skip
    until(lambda: over(page), 30, "the end of the game")
    outcome = page.locator("#outcome").inner_text()
    assert any(words in outcome for words in ("North wins", "South wins", "A draw")), outcome
    shot(page, "over")
    # its replay, step by step, as the seats and a spectator saw it
    page.goto(f"{duel_server.url}/r/{game_id}")
    page.wait_for_selector("#replay[data-shown]")
    assert page.locator("#duel-rounds li").count() == 0  # step 0: nothing played yet
    page.locator("#step-slider").fill(str(duel_server.bingfa.store.version(game_id)))
    until(lambda: page.locator("#duel-rounds li").count() == 3, 20, "every round in the replay")
    shot(page, "replay")
