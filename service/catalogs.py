"""The catalogs' source side: what each package's catalog must hold (its template, the
``.pot``), and bringing each locale's ``.po`` up to date with it.

    python -m service.catalogs extract   # write every template (.pot)
    python -m service.catalogs update    # and merge it into each locale's .po

Two kinds of package (``games.i18n`` says what an entry is):

- the platform (``service/translations``): sentences marked in place in ``service``,
  ``events``, ``workers`` and ``replays`` (``said()``, ``_()``, ``gettext``), in the page
  templates (``_()``), in the pages' ES modules (``_()``), and the ``table.*`` messages of
  ``service.narration`` (context: the id);
- each game package (``<package>/translations``): its ``text.messages`` (context: the id),
  its catalogue's words (context ``catalogue``), the blocks of its rules page (context
  ``guide``, see ``guide_blocks``) and the sentences marked with ``said()`` in its modules.

The tests (``tests/service/test_catalogs.py``) check that every ``.po`` is up to date with
its template and translates every entry, with the same placeholders.
"""

from __future__ import annotations

import argparse
import io
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

import games
from events.i18n import DEFAULT, LOCALES, PLATFORM, folder_of, po_path
from games.base import guide_of

ROOT = Path(__file__).resolve().parent.parent
# the keywords that mark a sentence for the catalogs (Python, templates, ES modules)
KEYWORDS = {"said": None, "_": None, "gettext": None, "N_": None}
PLATFORM_SOURCES = [
    ("service", [("**.py", "python"), ("templates/**.html", "jinja2"),
                 ("static/**.js", "javascript")]),
    ("events", [("**.py", "python")]),
    ("workers", [("**.py", "python")]),
    ("replays", [("**.py", "python")]),
]  # fmt: skip
# the blocks of a rules page a translator translates one at a time (innermost first)
BLOCK = re.compile(
    r"<(p|li|h[1-6]|figcaption|caption|td|th|dt|dd|summary|title|text|desc)\b([^>]*)>"
    r"((?:(?!<(?:p|li|h[1-6]|figcaption|td|th|dt|dd|title|text|desc)\b).)*?)</\1>",
    re.S,
)


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def guide_blocks(html: str) -> Iterator[re.Match]:
    """The blocks of a rules page with words in them (``match.group(3)``: the inner HTML)."""
    for found in BLOCK.finditer(html):
        if re.search(r"[A-Za-z]", re.sub(r"<[^>]+>", "", found.group(3))):
            yield found


def translate_guide(html: str, gettext) -> str:
    """The rules page with each block's inner HTML translated (``gettext`` of its squeezed
    English, as the catalog holds it)."""

    def one(found: re.Match) -> str:
        inner = found.group(3)
        if not re.search(r"[A-Za-z]", re.sub(r"<[^>]+>", "", inner)):
            return found.group(0)
        english = squeeze(inner)
        translated = gettext(english)
        if translated == english:
            return found.group(0)
        return f"<{found.group(1)}{found.group(2)}>{translated}</{found.group(1)}>"

    return BLOCK.sub(one, html)


# a fixed date in the headers: the templates are made from the code, and git dates them
# (a date of the run would change every file at every update)
MADE = datetime(2026, 1, 1, tzinfo=UTC)


def _catalog(project: str) -> Catalog:
    return Catalog(project=project, version="1", charset="utf-8", fuzzy=False,
                   creation_date=MADE, revision_date=MADE)  # fmt: skip


def _extracted(catalog: Catalog, root: Path, sources: Iterable[tuple[str, list]]) -> None:
    for folder, method_map in sources:
        base = root / folder
        for filename, lineno, message, comments, context in extract_from_dir(
            base, method_map, {}, keywords=KEYWORDS, comment_tags=("i18n:",)
        ):
            if isinstance(message, tuple):
                message = message[0]
            if message:
                catalog.add(message, locations=[(f"{folder}/{filename}", lineno)],
                            auto_comments=comments, context=context)  # fmt: skip


def platform_template() -> Catalog:
    from service.narration import TABLE

    catalog = _catalog("bingfa")
    _extracted(catalog, ROOT, PLATFORM_SOURCES)
    for key, english in TABLE.items():
        catalog.add(english, context=key)
    return catalog


def catalogue_words(rules: Any) -> Iterator[str]:
    """The English of a game's catalogue: title, summary, seat labels, options."""
    found = rules.catalogue
    yield found.title
    if getattr(found, "summary", None):
        yield found.summary
    for seat in found.seats:
        yield seat.label
    for option in found.options:
        yield option.label
        if getattr(option, "help", None):
            yield option.help
        for choice in getattr(option, "choices", None) or ():
            yield choice[1]


def game_template(rules: Any) -> Catalog:
    catalog = _catalog(rules.key)
    for key, english in rules.text.messages.items():
        catalog.add(english, context=key)
    for english in catalogue_words(rules):
        catalog.add(english, context="catalogue")
    guide = guide_of(rules)
    if guide is not None:
        for found in guide_blocks(guide.read_text(encoding="utf-8")):
            catalog.add(squeeze(found.group(3)), context="guide")
    package = Path(rules.web).parent
    _extracted(catalog, package.parent, [(package.name, [("**.py", "python")])])
    return catalog


def packages() -> list[tuple[str, Path, Catalog]]:
    """(name, catalog folder, template) of the platform and of every registered game."""
    found = [("bingfa", PLATFORM, platform_template())]
    for key in sorted(games.REGISTRY):
        rules = games.get(key)
        found.append((key, folder_of(rules), game_template(rules)))
    return found


def write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=False)
    path.write_bytes(buffer.getvalue())


def read(path: Path, locale: str | None = None) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def update(template: Catalog, folder: Path) -> None:
    """Each locale's ``.po`` brought up to date with ``template``: new entries empty,
    vanished ones dropped, no guessing (a changed English sentence is translated anew)."""
    for locale in LOCALES:
        if locale == DEFAULT:
            continue
        path = po_path(folder, locale)
        found = read(path, locale) or Catalog(locale=locale, fuzzy=False)
        found.update(template, no_fuzzy_matching=True, update_header_comment=False)
        found.obsolete.clear()
        write(found, path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m service.catalogs", description=__doc__)
    parser.add_argument("what", choices=["extract", "update"])
    args = parser.parse_args(argv)
    for name, folder, template in packages():
        write(template, folder / "messages.pot")
        if args.what == "update":
            update(template, folder)
        print(f"{name}: {len(template)} entries in {folder.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
