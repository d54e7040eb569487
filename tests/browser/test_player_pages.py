"""Profiles across two browsers, and the leaderboard and player page after a rated game,
in Debian's Chromium against a real server (controls a person uses; waits, no sleeps)."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect


def player_of(context, server) -> str:
    """The player id the context's cookie holds (the API makes one on the first call)."""
    return context.request.get(f"{server.url}/api/me").json()["player"]


def test_a_name_and_its_recovery_code_carry_the_identity_to_another_browser(server, watch, shot):
    name = "Ann " + secrets.token_hex(3)
    first = watch()
    page = first.page
    page.goto(f"{server.url}/me")
    expect(page.locator("#me-label")).to_have_text(re.compile(r"^Player [0-9a-f]{4}$"))
    page.fill("#name-input", name)
    page.click("#name-save")
    expect(page.locator("#name-status")).to_contain_text(f"others now see you as {name}")
    expect(page.locator("#me-label")).to_have_text(name)
    page.click("#code-make")
    expect(page.locator("#code-shown")).to_be_visible()
    code = page.input_value("#code-value")
    assert len(code) == 19 and code.count("-") == 3
    expect(page.locator("#code-state")).to_contain_text("has a recovery code")
    shot(page, "code")

    second = watch()
    other = second.page
    other.goto(f"{server.url}/me")
    expect(other.locator("#me-label")).not_to_have_text(name)
    other.fill("#recover-input", "AAAA-BBBB-CCCC-DDDD")
    other.click("#recover-send")
    expect(other.locator("#me-error")).to_contain_text("does not open any identity")
    other.fill("#recover-input", code.lower())
    other.click("#recover-send")
    expect(other.locator("#recover-status")).to_contain_text(f"This browser is now {name}")
    other.reload()
    expect(other.locator("#me-label")).to_have_text(name)
    expect(other.locator("#name-input")).to_have_value(name)
    shot(other, "recovered")
    page.reload()  # the first browser is still that player
    expect(page.locator("#me-label")).to_have_text(name)


def test_the_leaderboard_after_a_rated_game_shows_both_players(server, watch, shot):
    winner_name = "Bo " + secrets.token_hex(3)
    winner, loser = watch(), watch()
    winner.page.goto(f"{server.url}/me")
    winner.page.fill("#name-input", winner_name)
    winner.page.click("#name-save")
    expect(winner.page.locator("#me-label")).to_have_text(winner_name)
    ids = {"blue": player_of(winner.page.context, server),
           "red": player_of(loser.page.context, server)}  # fmt: skip
    bingfa = server.bingfa
    game_id = bingfa.create_game("sun-tzu", {"variant": "beginner"},
                                 {"blue": "human", "red": "human"}, rated=True)  # fmt: skip
    for seat, player in ids.items():
        bingfa.join(game_id, seat, player=player)
    bingfa.submit(game_id, "red", {"type": "resign"})

    page = loser.page
    page.goto(f"{server.url}/leaderboard")
    rows = page.locator("#board-rows tr")
    top = page.locator(f"#board-rows tr[data-player='{ids['blue']}']")
    bottom = page.locator(f"#board-rows tr[data-player='{ids['red']}']")
    expect(top).to_contain_text(winner_name)
    expect(top).to_contain_text("provisional")
    expect(bottom).to_contain_text("Player ")
    assert rows.count() >= 2
    shot(page, "leaderboard")

    top.get_by_role("link", name=winner_name).click()
    expect(page).to_have_url(f"{server.url}/p/{ids['blue']}")
    expect(page.locator("#player-name")).to_have_text(winner_name)
    expect(page.locator("#ratings")).to_contain_text("provisional")
    history = page.locator(f"#history-rows tr[data-game='{game_id}']")
    expect(history).to_contain_text("Won")
    expect(
        history.get_by_role("link", name=f"Watch the replay of game {game_id}")
    ).to_have_attribute("href", f"/r/{game_id}")
    shot(page, "player")
