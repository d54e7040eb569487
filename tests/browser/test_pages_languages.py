"""The pages in each language, in Debian's Chromium against a real server: the browser's
language chooses the page's, the picker changes it (and the next pages keep it), and the
rules page in every language, with a screenshot of each.

The catalogs are small fakes (``events.i18n.translations`` replaced while the test runs;
the server runs in this process), so the test checks the plumbing, not the translators'
progress."""

from __future__ import annotations

import io

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import NullTranslations, Translations

import games
from events import i18n
from games.base import guide_of
from service import catalogs, narration
from service import i18n as web_i18n

KEY = next(iter(games.REGISTRY))
GUIDED = next(k for k in games.REGISTRY if guide_of(games.get(k)) is not None)
BLOCK = catalogs.squeeze(
    next(catalogs.guide_blocks(guide_of(games.get(GUIDED)).read_text(encoding="utf-8"))).group(3)
)
WORDS = {  # locale -> (the platform's words, the guide's first block)
    "ko": ({"New game": "새 게임", "Replays": "기보"}, "가짜 규칙 문단"),
    "ja": ({"New game": "新しい対局", "Replays": "棋譜"}, "偽の規則の段落"),
    "zh": ({"New game": "新对局", "Replays": "棋谱"}, "假的规则段落"),
}


def compiled(entries: dict) -> Translations:
    catalog = Catalog(fuzzy=False)
    for (context, english), said in entries.items():
        catalog.add(english, said, context=context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer)


@pytest.fixture
def fake_catalogs(monkeypatch):
    guided = str(catalogs.folder_of(games.get(GUIDED)))
    fakes = {}
    for locale, (platform, block) in WORDS.items():
        fakes[(str(catalogs.PLATFORM), locale)] = compiled(
            {(None, k): v for k, v in platform.items()}
        )
        fakes[(guided, locale)] = compiled({("guide", BLOCK): block})

    def translations(folder: str, locale: str):
        return fakes.get((str(folder), locale)) or NullTranslations()

    monkeypatch.setattr(i18n, "translations", translations)
    # what was made from the real catalogs is not used, nor what is made from the fakes kept
    monkeypatch.setattr(narration, "_tables", {})
    monkeypatch.setattr(web_i18n, "_cached", {})


def lang_of(page) -> str:
    return page.get_attribute("html", "lang")


def test_the_browser_language_then_the_picker_choose_the_pages_language(
    server, watch, shot, fake_catalogs
):
    page = watch(locale="ko-KR").page
    page.goto(f"{server.url}/")
    assert lang_of(page) == "ko"
    assert page.locator("h1").first.inner_text() == "새 게임"
    assert page.locator("#lang-picker").input_value() == "ko"
    assert page.locator("#lang-picker option").all_inner_texts() == [
        "English",
        "한국어",
        "日本語",
        "中文",
    ]
    shot(page, "ko-home")
    # the picker sends itself on change and comes back to the same page, in Japanese
    with page.expect_navigation():
        page.select_option("#lang-picker", "ja")
    page.locator('html[lang="ja"]').wait_for(state="attached")
    assert page.url.rstrip("/") == server.url
    assert page.locator("h1").first.inner_text() == "新しい対局"
    shot(page, "ja-home")
    # the session keeps the choice over the browser's language on the next page
    page.click(".site-nav >> text=棋譜")
    page.wait_for_url("**/replays")
    assert lang_of(page) == "ja" and page.locator("h1").first.inner_text() == "棋譜"
    shot(page, "ja-replays")


@pytest.mark.parametrize("locale", ["en", "ko", "ja", "zh"])
def test_the_rules_page_in_each_language(server, watch, shot, fake_catalogs, locale):
    page = watch().page
    page.goto(f"{server.url}/games/{GUIDED}/rules?lang={locale}")
    assert lang_of(page) == locale
    body = page.locator("article.guide-body")
    body.wait_for()
    text = catalogs.squeeze(body.inner_text())
    if locale == "en":
        assert not any(block in text for _, block in WORDS.values())
    else:
        assert WORDS[locale][1] in text
    figures = page.locator("article.guide-body img, article.guide-body svg")
    assert figures.count() == 0 or figures.first.is_visible()
    shot(page, f"rules-{locale}")
