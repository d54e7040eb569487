"""Commander as a newcomer first meets it, in chromium: what they trip over.

- On a laptop's screen (1366 × 768) the arrangement's instructions and its Confirm button
  stood under the board, below the fold, beside an empty half of the page: the newcomer saw
  the board and "Your turn: arrange your pieces." and nothing that said how. The decision
  now stands beside the board, which is kept no taller than the window.
- A finished game's replay was wider than a phone (390 px): the game's long id in the
  heading and the computer level's list in a grid track sized by its content pushed the
  page out (a phone then shows it zoomed out, its words small).
- On a phone, a tap that did nothing (an Officer with no move yet, a square the piece picked
  cannot reach) said why only in the page's error line at the top, scrolled out of sight:
  it is said in the decision's help line, under the board.
- The first to arrange read "Waiting for Red to arrange your pieces." (and a spectator
  "Waiting for Blue to arrange your pieces and Red to arrange your pieces."): the game's
  prompt did not change for the seats that wait (``Text.prompt``'s ``seat`` None).
- On a phone the rules page was wider than the screen (the table of who captures whom), and
  so was the home page in Japanese (a fieldset is as wide as its longest list's option).
- The game log said the computer's level as its id, in English on every page: "빨강: 빨강
  자리에 앉았습니다(컴퓨터, easy)." It is a message now (``table.level.*``); the test's
  catalog stands in for the translators'.
"""

from __future__ import annotations

import io
import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations
from browser_play import kind, until

import events.i18n
from service import narration
from service.catalogs import PLATFORM

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


@pytest.fixture
def easy_in_korean(monkeypatch):
    """The platform's Korean catalog, with the level's word the test looks for first."""
    catalog = Catalog(locale="ko")
    catalog.add("easy", "쉬움(시험)", context="table.level.easy")
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    mine = Translations(fp=buffer)
    real = events.i18n.translations

    def translations(folder: str, locale: str):
        found = real(folder, locale)
        if folder == str(PLATFORM) and locale == "ko":
            mine._fallback = None
            mine.add_fallback(found)
            return mine
        return found

    monkeypatch.setattr(events.i18n, "translations", translations)
    monkeypatch.setattr(narration, "_tables", {})  # no table made before the patch
    yield "쉬움(시험)"
    narration._tables.clear()  # none made with the patch after it


def test_the_game_log_says_the_computer_s_level_in_the_page_s_language(
    server, watch, easy_in_korean
):
    page = watch(viewport=LAPTOP, locale="ko-KR", extra_http_headers={"Accept-Language": "ko"}).page
    start_against_the_computer(server, page, "standard")
    until(lambda: kind(page) == "move", 20, "the first move")
    line = until(lambda: [t for t in page.locator("#log li").all_inner_texts() if "(" in t], 20,
                 "the computer's seat in the log")[0]  # fmt: skip
    assert easy_in_korean in line and "easy" not in line, line


def test_on_a_phone_a_tap_that_does_nothing_says_why_in_sight(server, watch, shot):
    page = watch(**PHONE).page
    start_against_the_computer(server, page, "standard")
    until(lambda: kind(page) == "move", 20, "the first move")
    officer = page.locator('#board [data-square="a1"]')
    officer.scroll_into_view_if_needed()  # one's own pieces, at the bottom of the board
    officer.tap()  # an Officer behind its Soldiers: it has no move at the start
    help_line = page.locator("#move-help")
    until(lambda: "no legal move" in help_line.inner_text(), 10, "why nothing happened")
    assert help_line.get_attribute("data-note") == "yes"
    assert in_view(page, "#move-help"), "the reason is out of sight"
    shot(page, "stuck")
    page.locator('#board [data-square="b4"]').tap()  # a Soldier that may move …
    until(lambda: help_line.get_attribute("data-note") is None, 10, "the note gone")
    page.locator('#board [data-square="c6"]').tap()  # … but not there
    until(lambda: "cannot move to c6" in help_line.inner_text(), 10, "why not there")
    assert in_view(page, "#move-help"), "the reason is out of sight"


def test_the_first_to_arrange_is_told_the_other_arranges_their_pieces(server, watch):
    client = server.app.test_client()
    seats = {"blue": "human", "red": "human"}
    made = client.post("/api/games", json={"game": "commander", "seats": seats,
                                           "options": {"setup": "secret"}})  # fmt: skip
    assert made.status_code == 201, made.json
    pages = {}
    for seat in ("blue", "red"):  # the game starts once both have taken their seats
        pages[seat] = watch(viewport=LAPTOP).page
        pages[seat].goto(server.url + made.json["seats"][seat]["invite"])
    blue = pages["blue"]
    until(lambda: kind(blue) == "arrange", 20, "Blue's arrangement")
    assert blue.inner_text("#banner") == "Your turn: arrange your pieces."
    blue.click("#arrange-confirm")
    until(lambda: "Waiting" in blue.inner_text("#banner"), 20, "Blue waiting")
    assert blue.inner_text("#banner") == "Waiting for Red to arrange their pieces."
    spectator = watch(viewport=LAPTOP).page
    spectator.goto(f"{server.url}/g/{made.json['game_id']}")
    until(lambda: "Waiting" in spectator.inner_text("#banner"), 20, "the spectator's banner")
    assert spectator.inner_text("#banner") == "Waiting for Red to arrange their pieces."


@pytest.mark.parametrize("path", ["/games/commander/rules?lang=en", "/?lang=ja", "/seeks?lang=en"])
def test_the_rules_and_the_new_game_forms_fit_a_phone(server, watch, path):
    page = watch(**PHONE).page
    page.goto(server.url + path)
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["viewport"]["width"], f"{path} is {width} px wide on a phone"
