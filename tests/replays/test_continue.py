"""Continue from here: a new game against the AI from any step of a finished game.

Given a finished game (its replay), when a seat continues from a step, then the new game
starts (once the human takes the seat) from exactly what that seat saw at that step, the
cards it could not know re-dealt from the new game's own chance, and plays to its end; a
step, seat or level that cannot be continued is refused with a sentence, writing nothing.
"""

from __future__ import annotations

import itertools
import random

import fakeredis
import pytest
from replay_helpers import RULES, counter_tokens, play_game, problem_of

from events.fairness import generator_of, rng_for
from events.store import InMemoryEventStore
from replays.archive import archive
from replays.record import record_of
from replays.replay import replay_of
from replays.verify import verify
from service.app import create_app


@pytest.fixture(scope="module")
def app():
    flask_app = create_app(
        {"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(), "TESTING": True}
    )
    bingfa = flask_app.extensions["bingfa"]
    bingfa.token = counter_tokens()  # the same deal every run (seed 12: a long game, with
    # armies' sources asked mid-battle)
    flask_app.config["replay_id"] = play_game(bingfa, {"events": True}, seed=12)
    return flask_app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def replay(app):
    return replay_of(record_of(app.extensions["bingfa"].store, app.config["replay_id"]))


def steps_where(replay, test) -> list[int]:
    """The steps whose state passes ``test(state, pending)``."""
    out = []
    for n in range(replay.length + 1):
        state = replay.state_at(n)
        if test(state, RULES.pending(state)):
            out.append(n)
    return out


def mid_game(replay, seat: str, kind: str) -> int:
    """A step in round 2 or later where ``seat`` owes a decision of ``kind``."""
    found = steps_where(replay, lambda st, p: st.round >= 2 and p.get(seat) == kind)
    assert found, f"the game has no step where {seat} owes {kind} after round 1"
    return found[len(found) // 2]


def continue_as(client, replay_id: str, step: int, seat: str) -> dict:
    body = {"step": step, "seat": seat, "level": "random"}
    answer = client.post(f"/api/replays/{replay_id}/continue", json=body)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return answer.get_json()


def take_seat(client, created, seat):
    token = created["seats"][seat]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    joined = client.post(f"/api/games/{created['game_id']}/join", json={"nonce": "mine"},
                         headers=auth)  # fmt: skip
    assert joined.status_code == 200, joined.get_data(as_text=True)
    return auth


def play_out(bingfa, game_id: str, seed: int = 3) -> None:
    """Random legal commands for whoever owes one (the AI seat too: no worker here)."""
    rng = random.Random(seed)
    for _ in itertools.count():
        game = bingfa.load(game_id)
        if not game.pending:
            assert game.outcome is not None
            return
        seat = sorted(game.pending)[rng.randrange(len(game.pending))]
        bingfa.submit(game_id, seat, RULES.random_command(game.state, seat, rng))


@pytest.mark.parametrize(("seat", "kind"), [("blue", "place"), ("red", "keep")])
def test_a_seat_continues_from_what_it_saw_and_plays_to_the_end(app, client, replay, seat,
                                                                kind):  # fmt: skip
    replay_id = app.config["replay_id"]
    step = mid_game(replay, seat, kind)
    answer = client.post(f"/api/replays/{replay_id}/continue",
                         json={"step": step, "seat": seat, "level": "random"})  # fmt: skip
    assert answer.status_code == 201, answer.get_data(as_text=True)
    created = answer.get_json()
    game_id = created["game_id"]
    other = "red" if seat == "blue" else "blue"
    assert created["seats"][seat]["kind"] == "human" and created["seats"][seat]["token"]
    assert (
        created["seats"][seat]["invite"]
        == f"/g/{game_id}/{seat}#token=" + (created["seats"][seat]["token"])
    )
    assert created["seats"][other] == {"kind": "ai:random"}

    auth = take_seat(client, created, seat)
    game = client.get(f"/api/games/{game_id}", headers=auth).get_json()
    then = client.get(f"/api/replays/{replay_id}/states/{step}?as={seat}").get_json()["view"]
    now = game["view"]
    for name in ("round", "score", "phase", "pending", "decision", "event_card", "variant"):
        assert now[name] == then[name], name
    assert [p["armies"] for p in now["provinces"]] == [p["armies"] for p in then["provinces"]]
    assert [p["cards"] for p in now["provinces"]] == [p["cards"] for p in then["provinces"]]
    assert now["players"][seat]["hand"] == then["players"][seat]["hand"]
    assert now == then  # everything the seat could see, nothing more, nothing less
    assert {k: game["seats"][seat][k] for k in ("kind", "joined")} == {"kind": "human",
                                                                        "joined": True}  # fmt: skip

    bingfa = app.extensions["bingfa"]
    events = bingfa.store.read(game_id)
    assert [e.type for e in events] == ["game_created", "seat_joined", "seat_joined",
                                        "position_set"]  # fmt: skip
    assert events[0].payload["from"] == {"replay": replay_id, "step": step, "seat": seat}
    assert events[-1].visible_to == "server"
    seen = client.get(f"/api/games/{game_id}/events", headers=auth).get_json()["events"]
    assert seen[-1]["type"] == "position_set" and seen[-1]["payload"] == {}  # hidden cards

    play_out(bingfa, game_id)
    record = record_of(bingfa.store, game_id)
    report = verify(record)
    assert report.ok, report.sentence
    assert "position" in report.checks and "commands" in report.checks
    assert any("position it declares" in note for note in report.notes)
    # its own replay starts from the declared position
    again = replay_of(record)
    assert again.view_at(len(events), seat) == then
    # the re-deal is the new game's chance: re-derived from the revealed seed and nonces
    revealed = record.events[-1].payload
    rng = rng_for(revealed["seed"], revealed["nonces"], len(events),
                  generator_of(record.events[0].payload))  # fmt: skip
    dealt = RULES.knowledge.determinize(then, seat, rng)
    assert RULES.dump_state(dealt) == events[-1].payload["state"]


def test_a_continued_game_is_a_replay_like_any_other(app, client, replay):
    replay_id = app.config["replay_id"]
    step = mid_game(replay, "blue", "place")
    created = continue_as(client, replay_id, step, "blue")
    take_seat(client, created, "blue")
    bingfa = app.extensions["bingfa"]
    play_out(bingfa, created["game_id"], seed=5)
    body = client.get(f"/api/replays/{created['game_id']}/verify").get_json()
    assert body["ok"], body["sentence"]
    state = client.get(f"/api/replays/{created['game_id']}/states/4?as=full").get_json()
    assert state["event"]["type"] == "position_set" and "notation" in state["view"]


def first_step(replay, test) -> int:
    found = steps_where(replay, test)
    assert found
    return found[0]


@pytest.mark.parametrize(
    ("case", "status", "words"),
    [
        ("negative step", 422, "is not in this replay"),
        ("step past the end", 422, "is not in this replay"),
        ("game over", 422, "the game is over at step"),
        ("nobody decides", 422, "nobody has a decision to make"),
        ("mid-battle", 422, "cannot be rebuilt from what blue saw there"),
        ("unknown seat", 422, "no seat 'green'"),
        ("unknown level", 422, "no AI level 'godlike'"),
        ("not a number", 422, "step"),
        ("unknown replay", 404, "no replay"),
    ],
)
def test_refusals_say_why_and_write_nothing(app, client, replay, case, status, words):
    replay_id = app.config["replay_id"]
    over = first_step(replay, lambda st, p: RULES.outcome(st) is not None)
    body = {"step": mid_game(replay, "blue", "place"), "seat": "blue", "level": "random"}
    target = replay_id
    if case == "negative step":
        body["step"] = -1
    elif case == "step past the end":
        body["step"] = replay.length + 1
    elif case == "game over":
        body["step"] = over
    elif case == "nobody decides":
        body["step"] = first_step(replay, lambda st, p: st.round >= 1 and not p
                                  and RULES.outcome(st) is None)  # fmt: skip
    elif case == "mid-battle":
        body["step"] = first_step(replay, lambda st, p: "sources" in p.values())
    elif case == "unknown seat":
        body["seat"] = "green"
    elif case == "unknown level":
        body["level"] = "godlike"
    elif case == "not a number":
        body["step"] = "12"
    elif case == "unknown replay":
        target = "no-such-replay"
    store = app.extensions["bingfa"].store
    before = sorted(store.game_ids())
    answer = client.post(f"/api/replays/{target}/continue", json=body)
    problem = problem_of(answer, status)
    text = str(problem.get("detail")) + str(problem.get("errors", ""))
    assert words in text, problem
    assert sorted(store.game_ids()) == before
    if case == "mid-battle":  # the refusal names the next step that can be continued from
        later = int(text.split("; step ")[1].split()[0])
        assert later > body["step"] and continue_as(client, replay_id, later, "blue")


def test_a_continued_game_is_archived_like_any_other(app, client, replay):
    """The archive and the replay list take a continued game once it ends."""
    replay_id = app.config["replay_id"]
    step = mid_game(replay, "red", "place")
    created = continue_as(client, replay_id, step, "red")
    take_seat(client, created, "red")
    bingfa = app.extensions["bingfa"]
    play_out(bingfa, created["game_id"], seed=9)
    from service.api.replays import replay_store

    with app.app_context():
        done = archive(bingfa.store, replay_store(), created["game_id"])
    assert done is not None
    listed = client.get("/api/replays?limit=100").get_json()["replays"]
    assert created["game_id"] in [r["id"] for r in listed]
