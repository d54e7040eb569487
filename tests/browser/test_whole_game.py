"""A whole game of Sun Tzu between two people, each in their own browser (one on a
desktop, one on a phone), played through the pages to its natural end: no resignation,
no API call. Screenshots of both screens at the start, in the middle and at the end go to
tests/browser/artifacts/.
"""

from __future__ import annotations

import random
import re

from browser_play import answer, assert_shows_no_secret, kind, over, round_of, until, version

import games
from games.sun_tzu.rulings import ADJACENT_PAIRS

RULES = games.get("sun-tzu")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NATURAL = {"points", "knockout", "reserve", "draw", "last_event"}


def in_view(page, selector) -> bool:
    return page.evaluate(
        """(s) => { const r = document.querySelector(s).getBoundingClientRect();
            return r.height > 0 && r.top >= -1 && r.top < window.innerHeight - 40; }""",
        selector,
    )


def test_two_people_play_a_whole_game_on_desktop_and_phone(server, watch, shot):
    b = watch(viewport=DESKTOP)
    blue = b.page
    blue.goto(server.url + "/")
    blue.check("input[name=mode][value=friend]")
    blue.select_option("#variant", "standard")
    blue.click("#create")
    link = until(lambda: blue.input_value("#invite-link"), 20, "the invite link")
    blue.click("#go-to-game")
    blue.wait_for_url(re.compile(r"/g/\w+/blue$"))
    r = watch(viewport=PHONE, has_touch=True, is_mobile=True)
    red = r.page
    red.goto(link)
    until(lambda: "#" not in red.url, 20, "red to take the seat")
    game_id = red.get_attribute("#game", "data-game")
    pages = {"blue": blue, "red": red}
    names = {"blue": "desktop", "red": "phone"}

    rng = random.Random(13)
    shots = set()
    next_scoring_checked = False
    for _ in range(600):
        if all(over(p) for p in pages.values()):
            break
        moved = False
        for seat, page in pages.items():
            asked = kind(page)
            if not asked or over(page):
                continue
            rnd = round_of(page)
            if asked == "place" and rnd == 1 and f"start-{seat}" not in shots:
                shots.add(f"start-{seat}")
                shot(page, f"{names[seat]}-start")
            if asked == "place" and rnd >= 4 and f"middle-{seat}" not in shots:
                shots.add(f"middle-{seat}")
                shot(page, f"{names[seat]}-middle")
                now = server.bingfa.store.version(game_id)
                until(lambda p=page, v=now: version(p) >= v, 20, "the page to catch up")
                state = server.bingfa.load(game_id).state
                assert_shows_no_secret(page, state, RULES, seat, [])
            if asked == "keep" and rnd == 3 and not next_scoring_checked:
                # round 3's scoring is done (no knockout, or there would be no keep)
                next_scoring_checked = True
                status = page.inner_text("#status")
                assert "Next scoring after round 6" in status, status
            answer(page, rng)
            moved = True
        if not moved:  # neither page owes anything now: wait for either to be asked
            until(lambda: any(kind(p) or over(p) for p in pages.values()), 30, "a decision")
    assert all(over(p) for p in pages.values()), "the game did not end"

    outcome = server.bingfa.load(game_id).outcome
    assert outcome["reason"] in NATURAL, outcome  # its natural end, not a resignation
    for seat, page in pages.items():
        until(lambda p=page: in_view(p, "#outcome"), 10, "the end in view")
        head = page.inner_text("#outcome h2")
        expected = (
            "The game is a draw"
            if not outcome["winner"]
            else "You win"
            if outcome["winner"] == seat
            else f"{outcome['winner'].capitalize()} wins — you lose"
        )
        assert head == expected
        assert page.locator(".next-scoring").count() == 0, "no scoring is to come"
        assert page.locator("#board svg.gates rect").count() == len(ADJACENT_PAIRS)
        last = max(round_of(page), 1)
        assert page.locator(f"#log [data-round-head='{last}']").count() == 1
        assert page.locator("#log [data-round-head]").count() == last + 1  # and "before"
        page.mouse.move(0, 0)
        shot(page, f"{names[seat]}-end")
    assert len(shots) >= 2
