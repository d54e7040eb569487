"""Warring States on the generic game page: the command typed in JSON (the page's
"advanced" fallback, kept from the placeholder front end) is taken; a person resigns, and
the replay shows. The page's own controls: test_warring_states_page.py."""

from __future__ import annotations

from browser_play import error, kind, over, until, version


def test_warring_states_shows_and_takes_a_command_on_the_placeholder_page(server, watch):
    client = server.app.test_client()
    seats = {"first": "human", "second": "ai:random"}
    made = client.post("/api/games", json={"game": "warring-states", "seats": seats})
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    page = watch().page
    page.goto(server.url + made.json["seats"]["first"]["invite"])
    until(lambda: kind(page) == "action", 20, "the first action")
    assert "Qin holds" in page.locator("#status").inner_text()
    assert page.locator("#map .area").count() == 19
    assert page.locator("#hand .card").count() > 0
    before = server.bingfa.store.version(game_id)
    page.locator("#advanced summary").click()
    page.locator("#command-json").fill('{"type": "pass"}')
    page.locator("#send-json").click()
    until(lambda: server.bingfa.store.version(game_id) > before, 20, "the pass taken")
    # the page caught up with the store (it has drawn the pass and the computer's answer)
    # and asks again: a box filled before that is redrawn for the new decision, emptied
    until(
        lambda: version(page) == server.bingfa.store.version(game_id) and kind(page) != "",
        20,
        "the page caught up and asking again",
    )
    assert page.locator("#advanced").evaluate("box => box.open"), "the box stays open"
    page.locator("#command-json").fill('{"type": "resign"}')
    page.locator("#send-json").click()
    until(lambda: over(page), 20, f"the end of the game ({kind(page)}: {error(page)})")
    page.goto(f"{server.url}/r/{game_id}")
    page.wait_for_selector("#replay[data-shown]")
    assert "Qin holds" in page.locator("#status").inner_text()
