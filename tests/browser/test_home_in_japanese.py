"""The pages' own modules in Japanese: with ``?lang=ja`` the home page, the seeks page,
the profile and a player's page say the words of their ES modules from the platform's
catalog (served at /i18n/ja.json) and format dates and numbers for ja (Intl, CLDR).

The catalog is a tiny one written for this test (the translators' own may still be
incomplete): the server's platform catalog folder points at it while the test runs."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from playwright.sync_api import expect

import service.i18n
from events.i18n import po_path

JAPANESE = {
    "Game {id}": "対局 {id}",
    "{seat}, finished: {outcome}": "{seat}、終局：{outcome}",
    "{seat}, finished": "{seat}、終局",
    "waiting, posted {ago}": "{ago}に投稿、相手待ち",
    "your seek": "あなたの募集",
    "Cancel": "取り消す",
    "This identity has no recovery code yet: without one it lives only in this browser.":
        "この身元にはまだ復元コードがありません。コードがなければ、このブラウザの中にしかありません。",
    "Make a recovery code": "復元コードを作る",
    "Won as {seat}": "{seat}で勝ち",
    "1 rated game: {wins} won, {losses} lost, {draws} drawn":
        "レーティング対局 1 局：{wins} 勝 {losses} 敗 {draws} 分",
    "Newest first; {first}–{last} of {total}.": "新しい順。{total} 局中 {first}–{last}。",
}  # fmt: skip


@pytest.fixture
def japanese(tmp_path, monkeypatch):
    """The platform's catalogs: this test's Japanese one only (English for the others)."""
    catalog = Catalog(locale="ja", fuzzy=False)
    for english, translated in JAPANESE.items():
        catalog.add(english, translated)
    path = po_path(tmp_path, "ja")
    path.parent.mkdir(parents=True)
    with path.open("wb") as f:
        write_po(f, catalog)
    monkeypatch.setattr(service.i18n, "PLATFORM", tmp_path)
    monkeypatch.setattr(service.i18n, "_cached", {})  # /i18n/ja.json made anew from it
    return JAPANESE


def player_of(context, server) -> str:
    return context.request.get(f"{server.url}/api/me").json()["player"]


def test_home_seeks_and_profile_pages_in_japanese(server, watch, japanese, shot):
    me, them = watch(), watch()
    page = me.page
    ids = {"blue": player_of(page.context, server), "red": player_of(them.page.context, server)}
    bingfa = server.bingfa
    game_id = bingfa.create_game("sun-tzu", {"variant": "beginner"},
                                 {"blue": "human", "red": "human"}, rated=True)  # fmt: skip
    for seat, player in ids.items():
        bingfa.join(game_id, seat, player=player)
    bingfa.submit(game_id, "red", {"type": "resign"})

    # The home page: the list of this player's games, each line one sentence of the catalog.
    page.goto(f"{server.url}/?lang=ja")
    assert page.get_attribute("html", "lang") == "ja"
    line = page.locator(f"#my-games li[data-game='{game_id}']")
    expect(line.get_by_role("link")).to_have_text(f"対局 {game_id}")
    expect(line).to_contain_text("、終局：")
    assert "finished" not in line.inner_text()
    shot(page, "home")

    # The seeks page: a seek posted just now, its age in CLDR's Japanese ("今").
    page.goto(f"{server.url}/seeks?lang=ja")
    page.click("#post-seek")
    mine = page.locator("#my-seeks [data-status=open]")
    expect(mine).to_contain_text("今に投稿、相手待ち")
    expect(mine.locator("[data-cancel]")).to_have_text("取り消す")
    seek_id = mine.get_attribute("data-seek")
    expect(page.locator(f"#open-seeks [data-seek='{seek_id}'] .badge")).to_have_text("あなたの募集")
    shot(page, "seeks")
    page.click("[data-cancel]")  # not left open for the other tests
    expect(page.locator("#my-seeks [data-status=open]")).to_have_count(0)

    # The profile: the recovery code's state and button.
    page.goto(f"{server.url}/me?lang=ja")
    no_code = "This identity has no recovery code yet: without one it lives only in this browser."
    expect(page.locator("#code-state")).to_have_text(japanese[no_code])
    expect(page.locator("#code-make")).to_have_text("復元コードを作る")
    shot(page, "me")

    # The player's page: the rated game's record, result and date, for ja.
    page.goto(f"{server.url}/p/{ids['blue']}?lang=ja")
    expect(page.locator("#ratings")).to_contain_text("レーティング対局 1 局：1 勝 0 敗 0 分")
    row = page.locator(f"#history-rows tr[data-game='{game_id}']")
    expect(row.locator("[data-result=win]")).to_have_text(re.compile(r"^.+で勝ち$"))
    expect(page.locator("#history-status")).to_have_text("新しい順。1 局中 1–1。")
    when = row.locator("time").inner_text()
    assert re.fullmatch(r"\d{4}/\d{2}/\d{2} \d{1,2}:\d{2}", when), when  # ja's medium date
    shot(page, "player")
