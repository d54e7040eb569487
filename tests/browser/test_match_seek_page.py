"""A seek for a match of linked games on /seeks: the form offers the match only for a game
whose package plays matches; the posted seek says it; accepted in another browser, it
makes the match's first game, whose page says which game of the match it is (words
from the platform's message ids)."""

from __future__ import annotations

KEY = "warring-states"


def test_a_match_seek_posted_on_the_form_and_accepted(server, watch, shot):
    seeker = watch().page
    seeker.goto(f"{server.url}/seeks")
    seeker.wait_for_selector("#seek-game")
    # the first game (no match part) offers no match; the second one does
    assert seeker.locator("#seek-match").count() == 0
    seeker.select_option("#seek-game", KEY)
    box = seeker.locator(f"#seek-{KEY}-match")
    box.wait_for(state="visible")
    box.check()
    seeker.select_option(f"#seek-{KEY}-colour", "first")
    seeker.click("#post-seek")
    mine = seeker.locator("#my-seeks [data-status=open]")
    mine.wait_for()
    assert "a match of 2 games" in mine.inner_text()
    seek_id = mine.get_attribute("data-seek")
    shot(seeker, "posted")

    acceptor = watch().page
    acceptor.goto(f"{server.url}/seeks")
    listed = acceptor.locator(f"#open-seeks [data-seek='{seek_id}']")
    listed.wait_for()
    assert "a match of 2 games" in listed.inner_text()
    listed.locator("[data-accept]").click()
    acceptor.wait_for_url("**/g/**", timeout=30_000)
    note = acceptor.locator("#match-note:not([hidden])")
    note.wait_for(timeout=30_000)
    assert "Game 1 of 2 of a match." in note.inner_text()
    game_id = acceptor.get_attribute("#game", "data-game")
    assert server.bingfa.load(game_id).created["match"] == {"game": 1, "of": 2}
    shot(acceptor, "first-game")
