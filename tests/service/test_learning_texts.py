"""Learning the game and reading it right: the sentences the server says of what happened
to the armies, per reader (known answers), endings per reader, the rules page of a game's
package, the names replays show, the analysis' words and the API documentation page."""

from __future__ import annotations

import sys
from pathlib import Path

import fakeredis
import pytest

import games
from events.store import InMemoryEventStore
from games.messages import render
from service import create_app, narration

RULES = games.get("sun-tzu")
TEXT = RULES.text


def said(event: dict, seat: str | None) -> str | None:
    told = TEXT.event(event, seat)
    return None if told is None else render(TEXT.messages, told)


def battle(**fields) -> dict:
    base = {"type": "battle", "province": "Qin", "cards": {"blue": "7", "red": "4"},
            "values": {}, "plague": False, "deadly": False, "winner": "blue", "margin": 3,
            "fired": {}, "plagues": 0, "moves": [], "tasks": [], "result": "win",
            "resolution": []}  # fmt: skip
    return {**base, **fields}


# -- what happened to the armies, per reader -------------------------------------------------
def test_a_won_battle_says_who_lost_and_who_placed_armies_per_reader():
    resolution = [["red", "Wu", "reserve", 3], ["blue", "reserve", "Wu", 1]]
    event = battle(province="Wu", cards={"blue": "9", "red": "5"}, margin=4, resolution=resolution)
    assert said(event, "blue") == (
        "Wu: blue 9 vs red 5 — blue wins by 4. Red lost 3 armies in Wu. "
        "You placed 1 army in Wu from the reserve."
    )
    assert said(event, "red") == (
        "Wu: blue 9 vs red 5 — blue wins by 4. You lost 3 armies in Wu. "
        "Blue placed 1 army in Wu from the reserve."
    )
    assert said(event, None) == (
        "Wu: blue 9 vs red 5 — blue wins by 4. Red lost 3 armies in Wu. "
        "Blue placed 1 army in Wu from the reserve."
    )


def test_armies_brought_from_the_board_say_from_where_to_where():
    event = {"type": "armies_moved", "seat": "blue", "why": "margin",
             "moves": [["blue", "reserve", "Chu", 1], ["blue", "Qin", "Chu", 3]]}  # fmt: skip
    assert said(event, "blue") == (
        "You placed 1 army in Chu from the reserve. You moved 3 armies from Qin to Chu."
    )
    assert said(event, "red") == (
        "Blue placed 1 army in Chu from the reserve. Blue moved 3 armies from Qin to Chu."
    )


def test_a_plague_says_whose_armies_it_took():
    event = battle(province="Han-Qi", cards={"blue": "plague", "red": "6"}, plague=True,
                   winner=None, margin=0, result="plague",
                   moves=[["red", "reserve", "marker@Han-Qi", 1]],
                   resolution=[["red", "Han-Qi", "reserve", 2]])  # fmt: skip
    assert said(event, "blue") == (
        "Han-Qi: blue Plague vs red 6 — Plague: no battle. The 6-marker in Han-Qi cost Red "
        "1 army (out of play). Plague took 2 of Red's armies in Han-Qi."
    )
    assert said(event, "red") == (
        "Han-Qi: blue Plague vs red 6 — Plague: no battle. The 6-marker in Han-Qi cost you "
        "1 army (out of play). Plague took 2 of your armies in Han-Qi."
    )
    deadly = {**event, "deadly": True}
    assert "Deadly plague took 2 of your armies in Han-Qi." in said(deadly, "red")


def test_costs_of_a_card_and_of_a_6_marker_from_the_board():
    event = battle(province="Chu", cards={"blue": "+3", "red": "6"},
                   moves=[["blue", "reserve", "aside", 1], ["blue", "Qin", "aside", 1],
                          ["red", "reserve", "marker@Chu", 1]],
                   resolution=[["blue", "reserve", "Chu", 3]])  # fmt: skip
    assert said(event, "blue") == (
        "Chu: blue +3 vs red 6 — blue wins by 3. The +3 cost you 1 army, set aside from the "
        "reserve. The +3 cost you 1 army, set aside from Qin. The 6-marker in Chu cost Red 1 "
        "army (out of play). You placed 3 armies in Chu from the reserve."
    )
    later = {"type": "armies_moved", "seat": "red", "why": "six",
             "moves": [["red", "Wu", "marker@Han-Qi", 1]]}  # fmt: skip
    assert said(later, "blue") == "The 6-marker in Han-Qi cost Red 1 army from Wu (out of play)."


def test_a_battle_resolved_later_tells_the_losers_armies():
    event = {"type": "battle_resolved", "province": "Qin", "result": "win", "winner": "blue",
             "margin": 2, "moves": [["red", "Qin", "reserve", 2]], "tasks": []}  # fmt: skip
    assert said(event, "red") == "You lost 2 armies in Qin."
    assert said({**event, "moves": []}, "red") is None


def test_an_event_and_a_warlord_say_what_they_took():
    epidemic = {"type": "event_triggered", "card": "epidemic", "next": "hero_challenge",
                "tasks": [], "extra": [],
                "moves": [["blue", "reserve", "aside", 1], ["red", "Wu", "aside", 1]]}  # fmt: skip
    assert said(epidemic, "red") == (
        "Event: Epidemic is triggered. Epidemic cost Blue 1 army, set aside from the reserve. "
        "Epidemic cost you 1 army, set aside from Wu. Next event card: Hero challenge."
    )
    remove = {"type": "warlord_played", "seat": "red", "warlord": "remove", "province": "Qin",
              "moves": [["blue", "Qin", "reserve", 1]]}  # fmt: skip
    assert said(remove, "blue") == "Red played Remove. You lost 1 army in Qin."
    manoeuvre = {"type": "warlord_played", "seat": "blue", "warlord": "manoeuvre",
                 "from": "Qin", "to": "Chu", "moves": [["blue", "Qin", "Chu", 1]]}  # fmt: skip
    assert said(manoeuvre, "blue") == "You played Manoeuvre. You moved 1 army from Qin to Chu."


def test_no_hidden_card_leaks_into_the_sentences_of_the_other_seat():
    drawn = {"type": "cards_drawn", "visible_to": "red", "seat": "red",
             "cards": ["plague", "10", "+3"], "keep": 2}  # fmt: skip
    stub = RULES.redact(drawn, "blue")
    told = said(stub, "blue") if stub is not None else ""
    assert all(card not in (told or "") for card in ("Plague", "10", "+3"))
    assert said(drawn, "red") == "You drew Plague, 10, +3."


@pytest.mark.parametrize(("count", "sentence"), [
    (1, "Red drew 1 card."), (3, "Red drew 3 cards."), (None, "Red drew some cards."),
])  # fmt: skip
def test_hidden_draws_say_one_card_or_cards(count, sentence):
    stub = {"type": "cards_drawn", "seat": "red"} | ({"count": count} if count else {})
    assert said(stub, "blue") == sentence


# -- endings per reader ----------------------------------------------------------------------
@pytest.mark.parametrize(("reason", "loser_reads", "winner_reads", "anyone_reads"), [
    ("forfeit", "You resigned.", "Blue resigned.", "Blue resigned."),
    ("time", "You ran out of time.", "Blue ran out of time.", "Blue ran out of time."),
])  # fmt: skip
def test_an_ending_off_the_board_reads_right_for_each_reader(
    reason, loser_reads, winner_reads, anyone_reads
):
    outcome = {"winner": "red", "reason": reason, "round": 2}
    for seat, reads in (("blue", loser_reads), ("red", winner_reads), (None, anyone_reads)):
        text = narration.outcome_text(RULES, outcome, seat)
        assert text["reason"] == reads.replace(".", " (round 2)."), (seat, text)
        assert "other player" not in text["text"]
    decided = {"type": "game_decided", "payload": {"winner": "red", "reason": reason}}
    assert narration.event_text(RULES, decided, "blue").endswith(loser_reads)
    assert narration.event_text(RULES, decided, "red").endswith(winner_reads)


# -- the analysis' words ---------------------------------------------------------------------
def test_a_placement_is_said_in_board_order_whatever_order_it_was_stored_in():
    board = {"Qin": "3", "Chu": "-1", "Jin-Yan": "+1", "Han-Qi": "6", "Wu": "5"}
    stored = {"type": "place", "cards": dict(sorted(board.items()))}
    assert list(stored["cards"]) == ["Chu", "Han-Qi", "Jin-Yan", "Qin", "Wu"]  # as stored
    assert render(TEXT.messages, TEXT.command(stored, "blue")) == (
        "Place 3 in Qin, -1 in Chu, +1 in Jin-Yan, 6 in Han-Qi, 5 in Wu."
    )
    placed = {"type": "placed", "seat": "blue", "cards": stored["cards"], "plan": {}}
    told = "You placed face down: Qin 3, Chu -1, Jin-Yan +1, Han-Qi 6, Wu 5."
    assert said(placed, "blue") == told


def test_warlords_are_said_by_their_names_never_their_ids():
    for warlord in ("reinforce", "double_six", "counter_plague"):
        command = {"type": "choose_warlord", "warlord": warlord}
        text = render(TEXT.messages, TEXT.command(command, "blue"))
        assert warlord not in text and text == f"Choose {TEXT.messages['warlord.' + warlord]}."


# -- pages and the API -----------------------------------------------------------------------
@pytest.fixture
def app():
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip


@pytest.fixture
def toy(monkeypatch):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the toy game
    import toy_game

    monkeypatch.setitem(games.REGISTRY, toy_game.RULES.key, toy_game.RULES)
    return toy_game.RULES


def test_the_rules_page_comes_from_the_game_package_with_its_figures(app):
    page = app.test_client().get("/games/sun-tzu/rules")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.index("How a round goes") < html.index("The board")
    for figure in ("fig-map", "fig-battle", "fig-six", "fig-plague", "fig-track"):
        assert f'id="{figure}"' in html
    assert html.count("<svg") >= 5 and "<script" not in html.split("<main")[1].split("</main>")[0]
    home = app.test_client().get("/").get_data(as_text=True)
    assert 'href="/games/sun-tzu/rules"' in home


def test_a_game_without_a_guide_has_no_rules_page_and_says_so(app, toy):
    client = app.test_client()
    missing = client.get(f"/games/{toy.key}/rules")
    assert missing.status_code == 404
    assert "Duel has no rules page here yet." in missing.get_data(as_text=True)
    assert client.get("/games/no-such-game/rules").status_code == 404
    assert f'href="/games/{toy.key}/rules"' not in client.get("/").get_data(as_text=True)


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def finished_game(app, name: str | None = "Zhuge Liang") -> tuple[str, object, object]:
    """A game between two browsers (blue named ``name``), ended by blue resigning."""
    blue, red = app.test_client(), app.test_client()
    if name:
        assert blue.put("/api/me/name", json={"name": name}).status_code == 200
    created = blue.post("/api/games", json={"seats": {"blue": "human", "red": "human"},
                                            "options": {}}).json  # fmt: skip
    game_id = created["game_id"]
    tokens = {s: link["token"] for s, link in created["seats"].items()}
    for client, seat in ((blue, "blue"), (red, "red")):
        joined = client.post(f"/api/games/{game_id}/join", json={}, headers=auth(tokens[seat]))
        assert joined.status_code == 200, joined.json
    resigned = blue.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                         headers=auth(tokens["blue"]))  # fmt: skip
    assert resigned.status_code == 201, resigned.json
    return game_id, blue, red


def test_replays_show_the_chosen_name_never_the_player_id(app):
    game_id, blue, _ = finished_game(app)
    whole = blue.get(f"/api/replays/{game_id}").json["header"]  # archived on first read
    listed = blue.get("/api/replays").json["replays"]
    (header,) = [h for h in listed if h["id"] == game_id]
    assert header["names"]["blue"] == "Zhuge Liang"
    assert header["names"]["red"].startswith("Player ")  # red chose no name: its label
    assert header["players"]["red"][:8] not in header["names"]["red"]
    assert whole["names"] == header["names"]
    assert whole["outcome_text"]["reason"] == "Blue resigned."
    page = blue.get(f"/g/{game_id}")
    assert page.status_code == 200
    seats = blue.get(f"/api/games/{game_id}").json["seats"]
    assert seats["blue"]["name"] == whole["names"]["blue"]  # the game page says the same


def test_a_replay_tells_the_end_as_the_chosen_perspective_read_it(app):
    game_id, client, _ = finished_game(app, name=None)
    steps = client.get(f"/api/replays/{game_id}").json["events"][-1]["seq"]
    reads = {as_: client.get(f"/api/replays/{game_id}/states/{steps}?as={as_}").json
             ["outcome_text"]["reason"] for as_ in ("blue", "red", "spectator")}  # fmt: skip
    assert reads == {"blue": "You resigned.", "red": "Blue resigned.",
                     "spectator": "Blue resigned."}  # fmt: skip


def test_the_profile_page_asks_for_a_webhook_only_when_there_is_one(app):
    client = app.test_client()
    assert 'data-webhook="no"' in client.get("/me").get_data(as_text=True)
    client.get("/api/me")  # this browser gets its player id
    hook = client.put("/api/me/webhook", json={"url": "https://example.com/hook"})
    assert hook.status_code == 200, hook.json
    assert 'data-webhook="yes"' in client.get("/me").get_data(as_text=True)


def test_the_api_docs_show_groups_request_bodies_and_code_never_backticks(app):
    html = app.test_client().get("/api/docs").get_data(as_text=True)
    assert "``" not in html
    assert "<code>Idempotency-Key</code>" in html
    start = html.index('id="post-api-games-game-id-commands"')
    op = html[start : html.index("</section>", start)]
    assert 'class="request-body"' in op and 'data-field="command"' in op
    assert 'data-field="expected_version"' in op and 'data-status="409"' in op
    assert "<code>game_id</code>" in op  # its path parameter
    for tag in ("games", "replays", "players"):
        assert f'id="tag-{tag}"' in html
    assert html.count('class="request-body"') >= 10
    assert 'href="/api/docs"' in app.test_client().get("/").get_data(as_text=True)
