"""Profiles (names, recovery codes) in memory and in Redis, and the players API: your
profile, recovering an identity in another browser, player pages, the leaderboard."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import fakeredis
import pytest

from events.store import InMemoryEventStore
from service import create_app
from service.profiles import (
    MalformedCode,
    MemoryProfiles,
    NameRefused,
    NameTaken,
    RedisProfiles,
    WrongCode,
    anonymous_label,
    clean_name,
    code_hash,
    new_code,
)


# -- the profile stores ----------------------------------------------------------------------
@pytest.fixture(params=["memory", "redis"])
def profiles(request):
    if request.param == "memory":
        return MemoryProfiles()
    return RedisProfiles(request.getfixturevalue("redis_client"))


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("Sun Tzu", "Sun Tzu"),
        ("  ann   lee ", "ann lee"),
        ("孙子", "孙子"),
        ("x_-9", "x_-9"),
        ("ＡＢ", "AB"),
        ("Player One", "Player One"),  # not the label's shape
        ("Плеер 1497", "Плеер 1497"),  # a Russian name that only sounds alike
    ],
)
def test_names_are_tidied(raw, stored):
    assert clean_name(raw) == stored


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("a", "2 to 24"),
        ("x" * 25, "2 to 24"),
        ("ann!", "only letters"),
        ("<b>", "only letters"),
        ("Player 3fa2", "label of a player"),
        ("\u0420layer 1497", "label of a player"),  # Cyrillic Р
        ("Plаyer 1497", "label of a player"),  # Cyrillic а
        ("ＰＬＡＹＥＲ ３ｆａ２", "label of a player"),  # fullwidth
        ("PIayer 3fa2", "label of a player"),  # I for l
        ("Player_3f02", "label of a player"),
        ("Player 3fo2", "label of a player"),  # o for 0
        ("Ρlayer 00ab", "label of a player"),  # Greek Ρ
        (7, "text"),
    ],
)
def test_bad_names_are_refused_with_a_sentence(raw, words):
    with pytest.raises(NameRefused, match=words):
        clean_name(raw)


def test_a_name_is_unique_whatever_the_case_and_can_be_changed(profiles):
    assert profiles.set_name("p1", "Sun Tzu") == "Sun Tzu"
    with pytest.raises(NameTaken, match="taken"):
        profiles.set_name("p2", "sun tzu")
    assert profiles.set_name("p1", "SUN TZU") == "SUN TZU"  # your own name, another case
    profiles.set_name("p1", "Wu Qi")
    assert profiles.set_name("p2", "Sun Tzu") == "Sun Tzu"  # freed by the rename
    assert profiles.names_of(["p1", "p2", "p3"]) == {"p1": "Wu Qi", "p2": "Sun Tzu", "p3": None}
    assert profiles.name_of("p3") is None


def test_a_recovery_code_leads_back_to_its_player_and_a_new_one_replaces_it(profiles):
    assert not profiles.has_recovery("p1")
    first = profiles.new_recovery("p1")
    assert profiles.has_recovery("p1") and profiles.recover(first) == "p1"
    assert profiles.recover(first.lower().replace("-", " ")) == "p1"  # as a person types it
    second = profiles.new_recovery("p1")
    assert profiles.recover(second) == "p1"
    with pytest.raises(WrongCode):
        profiles.recover(first)


def test_a_wrong_or_malformed_code_is_refused(profiles):
    profiles.new_recovery("p1")
    with pytest.raises(WrongCode, match="does not open any identity"):
        profiles.recover(new_code())
    with pytest.raises(MalformedCode, match="16 letters and digits"):
        profiles.recover("not-a-code")


def test_only_the_codes_hash_is_stored(redis_client):
    code = RedisProfiles(redis_client).new_recovery("p1")
    stored = b"".join(k + b"".join(redis_client.hgetall(k).keys()) + b"".join(
        redis_client.hgetall(k).values()) for k in redis_client.keys("pf:*"))  # fmt: skip
    assert code.encode() not in stored and code.replace("-", "").encode() not in stored
    assert code_hash(code).encode() in stored


def test_codes_are_random_and_shaped_like_the_example():
    codes = {new_code() for _ in range(50)}
    assert len(codes) == 50
    assert all(len(c) == 19 and c.count("-") == 3 for c in codes)


def test_a_player_without_a_name_has_a_short_anonymous_label():
    label = anonymous_label("some-player-id")
    assert label == "Player " + hashlib.sha256(b"some-player-id").hexdigest()[:4]


# -- the API ---------------------------------------------------------------------------------
class Clock:
    """The app's clock: each reading ``step`` later (finish times differ), or moved by hand."""

    def __init__(self, step: timedelta = timedelta(minutes=1)) -> None:
        self.at = datetime(2025, 3, 1, tzinfo=UTC)
        self.step = step

    def __call__(self) -> datetime:
        self.at += self.step
        return self.at


def make_app(**config):
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "CLOCK": Clock(),
                       "RATELIMIT_WRITES": "1000 per second", **config})  # fmt: skip


@pytest.fixture
def app():
    return make_app()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def rated_game(creator, blue_client, red_client, loser="red", clock=None):
    """A rated game between two browsers; ``loser`` resigns (None: they agree a draw)."""
    body = {"seats": {"blue": "human", "red": "human"}, "rated": True, "options": {},
            "clock": clock}  # fmt: skip
    created = creator.post("/api/games", json=body)
    assert created.status_code == 201, created.json
    game_id = created.json["game_id"]
    tokens = {s: link["token"] for s, link in created.json["seats"].items()}
    seats = {"blue": blue_client, "red": red_client}
    for seat, client in seats.items():
        assert client.post(f"/api/games/{game_id}/join", json={},
                           headers=auth(tokens[seat])).status_code == 200  # fmt: skip
    if loser is not None:
        done = seats[loser].post(
            f"/api/games/{game_id}/commands",
            json={"command": {"type": "resign"}},
            headers=auth(tokens[loser]),
        )
        assert done.status_code == 201, done.json
    return game_id, tokens


def problem(response, status, words):
    assert response.status_code == status, response.json
    assert response.mimetype == "application/problem+json"
    assert words in response.json["detail"], response.json


def test_me_names_the_browser_and_says_whether_a_recovery_code_exists(app):
    browser = app.test_client()
    first = browser.get("/api/me").json
    assert first["name"] is None and first["label"] == anonymous_label(first["player"])
    assert first["recovery"] is False
    named = browser.put("/api/me/name", json={"name": "Sun Tzu"})
    assert named.status_code == 200 and named.json["name"] == named.json["label"] == "Sun Tzu"
    assert browser.get("/api/me").json["player"] == first["player"]


def test_bad_and_taken_names_are_refused_and_change_nothing(app):
    ann, bo = app.test_client(), app.test_client()
    ann.put("/api/me/name", json={"name": "Ann"})
    problem(bo.put("/api/me/name", json={"name": "ANN"}), 409, "taken")
    problem(bo.put("/api/me/name", json={"name": "a"}), 422, "2 to 24")
    problem(bo.put("/api/me/name", json={}), 422, "name")
    assert bo.get("/api/me").json["name"] is None


def test_a_recovery_code_carries_the_identity_to_another_browser(app):
    old, new = app.test_client(), app.test_client()
    old.put("/api/me/name", json={"name": "Wu Qi"})
    made = old.post("/api/me/recovery")
    assert made.status_code == 201
    code, player = made.json["code"], made.json["player"]
    assert old.get("/api/me").json["recovery"] is True
    assert new.get("/api/me").json["player"] != player
    recovered = new.post("/api/me/recover", json={"code": code})
    assert recovered.status_code == 200
    assert recovered.json["player"] == player and recovered.json["name"] == "Wu Qi"
    assert new.get("/api/me").json["player"] == player
    assert old.get("/api/me").json["player"] == player  # the old browser keeps working


def test_a_wrong_code_is_refused_the_same_way_and_guessing_is_limited():
    app = make_app(RATELIMIT_RECOVERY="3 per hour")
    owner, guesser = app.test_client(), app.test_client()
    real = owner.post("/api/me/recovery").json["code"]
    before = guesser.get("/api/me").json["player"]
    problem(guesser.post("/api/me/recover", json={"code": "xyz"}), 422, "16 letters")
    for _ in range(3):  # a malformed code is not a guess; these are
        problem(guesser.post("/api/me/recover", json={"code": new_code()}), 403,
                "does not open any identity")  # fmt: skip
    limited = guesser.post("/api/me/recover", json={"code": real})
    problem(limited, 429, "at most 3 wrong codes per hour")
    assert int(limited.headers["Retry-After"]) >= 1
    assert guesser.get("/api/me").json["player"] == before


def test_a_rated_game_puts_both_players_on_the_leaderboard_and_their_pages(app):
    ann, bo = app.test_client(), app.test_client()
    ann.put("/api/me/name", json={"name": "Ann"})
    game_id, _ = rated_game(ann, ann, bo, loser="red")
    board = ann.get("/api/leaderboard?game=sun-tzu").json
    bo_label = anonymous_label(bo.get("/api/me").json["player"])
    assert [(p["label"], p["provisional"], p["rank"]) for p in board["players"]] == [
        ("Ann", True, None), (bo_label, True, None)]  # fmt: skip
    ann_row = board["players"][0]
    assert ann_row["rating"] > 1500 and ann_row["wins"] == 1 and not ann_row["often_times_out"]
    page = bo.get(f"/api/players/{ann_row['player']}").json
    assert page["name"] == "Ann" and page["ratings"][0]["game"] == "sun-tzu"
    assert page["ratings"][0]["provisional"] is True
    [entry] = page["history"]["entries"]
    assert entry["game"] == game_id and entry["result"] == "win" and entry["change"] > 0
    assert entry["opponent"]["name"] is None and entry["opponent"]["label"].startswith("Player ")
    assert page["games"] == {"finished": 1, "playing": 0}
    assert page["timeouts"] == {"times": 0, "games": 0, "often": False}


def test_unrated_games_do_not_count(app):
    ann, bo = app.test_client(), app.test_client()
    created = ann.post("/api/games", json={"seats": {"blue": "human", "red": "human"}})
    tokens = {s: link["token"] for s, link in created.json["seats"].items()}
    game_id = created.json["game_id"]
    ann.post(f"/api/games/{game_id}/join", json={}, headers=auth(tokens["blue"]))
    bo.post(f"/api/games/{game_id}/join", json={}, headers=auth(tokens["red"]))
    bo.post(f"/api/games/{game_id}/commands", json={"command": {"type": "resign"}},
            headers=auth(tokens["red"]))  # fmt: skip
    assert ann.get("/api/leaderboard").json["players"] == []


def test_history_is_newest_first_and_paged(app):
    ann, bo = app.test_client(), app.test_client()
    played = [rated_game(ann, ann, bo, loser=loser)[0] for loser in ("red", "blue", "red")]
    player = ann.get("/api/me").json["player"]
    first = ann.get(f"/api/players/{player}?limit=2").json["history"]
    assert [e["game"] for e in first["entries"]] == played[::-1][:2]
    assert first["total"] == 3 and first["next_offset"] == 2
    rest = ann.get(f"/api/players/{player}?limit=2&offset=2").json["history"]
    assert [e["game"] for e in rest["entries"]] == played[:1] and rest["next_offset"] is None
    assert [e["result"] for e in first["entries"]] == ["win", "loss"]


def test_a_player_whose_time_ran_out_in_three_games_is_marked():
    clock = Clock(step=timedelta(0))
    app = make_app(CLOCK=clock)
    ann, bo = app.test_client(), app.test_client()
    bingfa = app.extensions["bingfa"]
    for _ in range(3):
        game_id, tokens = rated_game(ann, ann, bo, loser=None, clock={"per_move_seconds": 60})
        chosen = ann.post(
            f"/api/games/{game_id}/commands",
            headers=auth(tokens["blue"]),
            json={"command": {"type": "choose_warlord", "warlord": "reinforce"}},
        )
        assert chosen.status_code == 201, chosen.json
        clock.at += timedelta(minutes=5)
        assert bingfa.expire(game_id) == ["red"]
    bo_id = bo.get("/api/me").json["player"]
    page = ann.get(f"/api/players/{bo_id}").json
    assert page["timeouts"] == {"times": 3, "games": 3, "often": True}
    board = ann.get("/api/leaderboard").json["players"]
    assert {p["player"]: p["often_times_out"] for p in board} == {
        bo_id: True, ann.get("/api/me").json["player"]: False}  # fmt: skip


def test_unknown_players_and_games_are_404_problems(app):
    client = app.test_client()
    problem(client.get("/api/players/nobody"), 404, "no player with that id")
    mine = client.get("/api/me").json["player"]
    assert client.get(f"/api/players/{mine}").json["ratings"] == []  # your page, before a game
    problem(client.get("/api/leaderboard?game=chess"), 404, "no game called 'chess'")
    problem(client.get("/api/leaderboard?limit=0"), 422, "limit")


def test_the_players_endpoints_are_in_the_openapi_document(app):
    paths = app.test_client().get("/api/openapi.json").json["paths"]
    for path in ("/api/me", "/api/me/name", "/api/me/recovery", "/api/me/recover",
                 "/api/players/{player}", "/api/leaderboard"):  # fmt: skip
        assert path in paths, path
    assert "Leaderboard" in app.test_client().get("/api/openapi.json").json["components"]["schemas"]


def test_the_pages_are_served(app):
    client = app.test_client()
    for path, words in (("/leaderboard", b"Leaderboard"), ("/me", b"Recovery code"),
                        ("/p/someone", b"Rated games")):  # fmt: skip
        page = client.get(path)
        assert page.status_code == 200 and words in page.data


def test_on_redis_the_api_reads_the_followers_model_and_the_redis_profiles(redis_client):
    from events.followers import followers_for
    from events.readmodels import ReadModels
    from events.redis_store import RedisEventStore

    store = RedisEventStore(redis_client, partitions=4)
    app = create_app({"STORE": store, "REDIS": redis_client,
                      "TESTING": True, "CLOCK": Clock(),
                      "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip
    ann, bo = app.test_client(), app.test_client()
    ann.put("/api/me/name", json={"name": "Ann"})
    rated_game(ann, ann, bo, loser="blue")
    assert ann.get("/api/leaderboard").json["players"] == []  # not projected yet
    ReadModels(redis_client, 4, followers_for(redis_client, 4)).rebuild(store)
    board = ann.get("/api/leaderboard").json["players"]
    assert [(p["label"], p["wins"]) for p in board][1] == ("Ann", 0)
    assert board[0]["wins"] == 1 and redis_client.hget("pf:{profiles}:name",
                                                        board[1]["player"]) == b"Ann"  # fmt: skip
