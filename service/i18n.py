"""The reader's language on the web: which locale a request is answered in, the pages'
``_()``, the catalogs served to the ES modules, and the language picker.

The locale, first that gives one: ``?lang=`` on the request (or the ``X-Bingfa-Language``
header the pages' API calls carry: the page's own language), the player's profile, the
choice remembered in the session (the picker), the browser's ``Accept-Language``, English.
Flask-Babel selects it (``get_locale``) and formats dates, times and numbers by CLDR; the
catalogs are ``events.i18n``'s (compiled in memory from the ``.po`` files), so Flask-Babel's
``gettext`` and ours read the same entries.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any
from urllib.parse import urlsplit

import flask_babel
import orjson
from babel import Locale
from flask import Blueprint, Flask, Response, current_app, redirect, request, session
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from events import i18n
from events.i18n import DEFAULT, LOCALES, NAMES, Said, said
from service.catalogs import PLATFORM, folder_of

bp = Blueprint("i18n", __name__)
VARY = ("Accept-Language", "X-Bingfa-Language", "Cookie")  # what the answer's language follows
VARY_LINE = ", ".join(VARY)
COOKIE_YEAR = 365 * 24 * 3600


def select_locale() -> str:
    """The locale of this request (see the module docstring)."""
    # asked for this request: a link's ?lang=, or a page's API calls (the page's language)
    # (the query string is parsed only when there is one: an API call seldom has)
    asked = (request.query_string and request.args.get("lang")) or request.headers.get(
        "X-Bingfa-Language"
    )
    if asked and i18n.locale_of(asked) == asked:
        return asked
    player = session.get("player")
    if player:
        stored = _profile_language(player)
        if stored in LOCALES:
            return stored
    remembered = session.get("lang")
    if remembered in LOCALES:
        return remembered
    return _accepted(request.headers.get("Accept-Language"))


@functools.lru_cache(maxsize=256)  # the few Accept-Language values the browsers send
def _accepted(header: str | None) -> str:
    """The best of our locales for an ``Accept-Language`` (``request.accept_languages``)."""
    return parse_accept_header(header, LanguageAccept).best_match(LOCALES) or DEFAULT


_PARSED: dict[str, Locale] = {}  # each of our locales as Flask-Babel keeps it, parsed once
_CODES: dict[Locale, str] = {}  # and back


def _selected() -> Locale:
    """``select_locale``, as the ``Locale`` Flask-Babel keeps for the request (it takes a
    ``Locale`` as it is: parsing the code again cost more than choosing it)."""
    code = select_locale()
    found = _PARSED.get(code)
    if found is None:
        found = _PARSED[code] = Locale.parse(code)
        _CODES[found] = code
    return found


def _profile_language(player: str) -> str | None:
    profiles = current_app.extensions.get("profiles")
    if profiles is None:
        return None
    try:
        return profiles.language(player)
    except Exception:  # the profile store away: the session and the browser still say
        return None


def locale() -> str:
    """The locale of the request being answered, ``en`` outside a request."""
    try:
        found = flask_babel.get_locale()
    except Exception:
        return DEFAULT
    if found is None:
        return DEFAULT
    return _CODES.get(found) or str(found)


def platform(locale_: str | None = None):
    return i18n.translations(str(PLATFORM), locale_ or locale())


def gettext(english: str, **values: Any) -> str:
    """``english`` in the request's locale, ``{placeholders}`` filled in."""
    found = platform().gettext(english)
    return found.format_map(values) if values else found


def catalogs_for(locale_: str, rules: Any = None) -> list:
    """Where a ``Said`` is looked up: the platform's catalog, then the game's, then every
    game's (a rules error names its game only by the words it carries)."""
    import games

    found = [platform(locale_)]
    if rules is not None:
        found.append(i18n.translations(str(folder_of(rules)), locale_))
    for key in sorted(games.REGISTRY):
        found.append(i18n.translations(str(folder_of(games.get(key))), locale_))
    return found


def say(text: Any, rules: Any = None) -> str:
    """A sentence (maybe a ``Said``, as errors carry) in the request's locale."""
    if isinstance(text, Said):
        return text.again(catalogs_for(locale(), rules))
    return str(text)


class _CatalogDomain(flask_babel.Domain):
    """Flask-Babel reading our catalogs (``events.i18n``: the ``.po`` compiled in memory)
    rather than ``.mo`` files from a build step."""

    def get_translations(self):
        return platform()


def register(app: Flask) -> None:
    babel = flask_babel.Babel(app, locale_selector=_selected, configure_jinja=False)
    babel.__dict__["domain_instance"] = _CatalogDomain()  # its cached_property, replaced
    app.jinja_env.globals.update(
        _=gettext, locale=locale, languages=NAMES, format_number=flask_babel.format_decimal
    )
    app.register_blueprint(bp)

    @app.after_request
    def _vary(response: Response) -> Response:
        if "Vary" in response.headers:
            response.vary.update(VARY)  # one parse and one write of the header, not three
        else:
            response.headers.add("Vary", VARY_LINE)  # none there: no need to look for one
        return response


@bp.get("/i18n/<code>.json")
def catalog(code: str):
    """The platform's catalog for the pages' ES modules (``/static/i18n.js``): English
    sentence -> its translation, for the entries without a context."""
    if code not in LOCALES:
        from service.problems import N_, problem

        return problem(404, "not-found", N_("Not found"),
                       said("there is no language {code!r} here", code=code))  # fmt: skip
    body = _catalog_json(code)
    tag = hashlib.sha256(body).hexdigest()[:16]
    if request.if_none_match.contains(tag):
        return Response(status=304)
    response = Response(body, mimetype="application/json")
    response.set_etag(tag)
    response.cache_control.public = True
    response.cache_control.max_age = 300
    return response


_cached: dict[str, bytes] = {}


def _catalog_json(code: str) -> bytes:
    if code not in _cached:
        entries: dict[str, str] = {}
        if code != DEFAULT:
            found = i18n.translations(str(PLATFORM), code)
            entries = {k: v for k, v in getattr(found, "_catalog", {}).items()
                       if isinstance(k, str) and k and "\x04" not in k and v}  # fmt: skip
        _cached[code] = orjson.dumps(entries, option=orjson.OPT_SORT_KEYS)
    return _cached[code]


@bp.post("/language")
def choose():
    """The picker: remember the language in the session (and the profile of a player who
    has one), then back to the page it was chosen on."""
    code = request.form.get("lang", "")
    back = request.form.get("next") or "/"
    if code in LOCALES:
        session["lang"] = code
        player = session.get("player")
        profiles = current_app.extensions.get("profiles")
        if player and profiles is not None:
            profiles.set_language(player, code)
    parts = urlsplit(back)
    if parts.scheme or parts.netloc or not back.startswith("/") or back.startswith("//"):
        back = "/"  # only a page of this site: never an open redirect
    return redirect(back, code=303)
