"""A finished game 1 of a match, its page left open, learns the match's result the moment
game 2 ends, without a reload: game 2's end hook tells game 1's live channel and game 1's
stream says "match" (events.matches.tell, service/api/games.py). The stream's heartbeat is
set far beyond the test, so only that push can bring the result."""

from __future__ import annotations

import random

from conftest import serving

import games

KEY = "warring-states"
RULES = games.get(KEY)


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_game_one_shows_the_match_result_when_game_two_ends(watch, shot):
    with serving(SSE_HEARTBEAT=120.0, SSE_SECONDS=300) as server:
        client, bingfa = server.app.test_client(), server.bingfa
        body = {"game": KEY, "match": True, "seats": {"first": "human", "second": "human"}}
        made = client.post("/api/games", json=body)
        assert made.status_code == 201, made.json
        first = made.json["game_id"]
        tokens = {s: link["token"] for s, link in made.json["seats"].items()}
        for token in tokens.values():
            joined = client.post(f"/api/games/{first}/join", json={}, headers=auth(token))
            assert joined.status_code == 200, joined.json
        rng = random.Random(5)
        while (game := bingfa.load(first)).outcome is None:  # game 1, to its end on the board
            seat = sorted(game.pending)[0]
            bingfa.submit(first, seat, RULES.random_command(game.state, seat, rng))
        assert "sides" in bingfa.load(first).outcome

        watched = watch()
        page = watched.page
        page.goto(f"{server.url}/g/{first}/first#token={tokens['first']}")
        page.wait_for_selector("#game[data-over='yes']")
        next_link = page.locator("#outcome [data-match-next]")
        next_link.wait_for(timeout=30_000)
        second = next_link.get_attribute("href").rsplit("/", 1)[-1]
        assert page.locator("[data-match-result]").count() == 0
        page.evaluate("window.__sameDocument = true")
        shot(page, "game-one-waiting")

        # game 2: the first player (the second seat there, same token) resigns it
        resigned = client.post(f"/api/games/{second}/commands", headers=auth(tokens["first"]),
                               json={"command": {"type": "resign"}})  # fmt: skip
        assert resigned.status_code == 201, resigned.json
        result = page.locator("#outcome [data-match-result]")
        result.wait_for(timeout=30_000)
        assert result.inner_text() == "You lost the match: a resignation."
        assert page.evaluate("window.__sameDocument === true")  # no reload
        assert "Game 1 of 2 of a match." in page.inner_text("#outcome [data-match]")
        shot(page, "game-one-decided")
