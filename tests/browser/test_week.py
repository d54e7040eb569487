"""A week of correspondence play, as two new users would live it in two browsers.

The server runs on an injected clock that the test moves forward a day at a time, and
the deadline sweep beat would run every few seconds is run by the test after each step
(the sweep itself is tested with beat's task on a real Redis in tests/workers). Everything
the players do, they do through the pages.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from browser_play import answer, kind, over, until
from conftest import serving

from workers.dispatch import sweep_deadlines

DAY = timedelta(days=1)


class Clock:
    """The server's time; the test moves it (thread-safe enough: one writer)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)  # a Monday morning

    def __call__(self) -> datetime:
        return self.now


class Week:
    def __init__(self, server, clock) -> None:
        self.app, self.url, self.clock = server.app, server.url, clock

    @property
    def bingfa(self):
        return self.app.extensions["bingfa"]

    def later(self, delta: timedelta) -> list:
        """Time passes; beat's deadline sweep runs."""
        self.clock.now += delta
        return sweep_deadlines(self.bingfa, self.app.extensions["queries"], self.bingfa.now_ms())


@pytest.fixture
def week():
    clock = Clock()
    with serving(CLOCK=clock) as server:
        yield Week(server, clock)


def create_timed_game(page, url, per_move="86400", on_timeout="forfeit", rated=False) -> str:
    page.goto(url + "/")
    page.check("input[name=mode][value=friend]")
    page.select_option("#per-move", per_move)
    page.select_option("#vacation", "3")
    if rated:
        page.check("#rated")
    else:
        page.select_option("#on-timeout", on_timeout)
    page.click("#create")
    link = until(lambda: page.input_value("#invite-link"), 20, "the invite link")
    page.click("#go-to-game")
    page.wait_for_url(re.compile(r"/g/\w+/blue$"))
    return link


def open_more(page) -> None:
    """Open the "Hint, …, resign" box as a person does: click its summary until it is
    open (a click during a redraw of the page may not take)."""

    def opened():
        if not page.locator("#more").evaluate("box => box.open"):
            page.click("#more summary")
        return page.locator("#more").evaluate("box => box.open")

    until(opened, 20, "the box of further actions to open")


def clock_line(page, seat) -> str:
    return page.inner_text(f"#clocks li[data-seat={seat}]")


def test_a_week_of_play_with_clocks_vacation_a_draw_offer_and_a_timeout(week, watch, shot):
    alice = watch().page
    link = create_timed_game(alice, week.url)
    bob = watch().page
    bob.goto(link)
    game_id = bob.get_attribute("#game", "data-game")
    until(lambda: kind(alice) == "choose_warlord" and kind(bob) == "choose_warlord", 20,
          "both pages to ask for a Warlord")  # fmt: skip
    # Monday: both clocks show a day to go, and what happens when one runs out.
    until(lambda: alice.locator("#clocks").is_visible(), 20, "the clocks")
    assert "1 day per decision" in alice.inner_text("#clocks")
    assert "running out of time loses the game" in alice.inner_text("#clocks")
    assert re.search(r"(23 h|1 day) .*left", clock_line(bob, "blue")), clock_line(bob, "blue")
    shot(alice, "monday")

    rng = random.Random(11)
    answer(alice, rng)
    answer(bob, rng)  # Monday 8:00: both have their Warlord; both owe a placement by Tuesday
    # Monday evening: Bob takes two days of vacation from the page.
    week.later(timedelta(hours=10))
    open_more(bob)
    bob.select_option("#vacation-days", "2")
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("#vacation")
    until(lambda: "on vacation until" in clock_line(alice, "red"), 20, "alice to see it")
    week.later(timedelta(hours=2))
    answer(alice, rng)  # Alice places; now she waits for Bob
    # Tuesday: Alice offers a draw; Bob declines it.
    week.later(DAY)
    open_more(alice)
    alice.click("#offer-draw")
    until(lambda: bob.locator("#accept-draw").is_visible(), 20, "bob to be offered a draw")
    assert "Blue offers a draw" in bob.inner_text("#draw-offer")
    shot(bob, "draw-offered")
    bob.click("#decline-draw")
    until(lambda: "declined the draw" in alice.inner_text("#log"), 20, "alice to see no")
    waiting = week.bingfa.load(game_id)
    assert set(waiting.pending) == {"red"} and waiting.outcome is None
    # Bob never comes back. His day started Monday 8:00 and his vacation adds two days.
    assert week.later(DAY) == []  # Wednesday evening: still within his time
    assert week.later(timedelta(hours=12)) == [(game_id, "red")]  # Thursday 8:00: out
    until(lambda: over(alice) and over(bob), 20, "both pages to show the end")
    assert "You win" in alice.inner_text("#outcome")
    assert "ran out of time" in alice.inner_text("#outcome")
    assert "Red ran out of time" in alice.inner_text("#log")
    assert "ran out of time 1×" in clock_line(alice, "red")
    shot(alice, "saturday")
    assert week.later(DAY) == []  # Sunday: nothing more happens


def test_an_ai_stands_in_for_one_decision_when_the_time_runs_out(week, watch):
    alice = watch().page
    link = create_timed_game(alice, week.url, per_move="3600", on_timeout="ai:medium")
    bob = watch().page
    bob.goto(link)
    game_id = bob.get_attribute("#game", "data-game")
    until(lambda: kind(alice) == "choose_warlord", 20, "alice's Warlord choice")
    answer(alice, random.Random(2))
    assert week.later(timedelta(hours=1, minutes=1)) == [(game_id, "red")]
    # The test's AI seats play the stand-in's decision; then it is Bob's own again.
    until(lambda: "red" not in week.bingfa.load(game_id).table.standing_in, 20,
          "the stand-in to move")  # fmt: skip
    until(lambda: "the computer (medium) makes this decision" in bob.inner_text("#log"), 20,
          "bob's page to tell the stand-in")  # fmt: skip
    until(lambda: "You chose" in bob.inner_text("#log"), 20,
          "bob's page to show the Warlord the stand-in chose for him")  # fmt: skip
    assert week.bingfa.load(game_id).seats["red"] == "human"
    assert not over(bob)


def notes_of(page) -> list[tuple[str, str]]:
    """(kind, id) of each notification in the home page's list."""
    rows = page.locator("#my-notifications li[data-id]")
    return [(rows.nth(i).get_attribute("data-kind"), rows.nth(i).get_attribute("data-id"))
            for i in range(rows.count())]  # fmt: skip


def name_myself(page, url, name) -> None:
    page.goto(url + "/me")
    page.fill("#name-input", name)
    page.click("#name-save")
    until(lambda: page.inner_text("#me-label") == name, 20, f"the name {name}")


def test_two_new_players_live_a_rated_week_and_come_back_in_another_browser(week, watch, shot):
    alice, bob = watch().page, watch().page
    name_myself(alice, week.url, "Alice")
    name_myself(bob, week.url, "Bob")
    link = create_timed_game(alice, week.url, rated=True)
    home = alice.context.new_page()  # Alice keeps her home page open in another tab
    home.goto(week.url + "/")
    bob.goto(link)
    game_id = bob.get_attribute("#game", "data-game")
    until(lambda: "joined" in [k for k, _ in notes_of(home)], 20, "alice to hear bob joined")
    until(lambda: kind(alice) == "choose_warlord" and kind(bob) == "choose_warlord", 20,
          "both pages to ask for a Warlord")  # fmt: skip
    until(lambda: alice.inner_text(".player.red .player-name") == "Bob", 20, "bob's name")
    assert bob.inner_text(".player.blue .player-name") == "Alice"
    rng = random.Random(5)
    answer(alice, rng)
    answer(bob, rng)
    week.later(timedelta(hours=20))
    answer(bob, rng)  # Bob places first; Alice's placement then settles the round
    week.later(timedelta(hours=3))
    answer(alice, rng)
    until(lambda: kind(alice) or kind(bob), 20, "the next decision")
    # Alice resigns on Tuesday, then both look at what they were told, once each.
    assert week.later(timedelta(hours=12)) == []
    open_more(alice)
    alice.once("dialog", lambda dialog: dialog.accept())
    alice.click("#resign")
    until(lambda: over(alice) and over(bob), 20, "both pages to show the end")
    bob_home = bob.context.new_page()
    bob_home.goto(week.url + "/")
    home.reload()
    for page in (home, bob_home):
        until(lambda p=page: "over" in [k for k, _ in notes_of(p)], 20, "the game over")
        ids = [i for _, i in notes_of(page)]
        assert len(ids) == len(set(ids)), ids  # each notification once
        assert [k for k, _ in notes_of(page)].count("over") == 1
    assert [k for k, _ in notes_of(home)].count("joined") == 1
    assert "You win" in bob_home.inner_text("#my-games")
    shot(bob_home, "bob-home")
    # The leaderboard has both of them, Bob above Alice, both still provisional.
    alice.goto(week.url + "/leaderboard")
    until(lambda: alice.locator("#board-rows tr").count() == 2, 20, "two rated players")
    rows = alice.locator("#board-rows tr").all_inner_texts()
    assert "Bob" in rows[0] and "Alice" in rows[1], rows
    shot(alice, "leaderboard")
    # On Wednesday Bob opens a new browser and carries his identity there with a code.
    bob.goto(week.url + "/me")
    bob.click("#code-make")
    code = until(lambda: bob.input_value("#code-value"), 20, "the recovery code")
    week.later(DAY)
    laptop = watch().page
    laptop.goto(week.url + "/me")
    laptop.fill("#recover-input", code)
    laptop.click("#recover-send")
    until(lambda: laptop.inner_text("#me-label") == "Bob", 20, "bob's identity on the laptop")
    laptop.goto(week.url + "/")
    until(lambda: laptop.locator(f"#my-games a[href='/g/{game_id}/red']").count(), 20,
          "bob's game on the laptop")  # fmt: skip
    # From the laptop, without the invite's token, Bob asks Alice for a rematch.
    laptop.click(f"#my-games a[href='/g/{game_id}/red']")
    until(lambda: laptop.locator("#rematch-box button").count(), 20, "the rematch button")
    laptop.click("#rematch-box button")
    alice.goto(f"{week.url}/g/{game_id}/blue")
    until(lambda: alice.locator("#rematch-box button").count(), 20, "alice's rematch button")
    alice.click("#rematch-box button")
    alice.wait_for_url(re.compile(r"/g/\w+/red$"), timeout=20_000)  # colours swapped
    rematch_id = alice.get_attribute("#game", "data-game")
    assert rematch_id != game_id
    assert week.bingfa.load(rematch_id).created.get("rematch_of") == game_id
