"""The kinds of game this service offers, from each game package's catalogue.

Nothing here knows a game: the default game is the registry's first, a new game's seats
are its catalogue's, its options are checked against the catalogue's ``Option``s (a
marshmallow schema derived from them), and the pages' forms and the seek summaries are
written from the same options.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

import games
from events import i18n
from events.schemas import StrictBoolean
from games.base import Catalogue, Option, RulesError, match_of
from games.i18n import said
from games.messages import render


def default_key() -> str:
    """The game a request that names none is about: the registry's first."""
    return next(iter(games.REGISTRY))


def catalogue(key: str) -> Catalogue:
    return games.get(key).catalogue


def label(key: str, seat: str) -> str:
    """A seat as players read it (its label); an unknown seat as it is written."""
    rules = games.REGISTRY.get(key)
    for info in getattr(getattr(rules, "catalogue", None), "seats", ()):
        if info.id == seat:
            return info.label
    return seat


def human_seats(key: str) -> dict[str, str]:
    """Every seat of the game played by a person: a new game's seats when none are given."""
    return {seat.id: "human" for seat in catalogue(key).seats}


def listed(words: list[str], last: str = "or") -> str:
    """["a", "b", "c"] as "a, b or c"."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


# -- as the API gives it -------------------------------------------------------------------
def words(key: str, locale: str | None = None) -> Callable[[str], str]:
    """The catalogue's words of the game in ``locale`` (default: the request's): its
    package's catalog, context ``catalogue`` (English where it has none)."""
    from service.catalogs import folder_of
    from service.i18n import locale as current

    found = i18n.translations(str(folder_of(games.get(key))), locale or current())
    return lambda english: found.pgettext("catalogue", english) if english else english


def option_json(option: Option, word: Callable[[str], str] = str) -> dict[str, Any]:
    return {
        "name": option.name,
        "kind": option.kind,
        "label": word(option.label),
        "default": option.default,
        "choices": [{"value": value, "label": word(text)} for value, text in option.choices],
        "help": word(option.help),
    }


def kind_json(key: str, locale: str | None = None) -> dict[str, Any]:
    """A game's catalogue as plain JSON (``GET /api/kinds``), its words in ``locale``
    (default: the request's)."""
    cat = catalogue(key)
    word = words(key, locale)
    return {
        "key": key,
        "title": word(cat.title),
        "summary": word(cat.summary),
        "seats": [{"id": s.id, "label": word(s.label), "colour": s.colour} for s in cat.seats],
        "options": [option_json(o, word) for o in cat.options],
        "match": match_json(key, locale),
    }


def match_json(key: str, locale: str | None = None) -> dict[str, Any] | None:
    """Whether the game can be played as a match of linked games, and how it says it."""
    from service.narration import messages

    rules = games.REGISTRY[key]
    parts = match_of(rules)
    if parts is None:
        return None
    label = render(messages(rules, locale), (parts.label, {}))  # a message id
    return {"games_in_match": parts.games_in_match, "label": label}


def kinds_json(locale: str | None = None) -> list[dict[str, Any]]:
    return [kind_json(key, locale) for key in games.REGISTRY]


# -- options: a schema derived from the catalogue ------------------------------------------
def options_schema(key: str) -> Schema:
    """The marshmallow schema of the game's options: each a choice among its values or a
    boolean, nothing else."""
    made: dict[str, Any] = {}
    for option in catalogue(key).options:
        if option.kind == "bool":
            error = f"the {option.name} option is true or false"
            made[option.name] = StrictBoolean(error_messages={"invalid": error})
        else:
            values = [value for value, _ in option.choices]
            words = listed([str(v) for v in values])
            error = f"the {option.name} must be {words}, not {{input!r}}"
            made[option.name] = fields.Raw(validate=validate.OneOf(values, error=error))
    return Schema.from_dict(made, name=f"Options_{key}")(unknown=RAISE)


def check_options(key: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as given, or ``RulesError`` with a sentence that says what is wrong."""
    try:
        options_schema(key).load(dict(options))
    except ValidationError as error:
        messages = error.normalized_messages()
        names = [o.name for o in catalogue(key).options]
        for name, _problems in sorted(messages.items()):
            if name not in names:
                title = catalogue(key).title
                raise RulesError(
                    said(
                        "{title} has no option {name!r}; use {names}",
                        title=title,
                        name=name,
                        names=listed(names, "and") or "none",
                    )
                ) from None
            raise RulesError(_option_refused(key, name, options.get(name))) from None
    return dict(options)


def _option_refused(key: str, name: str, given: Any) -> str:
    """What is wrong with option ``name`` (the schema's messages, as a sentence the
    catalogs translate)."""
    option = next(o for o in catalogue(key).options if o.name == name)
    if option.kind == "bool":
        return said("the {name} option is true or false", name=name)
    words = listed([str(value) for value, _ in option.choices])
    return said("the {name} must be {words}, not {input!r}", name=name, words=words, input=given)


def options_words(key: str, options: Mapping[str, Any]) -> list[str]:
    """The options in a few words ("Standard", "events" or "no events"), defaults shown
    (but for the details a catalogue leaves out of its summaries at their default)."""
    words = []
    for option in catalogue(key).options:
        value = options.get(option.name, option.default)
        if not getattr(option, "summary", True) and value == option.default:
            continue
        name = option.name.replace("_", " ")
        if option.kind == "bool":
            words.append(name if value else f"no {name}")
        else:
            words.append(str(value).replace("_", " ").capitalize())
    return words


def options_description() -> str:
    """The ``options`` field of a new game, for the API's documentation."""
    parts = []
    for key in games.REGISTRY:
        each = []
        for o in catalogue(key).options:
            if o.kind == "bool":
                each.append(f"{o.name} (true or false, default {str(o.default).lower()})")
            else:
                values = listed([str(v) for v, _ in o.choices])
                each.append(f"{o.name} ({values}, default {o.default})")
        parts.append(f"{key}: {', '.join(each) or 'none'}")
    return "the game's options (GET /api/kinds): " + "; ".join(parts)
