"""Warring States' tips on the page: an area, a stack, a border, a track box and a card in
hand each explain themselves on hover, on keyboard focus (aria-describedby names the same
words) and on a tap; and the log speaks to the seat ("You drew …")."""

from __future__ import annotations

from browser_play import kind, until

import games

RULES = games.get("warring-states")
TEXT = RULES.text.messages


def new_game(server, watch, **context):
    client = server.app.test_client()
    seats = {"first": "human", "second": "ai:random"}
    made = client.post("/api/games", json={"game": "warring-states", "seats": seats})
    assert made.status_code == 201, made.json
    page = watch(**context).page
    page.goto(server.url + made.json["seats"]["first"]["invite"])
    page.wait_for_selector("#map")
    until(lambda: kind(page), 60, "the first decision")
    return made.json["game_id"], page


def bubble(page) -> str:
    node = page.locator("#tip-bubble")
    return node.inner_text() if node.count() and node.is_visible() else ""


def described(page, locator) -> str:
    """The words aria-describedby points the node to."""
    return locator.evaluate(
        "n => (n.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)"
        ".map(id => document.getElementById(id)?.textContent || '').join(' ')"
    )


def shown_on(page, selector: str, how: str, words, what: str):
    """Hover or focus ``selector`` until the bubble holds ``words`` (a string, or a test of
    the bubble's text): the computer's moves redraw the board meanwhile, and a redraw takes
    the tip of a replaced node away."""
    test = words if callable(words) else (lambda said: words in said)

    def check():
        node = page.locator(selector).first
        if how == "focus":  # focus again (a node already focused would not tell)
            node.evaluate("n => n.blur()")
        getattr(node, how)()
        return test(bubble(page)) and node

    return until(check, 30, what)


def test_hover_and_focus_explain_the_board_and_the_hand(server, watch, shot):
    _game_id, page = new_game(server, watch, viewport={"width": 1200, "height": 900})
    words = TEXT["tip.area.HANZHONG"]
    area = shown_on(page, '#map .area[data-area="HANZHONG"]', "hover", words, "an area's tip")
    assert words in described(page, area) and "RP" in bubble(page)

    stack = shown_on(page, "#map .stack", "focus", "ready and", "a stack's tip on focus")
    assert TEXT["force." + stack.get_attribute("data-force")] in bubble(page)
    assert bubble(page) == described(page, stack)
    shot(page, "stack-tip")

    shown_on(page, '#map .border[data-type="waterway"]', "focus", "waterway flowing toward",
             "a border's tip")  # fmt: skip
    shown_on(page, '#track [data-box="SERVE_QIN"] .box-name', "focus", "belongs to Lianheng",
             "a track box's tip")  # fmt: skip

    def card_tip(said: str) -> bool:
        card = page.locator("#hand [data-card]").first.get_attribute("data-card")
        return said.startswith(TEXT["card." + card.split(":")[0]]) and "Face down" in said

    shown_on(page, "#hand [data-card]", "hover", card_tip, "a card's tip")
    page.keyboard.press("Escape")
    until(lambda: not bubble(page), 10, "Escape hides the tip")
    page.mouse.move(1, 1)  # off the hand, whose redraws would show its tips again
    shown_on(page, "#status .initiative", "focus", "initiative token", "the initiative's tip")


def test_a_tap_shows_a_tip_and_a_second_tap_hides_it(server, watch):
    _game_id, page = new_game(
        server, watch, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    box = page.locator('#track [data-box="SERVE_QIN"] .box-name')
    box.scroll_into_view_if_needed()
    box.tap()
    until(lambda: TEXT["tip.box.SERVE_QIN"] in bubble(page), 20, "a box's tip on a tap")
    box.tap()
    until(lambda: not bubble(page), 20, "a second tap hides it")
    # on the map, a tap shows the tip of what it lands on (the phone may steer a tap to the
    # nearest thing that takes focus: an area or one of its stacks)
    name = page.locator('#map .area[data-area="LONGXI"] text.name')
    name.scroll_into_view_if_needed()
    name.tap()
    until(lambda: bubble(page), 20, "a tip on a tap on the map")
    tapped = page.evaluate("document.activeElement.dataset.tip")
    assert tapped and bubble(page) == tapped and "Longxi" in tapped
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400


def test_the_log_speaks_to_the_seat(server, watch):
    _game_id, page = new_game(server, watch, viewport={"width": 1200, "height": 900})
    log = page.locator("#log")
    until(lambda: "You drew " in log.inner_text(), 30, "the seat's own draw as You")
    text = log.inner_text()
    assert "Lianheng drew" not in text  # the first seat plays Lianheng: its draws are "You"
    assert "The Alliance drew" in text  # the other side's draws by name, counted
