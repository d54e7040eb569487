"""Commander through the REST API as a hostile client plays it: each bad arrangement, move,
resign or retry gets its status and a sentence a person reads, and changes nothing (the
version, every event and each seat's view as before, and the game still plays); before
the reveal, no answer to the other seat or a spectator (views, events, the live stream,
replays, lists, pages, refusals) and no log record carries the secret arrangement.

What every game gets (oversized and deep bodies, numbers the store could not keep, ids
that are no ids) is ``tests/service/test_hostile.py``; the secret kept in the view, the
events and the log for the common case is ``tests/test_commander_on_the_platform.py``,
whose helpers these reuse."""

from __future__ import annotations

import json
import logging

import fakeredis
import pytest

from events.store import InMemoryEventStore
from games.commander.board import STANDARD
from service import create_app
from tests.test_commander_on_the_platform import KEY, MINE, Clock, auth, send, started

OTHER = "OOOCSOSOSSSSSSSS"  # a good arrangement that is neither MINE nor STANDARD


@pytest.fixture
def app():
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "CLOCK": Clock(),
                       "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip


def problem(response, status, *words):
    """A refusal: its status, as problem+json, with a sentence (not a trace, not an echo
    of kilobytes) that says each of ``words``."""
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["status"] == status and body["type"].startswith("/problems/")
    detail = body["detail"]
    assert 10 < len(detail) < 300 and "Traceback" not in detail, detail
    assert detail[0].isalnum() or detail[0] == '"', detail  # starts as a sentence does
    for word in words:
        assert word in detail, body
    return body


class Unchanged:
    """The game as it stands: its version, its events (by hash) and what each seat and a
    spectator see."""

    def __init__(self, app, game_id, browsers):
        self.app, self.game_id, self.browsers = app, game_id, browsers
        self.spectator = app.test_client()
        self.before = self.snapshot()

    def snapshot(self):
        store = self.app.extensions["bingfa"].store
        views = {who: c.get(f"/api/games/{self.game_id}").json
                 for who, c in (*self.browsers.items(), ("spectator", self.spectator))}  # fmt: skip
        return store.version(self.game_id), [e.hash for e in store.read(self.game_id)], views

    def check(self):
        assert self.snapshot() == self.before


def arranging(app):
    """A secret-arrangement game, Blue arranged (MINE), Red not yet."""
    game_id, browsers = started(app)
    assert send(browsers["blue"], game_id, {"type": "arrange", "pieces": MINE}).status_code == 201
    return game_id, browsers


# -- arrangements ------------------------------------------------------------------------
LETTERS = "16 letters, C, O or S"
NOT_TEXT = "pieces: Not a valid string"


@pytest.mark.parametrize(
    ("pieces", "words"),
    [
        (5, NOT_TEXT),
        (1.5, NOT_TEXT),
        (True, NOT_TEXT),
        (list(STANDARD), NOT_TEXT),
        ({"C": 1, "O": 5, "S": 10}, NOT_TEXT),
        (None, "pieces: Field may not be null"),
        (STANDARD[:15], LETTERS),
        (STANDARD + "S", LETTERS),
        (STANDARD.lower(), LETTERS),
        ("\u0421" + MINE[1:], LETTERS),  # a Cyrillic С for the Commander's C
        ("\uff23" + MINE[1:], LETTERS),  # a full-width Ｃ
        (MINE[:15] + "\x00", LETTERS),
        (MINE + "\x00", LETTERS),
        (MINE + "\n", LETTERS),
        (MINE[:8] + " " + MINE[9:], LETTERS),
        ("", LETTERS),
        ("C" * 200, LETTERS),
        ("C" * 201, "pieces: Longer than maximum length 200"),
        ("CCOOSOSOSSSSSSSS", "1 Commander (C), 5 Officers (O) and 10 Soldiers (S)"),
        ("SSSSSSSSSSSSSSSS", "1 Commander (C), 5 Officers (O) and 10 Soldiers (S)"),
    ],
    ids=["int", "float", "bool", "list", "dict", "null", "15", "17", "lower", "cyrillic",
         "full-width", "nul-in", "nul-after", "newline", "space", "empty", "200", "201",
         "two-commanders", "soldiers-only"],
)  # fmt: skip
def test_a_bad_arrangement_is_refused_in_words_and_changes_nothing(app, pieces, words):
    game_id, browsers = started(app)
    unchanged = Unchanged(app, game_id, browsers)
    body = problem(send(browsers["blue"], game_id, {"type": "arrange", "pieces": pieces}), 422,
                   words)  # fmt: skip
    assert "C" * 50 not in json.dumps(body)  # what was sent is not echoed at length
    unchanged.check()
    # …and the seat still owes its arrangement, which goes through
    assert send(browsers["blue"], game_id, {"type": "arrange", "pieces": MINE}).status_code == 201


@pytest.mark.parametrize(
    ("command", "status", "words"),
    [
        ({"type": "arrange"}, 422, "pieces: Missing data"),
        ({"type": "arrange", "pieces": OTHER, "seat": "red"}, 422, "no field 'seat'"),
        ({"type": "arrange", "pieces": OTHER, "for": "red", "x": 1}, 422, "no field 'for', 'x'"),
        ({"type": "Arrange", "pieces": OTHER}, 422, "no command 'Arrange'"),
        ({"type": None, "pieces": OTHER}, 422, 'an object with a "type"'),
        ({"pieces": OTHER}, 422, 'an object with a "type"'),
        ({"type": "resign", "because": "bored"}, 422, "no field 'because'"),
    ],
)
def test_a_command_of_another_shape_while_arranging_changes_nothing(app, command, status, words):
    game_id, browsers = arranging(app)
    unchanged = Unchanged(app, game_id, browsers)
    for seat in ("blue", "red"):
        problem(send(browsers[seat], game_id, command), status, words)
    unchanged.check()


def test_an_arrangement_twice_after_the_reveal_or_before_it_is_a_move_is_refused(app):
    game_id, browsers = arranging(app)
    unchanged = Unchanged(app, game_id, browsers)
    for pieces in (MINE, OTHER):
        problem(send(browsers["blue"], game_id, {"type": "arrange", "pieces": pieces}), 422,
                "You have arranged your pieces already.")  # fmt: skip
    move = {"type": "move", "from": "a4", "to": "a5"}
    problem(send(browsers["blue"], game_id, move), 422, "The other player is still arranging")
    problem(send(browsers["red"], game_id, {**move, "from": "a5", "to": "a4"}), 422,
            "Arrange your pieces first.")  # fmt: skip
    unchanged.check()
    assert send(browsers["red"], game_id, {"type": "arrange", "pieces": OTHER}).status_code == 201
    revealed = Unchanged(app, game_id, browsers)
    for seat, pieces in (("blue", OTHER), ("red", OTHER), ("red", STANDARD)):
        problem(send(browsers[seat], game_id, {"type": "arrange", "pieces": pieces}), 422,
                "The pieces are already on the board.")  # fmt: skip
    revealed.check()


# -- who may send ------------------------------------------------------------------------
def test_nobody_arranges_or_resigns_for_a_seat_that_is_not_theirs(app):
    game_id, browsers = arranging(app)
    unchanged = Unchanged(app, game_id, browsers)
    url = f"/api/games/{game_id}/commands"
    mine = {"command": {"type": "arrange", "pieces": OTHER}}
    spectator = app.test_client()
    for command in (mine["command"], {"type": "resign"}):
        problem(send(spectator, game_id, command), 401, "a command needs your seat's token")
        forged = spectator.post(url, json={"command": command}, headers=auth("x" * 43))
        problem(forged, 401, "this token is not a seat of this game")
        empty = spectator.post(url, json={"command": command}, headers=auth(""))
        assert empty.status_code == 401 and empty.json["detail"], empty.json
    # Blue's browser naming Red's seat: not its seat, refused (not Blue's command either)
    other = browsers["blue"].post(url, json=mine, headers={"X-Bingfa-Seat": "red"})
    problem(other, 403, "this browser did not take the red seat")
    # a spectator who names a seat has no seat to name
    problem(spectator.post(url, json=mine, headers={"X-Bingfa-Seat": "red"}), 401)
    unchanged.check()


# -- moves -------------------------------------------------------------------------------
NOT_SQUARE = "not a space of the board (a1 to d8)."


@pytest.mark.parametrize(
    ("start", "to", "words"),
    [
        (1, 2, "from: Not a valid string.; to: Not a valid string."),
        (["a4"], "a5", "from: Not a valid string."),
        ("a4", {"square": "a5"}, "to: Not a valid string."),
        (None, "a5", "from: Field may not be null."),
        ("a4", True, "to: Not a valid string."),
        ("A4", "a5", f"A4 is {NOT_SQUARE}"),
        ("a0", "a1", f"a0 is {NOT_SQUARE}"),
        ("e1", "a1", f"e1 is {NOT_SQUARE}"),
        ("a4", "a9", f"a9 is {NOT_SQUARE}"),
        ("a4" * 50, "a5", f"a4a4a4a4… is {NOT_SQUARE}"),
        ("a4" * 101, "a5", "from: Longer than maximum length 200."),
        ("a4", "a4", "That piece cannot move from a4 to a4."),
        ("a5", "a5", "You have no piece on a5."),
        ("a1", "a2", "That piece cannot move from a1 to a2."),
        ("a4", "a6", "That piece cannot move from a4 to a6."),
        # what a person cannot see in the sentence is shown as codes, in quotes
        ("", "a5", f'"" is {NOT_SQUARE}'),
        ("a4", "", f'"" is {NOT_SQUARE}'),
        (" a4", "a5", f'" a4" is {NOT_SQUARE}'),
        ("a4", "a5 ", f'"a5 " is {NOT_SQUARE}'),
        ("a4\x00", "a5", f'"a4\\u0000" is {NOT_SQUARE}'),
        ("\u0430" + "4", "a5", f'"\\u04304" is {NOT_SQUARE}'),  # a Cyrillic а
        ("a4", "a\u2075", f'"a\\u2075" is {NOT_SQUARE}'),  # a superscript 5
        ("\u200ba4", "a5", f'"\\u200ba4" is {NOT_SQUARE}'),  # a zero-width space
    ],
    ids=["ints", "list", "dict", "null", "bool", "upper", "a0", "e1", "a9", "long", "201",
         "same", "not-mine", "blocked", "too-far", "empty-from", "empty-to", "space-before",
         "space-after", "nul", "cyrillic", "superscript", "zero-width"],
)  # fmt: skip
def test_a_bad_move_is_refused_in_words_and_changes_nothing(app, start, to, words):
    game_id, browsers = started(app, options={"setup": "standard"})
    unchanged = Unchanged(app, game_id, browsers)
    body = problem(send(browsers["blue"], game_id, {"type": "move", "from": start, "to": to}),
                   422, words)  # fmt: skip
    assert "\x00" not in body["detail"] and "a4" * 10 not in body["detail"]
    unchanged.check()
    assert send(browsers["blue"], game_id, {"type": "move", "from": "a4", "to": "a5"}
                ).status_code == 201  # fmt: skip


def test_a_move_out_of_turn_is_refused_whatever_its_squares(app):
    game_id, browsers = started(app, options={"setup": "standard"})
    unchanged = Unchanged(app, game_id, browsers)
    for start, to in (("a5", "a4"), ("a4", "a5"), ("z9", "a4"), ("a5", "a5")):
        command = {"type": "move", "from": start, "to": to}
        problem(send(browsers["red"], game_id, command), 422, "It is not your turn.")
    unchanged.check()


def test_after_the_end_every_command_of_either_seat_is_refused(app):
    game_id, browsers = started(app, options={"setup": "standard"})
    assert send(browsers["blue"], game_id, {"type": "move", "from": "a4", "to": "a5"}
                ).status_code == 201  # fmt: skip
    assert send(browsers["red"], game_id, {"type": "resign"}).status_code == 201
    unchanged = Unchanged(app, game_id, browsers)
    assert unchanged.before[2]["spectator"]["outcome"] == {"winner": "blue",
                                                           "reason": "resignation"}  # fmt: skip
    commands = [{"type": "resign"}, {"type": "move", "from": "a5", "to": "a6"},
                {"type": "move", "from": "a6", "to": "a5"},
                {"type": "arrange", "pieces": STANDARD}]  # fmt: skip
    for seat in ("blue", "red"):
        for command in commands:
            problem(send(browsers[seat], game_id, command), 422, "the game is over")
    problem(send(app.test_client(), game_id, {"type": "resign"}), 401)
    unchanged.check()


# -- retries -----------------------------------------------------------------------------
def command_with(client, game_id, command, key=None, **body):
    headers = {"Idempotency-Key": key} if key is not None else {}
    return client.post(f"/api/games/{game_id}/commands", json={"command": command, **body},
                       headers=headers)  # fmt: skip


def test_a_retried_arrangement_counts_once_and_a_reused_key_changes_nothing(app):
    game_id, browsers = started(app)
    arrange = {"type": "arrange", "pieces": MINE}
    first = command_with(browsers["blue"], game_id, arrange, key="k-1")
    assert first.status_code == 201 and first.json["duplicate"] is False
    unchanged = Unchanged(app, game_id, browsers)
    again = command_with(browsers["blue"], game_id, arrange, key="k-1")
    assert again.status_code == 201 and again.json["duplicate"] is True
    assert [e["hash"] for e in again.json["events"]] == [e["hash"] for e in first.json["events"]]
    # the same key for another command of the seat's, or by the other seat: refused
    for seat, command in (("blue", {"type": "resign"}), ("blue", {**arrange, "pieces": OTHER}),
                          ("red", {"type": "arrange", "pieces": OTHER}),
                          ("red", arrange)):  # fmt: skip
        refused = command_with(browsers[seat], game_id, command, key="k-1")
        body = problem(refused, 409, "the idempotency key 'k-1' was already used")
        assert MINE not in json.dumps(body)
    # a version that is not the game's: a stale command, refused
    stale = command_with(browsers["red"], game_id, {"type": "arrange", "pieces": OTHER},
                         expected_version=unchanged.before[0] - 1)  # fmt: skip
    problem(stale, 409, "someone moved first")
    forged = browsers["red"].post(
        f"/api/games/{game_id}/commands",
        headers={"If-Match": "x"},
        json={"command": {"type": "arrange", "pieces": OTHER}},
    )
    problem(forged, 400, "If-Match is the version you saw")
    unchanged.check()


def test_a_reused_key_of_the_longest_kind_is_not_repeated_at_length(app):
    game_id, browsers = started(app)
    key = "k" * 200  # the longest the API takes (a longer one is a 400: test_hostile.py)
    arrange = {"type": "arrange", "pieces": MINE}
    assert command_with(browsers["blue"], game_id, arrange, key=key).status_code == 201
    unchanged = Unchanged(app, game_id, browsers)
    body = problem(command_with(browsers["blue"], game_id, {"type": "resign"}, key=key), 409,
                   "was already used for another command")  # fmt: skip
    assert "k" * 41 not in body["detail"] and "k" * 40 + "…" in body["detail"]
    unchanged.check()


# -- the secret before the reveal --------------------------------------------------------
def stream_text(client, game_id, last):
    """The live stream as ``client`` reads it, up to the event ``last``."""
    response = client.get(f"/api/games/{game_id}/stream", buffered=False)
    assert response.status_code == 200
    text = ""
    try:
        for chunk in response.response:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            if f"id: {last}\n" in text:
                break
    finally:
        response.close()
    assert f"id: {last}\n" in text
    return text


def test_no_answer_to_the_other_seat_or_a_spectator_carries_an_arrangement(app, caplog):
    caplog.set_level(logging.DEBUG)
    game_id, browsers = arranging(app)
    store = app.extensions["bingfa"].store
    version = store.version(game_id)
    spectator = app.test_client()
    blue = next(e.payload["player"] for e in store.read(game_id)
                if e.type == "seat_joined" and e.payload["seat"] == "blue")  # fmt: skip
    reads = [f"/api/games/{game_id}", f"/api/games/{game_id}/events",
             f"/api/games/{game_id}/events?after={version - 1}", "/api/lobby", "/api/me/games",
             "/api/finished", "/api/replays", f"/g/{game_id}", f"/g/{game_id}/blue",
             f"/api/games/{game_id}/hint", f"/api/players/{blue}", "/api/me", "/metrics",
             f"/api/leaderboard?game={KEY}"]  # fmt: skip
    # a game being played is not a replay: nothing of it is read as one
    replays = [f"/api/replays/{game_id}", f"/api/replays/{game_id}/states/{version}?as=blue",
               f"/api/replays/{game_id}/states/{version}?as=full",
               f"/api/replays/{game_id}/export", f"/api/replays/{game_id}/verify",
               f"/api/replays/{game_id}/analysis"]  # fmt: skip
    texts = []
    for client in (browsers["red"], spectator):
        for path in reads:
            answer = client.get(path)
            assert answer.status_code in (200, 401), (path, answer.status_code)
            texts.append(answer.get_data(as_text=True))
        for path in replays:
            texts.append(json.dumps(problem(client.get(path), 404, "still being played")))
        wanted = {"step": version, "seat": "blue", "level": "easy"}
        continued = client.post(f"/api/replays/{game_id}/continue", json=wanted)
        texts.append(json.dumps(problem(continued, 404, "still being played")))
        texts.append(stream_text(client, game_id, version))
        # refusals to Red: a move before the reveal, arrangements that are not right
        for command in ({"type": "move", "from": "a1", "to": "a2"},
                        {"type": "arrange", "pieces": MINE[:15]},
                        {"type": "arrange", "pieces": MINE.replace("S", "O", 1)}):  # fmt: skip
            texts.append(send(client, game_id, command).get_data(as_text=True))
    shown = browsers["red"].get(f"/api/games/{game_id}").json["view"]
    assert shown["arranged"] == {"blue": True, "red": False} and shown["mine"] is None
    assert len(texts) == 2 * (len(reads) + len(replays) + 5)
    assert [t[:200] for t in texts if MINE in t] == []
    assert store.version(game_id) == version  # the reads and refusals appended nothing
    assert list(store.game_ids()) == [game_id]  # and no game was continued from it
    records = [r.getMessage() + repr(r.args) + repr(vars(r)) for r in caplog.records]
    assert records and [r[:200] for r in records if MINE in r] == []
    # Blue sees its own arrangement (so the check above could see it if it were shown)
    assert MINE in browsers["blue"].get(f"/api/games/{game_id}").get_data(as_text=True)
    assert MINE in stream_text(browsers["blue"], game_id, version)
