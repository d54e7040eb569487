"""Translations: gettext catalogs (Babel), one folder of them per package.

Every word a person reads is English in the code and looked up in a catalog for the
reader's locale; a word the catalog lacks stays English. Two kinds of entries:

- a message of a table (a game's ``text.messages``, the platform's ``table.*``): the
  message id is the entry's context (``msgctxt``) and its English template the ``msgid``,
  so a translator sees the English, and a changed English sentence asks for a new
  translation. ``table(messages, folder, locale)`` is the table in that locale.
- a sentence written in place (a page, an error): the English is the ``msgid``, marked
  where it is written (``_()`` in templates and ES modules, ``said()`` in Python) so that
  ``python -m service.catalogs extract`` finds it.

Placeholders are ``{name}`` (``str.format``), in templates too; the catalogs keep them.
This module is what a game package may use (pure, standard library: ``said``); reading the
catalogs (Babel, files) is ``events.i18n``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The site's languages, English first (the source); the names each says itself in.
LOCALES = ("en", "ko", "ja", "zh")
DEFAULT = "en"
NAMES = {"en": "English", "ko": "한국어", "ja": "日本語", "zh": "中文"}
# Chinese is Simplified (zh-Hans) throughout; a game's own printed title keeps its
# Traditional characters as a proper name (縱橫戰國), as its box prints it.
CLDR = {"en": "en", "ko": "ko", "ja": "ja", "zh": "zh_Hans"}


def locale_of(code: Any) -> str:
    """One of ``LOCALES`` for a language code ("zh-TW", "ko_KR", "JA"), else English."""
    base = str(code or "").replace("_", "-").split("-")[0].lower()
    return base if base in LOCALES else DEFAULT


class Said(str):
    """A sentence written in place, in English (it is that ``str``), that remembers its
    ``template`` and ``values`` so it can be said again in another locale
    (``again``). Raise errors with one: ``raise Invalid(said("no game {id}", id=x))``."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, values: Mapping[str, Any]) -> Said:
        made = super().__new__(cls, template.format_map(dict(values)) if values else template)
        made.template = template
        made.values = dict(values)
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        # copied (dataclasses.asdict deep-copies) and pickled (Celery) as what it is
        return (Said, (self.template, self.values))

    def again(self, catalogs: list[Any]) -> str:
        """This sentence from the first of ``catalogs`` that translates it, else English.
        A value that is itself a ``Said`` is translated too."""
        values = {k: again(v, catalogs) if isinstance(v, Said) else v
                  for k, v in self.values.items()}  # fmt: skip
        for catalog in catalogs:
            found = catalog.gettext(self.template)
            if found != self.template:
                return found.format_map(values) if values else found
        return self.template.format_map(values) if values else self.template


def said(template: str, **values: Any) -> Said:
    """Mark an English sentence for the catalogs (the extractor's keyword) and fill in its
    ``{placeholders}``."""
    return Said(template, values)


def again(text: Any, catalogs: list[Any]) -> str:
    """``text`` in the locale of ``catalogs`` when it is a ``Said``, else as it is."""
    return text.again(catalogs) if isinstance(text, Said) else str(text)
