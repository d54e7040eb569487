"""Pages for people: the home page (new game), the game page (seat or spectator), the list
of replays and the replay page (any step of a finished game, from any perspective), and
each game's rules for players (its package's optional ``guide``).

The pages are shells that name no game: the forms come from the games' catalogues, and
the board is drawn in the browser by the game's own front end (its package's ``web``
folder of ES modules, served at ``/games/<key>/web/``) from the JSON API, so a page
holds no more than the API gives its caller. Seat colours come from the catalogues too
(``/games/seats.css``). A seat's token travels in the URL fragment
(never sent to the server), and the page's script moves it into ``localStorage``.
Security headers (a Content-Security-Policy without inline scripts or styles) come from
``service.security`` for every response.

Every page is in the request's language (``service.i18n``): the templates' words through
``_()``, the catalogues' words through each game's catalog (``service.kinds.words``), the
rules page's guide block by block (context ``guide``), durations and numbers by CLDR.
"""

from __future__ import annotations

import os

from babel.lists import format_list
from babel.units import format_unit
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    render_template,
    send_from_directory,
    session,
)
from markupsafe import Markup

import games
from events import i18n
from events.writepath import NotFound
from games.base import guide_of
from service import kinds, narration
from service.catalogs import folder_of, translate_guide
from service.i18n import gettext, locale, say


def N_(english: str) -> str:
    """Marks an English sentence for the catalogs where it is written; it is translated
    where it is said (``gettext``)."""
    return english


bp = Blueprint("pages", __name__, template_folder="templates")

LEVEL_LABELS = {
    "random": N_("Random (plays any legal move)"),
    "easy": N_("Easy (looks one step ahead)"),
    "medium": N_("Medium (searches; about half a second a move)"),
    "hard": N_("Hard (searches deeper; up to a few seconds a move)"),
}


def levels() -> list[tuple[str, str]]:
    """(level, label) for every AI level the service offers, weakest first."""
    offered = current_app.extensions["bingfa"].ai_levels or LEVEL_LABELS
    known = [lv for lv in LEVEL_LABELS if lv in offered]
    every = known + sorted(set(offered) - set(known))
    return [(lv, gettext(LEVEL_LABELS[lv]) if lv in LEVEL_LABELS else lv) for lv in every]


def form_kinds() -> list[dict]:
    """Every game's catalogue for the new-game forms, in the request's language, each seat
    with its role when the game's text has one (message ``seat.<id>.role``, shown as
    "<label> (<role>)")."""
    out = []
    for key in games.REGISTRY:
        found = kinds.kind_json(key)
        messages = narration.messages(games.get(key))
        for seat in found["seats"]:
            seat["role"] = messages.get(f"seat.{seat['id']}.role", "")
        out.append(found)
    return out


def duration(count: int, unit: str) -> str:
    """``count`` minutes, hours or days (``unit``) as the request's language says it
    (CLDR: "3 days", "3일", "3 日", "3天")."""
    return format_unit(count, f"duration-{unit}", locale=i18n.cldr(locale()))


def listed(words: list[str]) -> str:
    """Titles one after another, separated as the request's language separates the items
    of a list (CLDR: ", " in English, "、" in Japanese and Chinese)."""
    middle = i18n.cldr(locale()).list_patterns["standard"]["middle"]
    found = words[-1] if words else ""
    for word in reversed(words[:-1]):
        found = middle.format(word, found)
    return found


@bp.app_context_processor
def the_kinds() -> dict:
    """What every page may say: the games offered (the tagline, the forms) and which of
    them have a rules page (``guides``: their keys)."""
    found = form_kinds()
    seats = {s["id"]: s for kind in found for s in kind["seats"]}  # every game's, once each
    guides = {key for key in games.REGISTRY if guide_of(games.get(key)) is not None}
    return {"kinds": found, "default_kind": kinds.default_key(), "listed": listed,
            "duration": duration, "seat_choices": list(seats.values()),
            "guides": guides}  # fmt: skip


@bp.route("/")
def home():
    return render_template("home.html", levels=levels())


@bp.route("/games/<id:key>/web/<path:path>")
def game_web(key: str, path: str):
    """A file of the game's front end (its package's ``web`` folder)."""
    rules = games.REGISTRY.get(key)
    if rules is None:
        abort(404)
    return send_from_directory(rules.web, path)


@bp.route("/games/<id:key>/rules")
def rules_page(key: str):
    """The game's rules for players: its package's guide (an HTML fragment with its
    figures), in the page shell. A game without a guide, or no such game: a 404 that says so."""
    rules = games.REGISTRY.get(key)
    if rules is None:
        return _no_game(key)
    found = kinds.kind_json(key)
    guide = guide_of(rules)
    if guide is None:
        what = gettext("{title} has no rules page here yet.", title=found["title"])
        return render_template("missing.html", what=what), 404
    # each block of the guide in the reader's language (the game's catalog, context
    # "guide"); a block its translators have not reached yet stays English
    catalog = i18n.translations(str(folder_of(rules)), locale())
    html = translate_guide(guide.read_text(encoding="utf-8"),
                           lambda english: catalog.pgettext("guide", english))  # fmt: skip
    return render_template("rules.html", kind=key, title=found["title"],
                           summary=found["summary"], guide=Markup(html))  # fmt: skip


def _no_game(key: str):
    what = gettext("This server has no game {key!r}.", key=key)
    return render_template("missing.html", what=what), 404


@bp.route("/games/seats.css")
def seat_colours():
    """Each game's seat colours as CSS custom properties, from the catalogues: ``--seat``
    on every element with data-seat, data-owner or data-colour naming the seat, inside a
    page (or row) of that game (``data-kind``)."""
    rules = []
    for key in games.REGISTRY:
        for seat in games.get(key).catalogue.seats:
            who = ", ".join(f'[data-{a}="{seat.id}"]' for a in ("seat", "owner", "colour"))
            rules.append(f'[data-kind="{key}"] :is({who}) {{ --seat: {seat.colour}; }}')
    return Response("\n".join(rules) + "\n", mimetype="text/css")


@bp.route("/g/<id:game_id>")
@bp.route("/g/<id:game_id>/<seat>")
def game(game_id: str, seat: str | None = None):
    try:
        loaded = current_app.extensions["bingfa"].load(game_id)
    except NotFound:
        what = gettext("There is no game {id}.", id=game_id)
        return render_template("missing.html", what=what), 404
    if seat is not None and seat not in loaded.seats:
        seats = format_list(list(loaded.seats), locale=i18n.cldr(locale()))
        what = gettext("This game has no seat called {seat}; its seats are {seats}.",
                       seat=seat, seats=seats)  # fmt: skip
        return render_template("missing.html", what=what), 404
    return render_template("game.html", game_id=game_id, seat=seat or "", levels=levels(),
                           kind=loaded.rules.key)  # fmt: skip


@bp.route("/seeks")
def seeks():
    return render_template("seeks.html")


@bp.route("/replays")
def replays():
    return render_template("replays.html")


@bp.route("/r/<id:replay_id>")
def replay(replay_id: str):
    from service.api.replays import record  # archives a finished game not archived yet

    try:
        found = record(replay_id)
    except NotFound as error:
        what = say(error.args[0] if error.args else str(error))
        reason = what[:1].upper() + what[1:]
        what = gettext("{reason}.", reason=reason)
        return render_template("missing.html", what=what), 404
    # the winning-chance graph is another module's; the page loads it when it is there
    analysis = os.path.exists(os.path.join(current_app.static_folder or "", "analysis.js"))
    key = found.header.get("game")
    if key not in games.REGISTRY:
        return _no_game(key)
    seats = kinds.kind_json(key)["seats"]
    return render_template("replay.html", replay_id=replay_id, steps=len(found.events),
                           levels=levels(), analysis=analysis, kind=key,
                           seats=seats)  # fmt: skip


@bp.route("/leaderboard")
def leaderboard():
    return render_template("leaderboard.html")


@bp.route("/p/<id:player_id>")
def player(player_id: str):
    return render_template("player.html", player_id=player_id)  # the page asks the API


@bp.route("/me")
def me():
    # Whether this browser's player has a webhook, so the page asks for it only when there
    # is one (asking otherwise is a 404, and a console error, on every visit).
    player = session.get("player")
    notes = current_app.extensions.get("notifications")
    hook = bool(player and notes is not None and notes.webhook(player) is not None)
    return render_template("me.html", webhook=hook)


def register_pages(app: Flask) -> None:
    app.register_blueprint(bp)
