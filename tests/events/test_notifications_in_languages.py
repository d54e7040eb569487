"""Notifications said in their reader's language: a player whose profile says Japanese
reads "your turn" in Japanese in their list, their live stream and their webhook (its
digest too); ``text`` stays the English it always was; a player without a language reads
English. A tiny catalog stands in for the translators' (events.i18n.translations patched)."""

from __future__ import annotations

import io
import json

import fakeredis
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import NullTranslations, Translations

import events.i18n
import games
from events import notices
from events.notifications import message_json, message_of
from events.store import InMemoryEventStore
from games.messages import Join, msg, render
from service import create_app, narration
from service.catalogs import PLATFORM, folder_of
from workers.notify import Sent, Webhooks

RULES = games.get("sun-tzu")
TURN_JA = "{game} で {seat} の番です（相手: {opponent}）。"
JOINED_JA = "対局 {game} に相手が参加しました: {seat} が着席しました。"
DIGEST_JA = "今日の Bingfa: 通知 {count} 件。"


def compiled(entries: dict[tuple[str | None, str], str], locale: str) -> Translations:
    catalog = Catalog(locale=locale)
    for (context, english), translated in entries.items():
        catalog.add(english, translated, context=context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(fp=buffer)


@pytest.fixture
def japanese(monkeypatch):
    platform = compiled({
        ("table.notice.turn", "Your turn in game {game} ({seat}) against {opponent}."): TURN_JA,
        ("table.notice.joined", "Your opponent joined game {game}: {seat} took their seat."):
            JOINED_JA,
        ("table.notice.digest", "Your Bingfa day: {count} notifications."): DIGEST_JA,
    }, "ja")  # fmt: skip
    game = compiled({("catalogue", "Blue"): "青", ("catalogue", "Red"): "赤"}, "ja")

    def translations(folder: str, locale: str):
        if locale == "ja" and folder == str(PLATFORM):
            return platform
        if locale == "ja" and folder == str(folder_of(RULES)):
            return game
        return NullTranslations()

    monkeypatch.setattr(events.i18n, "translations", translations)
    monkeypatch.setattr(narration, "_tables", {})  # no table made before the patch


@pytest.fixture
def app(japanese):
    return create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                       "TESTING": True, "SECRET_KEY": "k",
                       "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip


def friend_game(blue, red):
    created = blue.post("/api/games", json={"seats": {"blue": "human", "red": "human"}})
    game_id = created.json["game_id"]
    tokens = {s: link["token"] for s, link in created.json["seats"].items()}
    for client, seat in ((blue, "blue"), (red, "red")):
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        assert client.post(f"/api/games/{game_id}/join", json={}, headers=auth).status_code == 200
    return game_id


def player_of(client) -> str:
    with client.session_transaction() as session:
        return session["player"]


def test_a_player_whose_profile_says_japanese_reads_notifications_in_japanese(app):
    blue, red = app.test_client(), app.test_client()
    game_id = friend_game(blue, red)
    app.extensions["profiles"].set_language(player_of(blue), "ja")
    listed = {n["kind"]: n for n in blue.get("/api/me/notifications").json["notifications"]}
    turn, joined = listed["turn"], listed["joined"]
    assert turn["text"] == f"Your turn in game {game_id} (Blue) against Red."  # as before
    assert turn["said"] == f"{game_id} で 青 の番です（相手: 赤）。"
    assert turn["lang"] == "ja"
    assert joined["text"] == f"Your opponent joined game {game_id}: Red took their seat."
    assert joined["said"] == f"対局 {game_id} に相手が参加しました: 赤 が着席しました。"


def test_a_player_without_a_language_reads_english(app):
    blue, red = app.test_client(), app.test_client()
    game_id = friend_game(blue, red)
    [turn, joined] = blue.get("/api/me/notifications").json["notifications"]
    assert turn["said"] == turn["text"] == f"Your turn in game {game_id} (Blue) against Red."
    assert joined["said"] == joined["text"]
    assert turn["lang"] == "en"


def test_the_page_language_of_the_request_says_the_list_in_it(app):
    blue, red = app.test_client(), app.test_client()
    game_id = friend_game(blue, red)
    found = blue.get("/api/me/notifications", headers={"X-Bingfa-Language": "ja"}).json
    assert found["notifications"][0]["said"] == f"{game_id} で 青 の番です（相手: 赤）。"


class Capture:
    def __init__(self) -> None:
        self.bodies: list[dict] = []

    def __call__(self, url, body, headers) -> Sent:
        self.bodies.append(json.loads(body))
        return Sent(True, 204, "HTTP 204")


def test_a_webhook_delivery_and_a_digest_are_said_in_the_profile_language(app):
    blue, red = app.test_client(), app.test_client()
    game_id = friend_game(blue, red)
    player = player_of(blue)
    profiles, store = app.extensions["profiles"], app.extensions["notifications"]
    profiles.set_language(player, "ja")
    capture = Capture()
    hooks = Webhooks(store, "k", allow_local=True, send=capture, language=profiles.language)
    hook = {"url": "http://127.0.0.1:9/hook", "base": "https://bingfa.example", "nonce": "n"}
    turn = next(n for n in store.newest(player) if n["kind"] == "turn")
    assert hooks.deliver(player, hook, turn, 0).ok
    [body] = capture.bodies
    assert body["text"] == f"Your turn in game {game_id} (Blue) against Red."
    assert body["said"] == f"{game_id} で 青 の番です（相手: 赤）。"
    assert body["lang"] == "ja"
    # the daily digest: its own sentence and each of its items in Japanese
    store.set_webhook(player, {**hook, "digest": "daily", "digest_hour": 8}, 0)
    store.redis.set(store.key(player, "digested"), 0)
    store.redis.zadd("nt:digests", {player: 0})
    assert hooks.sweep_digests(10**9) == [player]
    assert hooks.sweep_outbox(10**9)["sent"] == 1
    digest = capture.bodies[-1]
    assert digest["kind"] == "digest"
    assert digest["text"] == "Your Bingfa day: 2 notifications."
    assert digest["said"] == "今日の Bingfa: 通知 2 件。"
    assert {i["said"] for i in digest["items"]} >= {f"{game_id} で 青 の番です（相手: 赤）。"}


def test_a_delivery_to_a_player_without_a_language_is_english(app):
    blue, red = app.test_client(), app.test_client()
    friend_game(blue, red)
    player, store = player_of(blue), app.extensions["notifications"]
    capture = Capture()
    profiles = app.extensions["profiles"]
    hooks = Webhooks(store, "k", allow_local=True, send=capture, language=profiles.language)
    hook = {"url": "http://127.0.0.1:9/hook", "base": "", "nonce": "n"}
    turn = next(n for n in store.newest(player) if n["kind"] == "turn")
    hooks.deliver(player, hook, turn, 0)
    assert capture.bodies[0]["said"] == capture.bodies[0]["text"]
    assert capture.bodies[0]["lang"] == "en"


def test_a_kept_message_comes_back_as_it_was_and_renders_the_same_english():
    who = Join(("a", msg("table.seat", label="Blue")), " and ")
    message = msg("table.notice.over", game="g1", end=msg("end.x", who=who))
    kept = json.loads(json.dumps(message_json(message)))
    assert message_of(kept) == message
    table = {"table.notice.over": "Game {game} is over: {end}", "end.x": "{who} won.",
             "table.seat": "{label}"}  # fmt: skip
    assert render(table, message_of(kept)) == "Game g1 is over: a and Blue won."


def test_a_notification_kept_before_messages_says_its_english_text():
    old = {"id": "turn:g:blue:1", "kind": "turn", "text": "Your turn in game g.", "url": "/"}
    assert notices.text(old, "ja") == "Your turn in game g."
