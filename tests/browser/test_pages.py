"""The pages people play on, in Debian's Chromium against a real server.

Every test plays through the controls a person uses (clicks, keys, taps) and waits with
deadlines, never fixed sleeps. Screenshots go to tests/browser/artifacts/.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from browser_play import (
    answer,
    assert_shows_no_secret,
    error,
    kind,
    my_turn_or_over,
    over,
    public_cards,
    round_of,
    until,
    version,
)

import games

RULES = games.get("sun-tzu")
ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "service" / "static"


def other(seat: str) -> str:
    return "red" if seat == "blue" else "blue"


def create(server, seats, options=None) -> dict:
    client = server.app.test_client()
    response = client.post("/api/games", json={"seats": seats, "options": options or {}})
    assert response.status_code == 201, response.json
    return response.json


def game_id_of(page) -> str:
    return page.get_attribute("#game", "data-game")


def log_lines(page) -> list[str]:
    return page.locator("#log li").all_inner_texts()


def battle_line(payload) -> str:
    def name(card):
        return "Plague" if card == "plague" else card

    cards = payload["cards"]
    return f"{payload['province']}: blue {name(cards['blue'])} vs red {name(cards['red'])} — "


def caught_up(server, game_id, *pages) -> None:
    """Wait until the pages show the server's latest version, as a person would look at
    the page before acting on it."""
    store = server.bingfa.store
    until(lambda: all(version(p) == store.version(game_id) for p in pages), 20,
          "the pages to show the latest position")  # fmt: skip


def stable_state(server, game_id, *pages):
    """The server's state once every page shows its latest version (the AI has moved)."""
    store = server.bingfa.store

    def settled():
        v = store.version(game_id)
        if all(version(p) == v for p in pages):
            game = server.bingfa.load(game_id)
            return game if game.version == v else None
        return None

    try:
        return until(settled, 20, "the pages to catch up with the server").state
    except AssertionError as exc:
        shown = [(version(p), error(p), p.url) for p in pages]
        raise AssertionError(f"{exc}: server at {store.version(game_id)}, pages {shown}") from None


# ---------------------------------------------------------------------------------------
def test_a_whole_game_against_the_computer(server, watch, shot):
    w = watch()
    page = w.page
    page.goto(server.url + "/")
    shot(page, "home")
    page.check("input[name=mode][value=ai]")
    page.select_option("#variant", "standard")
    page.check("#events")
    page.click("#create")
    page.wait_for_url(re.compile(r"/g/\w+/blue$"))
    game_id = game_id_of(page)
    token = page.evaluate(f"localStorage.getItem('bingfa:{game_id}:blue:token')")
    assert token and server.bingfa.access(game_id)["blue"]

    rng = random.Random(11)
    seen: Counter[str] = Counter()
    for _ in range(300):
        asked = my_turn_or_over(page)
        if not asked:
            break
        assert page.title().startswith("● Your turn"), page.title()
        assert "Your turn" in page.inner_text("#banner")
        caught_up(server, game_id, page)
        if not seen[asked]:
            shot(page, f"decision-{asked}")
        answer(page, rng, keyboard=asked == "place" and not seen["place"])
        seen[asked] += 1
    assert over(page), f"no end after {sum(seen.values())} decisions: {dict(seen)}"
    assert seen["choose_warlord"] == 1 and seen["place"] >= 3 and seen["keep"] >= 2, seen

    outcome = server.bingfa.load(game_id).outcome
    box = page.locator("#outcome")
    assert box.is_visible()
    assert box.locator(f"[data-reason='{outcome['reason']}']").count() == 1
    head = box.locator("h2").inner_text()
    expected = {"blue": "You win", "red": "Red wins — you lose", None: "The game is a draw"}
    assert head == expected[outcome["winner"]]
    assert not page.title().startswith("●")

    until(lambda: any(t.startswith("Game over") for t in log_lines(page)), 20, "the last line")
    lines = log_lines(page)
    battles = [e.payload for e in server.bingfa.store.read(game_id)
               if e.type in ("battle", "battle_revealed")]  # fmt: skip
    told = [
        t for t in lines if re.match(r"^(Qin|Chu|Jin-Yan|Han-Qi|Wu): blue \S+ vs red \S+ — ", t)
    ]
    assert len(told) == len(battles) >= 15
    for payload in battles:
        assert any(t.startswith(battle_line(payload)) for t in told), payload
    wins = [p for p in battles if p["winner"] and not p["plague"]]
    assert any(f"— {p['winner']} wins by {p['margin']}" in t for p in wins for t in told)
    assert any(t.startswith("Scoring after round 3: Blue") for t in lines)
    shot(page, "outcome")


def test_two_people_play_through_an_invite_link(server, watch, shot):
    b = watch(permissions=["clipboard-read", "clipboard-write"])
    blue = b.page
    blue.goto(server.url + "/")
    blue.check("input[name=mode][value=friend]")
    blue.click("#create")
    link = until(lambda: blue.input_value("#invite-link"), 20, "the invite link")
    assert re.fullmatch(re.escape(server.url) + r"/g/\w+/red#token=[\w-]+", link)
    blue.click("#copy-invite")
    until(lambda: blue.inner_text("#copy-status") == "Copied.", 20, "the copy to be confirmed")
    assert blue.evaluate("navigator.clipboard.readText()") == link
    shot(blue, "invite")
    blue.click("#go-to-game")
    blue.wait_for_url(re.compile(r"/g/\w+/blue$"))
    until(lambda: blue.locator("#invite-box").is_visible(), 20, "the invite on the game page")
    assert blue.input_value("#invite-box-link") == link
    assert "Waiting for Red to take their seat" in blue.inner_text("#banner")

    red = watch().page
    red.goto(link)
    until(lambda: "#" not in red.url, 20, "the token to leave the address bar")
    game_id = game_id_of(red)
    stored = red.evaluate(f"localStorage.getItem('bingfa:{game_id}:red:token')")
    assert link.endswith("#token=" + stored)
    # Blue's page learns of it by itself: the invite goes, the Warlord choice comes.
    until(lambda: not blue.locator("#invite-box").is_visible(), 20, "blue to see red join")
    until(lambda: kind(blue) == "choose_warlord", 20, "blue's page to ask for a Warlord")
    for page in (blue, red):
        page.evaluate("window.__sameDocument = true")  # gone if the page ever reloads

    rng = random.Random(3)
    placed = Counter()
    for _ in range(80):
        if round_of(blue) >= 3 and round_of(red) >= 3:
            break
        moved = False
        for page, name in ((blue, "blue"), (red, "red")):
            caught_up(server, game_id, blue, red)
            if not kind(page):
                continue
            asked = answer(page, rng)
            moved = True
            placed[name] += asked == "place"
            if asked == "place" and placed[name] == 1 and not placed[other(name)]:
                # The other page sees it at once, without a reload; the card stays face down.
                them = red if name == "blue" else blue
                until(lambda n=name, t=them: f"{n.capitalize()} placed five cards face down."
                      in log_lines(t), 20, "the other page to see the placement live")  # fmt: skip
                face = them.locator(f"[data-province='Wu'] .card[data-owner='{name}']")
                assert face.get_attribute("data-face") == "down"
                shot(them, "sees-the-other-placed")
            elif asked == "place" and placed[name] == 1:
                for p in (blue, red):  # the battles reach both pages by themselves
                    until(lambda p=p: any(t.startswith("Qin: blue") for t in log_lines(p)), 20,
                          "both pages to show the first battle")  # fmt: skip
        if not moved:
            until(lambda: kind(blue) or kind(red), 20, "either page to ask for a decision")
    assert placed["blue"] >= 2 and placed["red"] >= 2, placed
    assert round_of(blue) >= 3 and round_of(red) >= 3, (round_of(blue), round_of(red))
    shot(blue, "blue-round-3")
    shot(red, "red-round-3")

    red.once("dialog", lambda dialog: dialog.accept())
    red.click("#more summary")
    red.click("#resign")
    until(lambda: over(blue) and over(red), 20, "both pages to show the end")
    assert blue.locator("#outcome h2").inner_text() == "You win"
    assert red.locator("#outcome h2").inner_text() == "Blue wins — you lose"
    assert blue.locator("#outcome [data-reason='forfeit']").count() == 1
    for page in (blue, red):
        assert page.evaluate("window.__sameDocument === true"), "a page reloaded"
    shot(blue, "blue-end")
    blue.goto(server.url + "/")  # the home page lists the games this browser plays
    until(lambda: blue.locator(f"#my-games a[href='/g/{game_id}/blue']").count(), 20, "the list")
    assert "finished" in blue.inner_text("#my-games")


def test_a_seat_page_shows_nothing_hidden(server, watch, shot):
    created = create(server, {"blue": "human", "red": "ai:random"}, {"events": True})
    game_id = created["game_id"]
    seat = watch()
    seat.page.goto(server.url + created["seats"]["blue"]["invite"])
    spectator = watch()
    spectator.page.goto(f"{server.url}/g/{game_id}")
    pages = (seat.page, spectator.page)
    rng = random.Random(5)
    checks = 0
    while round_of(seat.page) < 5:
        asked = my_turn_or_over(seat.page)
        state = stable_state(server, game_id, *pages)
        assert_shows_no_secret(seat.page, state, RULES, "blue", list(seat.answers))
        assert_shows_no_secret(spectator.page, state, RULES, None, list(spectator.answers))
        if not checks:
            assert_the_check_can_fail(seat.page, state)
        checks += 1
        if not asked:
            break  # a knockout after round 3
        answer(seat.page, rng)
    assert checks >= 6
    shot(spectator.page, "spectator")


def assert_the_check_can_fail(page, state) -> None:
    """Red's cards drawn on blue's page are caught (then taken off again)."""
    card = state.hands[1][0]
    copies = public_cards(RULES.view(state, "blue"), "red")[card] + 1
    page.evaluate(
        """([card, n]) => { for (let i = 0; i < n; i++) { const e = document.createElement('span');
        e.className = 'card planted'; e.dataset.owner = 'red'; e.dataset.card = card;
        e.textContent = card; document.body.append(e); } }""",
        [card, copies],
    )
    with pytest.raises(AssertionError, match="not public"):
        assert_shows_no_secret(page, state, RULES, "blue", [])
    page.evaluate("document.querySelectorAll('.planted').forEach((e) => e.remove())")
    assert_shows_no_secret(page, state, RULES, "blue", [])


def test_watching_the_computer_play_itself(server, watch, shot):
    page = watch().page
    page.goto(server.url + "/")
    page.check("input[name=mode][value=watch]")
    page.select_option("#variant", "beginner")
    page.click("#create")
    page.wait_for_url(re.compile(r"/g/\w+$"))
    # an ended game is played back at a pace (test_board.py): skip to its end here
    until(lambda: over(page) or page.get_attribute("#game", "data-paced"), 20, "the page")
    if page.get_attribute("#game", "data-paced"):
        page.click("#pace-end")
    until(lambda: over(page), 20, "the computer's game to end")
    outcome = server.bingfa.load(game_id_of(page)).outcome
    head = page.locator("#outcome h2").inner_text()
    assert head == (f"{outcome['winner'].capitalize()} wins" if outcome["winner"] else
                    "The game is a draw")  # fmt: skip
    assert not page.locator("#hand-panel").is_visible()
    assert not page.locator("#decision").is_visible()
    assert page.locator(".final-hand").count() == 2  # every hand is shown once it is over
    assert "You are watching" in page.inner_text("#status")
    shot(page, "watching")


def test_a_phone_sized_screen(server, watch, shot):
    created = create(server, {"blue": "human", "red": "ai:random"}, {"variant": "beginner"})
    w = watch(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = w.page
    page.goto(server.url + created["seats"]["blue"]["invite"])
    until(lambda: kind(page) == "place", 20, "the placement")
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is wider than the phone: {width}"
    shot(page, "phone-place")
    before = version(page)
    for i, province in enumerate(("Qin", "Chu", "Jin-Yan", "Han-Qi", "Wu")):
        page.tap(f"#hand button[data-index='{i}']")
        page.tap(f"[data-slot='{province}']")
    page.tap("#submit-place")
    until(lambda: version(page) > before, 20, "the placement to be taken")
    assert not error(page)
    until(lambda: kind(page) == "keep", 20, "the draw after the first round")
    shot(page, "phone-keep")


def test_errors_are_told_in_plain_words(server, watch):
    created = create(server, {"blue": "human", "red": "ai:random"})
    game_id = created["game_id"]
    w = watch()
    page = w.page
    page.goto(f"{server.url}/g/{game_id}/blue#token=forged")
    until(lambda: error(page), 20, "the error")
    assert "A seat token is needed: this token is not a seat of this game" in error(page)
    assert "You are watching instead" in error(page)

    for path, words in ((f"/g/{game_id}/green", "no seat called green"),
                        ("/g/nosuchgame", "There is no game nosuchgame")):  # fmt: skip
        response = page.goto(server.url + path)
        assert response.status == 404 and words in page.inner_text("main")

    # A stale page (its live updates cut off) sends an answer the game no longer wants.
    fresh = w.page.context.new_page()
    fresh.goto(server.url + created["seats"]["blue"]["invite"])
    until(lambda: kind(fresh) == "choose_warlord", 20, "the Warlord choice")
    stale = w.page.context.new_page()
    stale.route("**/stream*", lambda route: route.abort())
    stale.goto(f"{server.url}/g/{game_id}/blue")  # the token is in this browser already
    until(lambda: kind(stale) == "choose_warlord", 20, "the stale page's Warlord choice")
    fresh.click("[data-warlord=reinforce]")
    until(lambda: kind(fresh) == "place", 20, "the placement")
    stale.click("[data-warlord=restraint]")
    until(lambda: error(stale), 20, "the refusal")
    assert error(stale).startswith("The rules do not allow that: you cannot choose your Warlord")
    until(lambda: kind(stale) == "place", 20, "the stale page to catch up")


def test_scripts_never_write_html():
    scripts = list(STATIC.glob("*.js")) + list((ROOT / "games").glob("*/web/*.js"))
    assert len(scripts) >= 5 and any("games" in s.parts for s in scripts)
    for script in scripts:
        text = script.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, f"{script.name} uses {sink}"
    assert json.dumps  # the pages take their data from the JSON API only


def test_a_hint_then_the_seat_handed_to_the_computer(server, watch, shot):
    created = create(server, {"blue": "human", "red": "ai:random"})
    game_id = created["game_id"]
    page = watch().page
    page.goto(server.url + created["seats"]["blue"]["invite"])
    until(lambda: kind(page) == "choose_warlord", 20, "the Warlord choice")
    page.click("#more summary")
    page.click("#hint")
    hint = page.locator("#hint-text")
    until(lambda: hint.is_visible(), 20, "the hint")
    assert re.fullmatch(r"Hint \(\w+\): Choose .+\.", hint.inner_text()), hint.inner_text()
    shot(page, "hint")

    page.once("dialog", lambda dialog: dialog.accept())
    page.select_option("#handover-level", "random")
    page.click("#handover")
    until(lambda: over(page), 60, "the computer to play blue's game to its end")
    assert server.bingfa.load(game_id).seats["blue"] == "ai:random"
    lines = log_lines(page)
    assert "You handed the Blue seat to the computer (random)." in lines
    assert kind(page) == "" and page.locator("#handover-box").is_hidden()
