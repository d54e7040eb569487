"""Warring States' game page (issue 15): the map, the track and the hand, and a game against
the computer played through the page's controls (never the JSON box): each decision is one
of the rules' legal commands, entered with the buttons, selects and map clicks a person
uses; the opponent's hand is never shown; phone size; screenshots."""

from __future__ import annotations

import random

from browser_play import error, kind, over, until, version

import games

RULES = games.get("warring-states")


def state_of(server, game_id):
    return server.bingfa.load(game_id).state


def new_game(server, watch, **context):
    client = server.app.test_client()
    seats = {"first": "human", "second": "ai:random"}
    made = client.post("/api/games", json={"game": "warring-states", "seats": seats})
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    watched = watch(**context)
    page = watched.page
    page.goto(server.url + made.json["seats"]["first"]["invite"])
    page.wait_for_selector("#map")
    return game_id, page


def assert_board(page, st):
    assert page.locator("#map .area[data-area]").count() == 19
    assert page.locator("#map .border[data-type=waterway]").count() >= 2
    assert page.locator("#map .border").count() >= 39
    for area, content in st["areas"].items():
        node = page.locator(f'#map .area[data-area="{area}"]')
        holder = content["city"]["force"] if content["city"] else ""
        assert node.get_attribute("data-control") == holder
        shown = node.locator(".stack").count()
        assert shown == min(4, len(content["field"]) + (1 if content["city"] else 0))
    for force, pos in st["track"].items():
        counter = page.locator(f'#track [data-box="{pos["box"]}"] .counter[data-force="{force}"]')
        assert counter.count() == 1, (force, pos)
    assert f"of {st['target']}" in page.locator("#status").inner_text()


def assert_hand(page, st, seat):
    side = RULES.view(st, seat)["me"]
    if not side:
        return
    shown = sorted(
        page.locator("#hand [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")
    )
    assert shown == sorted(st["hands"][side])
    other = next(s for s in st["hands"] if s != side)
    text = page.locator("#hand-panel").inner_text()
    assert not page.locator(f'[data-card^="{other[0].upper()}_"]').count() or not st["hands"][other]
    assert "Your hand" in text


def enter(page, cmd, st=None, seat=None):
    """Enter ``cmd`` (a legal command) with the page's controls."""
    t = cmd["type"]
    if t == "pass":
        page.locator("[data-pass]").click()
    elif t == "bid":
        page.locator("#bid-rp").fill(str(cmd["rp"]))
        page.locator("#submit-bid").click()
    elif t == "choose":
        page.locator(f'#decision [data-option="{cmd["option"]}"]').click()
    elif t == "pick":
        # a discard: the card in the hand; a search of the deck: the deck's cards offered
        card = cmd["card"]
        page.locator(f'#hand [data-pick="{card}"], #decision [data-pick="{card}"]').first.click()
    elif t == "play":
        page.locator(f'#hand button[data-card="{cmd["card"]}"]').first.click()
        page.locator(f'#decision [data-face="{cmd["face"]}"]').click()
        if cmd["face"] == "down":
            page.locator("#play-action").select_option(cmd["action"])
            if cmd["action"] in ("reinforcement", "diplomacy"):
                page.locator("#play-force").select_option(cmd["force"])
            if cmd["action"] == "reinforcement":
                page.locator("#play-area").select_option(cmd["area"])
            if cmd["action"] == "diplomacy":
                page.locator("#play-dir").select_option(str(cmd["dir"]))
            if cmd["action"] == "weather":
                page.locator("#play-move").select_option("true" if cmd["move"] else "false")
        else:
            for key in ("option", "force", "area", "general"):
                if key in cmd:
                    page.locator(f"#play-{key}").select_option(cmd[key])
        page.locator("#submit-play").click()
    elif t == "operate":
        page.locator(f'#map .area[data-area="{cmd["area"]}"]').click()
        page.locator(f'#decision [data-stack-choice="{cmd["force"]}"]').click()
        page.locator("#op-armies").fill(str(cmd["armies"]))
        for box in page.locator("#decision [data-general]").all():
            want = box.get_attribute("data-general") in cmd["generals"]
            if box.is_checked() != want:
                box.click()
        if cmd.get("activate") and page.locator("#op-activate").count():
            page.locator("#op-activate").select_option(cmd["activate"])
        if cmd.get("ally"):
            page.locator("#op-ally").fill(str(cmd["ally"]))
        if cmd.get("successor") and page.locator("#op-successor").count():
            page.locator("#op-successor").select_option(cmd["successor"])
        for i, step in enumerate(cmd["path"]):
            if i % 2:  # half the steps by clicking the map, half by the buttons
                page.locator(f'#map .area[data-area="{step}"]').click()
            else:
                page.locator(f'#decision [data-step="{step}"]').click()
        page.locator("#op-send" if cmd["path"] else "#op-attack").click()
    else:
        raise AssertionError(f"no control for {cmd}")


def play_through_page(server, page, game_id, rng, decisions, shot=None, english=True):
    """Play ``decisions`` of the first seat through the page's controls; on an English page
    the board and the hand are checked against the state at each."""
    seat = "first"
    done = 0
    while done < decisions:
        until(
            lambda: (
                (kind(page) or over(page)) and version(page) == server.bingfa.store.version(game_id)
            ),
            30,
            "the page up to date",
        )
        if over(page):
            return done
        st = state_of(server, game_id)
        if RULES.pending(st).get(seat) is None:
            continue
        if english:
            assert_board(page, st)
            assert_hand(page, st, seat)
        legal = RULES.legal(st, seat)
        due = RULES.pending(st)[seat]
        if due == "action":  # fewer passes, so that the game goes on
            plays = [c for c in legal if c["type"] != "pass"]
            legal = plays if plays and rng.random() < 0.8 else legal
        before = server.bingfa.store.version(game_id)
        if not legal:
            cmd = RULES.random_command(st, seat, rng)
            page.locator("#advanced summary").click()
            page.locator("#command-json").fill(__import__("json").dumps(cmd))
            page.locator("#send-json").click()
        else:
            cmd = rng.choice(legal)
            if done == 3 and shot:
                shot(page, f"deciding-{due}")
            enter(page, cmd, st, seat)
        until(
            lambda b=before: server.bingfa.store.version(game_id) > b or error(page),
            20,
            f"{cmd} taken",
        )
        assert not error(page), (cmd, error(page))
        done += 1
    return done


def test_warring_states_game_against_the_computer_through_the_page(server, watch, shot):
    game_id, page = new_game(server, watch, viewport={"width": 1200, "height": 900})
    until(lambda: kind(page) or over(page), 30, "the first decision")
    shot(page, "start")
    rng = random.Random(3)
    done = play_through_page(server, page, game_id, rng, 60, shot)
    assert done >= 20 or over(page)
    st = state_of(server, game_id)
    assert st["turn"] >= 2 or over(page)
    shot(page, "later")
    # the opponent's hand is never in the page
    side = RULES.view(st, "first")["me"]
    other = next(s for s in st["hands"] if s != side)
    if not over(page):
        html = page.content()
        for card in st["hands"][other]:
            assert f'data-card="{card}"' not in html


def test_warring_states_page_on_a_phone(server, watch, shot):
    game_id, page = new_game(
        server, watch, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    until(lambda: kind(page), 30, "the first decision")
    st = state_of(server, game_id)
    assert_board(page, st)
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(n => n.getBoundingClientRect().right > 392)"
        ".slice(0, 8).map(n => n.tagName + '#' + n.id + '.' + n.className)"
    )
    assert width <= 400, (width, wide)
    rng = random.Random(5)
    play_through_page(server, page, game_id, rng, 6)
    shot(page, "phone")


def test_standing_instructions_are_always_at_hand(server, watch):
    game_id, page = new_game(server, watch, viewport={"width": 1000, "height": 900})
    until(lambda: kind(page), 30, "the first decision")
    page.locator("#standing summary").click()
    page.locator('[data-standing-mode="never"]').check()
    page.locator("#set-standing").click()
    until(
        lambda: (state_of(server, game_id)["standing"].get("first") or {}).get("mode") == "never",
        20,
        "the standing instructions set",
    )
    until(lambda: "never" in page.locator("#standing summary").inner_text(), 20, "shown")


def test_warring_states_rules_page(server, watch, shot):
    page = watch(viewport={"width": 390, "height": 844}).page
    page.goto(f"{server.url}/games/warring-states/rules")
    headings = page.locator("main h2").all_inner_texts()
    assert headings[0] == "How a turn goes", headings
    assert page.locator("#fig-map svg g").count() >= 19
    assert page.locator("#fig-track svg").count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, width
    shot(page, "guide")
