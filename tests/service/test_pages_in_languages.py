"""The pages and the catalogues in the reader's language: the words of a page, the
``lang`` of its ``<html>``, the picker (remembered in the session, never an open redirect),
the language chosen by the browser, the profile's choice first, the rules page's guide
block by block, and what ``/api/kinds`` says of a game.

The catalogs here are small fakes (``events.i18n.translations`` replaced), so the tests
do not wait on the translators: they check the plumbing, whatever the ``.po`` files hold.
"""

from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

import fakeredis
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import NullTranslations, Translations

import games
from events import i18n
from events.store import InMemoryEventStore
from games.base import guide_of
from service import catalogs, create_app, narration

KEY = next(iter(games.REGISTRY))
RULES = games.get(KEY)
CAT = RULES.catalogue
GUIDED = next(k for k in games.REGISTRY if guide_of(games.get(k)) is not None)
GUIDE = guide_of(games.get(GUIDED)).read_text(encoding="utf-8")
BLOCK = catalogs.squeeze(next(catalogs.guide_blocks(GUIDE)).group(3))
SOME_ID, SOME_ENGLISH = next(iter(RULES.text.messages.items()))

PLATFORM_KO = {
    "New game": "새 게임",
    "{games}, played by the web": "{games}: 웹에서 두는 게임",
    "Language": "언어",
    "{title}: the rules": "{title} 규칙",
    "Start a game of {title}": "{title} 게임 시작",
}
GAME_KO = {  # (context, English) -> Korean
    ("catalogue", CAT.title): "가짜 제목",
    ("catalogue", CAT.seats[0].label): "가짜 좌석",
    (SOME_ID, SOME_ENGLISH): "가짜 메시지",
}
CHOSEN = next((o for o in CAT.options if o.choices), None)  # an option with choices
HELPED = next((o for o in CAT.options if o.help), None)  # one with a sentence of help
if CHOSEN is not None:
    GAME_KO[("catalogue", CHOSEN.label)] = "가짜 옵션"
    GAME_KO[("catalogue", CHOSEN.choices[0][1])] = "가짜 선택"
if HELPED is not None:
    GAME_KO[("catalogue", HELPED.help)] = "가짜 도움말"
GUIDE_KO = {("guide", BLOCK): "가짜 규칙 문단"}


def compiled(entries: dict) -> Translations:
    catalog = Catalog(locale="ko", fuzzy=False)
    for key, korean in entries.items():
        context, english = key if isinstance(key, tuple) else (None, key)
        catalog.add(english, korean, context=context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer)


@pytest.fixture
def client(monkeypatch):
    folders = {str(catalogs.folder_of(games.get(k))): k for k in games.REGISTRY}
    fakes = {str(catalogs.PLATFORM): compiled(PLATFORM_KO)}
    for folder, key in folders.items():
        entries = {**(GAME_KO if key == KEY else {}), **(GUIDE_KO if key == GUIDED else {})}
        fakes[folder] = compiled(entries)

    def translations(folder: str, locale: str):
        return fakes[str(folder)] if locale == "ko" else NullTranslations()

    monkeypatch.setattr(i18n, "translations", translations)
    monkeypatch.setattr(narration, "_tables", {})  # tables made with the real catalogs
    app = create_app({"STORE": InMemoryEventStore(), "REDIS": fakeredis.FakeRedis(),
                      "TESTING": True, "RATELIMIT_WRITES": "1000 per second"})  # fmt: skip
    client = app.test_client()
    client.application = app
    return client


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)">', page).group(1)


def picked(page: str) -> tuple[list[str], list[str]]:
    """The picker's languages and the one selected."""
    picker = re.search(r'<select name="lang".*?</select>', page, re.S).group(0)
    codes = re.findall(r'<option value="([^"]+)"', picker)
    selected = re.findall(r'<option value="([^"]+)"[^>]*\bselected\b', picker)
    return codes, selected


def test_a_page_in_korean_says_the_catalogs_words_and_says_it_is_korean(client):
    page = client.get("/?lang=ko").text
    assert html_lang(page) == "ko"
    assert "<h1>새 게임</h1>" in page and "<h1>New game</h1>" not in page
    assert 'aria-label="언어"' in page
    # the tagline: one sentence, the games' titles in it (the first one translated)
    assert re.search(r'<span class="tagline">[^<]*가짜 제목[^<]*: 웹에서 두는 게임</span>', page)
    # the new-game form: the catalogue's words in Korean
    assert ">가짜 좌석" in page and f">{CAT.seats[0].label} (" not in page
    assert picked(page) == (["en", "ko", "ja", "zh"], ["ko"])
    assert '<option value="3">3일</option>' in page  # durations by CLDR, not the catalogs
    english = client.get("/").text
    assert html_lang(english) == "en" and "<h1>New game</h1>" in english
    assert picked(english) == (["en", "ko", "ja", "zh"], ["en"])
    assert '<option value="3">3 days</option>' in english
    assert "가짜" not in english


def test_the_picker_remembers_the_choice_and_goes_back_only_to_this_site(client):
    chosen = client.post("/language", data={"lang": "ko", "next": "/seeks?x=1"})
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/seeks?x=1"
    page = client.get("/").text  # no ?lang, no Accept-Language: the session says
    assert html_lang(page) == "ko" and "새 게임" in page and picked(page)[1] == ["ko"]
    for away in ("https://evil.example/", "//evil.example/x", "evil.example"):
        sent = client.post("/language", data={"lang": "en", "next": away})
        assert sent.status_code == 303 and sent.headers["Location"] == "/", away
    # a backslash some browsers read as a slash ("/\\host" as "//host") goes out quoted
    sent = client.post("/language", data={"lang": "en", "next": "/\\evil.example"})
    location = sent.headers["Location"]
    assert urlsplit(location).netloc == "" and location.startswith("/") and "\\" not in location
    refused = client.post("/language", data={"lang": "xx", "next": "/"})
    assert refused.status_code == 303
    assert html_lang(client.get("/").text) == "en"  # the last good choice: English


def test_the_browser_language_picks_the_page_language(client):
    for header, wanted in (("ko-KR,ko;q=0.9,en;q=0.5", "ko"), ("ja", "ja"), ("zh-CN", "zh"),
                           ("fr, de;q=0.5", "en")):  # fmt: skip
        page = client.get("/", headers={"Accept-Language": header}).text
        assert html_lang(page) == wanted, header
    assert "새 게임" in client.get("/", headers={"Accept-Language": "ko"}).text


def test_the_profile_language_comes_before_the_browser_and_the_session(client):
    app = client.application
    with client.session_transaction() as session:
        session["player"] = "p-someone"
        session["lang"] = "zh"
    app.extensions["profiles"].set_language("p-someone", "ko")
    page = client.get("/", headers={"Accept-Language": "ja"}).text
    assert html_lang(page) == "ko" and "새 게임" in page
    # the picker, for a player, changes the profile too
    client.post("/language", data={"lang": "ja", "next": "/"})
    assert app.extensions["profiles"].language("p-someone") == "ja"
    assert html_lang(client.get("/", headers={"Accept-Language": "ko"}).text) == "ja"


def test_the_rules_page_translates_the_guide_block_by_block(client):
    english = client.get(f"/games/{GUIDED}/rules").text
    assert BLOCK in catalogs.squeeze(english) and "가짜 규칙 문단" not in english
    page = client.get(f"/games/{GUIDED}/rules?lang=ko").text
    assert html_lang(page) == "ko"
    assert "가짜 규칙 문단" in page and BLOCK not in catalogs.squeeze(page)
    title = "가짜 제목" if GUIDED == KEY else games.get(GUIDED).catalogue.title
    assert f"<h1>{title} 규칙</h1>" in page and f"{title} 게임 시작" in page
    # a block the catalog does not hold stays English: the page has more than one block
    others = [catalogs.squeeze(m.group(3)) for m in catalogs.guide_blocks(GUIDE)][1:]
    assert others and any(block in catalogs.squeeze(page) for block in others)


def test_the_kinds_api_gives_the_catalogues_words_in_the_requests_language(client):
    english = client.get(f"/api/kinds/{KEY}").json
    assert english["title"] == CAT.title and english["seats"][0]["label"] == CAT.seats[0].label
    korean = client.get(f"/api/kinds/{KEY}", headers={"Accept-Language": "ko"}).json
    assert korean["title"] == "가짜 제목" and korean["seats"][0]["label"] == "가짜 좌석"
    assert korean["seats"][1]["label"] == CAT.seats[1].label  # not in the catalog: English
    options = {o["name"]: o for o in korean["options"]}
    if CHOSEN is not None:
        assert options[CHOSEN.name]["label"] == "가짜 옵션"
        assert options[CHOSEN.name]["choices"][0]["label"] == "가짜 선택"
    if HELPED is not None:
        assert options[HELPED.name]["help"] == "가짜 도움말"
    listed = client.get("/api/kinds", headers={"X-Bingfa-Language": "ko"}).json
    assert listed["kinds"][0] == korean
    text = client.get(f"/api/kinds/{KEY}/text?lang=ko")
    assert text.json["messages"][SOME_ID] == "가짜 메시지"
    assert client.get(f"/api/kinds/{KEY}/text").json["messages"][SOME_ID] == SOME_ENGLISH
    # never kept by a cache, and said to vary by language all the same
    assert text.headers["Cache-Control"] == "no-store"
    assert {"Accept-Language", "X-Bingfa-Language", "Cookie"} <= set(text.vary)


def test_the_pickers_form_is_taken_from_this_site_only(client):
    """A form's POST under ``Referrer-Policy: no-referrer`` says ``Origin: null``; the
    browser's Sec-Fetch-Site tells whether it came from this site."""
    ours = {"Origin": "null", "Sec-Fetch-Site": "same-origin"}
    chosen = client.post("/language", data={"lang": "ko", "next": "/"}, headers=ours)
    assert chosen.status_code == 303 and html_lang(client.get("/").text) == "ko"
    evil = {"Origin": "https://evil.example", "Sec-Fetch-Site": "same-origin"}
    for theirs in ({"Origin": "null", "Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}, evil):
        refused = client.post("/language", data={"lang": "ja", "next": "/"}, headers=theirs)
        assert refused.status_code == 403, theirs
    assert html_lang(client.get("/").text) == "ko"
    # the same for the API: a write from a null origin of another site is refused
    posted = client.post("/api/games", json={}, headers={"Origin": "null"})
    assert posted.status_code == 403


def test_the_narration_says_a_seat_by_its_label_in_the_readers_language(client):
    seat = CAT.seats[0]
    said = narration.render(narration.messages(RULES, "ko"), narration.label(RULES, seat.id))
    assert said == "가짜 좌석"
    english = narration.render(narration.messages(RULES, "en"), narration.label(RULES, seat.id))
    assert english == seat.label


def test_the_profile_keeps_the_language_through_the_api(client):
    assert client.get("/api/me").json["language"] is None
    refused = client.put("/api/me/language", json={"language": "xx"})
    assert refused.status_code == 422 and "language" in refused.json["errors"]
    extra = client.put("/api/me/language", json={"language": "ko", "also": 1})
    assert extra.status_code == 422
    assert client.get("/api/me").json["language"] is None  # nothing changed
    chosen = client.put("/api/me/language", json={"language": "ko"})
    assert chosen.status_code == 200 and chosen.json["language"] == "ko"
    page = client.get("/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert html_lang(page) == "ko"  # the profile's choice wins over the browser's
