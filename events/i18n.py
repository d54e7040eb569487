"""Reading the catalogs: each package's gettext catalogs (Babel), compiled in memory from
its ``.po`` files when first asked for (no ``.mo`` files to build or commit), and the CLDR
locale of each language. What an entry is and the languages: ``games.i18n`` (pure, so the
game packages can mark their sentences); the catalogs' templates: ``service.catalogs``.

A catalog is ``<folder>/<locale>/LC_MESSAGES/messages.po``: the platform's in
``service/translations``, each game's in ``<package>/translations``.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from games.i18n import CLDR, DEFAULT, LOCALES, NAMES, Said, again, locale_of, said

__all__ = ["CLDR", "DEFAULT", "LOCALES", "NAMES", "PLATFORM", "Said", "again", "cldr",
           "folder_of", "locale_of", "po_path", "said", "table", "translations"]  # fmt: skip

# The platform's catalogs (its pages, errors, notifications, the table's sentences): data
# installed with the ``service`` package, read by every layer that says something.
PLATFORM = Path(__file__).resolve().parent.parent / "service" / "translations"
# Where each player's chosen language is kept (``service.profiles`` writes it; the workers
# read it to say a webhook delivery or a digest in its player's language).
PROFILE_LANGUAGES = "pf:{profiles}:language"


def profile_language(redis) -> Callable[[str], str | None]:
    """player -> the language their profile says, read from ``redis``."""

    def language(player: str) -> str | None:
        raw = redis.hget(PROFILE_LANGUAGES, player)
        return raw.decode() if isinstance(raw, bytes) else raw

    return language


def folder_of(rules) -> Path:
    """Where a game package keeps its catalogs: ``translations`` beside its modules."""
    return Path(rules.web).parent / "translations"


def cldr(locale: str) -> Locale:
    """The CLDR locale dates, times, durations and numbers are formatted for."""
    return Locale.parse(CLDR[locale_of(locale)])


def po_path(folder: Path | str, locale: str) -> Path:
    return Path(folder) / locale / "LC_MESSAGES" / "messages.po"


@lru_cache(maxsize=64)
def translations(folder: str, locale: str) -> NullTranslations:
    """The catalog of ``folder`` for ``locale``, compiled once; English (none) for ``en``
    or a locale without a catalog. Fuzzy entries are not used."""
    path = po_path(folder, locale)
    if locale == DEFAULT or not path.is_file():
        return NullTranslations()
    with path.open("rb") as f:
        catalog = read_po(f, locale=CLDR[locale])
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer)


def table(messages: Mapping[str, str], folder: Path | str, locale: str) -> dict[str, str]:
    """``messages`` (id -> English template) in ``locale``: each template translated in
    the catalog of ``folder`` (context: the id), English where the catalog has none."""
    found = translations(str(folder), locale_of(locale))
    return {key: found.pgettext(key, english) for key, english in messages.items()}
