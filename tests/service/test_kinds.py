"""What the service takes from the game packages: the catalogues and words it serves
(``/api/kinds``), the defaults and checks of a new game, the front end's files and seat
colours, and the sentences it tells the pages (events, turns, endings, hints)."""

from __future__ import annotations

import fakeredis
import pytest

import games
from events.store import InMemoryEventStore
from service import create_app, narration

KEY = next(iter(games.REGISTRY))
RULES = games.get(KEY)
SEATS = tuple(RULES.seats)


@pytest.fixture
def client():
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True,
                      "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip
    return app.test_client()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_every_kind_with_its_catalogue_and_its_words(client):
    body = client.get("/api/kinds").json
    assert body["default"] == KEY and [k["key"] for k in body["kinds"]] == list(games.REGISTRY)
    kind = client.get(f"/api/kinds/{KEY}").json
    assert kind == body["kinds"][0] and kind["title"] == RULES.catalogue.title
    assert [s["id"] for s in kind["seats"]] == list(SEATS)
    assert all(s["label"] and s["colour"].startswith("#") for s in kind["seats"])
    assert [o["name"] for o in kind["options"]] == [o.name for o in RULES.catalogue.options]
    text = client.get(f"/api/kinds/{KEY}/text").json
    # the game's words and the platform's own (``table.``), by message id
    labels = {f"{narration.SEAT_LABEL}{s.id}": s.label for s in RULES.catalogue.seats}
    assert text == {"key": KEY, "messages": {**RULES.text.messages, **narration.TABLE, **labels}}
    for path in ("/api/kinds/chess", "/api/kinds/chess/text"):
        missing = client.get(path)
        assert missing.status_code == 404 and "no game called 'chess'" in missing.json["detail"]


def test_a_new_game_by_default_is_the_first_kind_with_a_person_in_every_seat(client):
    created = client.post("/api/games", json={})
    assert created.status_code == 201, created.json
    assert set(created.json["seats"]) == set(SEATS)
    assert all(link["kind"] == "human" and link["token"] for link in created.json["seats"].values())
    game = client.get(f"/api/games/{created.json['game_id']}").json
    assert game["game"] == KEY
    labels = " and ".join(s.label for s in RULES.catalogue.seats)
    assert game["prompt"] == f"Waiting for {labels} to take their seat."


@pytest.mark.parametrize("option", RULES.catalogue.options, ids=lambda o: o.name)
def test_options_are_checked_against_the_catalogue(client, option):
    bad = "nonsense" if option.kind == "bool" else "no-such-choice"
    refused = client.post("/api/games", json={"options": {option.name: bad}})
    assert refused.status_code == 422 and option.name in refused.json["detail"]
    unknown = client.post("/api/games", json={"options": {"no_such_option": True}})
    assert unknown.status_code == 422 and "no option 'no_such_option'" in unknown.json["detail"]


def test_the_front_end_and_the_seat_colours_are_served_from_the_package(client):
    index = client.get(f"/games/{KEY}/web/index.js")
    assert index.status_code == 200 and "javascript" in index.mimetype
    assert index.data == (RULES.web / "index.js").read_bytes()
    index.close()  # the file it was sent from
    assert client.get(f"/games/{KEY}/web/no-such.js").status_code == 404
    assert client.get(f"/games/{KEY}/web/../__init__.py").status_code == 404
    assert client.get("/games/chess/web/index.js").status_code == 404
    css = client.get("/games/seats.css")
    assert css.status_code == 200 and css.mimetype == "text/css"
    for seat in RULES.catalogue.seats:
        assert f'[data-seat="{seat.id}"]' in css.text and seat.colour in css.text
    home = client.get("/").text
    for seat in RULES.catalogue.seats:
        assert f'<option value="{seat.id}">{seat.label}' in home
    for option in RULES.catalogue.options:
        assert f'data-option="{option.name}"' in home


def test_the_pages_are_told_every_event_turn_and_ending_in_words(client):
    created = client.post("/api/games", json={}).json
    game_id = created["game_id"]
    tokens = {s: link["token"] for s, link in created["seats"].items()}
    for token in tokens.values():
        client.post(f"/api/games/{game_id}/join", json={}, headers=auth(token))
    first = SEATS[0]
    mine = client.get(f"/api/games/{game_id}/events", headers=auth(tokens[first])).json
    theirs = client.get(f"/api/games/{game_id}/events").json
    assert [e["seq"] for e in mine["events"]] == [e["seq"] for e in theirs["events"]]
    joined = [e["text"] for e in mine["events"] if e["type"] == "seat_joined"]
    assert joined[0] == f"You took the {RULES.catalogue.seats[0].label} seat."
    assert all(e["text"] is None or e["text"].strip() for e in mine["events"])
    view = client.get(f"/api/games/{game_id}", headers=auth(tokens[first])).json
    assert view["prompt"].startswith("Your turn: ") and view["outcome_text"] is None
    answer = client.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
                         headers=auth(tokens[first]))  # fmt: skip
    assert answer.status_code == 201, answer.json
    said = answer.json["outcome_text"]
    assert said["head"] and said["reason"] and said["text"].startswith(said["head"])
    assert any(e["text"] for e in answer.json["events"])
    over = client.get(f"/api/games/{game_id}").json
    assert over["prompt"] == "The game is over." and over["outcome_text"]["head"]
    [entry] = client.get("/api/me/games").json["games"]  # this client took both seats
    assert entry["outcome_text"][first]["text"] == said["text"]
    assert set(entry["outcome_text"]) == set(SEATS)
