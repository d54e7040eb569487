"""The game page and the replay page in Korean (``?lang=ko``): their ES modules' sentences
come from the platform's catalog (``/i18n/ko.json``), and durations and dates are
formatted by Intl for Korean.

The catalog served is a tiny one made here (the translators' ``ko`` catalog may not hold
these sentences yet): ``service.i18n``'s cache of the served catalogs is given it, in the
server's own process, for the length of each test.
"""

from __future__ import annotations

import re

import orjson
import pytest
from browser_play import until

import service.i18n
from replays.archive import archive

KO = {
    "You play against the computer: {seats}.": "컴퓨터와 둡니다: {seats}.",
    "{seat}, {level} level": "{seat}, {level} 수준",
    "Clocks": "시계",
    "{time} per decision": "결정마다 {time}",
    "Show newest first": "최신순으로 보기",
    "{game} {id} — Bingfa": "{game} {id} — 빙파",
    "● Your turn — {game} {id} — Bingfa": "● 내 차례 — {game} {id} — 빙파",
    "Step {step} of {steps}": "{steps}단계 중 {step}단계",
    "Start": "처음",
    "End": "끝",
    "Finished {when}": "{when}에 끝남",
}


@pytest.fixture
def korean(monkeypatch):
    """The server answers /i18n/ko.json with ``KO``."""
    monkeypatch.setitem(service.i18n._cached, "ko", orjson.dumps(KO))


def create(server, body) -> dict:
    answer = server.app.test_client().post("/api/games", json=body)
    assert answer.status_code == 201, answer.json
    return answer.json


def test_the_game_page_in_korean(server, korean, watch, shot):
    clock = {"per_move_seconds": 86400, "vacation_days": 3, "on_timeout": "forfeit"}
    made = create(server, {"seats": {"blue": "human", "red": "ai:random"},
                           "options": {"variant": "beginner"}, "clock": clock})  # fmt: skip
    game_id, token = made["game_id"], made["seats"]["blue"]["token"]
    page = watch().page
    page.goto(f"{server.url}/g/{game_id}/blue?lang=ko#token={token}")
    until(lambda: page.locator("#clocks h2").is_visible(), 30, "the clocks")
    assert page.get_attribute("html", "lang") == "ko"
    assert page.inner_text("#clocks h2") == "시계"
    clocks = page.inner_text("#clocks")
    assert "결정마다 1일" in clocks, clocks  # "1 day per decision": the sentence and Intl's day
    assert "per decision" not in clocks
    shown = page.locator("#facing")
    facing = until(lambda: shown.inner_text() if shown.is_visible() else "", 20, "who plays")
    assert facing.startswith("컴퓨터와 둡니다: ") and " 수준" in facing, facing
    assert page.inner_text("#log-order") == "최신순으로 보기"
    title = page.title()  # blue is to move
    assert title.startswith("● 내 차례 — ") and title.endswith(f" {game_id} — 빙파"), title
    # the days of a vacation, said by Intl in Korean
    days = page.locator("#vacation-days option").all_text_contents()  # in a closed box
    assert days == ["1일", "2일", "3일"], days
    shot(page, "game")


@pytest.fixture(scope="module")
def finished(server):
    """The id of a finished game of the computer against itself, archived."""
    made = create(server, {"seats": {"blue": "ai:random", "red": "ai:random"},
                           "options": {"events": True}})  # fmt: skip
    game_id = made["game_id"]
    until(lambda: server.bingfa.load(game_id).outcome is not None, 30, "the game to end")
    until(lambda: server.bingfa.load(game_id).revealed is not None, 10, "the seed")
    from service.api.replays import replay_store

    with server.app.app_context():
        archive(server.bingfa.store, replay_store(), game_id)
    return game_id


def test_the_replay_page_in_korean(server, finished, korean, watch, shot):
    page = watch().page
    page.goto(f"{server.url}/r/{finished}?lang=ko")
    until(lambda: page.get_attribute("#replay", "data-shown") == "0:spectator", 30, "step 0")
    length = int(page.get_attribute("#replay", "data-steps"))
    assert page.inner_text("#step-text").startswith(f"{length}단계 중 0단계")
    assert page.inner_text("#rounds button[data-step='0']") == "처음"
    assert page.inner_text(f"#rounds button[data-step='{length}']") == "끝"
    # the date the game finished: Intl's Korean ("2026. 12. 1. 오후 5:41"), put where the
    # translated sentence puts it (before its words)
    finished_at = page.locator("#summary span:has(time)")
    when = finished_at.locator("time").inner_text()
    assert re.fullmatch(r"\d{4}\. \d{1,2}\. \d{1,2}\. (오전|오후) \d{1,2}:\d{2}", when), when
    assert finished_at.inner_text() == f"{when}에 끝남"
    shot(page, "replay")
