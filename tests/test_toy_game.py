"""A game is one package: Duel (``tests/toy_game/``, nothing outside that folder knows it)
is registered here and goes through everything the platform offers a game: the
conformance checks, the HTTP API, replays from every perspective and the audit.

every AI level and the analysis (``tests/browser/test_toy_game_page.py`` plays it on the
generic game page in chromium)."""

from __future__ import annotations

import random

import fakeredis
import pytest
import toy_game

import games
from events.store import InMemoryEventStore
from replays.record import record_of
from replays.verify import verify
from service import create_app

KEY = toy_game.RULES.key


@pytest.fixture
def registered(monkeypatch):
    """Duel in the games registry for the length of a test (and nowhere else)."""
    monkeypatch.setitem(games.REGISTRY, KEY, toy_game.RULES)
    yield toy_game.RULES


def test_duel_conforms_to_the_protocol(registered):
    from test_conformance import test_game_conforms_to_the_protocol

    test_game_conforms_to_the_protocol(KEY)


def test_duel_passes_every_check_of_a_game_package(registered):
    import test_conformance_ai
    import test_game_parts

    test_game_parts.test_the_catalogue_is_plain_data_the_service_can_use(KEY)
    test_game_parts.test_the_text_says_everything_a_game_gives(KEY)
    test_game_parts.test_the_front_end_is_a_folder_behind_the_interface(KEY)
    test_conformance_ai.test_game_supplies_its_knowledge_and_ai_parts(KEY)


def test_duel_supplies_every_part_of_a_game_package(registered):
    rules = registered
    assert rules.catalogue.title == "Duel" and [s.id for s in rules.catalogue.seats] == [
        "north", "south"]  # fmt: skip
    state = rules.fold(rules.setup({}, random.Random(1)))
    view = rules.view(state, "north")
    again = rules.knowledge.determinize(view, "north", random.Random(2))
    assert rules.view(again, "north") == view  # the inverse of view, from north's side
    assert set(rules.knowledge.full_view(state)) >= {"hands", "deck"}
    assert rules.ai.heuristic(view, "north", random.Random(0))["type"] == "play"
    key, values = rules.text.event({"type": "dealt", "visible_to": "all", "hand": 3}, None)
    assert rules.text.messages[key].format(**values) == "Each player is dealt 3 cards."
    assert (rules.web / "index.js").is_file()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_duel_is_played_through_the_api_and_replayed_and_audited(registered):
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True,
                      "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip
    client = app.test_client()
    body = {"game": KEY, "options": {"hand": 4}, "seats": {"north": "human", "south": "human"}}
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.json
    game_id = made.json["game_id"]
    tokens = {seat: link["token"] for seat, link in made.json["seats"].items()}
    for token in tokens.values():
        assert (
            client.post(f"/api/games/{game_id}/join", json={}, headers=auth(token)).status_code
            == 200
        )
    north = client.get(f"/api/games/{game_id}", headers=auth(tokens["north"])).json
    assert north["game"] == KEY and len(north["view"]["hands"]["north"]) == 4
    assert north["view"]["hands"]["south"] is None  # hidden
    refused = client.post(f"/api/games/{game_id}/commands", headers=auth(tokens["north"]),
                          json={"command": {"type": "play", "card": 99, "zz": 1}})  # fmt: skip
    assert refused.status_code == 422 and "zz" in refused.json["detail"]
    rng = random.Random(3)
    while True:
        game = app.extensions["bingfa"].load(game_id)
        if not game.pending:
            break
        seat = sorted(game.pending)[0]
        command = toy_game.RULES.random_command(game.state, seat, rng)
        sent = client.post(f"/api/games/{game_id}/commands", json={"command": command},
                           headers=auth(tokens[seat]))  # fmt: skip
        assert sent.status_code == 201, sent.json
    assert game.outcome is not None
    # the replay, from every perspective, and the audit
    steps = client.get(f"/api/replays/{game_id}").json["header"]["events"]
    middle = steps // 2
    for perspective in ("north", "south", "spectator", "full"):
        shown = client.get(f"/api/replays/{game_id}/states/{middle}?as={perspective}")
        assert shown.status_code == 200, (perspective, shown.json)
    report = client.get(f"/api/replays/{game_id}/verify").json
    assert report["ok"], report
    assert verify(record_of(app.extensions["bingfa"].store, game_id)).ok


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
def test_every_ai_level_plays_duel_from_its_own_view(registered, level):
    from workers.ai import Budget, choose_command

    rules = registered
    rng = random.Random(5)
    state = rules.fold(rules.setup({"hand": 4}, rng))
    budget = Budget(iterations=60) if level in ("medium", "hard") else None
    while rules.pending(state):
        for seat in list(rules.pending(state)):
            command = choose_command(rules, state, seat, level, rng, budget)
            assert command in rules.legal(state, seat), (level, command)
            state = rules.fold(rules.decide(state, seat, command, rng), state)
    assert rules.outcome(state) is not None


def test_duel_is_analysed_decision_by_decision(registered):
    from replays.record import record_of
    from workers.analysis.engine import QUICK, analyse

    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True})  # fmt: skip
    bingfa = app.extensions["bingfa"]
    game_id = bingfa.create_game(KEY, {}, {"north": "human", "south": "human"})
    bingfa.join(game_id, "north")
    bingfa.join(game_id, "south")
    rng = random.Random(8)
    while pending := bingfa.load(game_id).pending:
        seat = sorted(pending)[0]
        state = bingfa.load(game_id).state
        bingfa.submit(game_id, seat, toy_game.RULES.random_command(state, seat, rng))
    result = analyse(record_of(bingfa.store, game_id), QUICK, 0)
    decisions = result["decisions"]
    assert len(decisions) == 6 and all(d["seat"] in ("north", "south") for d in decisions)
    assert all(d["played_text"].startswith("play the ") for d in decisions)
    assert any(d["assessed"] for d in decisions)
