"""The catalogs are complete: every package's ``.po`` for every language holds exactly the
entries its template (made afresh from the code) asks for, each translated, with the same
placeholders (``{name}``) and, in a rules page's blocks, the same markup; and each game's
glossary is kept: a message that uses a glossary term in English uses the glossary's
translation of it."""

from __future__ import annotations

import csv
import re
from collections import Counter

import pytest

from events.i18n import DEFAULT, LOCALES, po_path
from service import catalogs

PACKAGES = catalogs.packages()
TRANSLATED = [loc for loc in LOCALES if loc != DEFAULT]
CASES = [(name, folder, template, loc) for name, folder, template in PACKAGES for loc in TRANSLATED]
IDS = [f"{name}-{loc}" for name, _, _, loc in CASES]
PLACEHOLDER = re.compile(r"(?<!\{)\{(\w+)(?:![rs])?\}(?!\})")
TAG = re.compile(r"</?([a-zA-Z][\w-]*)")


def entries(catalog) -> dict[tuple[str | None, str], object]:
    return {(m.context, m.id): m for m in catalog if m.id}


@pytest.mark.parametrize(("name", "folder", "template", "locale"), CASES, ids=IDS)
def test_the_catalog_holds_what_the_code_asks_for(name, folder, template, locale):
    found = catalogs.read(po_path(folder, locale), locale)
    assert found is not None, f"{name} has no {locale} catalog: python -m service.catalogs update"
    wanted, held = set(entries(template)), set(entries(found))
    missing = sorted(wanted - held, key=str)[:5]
    extra = sorted(held - wanted, key=str)[:5]
    assert not missing and not extra, (
        f"{name} {locale} is out of date with the code (python -m service.catalogs update): "
        f"missing {missing}, no longer used {extra}"
    )


@pytest.mark.parametrize(("name", "folder", "template", "locale"), CASES, ids=IDS)
def test_every_entry_is_translated_with_the_same_placeholders(name, folder, template, locale):
    found = catalogs.read(po_path(folder, locale), locale)
    assert found is not None
    untranslated, wrong = [], []
    for (context, english), message in entries(found).items():
        said = message.string
        if not said or message.fuzzy:
            untranslated.append((context, english))
            continue
        same_values = Counter(PLACEHOLDER.findall(english)) == Counter(PLACEHOLDER.findall(said))
        same_markup = Counter(TAG.findall(english)) == Counter(TAG.findall(said))
        if not (same_values and same_markup):
            wrong.append((context, english, said))
    count = len(untranslated)
    assert not untranslated, f"{name} {locale}: {count} untranslated, e.g. {untranslated[:5]}"
    assert not wrong, f"{name} {locale}: placeholders or markup differ in {wrong[:3]}"


def glossary(folder, locale):
    path = folder / locale / "glossary.tsv"
    if not path.is_file():
        return None
    with path.open(encoding="utf-8") as f:
        return [row for row in csv.DictReader(f, delimiter="\t") if row.get("en")]


GAMES = [
    (name, folder, loc) for name, folder, _ in PACKAGES if name != "bingfa" for loc in TRANSLATED
]


@pytest.mark.parametrize(
    ("name", "folder", "locale"), GAMES, ids=[f"{n}-{loc}" for n, _, loc in GAMES]
)
def test_each_game_keeps_its_glossary(name, folder, locale):
    terms = glossary(folder, locale)
    assert terms, f"{name} has no {locale} glossary ({folder / locale / 'glossary.tsv'})"
    found = catalogs.read(po_path(folder, locale), locale)
    broken = []
    for term in terms:
        english, said = term["en"], term["term"]
        pattern = re.compile(rf"\b{re.escape(english)}\b")
        for message in found:
            used = message.id and message.string and message.context != "guide"
            if used and pattern.search(message.id) and said not in message.string:
                broken.append((english, said, message.id, message.string))
    count = len(broken)
    assert not broken, f"{name} {locale}: {count} messages leave the glossary, e.g. {broken[:3]}"
