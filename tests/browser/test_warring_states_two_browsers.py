"""Warring States between two people, each in a browser of their own (separate contexts,
each opened from its seat's invite link), one on a desktop and one on a phone:

- each page shows its own hand by name, never the opponent's: not in the page's text or
  markup, not in any answer or live event the page received, not after a card is played
  face down;
- the competitive bid: both bid on their pages, sealed until both are in, then both bids
  and the sides they decide are shown on both pages;
- a response owed by the passive player (a Break card answering an attack): the game is
  driven to it through the API as each seat, the passive player's page asks with the
  response choices and is answered there, and the active player's page moves on.

Screenshots of each state under tests/browser/artifacts/."""

from __future__ import annotations

import json
import random

from browser_play import error, kind, sent, until
from test_warring_states_page import enter

import games
from games.warring_states.data import kind_of
from games.warring_states.text import MESSAGES

RULES = games.get("warring-states")
DESKTOP = {"viewport": {"width": 1200, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SLOW = 60  # seconds: the machine running the tests is often busy
BREAKS = {  # the Break cards a side's standing instructions name (decisions.js BREAKS)
    "alliance": ["A_LORD_XINLING", "A_JING_KE", "A_ELITE_CROSSBOWMEN", "A_EMERGENCY_MOBILIZATION"],
    "lianheng": ["L_LI_SI", "L_ELITE_CROSSBOWMEN", "L_EMERGENCY_MOBILIZATION"],
}
# Every live event the page's EventSource receives, kept for the test (the answers of the
# page's own requests are kept by the ``watch`` fixture).
STREAM_SPY = """(() => {
  const Real = window.EventSource;
  window.__streamed = [];
  window.EventSource = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener("game", (e) => window.__streamed.push(e.data));
    }
  };
})();"""


# ---- the game through the API, as each seat --------------------------------------------
def create(server, options=None) -> dict:
    client = server.app.test_client()
    body = {"game": "warring-states", "seats": {"first": "human", "second": "human"}}
    made = client.post("/api/games", json={**body, "options": options or {}})
    assert made.status_code == 201, made.json
    return made.json


def auth(made, seat) -> dict:
    return {"Authorization": f"Bearer {made['seats'][seat]['token']}"}


def as_seat(server, made, seat) -> dict:
    """The game as ``seat`` sees it, from the API with its token."""
    got = server.app.test_client().get(f"/api/games/{made['game_id']}", headers=auth(made, seat))
    assert got.status_code == 200, got.json
    return got.json


def submit(server, made, seat, command) -> None:
    client = server.app.test_client()
    url = f"/api/games/{made['game_id']}/commands"
    answer = client.post(url, json={"command": command}, headers=auth(made, seat))
    assert answer.status_code == 201, (command, answer.json)


def store_version(server, made) -> int:
    return server.bingfa.store.version(made["game_id"])


def state_of(server, made) -> dict:
    return server.bingfa.load(made["game_id"]).state


# ---- the pages -----------------------------------------------------------------------------
def open_seat(server, watch, made, seat, device):
    """A browser of its own (a new context) on ``seat``'s invite link."""
    watched = watch(**device)
    watched.page.add_init_script(STREAM_SPY)
    watched.page.goto(server.url + made["seats"][seat]["invite"])
    # drawn (the board waits for both seats to be taken: the cards are dealt then)
    watched.page.wait_for_selector("#game[data-version]", state="attached", timeout=SLOW * 1000)
    return watched


def up_to_date(server, made, page) -> bool:
    version = page.get_attribute("#game", "data-version")
    return int(version or 0) == store_version(server, made) and not page.get_attribute(
        "#game", "aria-busy"
    )


def wait_current(server, made, *pages) -> None:
    for page in pages:
        until(lambda p=page: up_to_date(server, made, p), SLOW, "the page up to date")


def card_name(card: str) -> str:
    return MESSAGES[f"card.{kind_of(card)}"]


def card_text(card: str) -> str:
    return MESSAGES.get(f"card.{kind_of(card)}.text", "")


def shown_hand(page) -> list[str]:
    return sorted(
        page.locator("#hand [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")
    )


def received(watched) -> list[dict]:
    """Every answer and live event the page received, parsed."""
    streamed = watched.page.evaluate("window.__streamed || []")
    return [json.loads(body) for body in [*watched.answers, *streamed]]


CARD_KINDS = {k[5:] for k in MESSAGES if k.startswith("card.") and k.count(".") == 1}


def kinds_told(server, made, seat=None, parts=None) -> set[str]:
    """The card kinds the events and view of ``seat`` (None: a spectator) name (of the
    view, only its ``parts`` when given)."""
    client = server.app.test_client()
    url = f"/api/games/{made['game_id']}"
    headers = auth(made, seat) if seat else {}
    view = client.get(url, headers=headers).json["view"]
    told = [client.get(url + "/events", headers=headers).json["events"]]
    told += [view] if parts is None else [view[p] for p in parts]
    raw = json.dumps(told)
    return {k for k in CARD_KINDS if k in raw}


def public_kinds(server, made) -> set[str]:
    """The card kinds a spectator is told of (the log, cards played face up, discarded,
    removed, the options of a decision): public, whoever sees them."""
    return kinds_told(server, made, parts=("discards", "removed", "op"))


def assert_own_hand_only(
    server, made, watched, seat, other_seat, shot=None, name="", also=(), require=True
):
    """``seat``'s page shows its hand with the cards' names, and nothing of the hand of
    ``other_seat`` (nor of the cards ``also`` it played face down): not by name in its
    text, not by id in its markup or in anything it received (views, events, live events)."""
    page = watched.page
    mine, theirs = as_seat(server, made, seat)["view"], as_seat(server, made, other_seat)["view"]
    side, other = mine["me"], theirs["me"]
    hand, their_hand = mine["hands"][side], theirs["hands"][other]
    assert mine["hands"][other] is None and theirs["hands"][side] is None  # the API, too
    until(lambda: shown_hand(page) == sorted(hand), SLOW, f"{seat}'s hand {hand} on its page")
    text = page.locator("#hand").inner_text()
    for card in hand:
        assert card_name(card) in text, (card, text)
    assert their_hand or not require, f"{other_seat} holds no cards: nothing to check"
    # what the page may name for other reasons (the two decks share some names): its own
    # cards (and the names their texts use), any card of its own side it was told of (its
    # own face-down plays in the log), its own Break cards (standing instructions), and
    # whatever a spectator is told (cards played face up, the Break cards a window offers
    # whatever the hand holds)
    public = public_kinds(server, made)
    hidden_ids = {kind_of(c) for c in [*their_hand, *also]} - public
    own = {k for k in kinds_told(server, made, seat) if k.startswith(side[0].upper() + "_")}
    allowed = {card_name(c) for c in [*hand, *own, *BREAKS[side], *public]}
    words = " ".join(card_text(c) for c in hand)
    secret = {card_name(c) for c in hidden_ids} - allowed
    secret = {n for n in secret if n not in words}
    body = page.locator("body").inner_text()
    shown = sorted(n for n in secret if n in body)
    where = [body[max(0, body.index(n) - 200) : body.index(n) + 60] for n in shown]
    assert not shown, f"{seat}'s page names {other_seat}'s cards {shown}: {where} {public}"
    html = page.content()
    in_markup = sorted(k for k in hidden_ids if k in html)
    assert not in_markup, f"{seat}'s page holds {other_seat}'s cards {in_markup}"
    assert_nothing_hidden_received(watched, seat, other, hidden_ids)
    if shot:
        shot(page, name)
    return hand, their_hand


def assert_nothing_hidden_received(watched, seat, other, hidden_ids=()) -> None:
    """Nothing ``watched`` (``seat``'s page) received holds the hand of the side ``other``,
    an event meant for someone else, or a card of ``hidden_ids``."""
    bodies = received(watched)
    assert bodies, "the page received nothing"
    for data in bodies:
        if data.get("outcome"):
            continue  # once the game is over everything is public
        view = data.get("view") or {}
        if view.get("hands"):
            assert view["hands"].get(other) is None, f"{other}'s hand sent to {seat}"
        events = data.get("events") or ([data] if "seq" in data else [])
        for event in events:
            if event.get("redacted"):
                assert not {"cards", "card", "deck", "rp"} & set(event["payload"]), event
            else:
                assert event["visible_to"] in ("all", seat), event
        raw = json.dumps(data)
        leaked = sorted(k for k in hidden_ids if k in raw)
        assert not leaked, f"{other}'s cards {leaked} sent to {seat}"


# ---- 1. two people, two browsers, two hands --------------------------------------------
def test_two_people_each_see_only_their_own_hand(server, watch, shot):
    made = create(server)
    browsers = {
        "first": open_seat(server, watch, made, "first", DESKTOP),
        "second": open_seat(server, watch, made, "second", PHONE),
    }
    for w in browsers.values():  # both seats taken: the cards are dealt
        w.page.wait_for_selector("#map", timeout=SLOW * 1000)
        w.page.wait_for_selector("#hand [data-card]", timeout=SLOW * 1000)
    wait_current(server, made, *(w.page for w in browsers.values()))
    assert_own_hand_only(server, made, browsers["first"], "first", "second", shot, "desktop")
    assert_own_hand_only(server, made, browsers["second"], "second", "first", shot, "phone")

    # the seat to act plays a card face down: its face stays hidden from the other
    pending = as_seat(server, made, "first")["pending"]
    (seat,) = pending
    other = "second" if seat == "first" else "first"
    st = state_of(server, made)
    plays = [
        c for c in RULES.legal(st, seat)
        if c.get("face") == "down" and c.get("action") in ("diplomacy", "weather", "reinforcement")
    ]  # fmt: skip
    assert plays, RULES.legal(st, seat)[:5]
    cmd = random.Random(4).choice(plays)
    page = browsers[seat].page
    until(lambda: kind(page) == "action", SLOW, f"{seat}'s page to ask for an action")
    before = store_version(server, made)
    enter(page, cmd)  # a card played face down, with the page's controls
    until(lambda: store_version(server, made) > before or error(page), SLOW, f"{cmd} taken")
    assert not error(page), error(page)
    wait_current(server, made, *(w.page for w in browsers.values()))
    theirs = browsers[other]
    until(
        lambda: theirs.page.locator('#log li[data-type="card_played"]').count() > 0,
        SLOW,
        f"{other}'s log to tell of the card played",
    )
    assert "face down" in theirs.page.locator('#log li[data-type="card_played"]').inner_text()
    names = (f"{other}-after-face-down", f"{seat}-after-face-down")
    assert_own_hand_only(server, made, theirs, other, seat, shot, names[0], also=[cmd["card"]])
    assert_own_hand_only(server, made, browsers[seat], seat, other, shot, names[1])


# ---- 2. the competitive bid ----------------------------------------------------------------
def bid_shown(page, seat) -> str:
    node = page.locator(f'#players [data-seat="{seat}"] .bid')
    return node.inner_text() if node.count() else ""


def bid_on_page(page, rp: int) -> None:
    until(lambda: kind(page) == "bid", SLOW, "the page to ask for a bid")
    before = sent(page)
    page.locator("#bid-rp").fill(str(rp))
    page.locator("#submit-bid").click()
    until(lambda: sent(page) > before, SLOW, "the bid sent")
    assert not error(page), error(page)


def test_the_competitive_bid_on_two_pages(server, watch, shot):
    made = create(server, {"victory": "bid"})
    first = open_seat(server, watch, made, "first", PHONE)
    second = open_seat(server, watch, made, "second", DESKTOP)
    pages = {"first": first.page, "second": second.page}
    for seat, page in pages.items():
        until(lambda p=page: kind(p) == "bid", SLOW, f"{seat}'s page to ask for a bid")
        assert "Sides are decided by the bid" in page.locator("#players").inner_text()
    shot(first.page, "bid-asked-phone")
    shot(second.page, "bid-asked-desktop")

    # the first bid is sealed: its bidder sees it, the other page sees only that it is in
    bid_on_page(first.page, 14)
    wait_current(server, made, *pages.values())
    assert bid_shown(first.page, "first") == "Bid: 14" and bid_shown(first.page, "second") == ""
    until(lambda: bid_shown(second.page, "first") == "Bid: sealed", SLOW, "the sealed bid")
    assert kind(second.page) == "bid" and kind(first.page) == ""
    assert banner(first.page) == "Waiting for Second player to bid for Lianheng."
    assert banner(second.page) == "Your turn: bid for Lianheng."
    # the target is what the bids decide: none is claimed before they are in
    assert "the bids set its target" in second.page.locator("#status").inner_text()
    assert "14" not in second.page.locator("#players").inner_text()
    assert "made a sealed bid" in second.page.locator("#log").inner_text()
    for data in received(second):
        bids = (data.get("view") or {}).get("bids") or {}
        assert bids.get("first") in (None, "hidden"), bids
        for event in data.get("events") or ([data] if "seq" in data else []):
            if event["type"] == "bid_made" and event["payload"].get("seat") == "first":
                assert "rp" not in event["payload"], event
    assert as_seat(server, made, "second")["view"]["bids"] == {"first": "hidden"}
    shot(first.page, "bid-sealed-phone")
    shot(second.page, "bid-sealed-desktop")

    # both in: both bids on both pages, the higher bidder plays Lianheng aiming at its bid
    bid_on_page(second.page, 9)
    st = state_of(server, made)
    assert st["sides"] == {"first": "lianheng", "second": "alliance"}
    assert st["target"] == 14
    for seat, page in pages.items():
        until(lambda p=page: bid_shown(p, "second") == "Bid: 9", SLOW, f"both bids on {seat}'s")
        assert bid_shown(page, "first") == "Bid: 14"
        names = page.locator("#players .player-name").all_inner_texts()
        assert names[0].startswith("First player: Lianheng"), names
        assert names[1].startswith("Second player: the Alliance"), names
        assert "of 14" in page.locator("#status").inner_text()
        log = page.locator('#log li[data-type="bids_revealed"]').inner_text()
        # told to everyone alike, or from the reader's side ("you 14"; "you play …")
        me, them = ("first", "second") if seat == "first" else ("second", "first")
        said = {me: ("you", f"{me.capitalize()} player"), them: (f"{them.capitalize()} player",)}
        assert any(f"{w} 14" in log for w in said["first"]), log
        assert any(f"{w} 9" in log for w in said["second"]), log
        lianheng = (
            ("you play", "First player plays") if seat == "first" else ("First player plays",)
        )
        assert any(f"{w} Lianheng" in log for w in lianheng), log
    wait_current(server, made, *pages.values())
    for seat, page in pages.items():
        view = as_seat(server, made, seat)["view"]
        until(lambda p=page, v=view: shown_hand(p) == sorted(v["hands"][v["me"]]), SLOW, "hand")
    shot(first.page, "bids-revealed-phone")
    shot(second.page, "bids-revealed-desktop")


# ---- 3. a response owed by the passive player --------------------------------------------
def join(server, made, seat) -> None:
    client = server.app.test_client()
    url = f"/api/games/{made['game_id']}/join"
    answer = client.post(url, json={"nonce": f"nonce-{seat}"}, headers=auth(made, seat))
    assert answer.status_code == 200, answer.json


def drive_to_a_response(server, made, rng, moves: int = 300) -> str | None:
    """Play as each seat through the API, attacking where it can (military operations and
    their attacks first), until the passive player owes a response: that seat (None if
    the game ended first). Every attack on a force of the passive side opens a window
    (whatever its hand holds, so that being asked tells nothing), so a few moves do."""
    for _ in range(moves):
        st = state_of(server, made)
        owed = RULES.pending(st)
        if not owed:
            return None
        for seat, due in owed.items():
            if due == "respond":
                return seat
        seat = sorted(owed)[0]
        legal = RULES.legal(st, seat)
        if owed[seat] == "action":
            military = [c for c in legal if c.get("action") == "military"]
            cmd = rng.choice(military if military and rng.random() < 0.8 else legal)
        elif owed[seat] == "operate":
            cmd = rng.choice([c for c in legal if c["path"]] or legal)
        else:
            cmd = rng.choice(legal) if legal else RULES.random_command(st, seat, rng)
        submit(server, made, seat, cmd)
    return None


def holds_an_answer(server, made, seat) -> bool:
    view = as_seat(server, made, seat)["view"]
    held = {kind_of(c) for c in view["hands"][view["me"]]}
    return any(o["card"] in held for o in view["decision"]["options"])


def banner(page) -> str:
    return page.locator("#banner").inner_text()


def test_the_passive_player_answers_on_its_page_and_the_other_page_moves_on(server, watch, shot):
    rng = random.Random(11)
    for _ in range(3):  # the deal is the server's secret: another game if one ends first
        made = create(server)
        join(server, made, "first")
        join(server, made, "second")
        passive = drive_to_a_response(server, made, rng)
        for _ in range(12):  # better a window where a Break card in the hand may answer
            if not passive or holds_an_answer(server, made, passive):
                break
            submit(server, made, passive, {"type": "choose", "option": 0})
            passive = drive_to_a_response(server, made, rng)
        if passive:
            break
    assert passive, "no response was asked in three games"
    active = "second" if passive == "first" else "first"
    asked = as_seat(server, made, passive)["view"]
    options = asked["decision"]["options"]
    hand = asked["hands"][asked["me"]]
    assert options[0] == {"card": None} and len(options) >= 2, options

    theirs = open_seat(server, watch, made, passive, PHONE)
    mine = open_seat(server, watch, made, active, DESKTOP)
    until(lambda: kind(theirs.page) == "respond", SLOW, "the passive page to ask for a response")
    wait_current(server, made, theirs.page, mine.page)
    # the passive page: the prompt and every public option, those not in the hand disabled
    decision = theirs.page.locator("#decision")
    assert MESSAGES["prompt.respond"] in decision.locator("#decision-title").inner_text()
    buttons = decision.locator("[data-option]")
    assert buttons.count() == len(options)
    assert buttons.nth(0).inner_text() == "Let it pass (no response)"
    held = {kind_of(c) for c in hand}
    playable = []
    for i, option in enumerate(options[1:], start=1):
        words = buttons.nth(i).inner_text()
        assert words.startswith(f"Play {MESSAGES['card.' + option['card']]}"), words
        assert buttons.nth(i).is_enabled() == (option["card"] in held), (option, hand)
        assert ("not in your hand" in words) == (option["card"] not in held), words
        if option["card"] in held:
            playable.append(i)
    texts = buttons.all_inner_texts()
    assert len(set(texts)) == len(texts), texts  # e.g. Lord Xinling's routes, said apart
    # the active page: waiting for the response, asked nothing, told nothing of that hand
    assert kind(mine.page) == ""
    label = {"first": "First player", "second": "Second player"}[passive]
    waiting = f"Waiting for {label} to {MESSAGES['turn.respond']}."
    assert banner(mine.page) == waiting, banner(mine.page)
    assert banner(theirs.page) == f"Your turn: {MESSAGES['turn.respond']}.", banner(theirs.page)
    assert "not in your hand" not in mine.page.locator("body").inner_text()
    assert_own_hand_only(server, made, mine, active, passive, require=False)
    assert_own_hand_only(server, made, theirs, passive, active, require=False)
    shot(theirs.page, "asked-phone")
    shot(mine.page, "waiting-desktop")

    # answered on the page: a Break card held, if any (the window then stays open for
    # more), then let it pass
    played = None
    while kind(theirs.page) == "respond":
        before, version = sent(theirs.page), store_version(server, made)
        choice = playable[0] if playable and played is None else 0
        if choice:
            played = options[choice]["card"]
        theirs.page.locator(f'#decision [data-option="{choice}"]').click()
        until(lambda b=before: sent(theirs.page) > b, SLOW, "the response sent")
        assert not error(theirs.page), error(theirs.page)
        assert store_version(server, made) > version
        wait_current(server, made, theirs.page)
        if played and choice:
            shot(theirs.page, "responded-phone")
    st = state_of(server, made)
    assert RULES.pending(st).get(passive) != "respond"
    shot(theirs.page, "answered-phone")

    # the active page moves on: the window closed (and the card played) in its log, no
    # longer waiting for a response, its own decision asked if it owes one now
    wait_current(server, made, mine.page)
    log = mine.page.locator("#log")
    until(lambda: log.locator('li[data-type="window_closed"]').count(), SLOW, "window closed")
    if played:
        told = log.locator('li[data-type="response_resolved"]').inner_text()
        assert MESSAGES[f"card.{played}"] in told, told
    assert banner(mine.page) != waiting and ".." not in banner(mine.page), banner(mine.page)
    due = RULES.pending(st).get(active)
    if due:
        until(lambda: kind(mine.page) == due, SLOW, f"the active page to ask for {due}")
    assert_own_hand_only(server, made, mine, active, passive, require=False)
    shot(mine.page, "moved-on-desktop")
