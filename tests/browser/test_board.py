"""Sun Tzu's board as players see it (issue 13): a map with its borders, cards drawn as
cards, battles with their result, tooltips on hover, focus and tap, the page knowing a 6
may not go on its own 6-marker, the end in view, the AI level, the log by rounds, the
paced watching of a computer-only game, the rematch and "Your games", and the title font.
Every check reads the page in Debian's Chromium against a real server.
"""

from __future__ import annotations

import random
import re

from browser_play import (
    PROVINCES,
    answer,
    error,
    kind,
    my_turn_or_over,
    over,
    round_of,
    sent,
    until,
    wait_moved,
)

import games
from games.sun_tzu.glossary import GLOSSARY
from games.sun_tzu.rulings import ADJACENT_PAIRS

RULES = games.get("sun-tzu")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def create(server, seats, options=None) -> dict:
    response = server.app.test_client().post(
        "/api/games", json={"seats": seats, "options": options or {}}
    )
    assert response.status_code == 201, response.json
    return response.json


def open_seat(watch, server, made, seat, **options):
    w = watch(**options)
    w.page.goto(f"{server.url}/g/{made['game_id']}/{seat}#token={made['seats'][seat]['token']}")
    return w.page


def play_until(page, rng, stop, limit=80):
    """Answer the page's decisions until stop(page) holds (or the game ends)."""
    for _ in range(limit):
        asked = my_turn_or_over(page, 30)
        if stop(page) or not asked:
            return asked
        answer(page, rng)
    raise AssertionError("the page never reached the state looked for")


def tip_shown(page) -> str:
    bubble = page.locator("#tip-bubble")
    return bubble.inner_text() if bubble.count() and bubble.is_visible() else ""


# ---- 1. a map, cards as cards, battles with their result --------------------------------
def test_the_board_is_a_map_with_its_borders_at_both_sizes(server, watch, shot):
    made = create(server, {"blue": "human", "red": "ai:random"}, {"variant": "beginner"})
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = open_seat(watch, server, made, "blue", viewport=viewport)
        until(lambda p=page: kind(p) == "place", 20, "the placement")
        gates = page.locator("#board svg.gates .gate")
        assert gates.count() == len(ADJACENT_PAIRS)
        drawn = {g.get_attribute("data-border") for g in gates.all()}
        assert drawn == {f"{a}|{b}" for a, b in ADJACENT_PAIRS}
        # every border is a gate across an edge the two regions share on screen (no road)
        assert page.locator("#board svg.gates rect").count() == len(ADJACENT_PAIRS)
        assert page.locator("#board svg.gates line").count() == 0
        boxes = {p: page.locator(f"#board [data-province='{p}']").bounding_box() for p in PROVINCES}

        def touch(a, b, boxes=boxes):
            (x, y) = (boxes[a], boxes[b])
            sx = min(x["x"] + x["width"], y["x"] + y["width"]) - max(x["x"], y["x"])
            sy = min(x["y"] + x["height"], y["y"] + y["height"]) - max(x["y"], y["y"])
            return (sx > 10 and sy > -12) or (sy > 10 and sx > -12)

        pairs = {frozenset(p) for p in ADJACENT_PAIRS}
        for a in PROVINCES:
            for b in PROVINCES:
                if a < b:
                    assert touch(a, b) == (frozenset((a, b)) in pairs), (name, a, b)
        # cards are card shaped (upright), the hand's and the table's
        card = page.locator("#hand button.card").first.bounding_box()
        assert card["height"] > card["width"] * 1.2
        # nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shot(page, name)


def test_a_battle_is_its_two_cards_and_the_result(server, watch, shot):
    made = create(server, {"blue": "human", "red": "ai:random"}, {"variant": "beginner"})
    page = open_seat(watch, server, made, "blue")
    play_until(page, random.Random(5), lambda p: kind(p) == "keep")  # after round 1's battles
    battles = [e.payload for e in server.bingfa.store.read(made["game_id"]) if e.type == "battle"]
    assert len(battles) == 5
    for b in battles:
        node = page.locator(f"[data-battle='{b['province']}']")
        cards = node.locator(".card[data-card]")
        assert cards.count() == 2
        assert [cards.nth(i).get_attribute("data-owner") for i in range(2)] == ["blue", "red"]
        assert [cards.nth(i).get_attribute("data-card") for i in range(2)] == [
            b["cards"]["blue"],
            b["cards"]["red"],
        ]
        result = node.locator(".result").inner_text()
        if b["plague"]:
            assert "Plague" in result
        elif b["winner"]:
            assert result == f"{b['winner'].capitalize()} wins by {b['margin']}"
        else:
            assert "tie" in result
    shot(page, "battles")


# ---- 2. tooltips: hover, keyboard focus, tap ----------------------------------------------
def test_things_explain_themselves_on_hover_focus_and_tap(server, watch, new_context):
    made = create(server, {"blue": "human", "red": "ai:random"}, {"variant": "standard"})
    page = open_seat(watch, server, made, "blue")
    play_until(page, random.Random(2), lambda p: kind(p) == "place")
    # hover: a card in the hand
    card = page.locator("#hand button.card").first
    value = card.get_attribute("data-card")
    card.hover()
    until(lambda: tip_shown(page) == GLOSSARY[f"tip.card.{value}"], 5, "the card's tip on hover")
    described = card.get_attribute("aria-describedby")
    assert page.locator(f"#{described}").text_content() == GLOSSARY[f"tip.card.{value}"]
    # keyboard focus: a score display (not a control: made focusable for its tip)
    page.mouse.move(0, 0)
    display = page.locator("[data-display='Qin']")
    assert display.get_attribute("tabindex") == "0"
    display.focus()
    until(lambda: "score display" in tip_shown(page), 5, "the display's tip on focus")
    page.keyboard.press("Escape")
    until(lambda: tip_shown(page) == "", 5, "Escape to hide the tip")
    # a province says which provinces it borders
    page.locator("[data-province='Wu'] h3").hover()
    until(lambda: tip_shown(page) == "Wu borders Chu and Han-Qi.", 5, "Wu's borders")
    # the Warlord kept (standard game) and the score track explain themselves too
    page.mouse.move(0, 0)  # the keyboard alone from here
    chip = page.locator(".player[data-seat=blue] .warlord-chip").first
    chip.focus()
    until(lambda: GLOSSARY["tip.warlord"] in tip_shown(page), 5, "the Warlord's tip")
    page.locator("#track").focus()
    until(lambda: tip_shown(page) == GLOSSARY["tip.track"], 5, "the track's tip")

    # tap, on a phone: the tip shows and stays; a tap elsewhere hides it
    phone = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    tapper = phone.new_page()
    tapper.goto(f"{server.url}/g/{made['game_id']}")  # a spectator's page
    tapper.wait_for_selector("[data-display='Chu']")
    tapper.tap("[data-display='Chu']")
    until(lambda: "score display" in tip_shown(tapper), 5, "the tip on a tap")
    tapper.tap("#banner")
    until(lambda: tip_shown(tapper) == "", 5, "a tap elsewhere to hide it")


# ---- 3. the page knows where a 6 may not go ------------------------------------------------
def test_a_six_is_refused_where_its_own_marker_stands(server, watch, shot):
    made = create(server, {"blue": "human", "red": "ai:random"}, {"variant": "beginner"})
    page = open_seat(watch, server, made, "blue")
    until(lambda: kind(page) == "place", 20, "the first placement")
    hand = page.locator("#hand button.card")
    cards = [hand.nth(i).get_attribute("data-card") for i in range(hand.count())]
    order = [cards.index("6"), *[i for i in range(len(cards)) if cards[i] != "6"][:4]]
    for province, i in zip(PROVINCES, order, strict=True):  # the 6 in Qin
        page.click(f"#hand button[data-index='{i}']")
        page.click(f"[data-slot='{province}']")
    before = sent(page)
    page.click("#submit-place")
    assert wait_moved(page, before) == "moved", error(page)
    play_until(page, random.Random(4), lambda p: kind(p) == "place" and round_of(p) == 2)
    marker = page.locator("[data-province='Qin'] [data-marker=blue]")
    assert marker.count() == 1
    page.mouse.move(0, 0)
    marker.focus()
    until(lambda: tip_shown(page) == GLOSSARY["tip.marker.6"], 5, "the 6-marker's tip")
    six = page.locator("#hand button.card[data-card='6']")
    six.click()
    slot = page.locator("[data-slot='Qin']")
    assert slot.is_disabled()
    assert slot.get_attribute("data-blocked") == "six"
    assert "6-marker" in slot.inner_text()
    assert "Your 6-marker stands in Qin" in slot.get_attribute("aria-label")
    for other in PROVINCES[1:]:
        assert page.locator(f"[data-slot='{other}']").is_enabled()
    page.keyboard.press("1")  # the key for Qin says why, and places nothing
    assert "Your 6-marker stands in Qin" in page.inner_text("#error")
    assert page.inner_text("[data-summary='Qin']").endswith("—")
    shot(page, "six-refused")


# ---- 7 and 6: Warlords held, the next scoring, from the board's own code -----------------
def test_warlords_held_and_next_scoring_are_told_right(server, watch):
    page = watch().page
    page.goto(server.url + "/")
    said = page.evaluate(
        """async () => {
        const { loadKind } = await import('/static/kinds.js');
        const front = await import('/games/sun-tzu/web/index.js');
        front.init(await loadKind('sun-tzu'));
        const board = await import('/games/sun-tzu/web/board.js');
        const player = (over) => ({ reserve: 1, aside: 0, on_board: 3, hand_size: 4, deck_size: 2,
            warlords: null, warlords_held: 1, warlords_played: ['reinforce'], discarded: [],
            hand: null, ...over });
        const view = { variant: 'standard', outcome: null, players: {
            blue: player({}), red: player({ warlords_played: [] }) } };
        const node = document.createElement('div');
        board.renderPlayers(node, view, { game: null, me: 'red' });
        const field = (seat) =>
            node.querySelector(`[data-seat=${seat}] [data-field=warlords]`).textContent;
        const chip = '[data-seat=blue] [data-field=played] .warlord-chip';
        const next = (round, phase, outcome = null) => board.nextScoring({ round, phase, outcome });
        return { blue: field('blue'), red: field('red'),
                 played: node.querySelector(chip).firstChild.textContent,
                 r3place: next(3, 'place'), r3draw: next(3, 'draw'), r9draw: next(9, 'draw'),
                 r9place: next(9, 'place'), over: next(9, 'over', { winner: 'blue' }) };
    }"""
    )
    assert said["blue"].startswith("none left in hand"), said
    assert said["red"].startswith("1 in hand"), said
    assert said["played"] == "Reinforce"
    assert (said["r3place"], said["r3draw"], said["r9place"]) == (0, 1, 2)
    assert said["r9draw"] == -1 and said["over"] == -1


# ---- 6: the computer's level ---------------------------------------------------------------
def test_the_page_says_which_level_you_face(server, watch):
    made = create(server, {"blue": "human", "red": "ai:random"}, {"variant": "beginner"})
    page = open_seat(watch, server, made, "blue")
    until(lambda: kind(page) == "place", 20, "the placement")
    assert page.locator("#facing").is_visible()
    assert "against the computer" in page.inner_text("#facing")
    assert "Random level" in page.inner_text("#facing")
    assert page.get_attribute("#status [data-ai-level]", "data-ai-level") == "random"
    assert "(computer, Random)" in page.inner_text(".player[data-seat=red] h3")


# ---- 8: the log, by rounds, oldest first unless asked -------------------------------------
def test_the_log_is_grouped_by_round_and_its_order_remembered(server, watch):
    made = create(server, {"blue": "human", "red": "ai:random"}, {"variant": "beginner"})
    page = open_seat(watch, server, made, "blue")
    play_until(page, random.Random(8), lambda p: kind(p) == "place" and round_of(p) == 2)

    def entries():
        return page.evaluate(
            """() => Array.from(document.querySelectorAll('#log > li')).map((li) =>
                li.dataset.roundHead !== undefined ? 'R' + li.dataset.roundHead
                                                   : Number(li.dataset.seq))"""
        )

    old = entries()
    assert old[0] == "R0" and "R1" in old and "R2" in old
    assert old.index("R0") < old.index("R1") < old.index("R2")
    seqs = [e for e in old if isinstance(e, int)]
    assert seqs == sorted(seqs) and len(seqs) > 10
    assert page.inner_text("[data-round-head='1']") == "Round 1"
    page.click("#log-order")
    new = entries()
    assert new[0] == "R2" and new.index("R2") < new.index("R1") < new.index("R0")
    assert [e for e in new if isinstance(e, int)] == sorted(seqs, reverse=True)
    page.reload()
    until(lambda: len(entries()) >= len(new), 20, "the log after a reload")
    assert entries()[0] == "R2", "the order chosen is remembered"
    assert page.get_attribute("#log-order", "aria-pressed") == "true"
    page.click("#log-order")  # back to the default for the other tests of this browser


# ---- 4 and 5: the end where the player looks; the computer's game at a pace -------------
def test_the_end_comes_into_view(server, watch):
    made = create(server, {"blue": "human", "red": "ai:random"}, {"variant": "beginner"})
    page = open_seat(watch, server, made, "blue", viewport=PHONE)
    until(lambda: kind(page) == "place", 20, "the placement")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#more summary")  # far down the page on a phone, under the board and panels
    page.click("#resign")
    assert not in_view(page, "#outcome")
    until(lambda: over(page), 20, "the end")
    until(lambda: in_view(page, "#outcome"), 5, "the outcome scrolled into view")
    assert page.inner_text("#outcome h2") == "Red wins — you lose"


def in_view(page, selector) -> bool:
    return page.evaluate(
        """(s) => { const r = document.querySelector(s).getBoundingClientRect();
            return r.height > 0 && r.top >= -1 && r.top < window.innerHeight - 40; }""",
        selector,
    )


def test_the_computer_playing_itself_is_shown_at_a_readable_pace(server, watch, shot):
    made = create(server, {"blue": "ai:random", "red": "ai:random"}, {"variant": "beginner"})
    game_id = made["game_id"]
    until(lambda: server.bingfa.load(game_id).outcome, 30, "the computer's game to end")
    w = watch()
    page = w.page
    page.goto(server.url + "/")  # as the home page's "watch" leaves it
    page.evaluate(f"sessionStorage.setItem('bingfa:{game_id}:paced', '1')")
    page.goto(f"{server.url}/g/{game_id}")
    until(lambda: page.get_attribute("#game", "data-paced") == "playing", 20, "the playback")
    assert not over(page) and page.locator("#outcome").is_hidden()
    assert page.locator("#pace-controls").is_visible()
    until(lambda: page.inner_text("#pace-text").startswith("Move 2 of"), 10, "a second move")
    page.click("#pace-play")  # pause
    assert page.get_attribute("#game", "data-paced") == "paused"
    moves = int(re.search(r"Move (\d+) of (\d+)", page.inner_text("#pace-text")).group(1))
    page.wait_for_timeout(1500)  # paused: nothing moves on
    assert page.inner_text("#pace-text").startswith(f"Move {moves} of")
    page.click("#pace-step")
    until(lambda: page.inner_text("#pace-text").startswith(f"Move {moves + 1} of"), 10, "a step")
    lines = page.locator("#log li[data-seq]").count()
    assert 0 < lines <= moves + 1, "the log tells the moves shown so far, no more"
    shot(page, "paced")
    page.click("#pace-end")
    until(lambda: over(page), 10, "the end")
    assert page.locator("#outcome").is_visible()
    assert page.locator(".final-hand").count() == 2
    assert page.evaluate(f"sessionStorage.getItem('bingfa:{game_id}:paced')") is None
    # the home page's watch mode asks for it
    home = watch().page
    home.goto(server.url + "/")
    home.check("input[name=mode][value=watch]")
    home.select_option("#variant", "beginner")
    home.click("#create")
    home.wait_for_url(re.compile(r"/g/\w+$"))
    until(lambda: home.get_attribute("#game", "data-paced") or over(home), 20, "the page")
    watched = home.get_attribute("#game", "data-game")
    if not over(home):
        assert home.get_attribute("#game", "data-paced") == "playing"
    else:  # the game was still being played when the page opened: watched live
        assert server.bingfa.load(watched).outcome


# ---- 10: the rematch leaves the old game's page alone; "Your games" ----------------------
def test_after_a_rematch_the_old_game_still_opens(server, watch):
    made = create(server, {"blue": "human", "red": "human"}, {"variant": "beginner"})
    game_id = made["game_id"]
    blue = open_seat(watch, server, made, "blue")
    red = open_seat(watch, server, made, "red")
    until(lambda: kind(blue) == "place" and kind(red) == "place", 20, "both seats")
    red.once("dialog", lambda dialog: dialog.accept())
    red.click("#more summary")
    red.click("#resign")
    until(lambda: over(blue) and over(red), 20, "the resignation")
    blue.click("#rematch")
    blue.wait_for_selector("#rematch-status:has-text('waiting for your opponent')")
    red.wait_for_selector("#rematch:has-text('Accept the rematch')", timeout=10_000)
    red.click("#rematch")
    red.wait_for_url(re.compile(r"/g/(?!" + game_id + r")\w+/blue$"))
    blue.wait_for_url(re.compile(r"/g/(?!" + game_id + r")\w+/red$"), timeout=10_000)
    new_id = blue.get_attribute("#game", "data-game")
    # the old game's page opens as itself, and stays there
    blue.goto(f"{server.url}/g/{game_id}/blue")
    until(lambda: over(blue), 20, "the old game's page")
    blue.wait_for_timeout(1500)  # longer than the 0.3 s it took to be sent away
    assert blue.url.endswith(f"/g/{game_id}/blue")
    assert blue.locator(f"#rematch-status a[href='/g/{new_id}/red']").count() == 1
    assert blue.evaluate(f"localStorage.getItem('bingfa:{game_id}:rematch:token')") is None


def test_your_games_lists_a_game_once_made(server, watch):
    page = watch().page
    page.goto(server.url + "/")
    page.check("input[name=mode][value=friend]")
    page.click("#create")
    until(lambda: page.input_value("#invite-link"), 20, "the invite link")
    game_id = re.search(r"/g/(\w+)/red", page.input_value("#invite-link")).group(1)
    until(lambda: page.locator(f"#my-games a[href='/g/{game_id}/blue']").count() == 1, 15,
          "the new game in Your games without a reload")  # fmt: skip
    assert "None yet." not in page.inner_text("#my-games")


# ---- 9: the title's font ----------------------------------------------------------------
def test_the_title_font_is_shipped_and_used(server, watch):
    page = watch().page
    response = page.goto(server.url + "/")
    assert response.ok
    font = page.request.get(server.url + "/static/fonts/bingfa-cjk.woff2")
    assert font.ok and font.body()[:4] == b"wOF2" and len(font.body()) < 20_000
    assert page.request.get(server.url + "/static/fonts/OFL.txt").ok
    loaded = page.evaluate(
        """async () => { await document.fonts.ready;
            const font = '700 20px "Bingfa CJK"';
            const faces = await document.fonts.load(font, '兵法');
            const brand = document.querySelector('.brand .cjk');
            return { faces: faces.length, check: document.fonts.check(font, '兵法'),
                     family: getComputedStyle(brand).fontFamily }; }"""
    )
    assert loaded["faces"] >= 1 and loaded["check"], loaded
    assert loaded["family"].startswith('"Bingfa CJK"'), loaded
    assert page.inner_text(".brand").startswith("兵法")
