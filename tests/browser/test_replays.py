"""The replay pages in Debian's Chromium against a real server: the list, stepping through
a finished game by slider and keys, deep links, perspectives that hide what a seat could
not see, importing a record, and continuing a finished game against the computer.

The game is the computer playing itself (``ai:random`` on both seats, played at once by the
``server`` fixture's AI thread), archived with ``replays.archive.archive``.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlparse

import pytest
from browser_play import kind, over, until

import games
from replays.archive import archive
from replays.record import dumps, record_of
from replays.replay import replay_of

RULES = games.get("sun-tzu")


@pytest.fixture(scope="module")
def finished(server):
    """(game id, record) of a finished game of the computer against itself, archived."""
    client = server.app.test_client()
    seats = {"blue": "ai:random", "red": "ai:random"}
    answer = client.post("/api/games", json={"seats": seats, "options": {"events": True}})
    assert answer.status_code == 201, answer.json
    game_id = answer.json["game_id"]
    until(lambda: server.bingfa.load(game_id).outcome is not None, 30, "the game to end")
    until(lambda: server.bingfa.load(game_id).revealed is not None, 10, "the seed")
    from service.api.replays import replay_store

    with server.app.app_context():
        archive(server.bingfa.store, replay_store(), game_id)
    return game_id, record_of(server.bingfa.store, game_id)


def shown(page) -> str:
    return page.get_attribute("#replay", "data-shown") or ""


def wait_shown(page, step: int, perspective: str) -> None:
    until(lambda: shown(page) == f"{step}:{perspective}", 15, f"step {step} as {perspective}")


def query_of(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}


def api_view(server, game_id: str, step: int, perspective: str) -> dict:
    client = server.app.test_client()
    answer = client.get(f"/api/replays/{game_id}/states/{step}?as={perspective}")
    assert answer.status_code == 200, answer.json
    return answer.json["view"]


def mid_game_step(record, seat: str = "blue") -> int:
    """A step in round 2 or later where ``seat`` owes a placement and both decks still
    hold cards (a random game empties one before its middle now and then: 5 in 300)."""
    replay = replay_of(record)
    steps = [n for n in range(replay.length + 1)
             if replay.state_at(n).round >= 2
             and RULES.pending(replay.state_at(n)).get(seat) == "place"
             and all(replay.state_at(n).decks)]  # fmt: skip
    assert steps, "the game has no placement after round 1"
    return steps[len(steps) // 2]


def test_list_then_step_through_a_replay(server, finished, watch, shot):
    game_id, record = finished
    length = len(record.events)
    page = watch().page
    page.goto(server.url + "/")
    page.click(".site-nav a:text('Replays')")
    page.wait_for_url(re.compile(r"/replays$"))
    row = page.locator(f"tr[data-id='{game_id}']")
    row.wait_for()
    assert row.locator("a[href$='/export']").count() == 1
    assert page.locator("#page-prev").is_hidden()  # the first page
    result = record.header["result"]
    assert row.locator(f"[data-result='{result}']").count() == 1
    shot(page, "list")
    row.locator("a[data-replay]").click()
    page.wait_for_url(re.compile(rf"/r/{game_id}"))
    wait_shown(page, 0, "spectator")
    assert page.inner_text("#step-text").startswith(f"Step 0 of {length}")
    until(lambda: page.locator("#verify-body [data-ok=yes]").count() == 1, 15, "the verification")

    # the slider
    page.locator("#step-slider").fill("30")
    wait_shown(page, 30, "spectator")
    assert page.inner_text("#step-text").startswith(f"Step 30 of {length}")
    assert query_of(page) == {"step": "30", "as": "spectator"}
    assert page.locator("#events li.now").get_attribute("data-step") == "30"
    board_30 = page.inner_text("#board")

    # the keys: one step, a round, the end, the start
    page.locator("#step-slider").focus()
    page.keyboard.press("ArrowRight")
    wait_shown(page, 31, "spectator")
    assert query_of(page)["step"] == "31"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    wait_shown(page, 29, "spectator")
    page.keyboard.press("PageDown")
    rounds = [e.seq for e in record.events if e.type == "round_started"]
    after = next(s for s in rounds if s > 29)
    wait_shown(page, after, "spectator")
    page.keyboard.press("End")
    wait_shown(page, length, "spectator")
    assert page.inner_text("#board") != board_30  # the board shows the position at the end
    assert page.locator("#outcome").is_visible()
    assert page.locator(".continue-as:disabled").count() == 2  # the game is over here
    page.keyboard.press("Home")
    wait_shown(page, 0, "spectator")

    # an event in the list, and a round button
    page.locator("#events button[data-step='12']").click()
    wait_shown(page, 12, "spectator")
    page.locator("#rounds button[data-round='2']").click()
    wait_shown(page, rounds[1], "spectator")
    assert page.locator("#rounds button[data-round='2']").get_attribute("aria-pressed") == "true"

    # the analysis contract: replay:goto moves, replay:step reports
    page.evaluate("""() => { window.seen = [];
        document.addEventListener('replay:step', e => window.seen.push(e.detail)); }""")
    page.evaluate("document.dispatchEvent(new CustomEvent('replay:goto', {detail: {step: 40}}))")
    wait_shown(page, 40, "spectator")
    assert page.evaluate("window.seen") == [{"step": 40, "length": length}]
    shot(page, "step-40")


def test_a_deep_link_and_what_each_perspective_shows(server, finished, watch, shot):
    game_id, record = finished
    step = mid_game_step(record)
    red_hand = api_view(server, game_id, step, "red")["players"]["red"]["hand"]
    blue_hand = api_view(server, game_id, step, "blue")["players"]["blue"]["hand"]
    assert red_hand and blue_hand
    page = watch().page
    page.goto(f"{server.url}/r/{game_id}?step={step}&as=blue")
    wait_shown(page, step, "blue")
    assert page.locator("#step-slider").input_value() == str(step)
    assert page.locator("#perspective input[value=blue]").is_checked()
    assert page.locator("#hands [data-seat=red]").count() == 0  # Blue never saw Red's hand
    assert page.locator("#board [data-owner=red]:not([data-face=down])").count() == 0
    shown_blue = page.locator("#hands [data-seat=blue] .hand [data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    assert shown_blue == blue_hand
    shot(page, "blue-view")

    page.check("#perspective input[value=full]")
    wait_shown(page, step, "full")
    assert query_of(page) == {"step": str(step), "as": "full"}
    shown_red = page.locator("#hands [data-seat=red] .hand [data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    assert shown_red == red_hand
    assert page.locator("#hands [data-seat=red] .deck [data-card]").count() > 0
    shot(page, "full-view")

    page.check("#perspective input[value=spectator]")
    wait_shown(page, step, "spectator")
    assert page.locator("#hands [data-card]").count() == 0


def test_continue_from_here_against_the_computer(server, finished, watch, shot):
    game_id, record = finished
    step = mid_game_step(record)
    page = watch().page
    page.goto(f"{server.url}/r/{game_id}?step={step}&as=blue")
    wait_shown(page, step, "blue")
    page.select_option("#continue-level", "random")
    button = page.locator("#continue-blue")
    assert button.is_enabled()
    assert button.inner_text() == "Continue from here as Blue against the computer (random)"
    button.click()
    page.wait_for_url(re.compile(r"/g/\w+/blue$"))
    until(lambda: kind(page) == "place", 20, "the new game to ask for a placement")
    new_id = page.get_attribute("#game", "data-game")
    created = server.bingfa.store.read(new_id)[0].payload
    assert created["from"] == {"replay": game_id, "step": step, "seat": "blue"}
    then = api_view(server, game_id, step, "blue")
    hand = page.locator("#hand button.card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert sorted(hand) == sorted(then["players"]["blue"]["hand"])
    shot(page, "continued")


def test_import_says_why_a_record_is_refused(server, finished, watch, shot, tmp_path):
    _, record = finished
    lines = dumps(record).splitlines()
    event = json.loads(lines[20])
    event["at"] = "2000-01-01T00:00:00.000Z"  # an edit the hash chain gives away
    lines[20] = json.dumps(event, sort_keys=True, separators=(",", ":"))
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(lines) + "\n")
    page = watch().page
    page.goto(server.url + "/replays")
    page.set_input_files("#import-file", str(forged))
    page.click("#import-send")
    box = page.locator("#import-error")
    box.wait_for()
    assert "does not verify" in box.inner_text()
    assert "event 20" in box.inner_text()
    shot(page, "import-refused")

    genuine = tmp_path / "genuine.jsonl"
    genuine.write_text(dumps(record))
    page.set_input_files("#import-file", str(genuine))
    page.click("#import-send")
    # it verifies, and it is this server's own game: one history is one replay, so the
    # game's own replay opens (page.url can lag behind location.assign: read the page)
    page.wait_for_selector("#replay[data-shown='0:spectator']")
    assert page.locator("#summary .badge").count() == 0  # not an imported copy
    assert record.id in page.content()


def test_a_finished_game_links_to_its_replay_and_a_phone_shows_it(server, finished, watch,
                                                                  shot):  # fmt: skip
    game_id, record = finished
    w = watch(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = w.page
    page.goto(f"{server.url}/g/{game_id}")
    until(lambda: over(page), 20, "the finished game's page")
    page.click("a[data-replay-link]")
    page.wait_for_url(re.compile(rf"/r/{game_id}"))
    wait_shown(page, 0, "spectator")
    page.tap("#go-next")
    wait_shown(page, 1, "spectator")
    page.locator("#step-slider").fill(str(len(record.events) // 2))
    wait_shown(page, len(record.events) // 2, "spectator")
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is wider than the phone: {width}"
    shot(page, "phone")


def test_the_analysis_runs_with_a_progress_bar_then_draws_its_graph(server, finished, watch,
                                                                     shot):  # fmt: skip
    import threading

    from workers.analysis.job import inline

    game_id, record = finished
    go = threading.Event()
    analyse = inline(
        server.bingfa.store, server.app.extensions["parts"].redis
    )  # the quick strength: this is about the page

    def queue(replay_id):  # as a worker would: later, elsewhere
        threading.Thread(target=lambda: go.wait(30) and analyse(replay_id), daemon=True).start()

    server.app.config["ANALYSE"] = queue
    try:
        page = watch().page
        page.goto(f"{server.url}/r/{game_id}")
        wait_shown(page, 0, "spectator")
        page.click("#analyse")
        bar = page.locator("#analysis-progress")
        until(lambda: bar.is_visible(), 15, "the progress bar")
        assert "Waiting for a worker" in page.inner_text("#analysis-status")
        shot(page, "analysis-waiting")
        go.set()
        graph = page.locator("svg.analysis-graph")
        until(lambda: graph.count() == 1, 60, "the winning-chance graph")
        assert graph.locator(":scope > title").text_content().startswith("Winning chance")
        decisions = sum(e.type == "command_given" for e in record.events)
        markers = graph.locator("circle.marker")  # the inaccuracies, mistakes and blunders
        assert 0 < markers.count() <= decisions
        assert page.locator("#analysis-list li").count() == markers.count()
        assert page.locator("#analysis-luck").is_visible()
        shot(page, "analysis-done")
        # A marker takes the replay to its decision, and the cursor follows the replay.
        label = markers.nth(0).locator("title").text_content()  # "Step 35, Blue: blunder, …"
        target = int(re.match(r"Step (\d+),", label).group(1))
        markers.nth(0).click()
        until(lambda: shown(page).startswith(f"{target}:"), 15, "the marked step")
        cursor_x = graph.locator("line.cursor").get_attribute("x1")
        page.locator("#step-slider").focus()
        page.keyboard.press("End")
        wait_shown(page, len(record.events), "spectator")
        until(lambda: graph.locator("line.cursor").get_attribute("x1") != cursor_x, 15,
              "the cursor to follow the slider")  # fmt: skip
    finally:
        go.set()
        server.app.config.pop("ANALYSE", None)
