"""Learning the game and reading it right, in Debian's Chromium against a real server: the
rules page opened from the game page with its figures; a resignation read by each side;
the chosen name on the replay list and header; no console error and no failed request on
any page; the API documentation with its request bodies."""

from __future__ import annotations

import re

import pytest
from browser_play import kind, over, until
from conftest import ARTIFACTS

from replays.archive import archive

NAME = "Zhuge Liang"


class Clean:
    """A page that keeps every console error and every answer of 400 or more."""

    def __init__(self, context) -> None:
        self.page = context.new_page()
        self.problems: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.problems.append(f"script error: {e}"))
        self.page.on("response", self._response)

    def _console(self, message) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"{response.status} {response.request.method} {response.url}")

    def visit(self, url: str, settle_ms: int = 1200):
        self.page.goto(url)
        self.page.wait_for_load_state("networkidle")
        self.page.wait_for_timeout(settle_ms)  # late requests (polls, module imports)
        return self.page


@pytest.fixture
def clean(new_context):
    def make(**options) -> Clean:
        return Clean(new_context(**options))

    return make


def create(server, seats, options=None) -> dict:
    client = server.app.test_client()
    made = client.post("/api/games", json={"seats": seats, "options": options or {}})
    assert made.status_code == 201, made.json
    return made.json


def archived(server, game_id: str) -> None:
    until(lambda: server.bingfa.load(game_id).outcome is not None, 30, "the game to end")
    until(lambda: server.bingfa.load(game_id).revealed is not None, 10, "the seed")
    from service.api.replays import replay_store

    with server.app.app_context():
        archive(server.bingfa.store, replay_store(), game_id)


def test_the_rules_open_from_the_game_page_with_their_figures(server, clean, shot):
    created = create(server, {"blue": "human", "red": "ai:random"})
    seat = clean()
    page = seat.visit(server.url + created["seats"]["blue"]["invite"])
    until(lambda: kind(page) == "choose_warlord", 20, "the Warlord choice")
    link = page.locator("#rules-link")
    assert link.is_visible() and link.get_attribute("href") == "/games/sun-tzu/rules"
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state("networkidle")
    assert rules.url.endswith("/games/sun-tzu/rules")
    assert rules.locator("h1").inner_text() == "Sun Tzu: the rules"
    first = rules.locator("main section").first
    assert first.locator("h2").inner_text() == "How a round goes"
    assert first.locator("ol.steps li").count() == 5
    for figure in ("fig-map", "fig-track", "fig-battle", "fig-plague", "fig-six"):
        svg = rules.locator(f"#{figure} svg")
        box = svg.bounding_box()
        assert box and box["width"] > 200 and box["height"] > 50, (figure, box)
        assert svg.get_attribute("role") == "img" and svg.locator("title").count() == 1
    assert rules.locator("#fig-map .province").count() == 5
    assert rules.locator("#fig-map .borders line").count() == 7  # the seven borders
    # the seat colours reach the figures (catalogue -> seats.css -> --seat)
    blue = rules.locator("#fig-battle .card[data-colour='blue'] rect")
    red = rules.locator("#fig-battle .card[data-colour='red'] rect")
    stroke = "(el) => getComputedStyle(el).stroke"
    assert blue.evaluate(stroke) != red.evaluate(stroke)
    shot(rules, "rules")
    rules.locator("#fig-battle").screenshot(path=str(ARTIFACTS / "rules-battle-figure.png"))
    assert not seat.problems, seat.problems


def test_a_resignation_reads_right_for_each_side_and_replays_show_the_chosen_name(
    server, clean, shot
):
    alice, bob = clean(), clean()
    profile = alice.visit(server.url + "/me")
    profile.fill("#name-input", NAME)
    profile.click("#name-save")
    until(lambda: profile.inner_text("#me-label") == NAME, 20, "the name to be saved")

    created = create(server, {"blue": "human", "red": "human"})
    game_id = created["game_id"]
    blue = alice.visit(server.url + created["seats"]["blue"]["invite"])
    red = bob.visit(server.url + created["seats"]["red"]["invite"])
    until(lambda: kind(blue) == "choose_warlord" and kind(red) == "choose_warlord", 20,
          "both seats to be asked for their Warlord")  # fmt: skip
    blue.once("dialog", lambda dialog: dialog.accept())
    blue.click("#more summary")
    blue.click("#resign")
    until(lambda: over(blue) and over(red), 20, "both pages to show the end")
    assert "You resigned" in blue.inner_text("#outcome")
    assert "Blue resigned" in red.inner_text("#outcome")
    for page in (blue, red):
        assert "other player" not in page.inner_text("#outcome")
    until(lambda: "Blue resigned" in red.inner_text("#log"), 20, "the end in red's log")
    assert "You resigned" in blue.inner_text("#log")
    shot(blue, "resigner")
    shot(red, "winner")

    archived(server, game_id)
    listing = bob.visit(server.url + "/replays")
    row = listing.locator(f"[data-name='{NAME}']")
    until(lambda: row.count() >= 1, 20, "the replay list to name the player")
    ids = server.bingfa.load(game_id).joined
    raw = {seat: str(ids[seat]["player"]) for seat in ("blue", "red")}
    listed = listing.inner_text("#replays")
    assert NAME in listed
    assert all(f"player {raw[s][:8]}" not in listed for s in raw), listed
    shot(listing, "replay-list")

    replay = bob.visit(server.url + f"/r/{game_id}")
    until(lambda: NAME in replay.inner_text("#summary"), 20, "the replay header's names")
    summary = replay.inner_text("#summary")
    assert re.search(r"Red: Player \w+", summary), summary  # bob has no name: his label
    assert all(raw[s][:8] not in summary for s in raw), summary
    assert "Blue resigned" in summary
    shot(replay, "replay-header")
    assert not alice.problems and not bob.problems, (alice.problems, bob.problems)


def test_no_page_shows_a_console_error_or_a_failed_request(server, clean, shot):
    created = create(server, {"blue": "ai:random", "red": "ai:random"}, {"events": True})
    game_id = created["game_id"]
    archived(server, game_id)
    playing = create(server, {"blue": "human", "red": "ai:random"})
    visitor = clean()
    pages = {
        "home": "/",
        "game": playing["seats"]["blue"]["invite"],
        "spectator": f"/g/{game_id}",
        "me": "/me",
        "replays": "/replays",
        "replay": f"/r/{game_id}",
        "replay-as-blue": f"/r/{game_id}?as=blue&step=12",
        "rules": "/games/sun-tzu/rules",
        "api-docs": "/api/docs",
        "seeks": "/seeks",
        "leaderboard": "/leaderboard",
    }
    for name, path in pages.items():
        page = visitor.visit(server.url + path)
        assert not visitor.problems, (name, visitor.problems)
        if name in ("replay", "me"):
            shot(page, name)
    # the replay page's analysis panel is there and asked nothing that failed
    page = visitor.visit(server.url + f"/r/{game_id}")
    assert page.locator("#analysis-panel").count() == 1
    assert not visitor.problems, visitor.problems


def test_the_api_docs_show_request_bodies_and_no_backticks(server, clean, shot):
    visitor = clean()
    home = visitor.visit(server.url + "/")
    home.click("footer a[href='/api/docs']")
    home.wait_for_load_state("networkidle")
    assert home.url.endswith("/api/docs")
    text = home.inner_text("main")
    assert "``" not in text
    op = home.locator("#post-api-games-game-id-commands")
    assert op.locator(".method").inner_text() == "POST"
    assert op.locator(".request-body [data-field='command']").is_visible()
    assert op.locator(".summary code", has_text="Idempotency-Key").count() == 1
    assert home.locator(".request-body").count() >= 10
    assert home.locator("section.tag").count() >= 5
    op.scroll_into_view_if_needed()
    shot(home, "api-docs")
    assert not visitor.problems, visitor.problems
