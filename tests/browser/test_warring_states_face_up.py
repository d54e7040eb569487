"""Warring States' card play on the page offers only the legal plays: for each card of the
hand, the face-up button is disabled with the reason when the card has no face-up play,
and every parameter select offers exactly the values the seat's view lists
(``view.decision.plays``, fetched through the API with the seat's token), narrowed by the
choices above it; a value forced into a select cannot make an illegal play; a face-up play
entered this way is accepted."""

from __future__ import annotations

import random

from browser_play import error, kind, until, version

import games

RULES = games.get("warring-states")
PARAMS = {"down": ["action", "force", "area", "dir", "move"],
          "up": ["option", "force", "area", "general"]}  # fmt: skip


def shown(value) -> str:
    """A parameter's value as the page's select holds it (JavaScript's String)."""
    if isinstance(value, bool):  # not a dict lookup: 1 == True
        return "true" if value else "false"
    return str(value)


def api_view(server, game_id, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    got = server.app.test_client().get(f"/api/games/{game_id}", headers=headers)
    assert got.status_code == 200, got.json
    return got.json


def offered(page, key) -> list[str]:
    select = page.locator(f"#decision #play-{key}")
    if not select.count():
        return []
    values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    return [v for v in values if v != ""]


def chosen_play(page, face) -> dict | None:
    """The parameters the selects hold now, or None if the page would not send a play."""
    if page.locator("#submit-play").is_disabled():
        return None
    return {
        key: page.locator(f"#decision #play-{key}").input_value()
        for key in PARAMS[face]
        if page.locator(f"#decision #play-{key}").count()
    }


def walk(page, plays: list[dict], face: str, rng) -> dict:
    """Choose parameter by parameter; each select offers exactly the listed plays' values
    left by the choices above it. The play chosen (as the select values)."""
    left = plays
    picked = {}
    for key in PARAMS[face]:
        having = [p for p in left if key in p]
        if not having:
            assert not page.locator(f"#decision #play-{key}").count(), (face, key, left)
            continue
        want = list(dict.fromkeys(shown(p.get(key)) if key in p else "(none)" for p in left))
        assert offered(page, key) == want, (face, key)
        value = rng.choice(want)
        if page.locator(f"#decision #play-{key}").input_value() != value:
            page.locator(f"#decision #play-{key}").select_option(value)
        picked[key] = value
        left = [p for p in left if (shown(p[key]) if key in p else "(none)") == value]
    assert len(left) == 1, left
    assert chosen_play(page, face) == picked
    return picked


def test_the_page_offers_only_legal_card_plays(server, watch, shot):
    client = server.app.test_client()
    seats = {"first": "human", "second": "ai:random"}
    body = {"game": "warring-states", "seats": seats, "options": {"victory": "basic"}}
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.json
    game_id, token = made.json["game_id"], made.json["seats"]["first"]["token"]
    page = watch(viewport={"width": 1200, "height": 900}).page
    page.goto(server.url + made.json["seats"]["first"]["invite"])
    until(lambda: kind(page) == "action", 60, "a card to play")
    until(lambda: version(page) == server.bingfa.store.version(game_id), 30, "the page up to date")
    got = api_view(server, game_id, token)
    assert got["seat"] == "first"
    plays = got["view"]["decision"]["plays"]
    spectator = api_view(server, game_id)
    assert spectator["seat"] is None and spectator["view"]["decision"] is None
    hand = got["view"]["hands"][got["view"]["me"]]
    messages = RULES.text.messages
    rng = random.Random(11)
    up_card = None
    for card in hand:
        page.locator(f'#hand button[data-card="{card}"]').click()
        up = page.locator('#decision [data-face="up"]')
        if plays["up"][card]:
            assert up.is_enabled(), card
            up_card = up_card or card
            up.click()
            walk(page, plays["up"][card], "up", rng)
        else:
            assert up.is_disabled(), card
            why = messages[f"play.up.{plays['why'][card]}"]
            assert up.get_attribute("data-why") == why and why in up.inner_text()
        page.locator('#decision [data-face="down"]').click()
        walk(page, plays["down"], "down", rng)
    shot(page, "face-down")

    # a reinforcement: the areas offered are those of the force chosen, and an area of
    # another force forced into the select does not make a play the page would send
    reinforce = [p for p in plays["down"] if p["action"] == "reinforcement"]
    page.locator("#play-action").select_option("reinforcement")
    force = reinforce[0]["force"]
    page.locator("#play-force").select_option(force)
    mine = [p["area"] for p in reinforce if p["force"] == force]
    assert offered(page, "area") == mine
    others = sorted({p["area"] for p in reinforce} - set(mine))
    assert others, "some other force can be reinforced elsewhere"
    page.locator("#play-area").evaluate(
        "(s, v) => { s.value = v; s.dispatchEvent(new Event('change')); }", others[0]
    )
    now = chosen_play(page, "down")
    assert now is None or now["area"] in mine, now

    # a face-up play entered through the selects is accepted
    assert up_card, "a card of the opening hand has a face-up play"
    page.locator(f'#hand button[data-card="{up_card}"]').click()
    page.locator('#decision [data-face="up"]').click()
    walk(page, plays["up"][up_card], "up", rng)
    shot(page, "face-up")
    before = server.bingfa.store.version(game_id)
    page.locator("#submit-play").click()
    until(lambda: server.bingfa.store.version(game_id) > before or error(page), 30, "the play")
    assert not error(page), error(page)
    events = [e.payload for e in server.bingfa.store.read(game_id) if e.type == "card_played"]
    played = [e for e in events if e.get("card") == up_card]
    assert played and played[-1]["face"] == "up", played


def test_the_card_play_fits_a_phone(server, watch, shot):
    client = server.app.test_client()
    seats = {"first": "human", "second": "ai:random"}
    body = {"game": "warring-states", "seats": seats, "options": {"victory": "basic"}}
    made = client.post("/api/games", json=body)
    game_id, token = made.json["game_id"], made.json["seats"]["first"]["token"]
    page = watch(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).page
    page.goto(server.url + made.json["seats"]["first"]["invite"])
    until(lambda: kind(page) == "action", 60, "a card to play")
    until(lambda: version(page) == server.bingfa.store.version(game_id), 30, "the page up to date")
    plays = api_view(server, game_id, token)["view"]["decision"]["plays"]
    # the longest choices: every card's options in words, and a reinforcement's areas
    worded = [c for c, vs in plays["up"].items() if any("option" in v for v in vs)]
    for card in [*worded, None]:
        if card:
            page.locator(f'#hand button[data-card="{card}"]').click()
            page.locator('#decision [data-face="up"]').click()
            assert offered(page, "option")
        else:
            page.locator(f'#hand button[data-card="{next(iter(plays["up"]))}"]').click()
            page.locator('#decision [data-face="down"]').click()
            page.locator("#play-action").select_option("reinforcement")
        width = page.evaluate("document.documentElement.scrollWidth")
        wide = page.evaluate(
            """() => [...document.querySelectorAll("body *")]
                .filter((n) => n.getBoundingClientRect().right > 395 && !n.closest(".map-scroll"))
                .slice(-3).map((n) => `${n.tagName}#${n.id} ${n.textContent.slice(0, 60)}`)"""
        )
        assert width <= 400, (width, card, wide)
    shot(page, "phone")
