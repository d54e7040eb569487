"""Matchmaking in two browsers: one posts a seek on /seeks, the other accepts it, both
play the same game as opposite seats; after a resignation both ask for a rematch and end
up in the new game with the colours swapped."""

from __future__ import annotations

from pathlib import Path

from browser_play import until

STATIC = Path(__file__).resolve().parents[2] / "service" / "static"


def other(seat: str) -> str:
    return "red" if seat == "blue" else "blue"


def seat_page(page) -> tuple[str, str]:
    """(game id, seat) of the game page the browser is on."""
    page.wait_for_selector("#game[data-version]:not([data-version='0'])")
    return page.get_attribute("#game", "data-game"), page.get_attribute("#game", "data-seat")


def seat_of_browser(page, game_id: str, seat: str) -> str | None:
    """The seat the API says this browser plays, with the token the page keeps."""
    return page.evaluate(
        """async ([game, seat]) => {
            const token = localStorage.getItem(`bingfa:${game}:${seat}:token`);
            const headers = token ? { Authorization: `Bearer ${token}` } : {};
            const answer = await fetch(`/api/games/${game}`, { headers });
            return (await answer.json()).seat;
        }""",
        [game_id, seat],
    )


def rematch_button(page, game_id: str, seat: str):
    """The outcome panel's Rematch button. The game page (game.js, the lead's) calls
    rematch.js's showRematch there; until it does, the test calls it the same way."""
    page.wait_for_selector("#game[data-over='yes']")
    if "showRematch" not in (STATIC / "game.js").read_text():
        page.evaluate(
            """async ([game, seat]) => {
                const { showRematch } = await import("/static/rematch.js");
                showRematch(document.getElementById("outcome"), game, seat);
            }""",
            [game_id, seat],
        )
    return page.locator("#rematch")


def test_a_seek_accepted_in_another_browser_then_a_rematch(server, watch, shot):
    seeker = watch().page
    seeker.goto(f"{server.url}/seeks")
    seeker.select_option("#seek-variant", "beginner")
    seeker.check("#seek-events")
    seeker.select_option("#seek-per-move", "86400")
    seeker.select_option("#seek-colour", "random")
    seeker.click("#post-seek")
    seeker.wait_for_selector("#my-seeks [data-status=open] [data-cancel]")
    seek_id = seeker.get_attribute("#my-seeks [data-status=open]", "data-seek")
    assert seeker.locator(f"#open-seeks [data-seek='{seek_id}'] [data-accept]").count() == 0
    shot(seeker, "posted")

    acceptor = watch().page
    acceptor.goto(f"{server.url}/seeks")
    listed = acceptor.locator(f"#open-seeks [data-seek='{seek_id}']")
    listed.wait_for()
    assert "Beginner, events, 1 day per move, 7 vacation days, unrated" in listed.inner_text()
    listed.locator("[data-accept]").click()
    acceptor.wait_for_url("**/g/**")
    game_id, acceptor_seat = seat_page(acceptor)

    # the seeker's list updates by itself and links to the game
    link = seeker.locator(f"#my-seeks [data-seek='{seek_id}'] a[data-game='{game_id}']")
    link.wait_for(timeout=20_000)
    shot(seeker, "accepted")
    link.click()
    seeker.wait_for_url(f"**/g/{game_id}/**")
    assert seat_page(seeker) == (game_id, other(acceptor_seat))
    assert seat_of_browser(seeker, game_id, other(acceptor_seat)) == other(acceptor_seat)
    assert seat_of_browser(acceptor, game_id, acceptor_seat) == acceptor_seat
    assert seeker.locator("#error").is_hidden() and acceptor.locator("#error").is_hidden()
    game = server.bingfa.load(game_id)
    assert game.dealt and game.created["seek"] == seek_id
    assert game.created["options"] == {"variant": "beginner", "events": True}

    # the acceptor resigns; both ask for a rematch
    acceptor.once("dialog", lambda dialog: dialog.accept())
    acceptor.click("#more summary")
    acceptor.click("#resign")
    rematch_button(acceptor, game_id, acceptor_seat).click()
    acceptor.wait_for_selector("#rematch-status:has-text('waiting for your opponent')")
    offer = rematch_button(seeker, game_id, other(acceptor_seat))
    seeker.wait_for_selector("#rematch:has-text('Accept the rematch')")
    shot(seeker, "rematch-offered")
    offer.click()
    seeker.wait_for_url(lambda url: f"/g/{game_id}/" not in url and "/g/" in url)
    new_id, seeker_seat = seat_page(seeker)
    acceptor.wait_for_url(f"**/g/{new_id}/**")
    assert seat_page(acceptor) == (new_id, other(seeker_seat))
    assert seeker_seat == acceptor_seat  # the colours are swapped
    assert seat_of_browser(acceptor, new_id, other(seeker_seat)) == other(seeker_seat)
    assert seat_of_browser(seeker, new_id, seeker_seat) == seeker_seat
    new = until(lambda: server.bingfa.load(new_id), what="the new game")
    assert new.created["rematch_of"] == game_id and new.dealt
    assert new.created["options"] == game.created["options"]
    shot(acceptor, "rematch")
