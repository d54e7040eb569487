"""Commander as a newcomer first meets it, in chromium: what they trip over.

- A finished game's replay was wider than a phone (390 px): the game's long id in the
  heading and the computer level's list in a grid track sized by its content pushed the
  page out (a phone then shows it zoomed out, its words small).
"""

from __future__ import annotations

from browser_play import until

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_a_finished_game_s_replay_fits_a_phone(server, watch, shot):
    client = server.app.test_client()
    seats = {"blue": "ai:random", "red": "ai:random"}
    made = client.post("/api/games", json={"game": "commander", "seats": seats})
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    until(lambda: server.bingfa.load(game_id).outcome, 30, "the computer's game to end")
    page = watch(**PHONE).page
    page.goto(f"{server.url}/r/{game_id}")
    page.wait_for_selector('#replay[data-shown="0:spectator"]')
    # the phone's width, not window.innerWidth: a phone widens its window to a wider page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["viewport"]["width"], f"the replay is {width} px wide on a phone"
    shot(page, "replay")
