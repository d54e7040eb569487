"""Playing through the pages the way a person does: read the decision, click, wait."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable

PROVINCES = ("Qin", "Chu", "Jin-Yan", "Han-Qi", "Wu")
WARLORD_NAMES = {
    "reinforce": "Reinforce", "head_start": "Head start", "minus_recycle": "Minus recycle",
    "manoeuvre": "Manoeuvre", "restraint": "Restraint", "remove": "Remove",
    "counter_plague": "Counter-plague", "plague_recycle": "Plague recycle",
    "deadly_plague": "Deadly plague", "double_six": "Double six",
}  # fmt: skip


def until(check: Callable[[], object], seconds: float = 20, what: str = "the condition"):
    """Poll ``check`` until it returns something true; fail with ``what`` at the deadline."""
    deadline = time.monotonic() + seconds
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(0.05)


def kind(page) -> str:
    """The decision the page asks of its seat now ('' for none)."""
    return page.get_attribute("#decision", "data-kind") or ""


def sent(page) -> int:
    """How many answers the page has sent and shown the result of."""
    return int(page.get_attribute("#game", "data-sent") or 0)


def version(page) -> int:
    return int(page.get_attribute("#game", "data-version") or 0)


def round_of(page) -> int:
    return int(page.get_attribute("#game", "data-round") or 0)


def over(page) -> bool:
    return page.get_attribute("#game", "data-over") == "yes"


def error(page) -> str:
    box = page.locator("#error")
    return box.inner_text() if box.is_visible() else ""


def my_turn_or_over(page, seconds: float = 20) -> str:
    """Wait until the page asks for a decision or shows the end; the decision's kind."""
    until(lambda: kind(page) or over(page), seconds, "a decision or the end of the game")
    return "" if over(page) else kind(page)


def place_cards(page, rng, keyboard: bool = False, english: bool = True) -> None:
    """Five cards from the hand onto the five provinces, by clicks (or by keys); on an
    English page, each province's summary is read back."""
    hand = page.locator("#hand button.card")
    n = hand.count()
    picks = rng.sample(range(n), 5)
    six = next((i for i in picks if hand.nth(i).get_attribute("data-card") == "6"), None)
    if six is not None:  # the page refuses a 6 on its own 6-marker: put it where it may go
        page.click(f"#hand button[data-index='{six}']")
        blocked = [p for p in PROVINCES if page.is_disabled(f"[data-slot='{p}']")]
        page.click(f"#hand button[data-index='{six}']")  # drop the pick
        free = [k for k, p in enumerate(PROVINCES) if p not in blocked]
        if not free:  # a 6-marker in every province: the 6 stays in hand
            spare = [i for i in range(n) if i not in picks and i != six]
            picks[picks.index(six)] = rng.choice(spare)
        elif blocked:
            at, to = picks.index(six), rng.choice(free)
            picks[at], picks[to] = picks[to], picks[at]
    if keyboard:
        page.focus("[data-focus=hand-0]")
        page.keyboard.press("ArrowRight")
        focused = page.evaluate("document.activeElement.dataset.focus")
        assert focused == "hand-1", f"the right arrow moved the focus to {focused}"
    for slot, i in enumerate(picks):
        if keyboard:
            page.focus(f"[data-focus=hand-{i}]")
            page.keyboard.press("Enter")
            page.keyboard.press(str(slot + 1))
        else:
            page.click(f"#hand button[data-index='{i}']")
            page.click(f"[data-slot='{PROVINCES[slot]}']")
    for slot, i in enumerate(picks if english else ()):
        card = hand.nth(i).get_attribute("data-card")
        summary = page.inner_text(f"[data-summary='{PROVINCES[slot]}']")
        assert summary.endswith(card.replace("plague", "Plague")), (summary, card)


def answer(page, rng, keyboard: bool = False, english: bool = True) -> str:
    """Answer the page's current decision through its controls; wait for the page to move
    on. Returns the kind answered. ``english``: the page is in English (its words checked)."""
    asked = kind(page)
    before = sent(page)
    if asked in ("choose_warlord", "extra_warlord"):
        choices = page.locator("#decision [data-warlord]")
        choices.nth(rng.randrange(choices.count())).click()
    elif asked == "place":
        place_cards(page, rng, keyboard, english)
        page.click("#submit-place")
        if wait_moved(page, before) == "error":  # e.g. a 6 on its own 6-marker: say so, retry
            assert "6" in error(page), error(page)
            page.click("#clear-place")
            place_without_six(page, rng)
            before = sent(page)
            page.click("#submit-place")
    elif asked == "next_province":
        choices = page.locator("#decision [data-province-choice]")
        choices.nth(rng.randrange(choices.count())).click()
    elif asked == "sources":
        page.click("#submit-sources")
    elif asked == "keep":
        cards = page.locator("#decision [data-keep]")
        order = rng.sample(range(cards.count()), cards.count())
        for i in order:
            if page.is_enabled("#submit-keep"):
                break
            cards.nth(i).click()
        page.click("#submit-keep")
    elif asked == "after_battles":
        plays = page.locator("#decision [data-play]")
        if plays.count() and rng.random() < 0.5:
            plays.nth(rng.randrange(plays.count())).click()
        else:
            page.click("#decision [data-pass]")
    else:
        raise AssertionError(f"the page asks for an unknown decision {asked!r}")
    assert wait_moved(page, before) == "moved", f"{asked}: {error(page)}"
    return asked


def place_without_six(page, rng) -> None:
    hand = page.locator("#hand button.card")
    usable = [i for i in range(hand.count()) if hand.nth(i).get_attribute("data-card") != "6"]
    for slot, i in enumerate(rng.sample(usable, 5)):
        page.click(f"#hand button[data-index='{i}']")
        page.click(f"[data-slot='{PROVINCES[slot]}']")


def wait_moved(page, before: int, seconds: float = 20) -> str:
    """'moved' once the page has shown the answer taken, 'error' if it shows a refusal."""
    until(lambda: sent(page) > before, seconds, "the page to show the answer's result")
    return "error" if error(page) else "moved"


# ---- what a page may show ---------------------------------------------------------------
def shown_cards(page) -> list[dict[str, str]]:
    """Every card element on the page: owner, card (absent when face down), where."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.card')).map((e) => ({
            owner: e.dataset.owner || '', card: e.dataset.card || '', face: e.dataset.face || '',
            past: !!e.closest('[data-past]'),
            where: e.closest('[data-province]')?.dataset.province
                || e.closest('[data-seat]')?.dataset.seat || e.closest('section')?.id || ''}))"""
    )


def public_cards(view: dict, seat: str) -> Counter:
    """The cards of ``seat`` that everyone may see in ``view``: revealed, discarded, and
    the hand once the game is over."""
    public = Counter(c["cards"][seat] for c in view["provinces"] if c["cards"][seat])
    del public["placed"]
    public.update(view["players"][seat]["discarded"])
    if view["players"][seat]["hand"] is not None:
        public.update(view["players"][seat]["hand"])
    return public


def assert_shows_no_secret(page, state, rules, seat: str | None, responses: list) -> None:
    """The page of ``seat`` (None: a spectator) shows nothing of the other side's hidden
    cards: its card elements are all public, face-down cards stay face down, the unplayed
    Warlords are not named, and no API answer the page received held a hidden hand."""
    view = rules.view(state, seat)
    over = state.phase == "over"
    html = page.content()
    text = page.inner_text("body")
    for other in ("blue", "red"):
        if other == seat or over:
            continue
        o = ("blue", "red").index(other)
        hand = [c.replace("plague", "Plague") for c in state.hands[o]]
        cards = [c for c in shown_cards(page) if c["owner"] == other and c["card"]]
        shown = Counter(c["card"] for c in cards if not c["past"])
        extra = shown - public_cards(view, other)
        assert not extra, f"{seat}'s page shows {other}'s cards {dict(extra)}, not public"
        # the round's battles, still shown once their cards leave the table: as fought
        past = Counter(c["card"] for c in cards if c["past"])
        fought = Counter(
            e["payload"]["cards"][other]
            for body in responses
            for e in json.loads(body).get("events", [])
            if e["type"] in ("battle", "battle_revealed") and e["visible_to"] == "all"
        )
        assert not (responses and past - fought), f"{other}'s cards {dict(past - fought)} unfought"
        if len(hand) >= 3:  # the hand written out as the page writes lists of cards
            assert ", ".join(hand) not in text, f"{other}'s hand {hand} on {seat}'s page"
        for p, name in enumerate(PROVINCES):
            placed = state.placed[o]
            if placed is not None and p not in state.fought and state.current != p:
                face = page.locator(f"[data-province='{name}'] .card[data-owner='{other}']")
                assert face.get_attribute("data-face") == "down", f"{name}: {other}'s card shown"
        for warlord in set(state.kept[o]) - set(state.spent[o]):
            assert warlord not in html, f"{other}'s unplayed Warlord {warlord} in the page"
            assert not re.search(rf"\b{WARLORD_NAMES[warlord]}\b", text), warlord
    for body in responses:
        data = json.loads(body)
        players = (data.get("view") or {}).get("players", {})
        for other, p in players.items():
            if other != seat and not over and data.get("outcome") is None:
                assert p["hand"] is None and p["warlords"] is None, f"{other}'s hand sent"
        for event in data.get("events", []):
            if event["visible_to"] not in ("all", seat) and data.get("outcome") is None:
                assert event.get("redacted"), event
