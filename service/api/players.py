"""Players: your profile (name, recovery code, recovering an identity), a player's page
data (ratings, history, timeouts) and the leaderboard. Views load, call one plain
function, dump; the reading is in ``player_page`` and ``leaderboard_page`` below."""

from __future__ import annotations

import math
import time
from typing import Any

from flask import current_app, request, session
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from marshmallow import Schema, fields, validate

import games
from events.errors import told
from events.ratings import leaderboard, timeout_record
from events.schemas import JSON_INT_MAX
from events.writepath import NotFound
from games.i18n import LOCALES, said
from service.api.games import player_id
from service.bodies import Blueprint
from service.kinds import default_key
from service.problems import N_, problem
from service.profiles import (
    MalformedCode,
    NameRefused,
    NameTaken,
    ProfileStore,
    WrongCode,
    anonymous_label,
)
from service.security import limit_writes

blp = Blueprint("players", __name__, url_prefix="/api", description="Profiles and ratings")
RECOVERY_LIMIT = "10 per hour"  # wrong recovery codes per address (on top of the write limit)


# -- schemas ------------------------------------------------------------------------------
class Profile(Schema):
    player = fields.String(metadata={"description": "this browser's player id (public)"})
    name = fields.String(allow_none=True, metadata={"description": "None: no name chosen"})
    label = fields.String(metadata={"description": "the name, or an anonymous label"})
    recovery = fields.Boolean(metadata={"description": "whether a recovery code exists"})
    language = fields.String(allow_none=True, metadata={
        "description": "the language chosen for this identity (en, ko, ja, zh); None: the "
                       "browser's Accept-Language decides"})  # fmt: skip


class LanguageChange(Schema):
    language = fields.String(required=True, validate=validate.OneOf(LOCALES),
                             metadata={"description": "en, ko, ja or zh"})  # fmt: skip


class NameChange(Schema):
    name = fields.String(required=True, metadata={"description": "2 to 24 letters, digits, "
                                                  "spaces, _ or -; unique"})  # fmt: skip


class RecoveryCodeMade(Schema):
    player = fields.String()
    code = fields.String(metadata={"description": "shown once: only its sha256 is kept"})


class RecoverIdentity(Schema):
    code = fields.String(required=True, validate=validate.Length(max=100),
                         metadata={"description": "XXXX-XXXX-XXXX-XXXX"})  # fmt: skip


class PlayerQuery(Schema):
    game = fields.String(load_default=default_key, metadata={"description": "whose history"})
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=JSON_INT_MAX))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class PlayerTimeouts(Schema):
    times = fields.Integer(metadata={"description": "how often their time ran out"})
    games = fields.Integer(metadata={"description": "in how many games"})
    often = fields.Boolean(metadata={"description": "in 3 games or more"})


class PlayerRating(Schema):
    game = fields.String()
    rating = fields.Integer()
    rd = fields.Integer(metadata={"description": "rating deviation"})
    volatility = fields.Float()
    games = fields.Integer(metadata={"description": "rated games"})
    wins, losses, draws = fields.Integer(), fields.Integer(), fields.Integer()
    provisional = fields.Boolean()


class RatedGame(Schema):
    game = fields.String(metadata={"description": "the game id (its replay: /r/<id>)"})
    finished_at = fields.String()
    seat = fields.String()
    result = fields.String(metadata={"description": "win, loss or draw"})
    opponent = fields.Dict(metadata={"description": "player, name, label"})
    opponent_rating = fields.Integer()
    rating_before = fields.Integer()
    rating_after = fields.Integer()
    change = fields.Integer()


class RatedHistory(Schema):
    game = fields.String()
    entries = fields.List(fields.Nested(RatedGame), metadata={"description": "newest first"})
    total = fields.Integer()
    next_offset = fields.Integer(allow_none=True)


class PlayerPage(Schema):
    player = fields.String()
    name = fields.String(allow_none=True)
    label = fields.String()
    ratings = fields.List(fields.Nested(PlayerRating))
    history = fields.Nested(RatedHistory)
    timeouts = fields.Nested(PlayerTimeouts)
    games = fields.Dict(metadata={"description": "finished and playing: all games, rated or not"})


class LeaderboardQuery(Schema):
    game = fields.String(load_default=default_key)
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class LeaderboardRow(PlayerRating):
    player = fields.String()
    name = fields.String(allow_none=True)
    label = fields.String()
    rank = fields.Integer(allow_none=True, metadata={"description": "None: provisional"})
    often_times_out = fields.Boolean()


class Leaderboard(Schema):
    game = fields.String()
    players = fields.List(
        fields.Nested(LeaderboardRow),
        metadata={"description": "established first, then provisional"},
    )


# -- errors -------------------------------------------------------------------------------
@blp.errorhandler(NameRefused)
@blp.errorhandler(MalformedCode)
def refused(error):
    return problem(422, "invalid-request", N_("The request is not valid"), told(error))


@blp.errorhandler(NameTaken)
def taken(error):
    return problem(409, "name-taken", N_("Name taken"), told(error))


@blp.errorhandler(WrongCode)
def wrong_code(error):
    return problem(403, "wrong-recovery-code", N_("Wrong recovery code"), told(error))


# -- your profile -------------------------------------------------------------------------
def profiles() -> ProfileStore:
    return current_app.extensions["profiles"]


def me(player: str) -> dict[str, Any]:
    name = profiles().name_of(player)
    return {"player": player, "name": name, "label": name or anonymous_label(player),
            "recovery": profiles().has_recovery(player),
            "language": profiles().language(player)}  # fmt: skip


@blp.route("/me")
@blp.response(200, Profile)
def my_profile():
    """This browser's identity: its player id, its name, whether it has a recovery code."""
    return me(player_id())


@blp.route("/me/language", methods=["PUT"])
@limit_writes
@blp.arguments(LanguageChange())
@blp.response(200, Profile)
def set_language(body):
    """The language this identity reads the site in, on every browser it uses (the pages'
    picker sets it too); remembered in this browser's session as well."""
    player = player_id()
    profiles().set_language(player, body["language"])
    session["lang"] = body["language"]
    return me(player)


@blp.route("/me/name", methods=["PUT"])
@limit_writes
@blp.arguments(NameChange())
@blp.response(200, Profile)
def set_name(body):
    """Name this browser's identity (or rename it); names are unique, whatever the case."""
    player = player_id()
    profiles().set_name(player, body["name"])
    return me(player)


@blp.route("/me/recovery", methods=["POST"])
@limit_writes
@blp.response(201, RecoveryCodeMade)
def new_recovery():
    """A recovery code for this identity, shown only here; the previous one stops working."""
    player = player_id()
    return {"player": player, "code": profiles().new_recovery(player)}


@blp.route("/me/recover", methods=["POST"])
@limit_writes
@blp.arguments(RecoverIdentity())
@blp.response(200, Profile)
def recover(body):
    """Make this browser the identity whose recovery code you give (the other browser
    keeps it too). Wrong codes are limited per address."""
    guesses, address = current_app.extensions["recovery_limit"], request.remote_addr or "?"
    guesses.check(address)
    try:
        player = profiles().recover(body["code"])
    except WrongCode:
        guesses.missed(address)
        raise
    session["player"] = player
    session.permanent = True
    return me(player)


class RecoveryLimit:
    """Wrong recovery codes per address (``RATELIMIT_RECOVERY``), counted by ``limits`` in
    the write limits' storage (Redis in production, so all workers share it). 80 random
    bits cannot be guessed at the write limit either; this stops a guesser from even
    trying for long, and does not count the people who type their code right."""

    def __init__(self, spec: str, storage_uri: str) -> None:
        self.limits = parse_many(spec)
        self.counter = FixedWindowRateLimiter(storage_from_string(storage_uri))

    def check(self, key: str) -> None:
        for limit in self.limits:
            if not self.counter.test(limit, "recovery", key):
                stats = self.counter.get_window_stats(limit, "recovery", key)
                raise TooManyGuesses(limit, stats)

    def missed(self, key: str) -> None:
        for limit in self.limits:
            self.counter.hit(limit, "recovery", key)


class TooManyGuesses(Exception):
    def __init__(self, limit: Any, stats: Any) -> None:
        super().__init__(str(limit).replace(" per 1 ", " per "))
        self.retry_after = max(1, math.ceil(getattr(stats, "reset_time", 0) - time.time()))


@blp.errorhandler(TooManyGuesses)
def too_many_guesses(error):
    amount, _, per = str(error).partition(" per ")
    response = problem(429, "rate-limited", N_("Too many wrong recovery codes"),
                       said("at most {amount} wrong codes per {per} may be tried from one "
                            "address; try again in {seconds} s", amount=amount, per=per,
                            seconds=error.retry_after))  # fmt: skip
    response.headers["Retry-After"] = str(error.retry_after)
    return response


@blp.record_once
def _make_recovery_limit(state) -> None:
    config = state.app.config  # the same storage as the write limits (service.security)
    storage = config.get("RATELIMIT_STORAGE_URI") or config.get("REDIS_URL") or "memory://"
    spec = config.get("RATELIMIT_RECOVERY", RECOVERY_LIMIT)
    state.app.extensions["recovery_limit"] = RecoveryLimit(spec, storage)


# -- players and the leaderboard ----------------------------------------------------------
def queries():
    return current_app.extensions["queries"]


def _check_game(key: str) -> None:
    if key not in games.REGISTRY:
        raise NotFound(
            said(
                "there is no game called {key!r}; there is {games}",
                key=key,
                games=", ".join(sorted(games.REGISTRY)),
            )
        )


def _person(player: str, names: dict[str, str | None]) -> dict[str, Any]:
    name = names.get(player)
    return {"player": player, "name": name, "label": name or anonymous_label(player)}


def player_page(player: str, key: str, offset: int, limit: int,
                yours: bool = False) -> dict[str, Any]:  # fmt: skip
    """Everything the player page shows; NotFound for an id that never did anything
    (unless it is ``yours``: your own page exists before your first game)."""
    _check_game(key)
    ratings = queries().ratings()
    standings = {k: ratings.standing(k, player) for k in games.REGISTRY}
    rows = [{"game": k, **s.public()} for k, s in sorted(standings.items()) if s is not None]
    entries, total = ratings.history(key, player, offset, limit)
    timeouts = ratings.timeouts([player])[player]
    mine = queries().games_of(player)
    played = {"finished": sum(1 for g in mine if g.get("status") == "finished"),
              "playing": sum(1 for g in mine if g.get("status") != "finished")}  # fmt: skip
    names = profiles().names_of([player, *{e["opponent"] for e in entries}])
    if not (yours or names[player] or rows or mine or timeouts["times"]):
        raise NotFound(said("there is no player with that id here (ids are in the game links)"))
    return {
        **_person(player, names),
        "ratings": rows,
        "history": {
            "game": key,
            "entries": [_entry(e, names) for e in entries],
            "total": total,
            "next_offset": offset + limit if offset + limit < total else None,
        },
        "timeouts": timeouts,
        "games": played,
    }


def _entry(entry: dict[str, Any], names: dict[str, str | None]) -> dict[str, Any]:
    from events.clocks import iso

    before, after = round(entry["rating_before"]), round(entry["rating_after"])
    return {"game": entry["game"], "finished_at": iso(entry["finished_ms"]),
            "seat": entry["seat"], "result": entry["result"],
            "opponent": _person(entry["opponent"], names),
            "opponent_rating": round(entry["opponent_rating"]),
            "rating_before": before, "rating_after": after,
            "change": after - before}  # fmt: skip


def leaderboard_page(key: str, limit: int) -> dict[str, Any]:
    _check_game(key)
    ratings = queries().ratings()
    rows = leaderboard(ratings.standings_of(key), limit)
    players = [r["player"] for r in rows]
    names = profiles().names_of(players)
    timeouts = ratings.timeouts(players)
    out = []
    for row in rows:
        often = timeouts.get(row["player"], timeout_record({}))["often"]
        out.append({**row, **_person(row["player"], names), "game": key,
                    "often_times_out": often})  # fmt: skip
    return {"game": key, "players": out}


@blp.route("/players/<id:player>")
@blp.arguments(PlayerQuery(), location="query")
@blp.response(200, PlayerPage)
def player(query, player):
    """A player: name, ratings per game (provisional or not), rated history newest first
    (``offset``/``limit``), how often their time ran out, games played."""
    return player_page(player, query["game"], query["offset"], query["limit"],
                       yours=player == session.get("player"))  # fmt: skip


@blp.route("/leaderboard")
@blp.arguments(LeaderboardQuery(), location="query")
@blp.response(200, Leaderboard)
def board(query):
    """The best-rated players of a game: established ones by rating, then provisional
    ones, each marked. Only rated games between people count (never games with an AI)."""
    return leaderboard_page(query["game"], query["limit"])
