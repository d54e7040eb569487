"""A notification said in its reader's language: the player's list, their browser, their
webhook and its daily digest. No Flask: the worker that sends webhooks uses it too.

A notification keeps its message (``events.notifications``: ``message``, the game's key in
``rules``) beside its English ``text``; here the message is rendered with the notices'
table (``NOTICES``) and its game's messages, both translated for the locale, and
the seats' labels with the game's catalogue words. A notification stored before messages
were kept says its English ``text``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import games
from events import i18n
from events.i18n import PLATFORM, folder_of
from events.notifications import NOTICES, message_of
from games.messages import is_message, render

Language = Callable[[str], str | None]  # player -> the language of their profile, if any


def text(item: Mapping[str, Any], locale: str) -> str:
    """``item``'s sentence in ``locale`` (English where a catalog has no entry)."""
    kept = item.get("message")
    if not kept:
        return str(item.get("text") or "")
    locale = i18n.locale_of(locale)
    rules = games.REGISTRY.get(item.get("rules") or "")
    table = i18n.table(NOTICES, PLATFORM, locale)
    words = None
    if rules is not None:
        table = {**i18n.table(rules.text.messages, folder_of(rules), locale), **table}
        words = i18n.translations(str(folder_of(rules)), locale)
    try:
        return render(table, _labels(message_of(kept), words))
    except (KeyError, IndexError, ValueError):  # a message this version no longer has
        return str(item.get("text") or "")


def _labels(value: Any, words: Any) -> Any:
    """The seats' labels (``table.seat``) as the game's catalogue says them in the
    locale (context "catalogue")."""
    if is_message(value):
        key, values = value
        values = {k: _labels(v, words) for k, v in values.items()}
        if key == "table.seat" and words is not None and isinstance(values.get("label"), str):
            values["label"] = words.pgettext("catalogue", values["label"])
        return (key, values)
    if isinstance(value, list):
        return [_labels(v, words) for v in value]
    return value


def language_of(player: str, language: Language | None) -> str:
    """The language a delivery to ``player`` is said in: their profile's, else English."""
    try:
        found = language(player) if language is not None else None
    except Exception:  # the profile store away: English rather than nothing
        found = None
    return found if found in i18n.LOCALES else i18n.DEFAULT


def told_in(item: Mapping[str, Any], locale: str) -> dict[str, Any]:
    """``item`` with ``said`` (its sentence in ``locale``) and ``lang``, its digest's items
    too; ``text`` stays English (what receivers read before languages came)."""
    out = {**item, "said": text(item, locale), "lang": i18n.locale_of(locale)}
    if isinstance(item.get("items"), list):
        out["items"] = [told_in(i, locale) for i in item["items"]]
    return out
