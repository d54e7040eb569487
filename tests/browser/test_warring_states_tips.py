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


def test_hover_and_focus_explain_the_board_and_the_hand(server, watch):
    game_id, page = new_game(server, watch, viewport={"width": 1200, "height": 900})
    area = page.locator('#map .area[data-area="HANZHONG"]')
    area.hover()
    until(lambda: TEXT["tip.area.HANZHONG"] in bubble(page), 20, "the area's tip on hover")
    assert TEXT["tip.area.HANZHONG"] in described(page, area)
    assert "Mountains" not in bubble(page) and "RP" in bubble(page)

    stack = page.locator("#map .stack").first
    stack.focus()
    until(lambda: "ready and" in bubble(page), 20, "a stack's tip on focus")
    force = stack.get_attribute("data-force")
    assert TEXT[f"force.{force}"] in bubble(page)
    assert bubble(page) == described(page, stack)

    border = page.locator('#map .border[data-type="waterway"]').first
    border.focus()
    until(lambda: "waterway flowing toward" in bubble(page), 20, "a border's tip")

    page.locator('#track [data-box="SERVE_QIN"] .box-name').focus()
    until(lambda: "belongs to Lianheng" in bubble(page), 20, "a track box's tip")

    card = page.locator("#hand [data-card]").first
    name = TEXT["card." + card.get_attribute("data-card").split(":")[0]]
    card.hover()
    until(lambda: bubble(page).startswith(name) and "Face down" in bubble(page), 20, "a card's tip")
    page.keyboard.press("Escape")
    until(lambda: not bubble(page), 10, "Escape hides the tip")

    page.locator("#status .initiative").focus()
    until(lambda: "initiative token" in bubble(page), 10, "the initiative's tip")


def test_a_tap_shows_a_tip_and_a_second_tap_hides_it(server, watch):
    game_id, page = new_game(
        server, watch, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    area = page.locator('#map .area[data-area="LONGXI"] .land')
    area.scroll_into_view_if_needed()
    area.tap()
    until(lambda: TEXT["tip.area.LONGXI"] in bubble(page), 20, "the area's tip on a tap")
    area.tap()
    until(lambda: not bubble(page), 20, "a second tap hides it")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400


def test_the_log_speaks_to_the_seat(server, watch):
    game_id, page = new_game(server, watch, viewport={"width": 1200, "height": 900})
    log = page.locator("#log")
    until(lambda: "You drew " in log.inner_text(), 30, "the seat's own draw as You")
    text = log.inner_text()
    assert "Lianheng drew" not in text  # the first seat plays Lianheng: its draws are "You"
    assert "The Alliance drew" in text  # the other side's draws by name, counted
