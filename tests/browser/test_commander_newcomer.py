"""Commander as a newcomer first meets it, in chromium: what they trip over.

- On a laptop's screen (1366 × 768) the arrangement's instructions and its Confirm button
  stood under the board, below the fold, beside an empty half of the page: the newcomer saw
  the board and "Your turn: arrange your pieces." and nothing that said how. The decision
  now stands beside the board, which is kept no taller than the window.
- A finished game's replay was wider than a phone (390 px): the game's long id in the
  heading and the computer level's list in a grid track sized by its content pushed the
  page out (a phone then shows it zoomed out, its words small).
"""

from __future__ import annotations

import re

from browser_play import kind, until

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def start_against_the_computer(server, page, setup: str) -> None:
    page.goto(server.url + "/")
    page.check("input[name=mode][value=ai]")
    page.select_option("#level", "easy")
    page.select_option("#game", "commander")
    page.select_option("[data-kind-fields=commander] [data-option=setup]", setup)
    page.click("#create")
    page.wait_for_url(re.compile(r"/g/\w+/blue$"))


def in_view(page, selector: str) -> bool:
    """Whole inside the window as the page opens (not scrolled)."""
    box = page.locator(selector).bounding_box()
    window = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= window["height"]


def test_on_a_laptop_the_board_what_to_do_and_the_button_are_seen_at_once(server, watch, shot):
    page = watch(viewport=LAPTOP).page
    start_against_the_computer(server, page, "secret")
    until(lambda: kind(page) == "arrange", 20, "the arrangement to make")
    assert page.evaluate("window.scrollY") == 0
    for seen in ("#arrange-help", "#arrange-confirm", '[data-square="a8"]', '[data-square="a1"]'):
        assert in_view(page, seen), f"{seen} is not in the window without scrolling"
    shot(page, "arrange")
    page.click("#arrange-confirm")
    until(lambda: kind(page) == "move", 20, "the first move")

    page.reload()  # a move, as the page opens on it
    until(lambda: kind(page) == "move", 20, "the first move")
    assert page.evaluate("window.scrollY") == 0
    for seen in ("#move-help", '[data-square="a8"]', '[data-square="a1"]'):
        assert in_view(page, seen), f"{seen} is not in the window without scrolling"
    shot(page, "move")


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
