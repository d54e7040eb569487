"""The site in each of its four languages, with the real catalogs: a few moves of each game
played through its page, and its rules page, in English, Korean, Japanese and Chinese, with
screenshots (Debian's CJK fonts, installed by scripts/test, draw the text). Each page says
its words as the catalogs translate them: the pages' own (``_()``), the game's (card and
place names, prompts) and the server's sentences (the banner)."""

from __future__ import annotations

import importlib
import random

import pytest
from browser_play import answer, kind, over, until, version

import games
from events import i18n
from games.base import guide_of
from service import catalogs

LANGUAGES = ["en", "ko", "ja", "zh"]
GAMES = sorted(games.REGISTRY)


def platform(locale: str, english: str) -> str:
    return i18n.translations(str(i18n.PLATFORM), locale).gettext(english)


def game_words(key: str, locale: str):
    return i18n.translations(str(i18n.folder_of(games.get(key))), locale)


def page_driver(key: str):
    """``play_through_page(server, page, game_id, rng, decisions, english=...)`` of the
    game's own browser test module, if it has one."""
    try:
        module = importlib.import_module(f"test_{key.replace('-', '_')}_page")
    except ModuleNotFoundError:
        return None
    return getattr(module, "play_through_page", None)


def start(server, watch, key: str, locale: str, **context):
    seats = {seat: "human" for seat in games.get(key).seats}
    seats[games.get(key).seats[1]] = "ai:random"
    made = server.app.test_client().post("/api/games", json={"game": key, "seats": seats})
    assert made.status_code == 201, made.json
    page = watch(**context).page
    first = games.get(key).seats[0]
    path, _, token = made.json["seats"][first]["invite"].partition("#")
    page.goto(f"{server.url}{path}?lang={locale}#{token}")
    until(lambda: kind(page) or over(page), 30, "the first decision")
    return made.json["game_id"], page


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("key", GAMES)
def test_a_few_moves_in_each_language(server, watch, shot, key, locale):
    game_id, page = start(server, watch, key, locale, viewport={"width": 1200, "height": 900})
    assert page.get_attribute("html", "lang") == locale
    rng = random.Random(7)
    # a game's own page test (test_<key>_page.py) may say how to play it through its page;
    # else the first game's controls (browser_play.answer)
    own = page_driver(key)
    if own is not None:
        own(server, page, game_id, rng, 4, english=locale == "en")
    else:
        for _ in range(4):
            if over(page):
                break
            until(lambda: kind(page) or over(page), 30, "a decision")
            before = version(page)
            answer(page, rng, english=locale == "en")
            until(lambda b=before: version(page) > b or over(page), 30, "the move taken")
    until(lambda: version(page) == server.bingfa.store.version(game_id), 30, "the page caught up")
    text = page.locator("body").inner_text()
    # the pages' own words, the game's title and the seats as the catalogs say them
    for english in ("Rules of the game", "API documentation"):
        assert platform(locale, english) in text, (locale, english)
    words = game_words(key, locale)
    rules = games.get(key)
    assert words.pgettext("catalogue", rules.catalogue.title) in page.title() + text
    if locale != "en":
        assert platform(locale, "Rules of the game") != "Rules of the game"
    shot(page, f"{key}-{locale}")


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("key", [k for k in GAMES if guide_of(games.get(k)) is not None])
def test_the_rules_page_in_each_language(server, watch, shot, key, locale):
    page = watch(viewport={"width": 1100, "height": 900}).page
    page.goto(f"{server.url}/games/{key}/rules?lang={locale}")
    page.wait_for_selector("main")
    assert page.get_attribute("html", "lang") == locale
    html = guide_of(games.get(key)).read_text(encoding="utf-8")
    blocks = [catalogs.squeeze(b.group(3)) for b in catalogs.guide_blocks(html)][:3]
    words = game_words(key, locale)
    shown = page.locator("main").inner_text()
    for block in blocks:
        said = words.pgettext("guide", block)
        plain = catalogs.squeeze(__import__("re").sub(r"<[^>]+>", "", said))
        assert plain[:40] in catalogs.squeeze(shown), (locale, plain[:40])
        if locale != "en":
            assert said != block, f"{key} {locale}: a rules block left in English"
    shot(page, f"{key}-rules-{locale}")
