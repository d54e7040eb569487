"""Pages for people: the home page (new game), the game page (seat or spectator), the list
of replays and the replay page (any step of a finished game, from any perspective).

The pages are shells: the board is drawn in the browser from the JSON API, so a page
holds no more than the API gives its caller. A seat's token travels in the URL fragment
(never sent to the server), and the page's script moves it into ``localStorage``.
Security headers (a Content-Security-Policy without inline scripts or styles) come from
``service.security`` for every response.
"""

from __future__ import annotations

import os

from flask import Blueprint, Flask, current_app, render_template

from service.usecases import NotFound

bp = Blueprint("pages", __name__, template_folder="templates")

LEVEL_LABELS = {
    "random": "Random (plays any legal move)",
    "easy": "Easy (looks one step ahead)",
    "medium": "Medium (searches; about half a second a move)",
    "hard": "Hard (searches deeper; up to a few seconds a move)",
}


def levels() -> list[tuple[str, str]]:
    """(level, label) for every AI level the service offers, weakest first."""
    offered = current_app.extensions["bingfa"].ai_levels or LEVEL_LABELS
    known = [lv for lv in LEVEL_LABELS if lv in offered]
    return [(lv, LEVEL_LABELS.get(lv, lv)) for lv in known + sorted(set(offered) - set(known))]


@bp.route("/")
def home():
    return render_template("home.html", levels=levels())


@bp.route("/g/<id:game_id>")
@bp.route("/g/<id:game_id>/<seat>")
def game(game_id: str, seat: str | None = None):
    try:
        loaded = current_app.extensions["bingfa"].load(game_id)
    except NotFound:
        return render_template("missing.html", what=f"There is no game {game_id}."), 404
    if seat is not None and seat not in loaded.seats:
        seats = " and ".join(loaded.seats)
        what = f"This game has no seat called {seat}; its seats are {seats}."
        return render_template("missing.html", what=what), 404
    return render_template("game.html", game_id=game_id, seat=seat or "", levels=levels())


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
        what = str(error)
        return render_template("missing.html", what=f"{what[:1].upper()}{what[1:]}."), 404
    # the winning-chance graph is another module's; the page loads it when it is there
    analysis = os.path.exists(os.path.join(current_app.static_folder or "", "analysis.js"))
    return render_template("replay.html", replay_id=replay_id, steps=len(found.events),
                           levels=levels(), analysis=analysis)  # fmt: skip


@bp.route("/leaderboard")
def leaderboard():
    return render_template("leaderboard.html")


@bp.route("/p/<id:player_id>")
def player(player_id: str):
    return render_template("player.html", player_id=player_id)  # the page asks the API


@bp.route("/me")
def me():
    return render_template("me.html")


def register_pages(app: Flask) -> None:
    app.register_blueprint(bp)
