"""Matchmaking, without Flask: open seeks anyone may accept, and rematches.

A *seek* is "looking for a game: these options, this clock, rated or not, this colour".
Accepting one makes the game through the ordinary write path (``WritePath.create_game`` and
two ``join``\\ s), so a seek's game is a game like any other. The seeker gets their seat's
token when they post the seek (only its sha256 is kept, in the seek); the acceptor gets
theirs in the answer; both can also act by the player id that took the seat.

A *rematch* of a finished game is asked for by its seats; the offer is kept beside the
seeks (the finished game's stream ends with ``seed_revealed`` and gets nothing more). When
the other seat asks too, the new game is made with the colours swapped. Against the AI it
is made at once.

The seeks and offers are kept by a ``service.seek_store`` store.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from events import clocks
from events.errors import Invalid, told
from events.writepath import MAX_NONCE_LENGTH, Forbidden, NotFound, WritePath
from games.base import match_of
from games.i18n import said
from games.messages import msg, render
from service import access, kinds, narration
from service.seek_store import (  # noqa: F401  (the API and tests take them from here)
    CLAIM_CODES,
    SEEK_DAYS,
    InMemorySeekStore,
    RedisSeekStore,
    SeekStore,
)

SEEK_LIMIT = 5  # open seeks per player: enough to offer a few kinds of game
DAY_MS = 24 * 3600 * 1000
RANDOM = "random"  # the colour of a seek whose seeker takes whichever seat comes


def colours(game: str) -> tuple[str, ...]:
    """The colours a seek of ``game`` may want: each of its seats, or random."""
    return (*(seat.id for seat in kinds.catalogue(game).seats), RANDOM)


class Conflict(Exception):
    """Someone else got there first, or there is a limit: HTTP 409, with the sentence."""


# -- the use cases -------------------------------------------------------------------------
@dataclass
class Accepted:
    game_id: str
    seat: str  # the acceptor's
    token: str  # the acceptor's seat token, shown once


@dataclass
class Rematch:
    offered_by: str | None
    game_id: str | None
    seat: str | None = None  # the caller's seat in the new game
    token: str | None = None  # the caller's token for it, shown once (None on a repeat)


@dataclass
class Matchmaking:
    bingfa: WritePath
    store: SeekStore = field(default_factory=InMemorySeekStore)
    ids: Callable[[int], str] = secrets.token_hex
    pick: Callable[[Sequence[str]], str] = secrets.choice  # the colour of a "random" seek

    def _cutoff(self) -> int:
        return self.bingfa.now_ms() - SEEK_DAYS * DAY_MS

    # -- seeks -------------------------------------------------------------------------
    def post(
        self,
        player: str,
        game: str | None = None,
        options: Mapping[str, Any] | None = None,
        clock: Mapping[str, Any] | None = None,
        rated: bool = False,
        colour: str = RANDOM,
        nonce: str | None = None,
        match: bool = False,
    ) -> tuple[dict[str, Any], str]:
        """A new open seek by ``player`` for ``game`` (the registry's first when None):
        (the seek, the seeker's seat token, shown once). Everything the game would refuse
        is refused now, with the same sentence. ``match``: the seek is for a match of
        linked games (``events.matches``); its accepted game is the match's first."""
        game = kinds.default_key() if game is None else game
        _check_nonce(nonce)
        options = dict(options or {})
        self._check_game(game, options, clock, rated, bool(match))
        if colour not in colours(game):
            wanted = kinds.listed(list(colours(game)))
            raise Invalid(
                said(
                    "the colour you want is {wanted}, not {colour!r}", wanted=wanted, colour=colour
                )
            )
        clock = clocks.parse(clock)  # its stored form, as the game will keep it
        token = access.new_token()
        seek = {
            "id": self.ids(8),
            "player": player,
            "game": game,
            "options": options,
            "clock": clock,
            "rated": bool(rated),
            "match": bool(match),
            "colour": colour,
            "created_at": self.bingfa.now(),
            "created_ms": self.bingfa.now_ms(),
            "nonce": nonce,
            "token_hash": access.token_hash(token),
        }
        if not self.store.add(seek, SEEK_LIMIT, self._cutoff()):
            raise Conflict(
                said(
                    "you already have {SEEK_LIMIT} open seeks; cancel one to post another",
                    SEEK_LIMIT=SEEK_LIMIT,
                )
            )
        return self.store.get(seek["id"]) or seek, token

    def _check_game(self, game: str, options: Mapping[str, Any], clock: Any, rated: bool,
                    match: bool = False):  # fmt: skip
        """Refuse what ``create_game`` would refuse (the same check, writing nothing); an
        unknown game is a bad field of the seek here, not a missing resource."""
        rules = self.bingfa.registry.get(game)
        seats = {seat: "human" for seat in getattr(rules, "seats", ())}
        try:
            if rules is not None:
                kinds.check_options(game, options)
            self.bingfa.check_new_game(game, options, seats, rated=rated, clock=clock,
                                       match=match)  # fmt: skip
        except NotFound as error:
            raise Invalid(told(error)) from None

    def listing(self) -> list[dict[str, Any]]:
        return self.store.open_seeks(self._cutoff())

    def mine(self, player: str) -> list[dict[str, Any]]:
        return self.store.player_seeks(player, self._cutoff())

    def cancel(self, seek_id: str, player: str) -> None:
        answer = self.store.cancel(seek_id, player)
        if answer == "gone":
            raise NotFound(
                said("there is no seek {seek_id!r} (it may have expired)", seek_id=seek_id)
            )
        if answer == "not yours":
            raise Forbidden(said("only the player who posted a seek can cancel it"))
        if answer in ("taken", "made"):
            raise Conflict(
                said(
                    "this seek has already been accepted, so it cannot be "
                    "cancelled; you can resign the game instead"
                )
            )

    def accept(self, seek_id: str, player: str, nonce: str | None = None) -> Accepted:
        """``player`` takes the seek: exactly one of two accepting at once gets the game."""
        _check_nonce(nonce)
        seek = self.store.get(seek_id)
        if seek is None:
            raise NotFound(
                said(
                    "there is no seek {seek_id!r}: it may have been cancelled or have expired",
                    seek_id=seek_id,
                )
            )
        if seek["player"] == player:
            raise Forbidden(
                said("this is your own seek: someone else has to accept it (you can cancel it)")
            )
        answer = self.store.claim(seek_id, player, self._cutoff())
        if answer in ("taken", "made"):
            raise Conflict(said("someone else accepted this seek just before you; pick another"))
        if answer != "ok":
            raise NotFound(
                said(
                    "the seek {seek_id!r} is no longer open: it was cancelled or has expired",
                    seek_id=seek_id,
                )
            )
        rules = self.bingfa.registry[seek["game"]]
        seeker = seek["colour"] if seek["colour"] != RANDOM else self.pick(list(rules.seats))
        acceptor = next(s for s in rules.seats if s != seeker)
        token = access.new_token()
        try:
            game_id = self.bingfa.create_game(
                seek["game"], seek["options"], {s: "human" for s in rules.seats},
                access={seeker: seek["token_hash"], acceptor: access.token_hash(token)},
                rated=seek["rated"], clock=seek["clock"], extra={"seek": seek_id},
                match=bool(seek.get("match")),
            )  # fmt: skip
        except BaseException:
            self.store.release(seek_id)  # nothing was made: the seek is open again
            raise
        self.store.made(seek_id, game_id, seeker)
        self.bingfa.join(game_id, seeker, player=seek["player"], nonce=seek["nonce"])
        self.bingfa.join(game_id, acceptor, player=player, nonce=nonce)
        return Accepted(game_id, acceptor, token)

    # -- rematch -----------------------------------------------------------------------
    def rematch(self, game_id: str, seat: str, nonce: str | None = None) -> Rematch:
        """``seat`` of finished ``game_id`` asks for a rematch: the colours swapped, the
        same options, clock and rated flag. Asking again gives the same new game."""
        _check_nonce(nonce)
        game = self.bingfa.load(game_id)
        if seat not in game.seats:
            raise Forbidden(said("only the players of a game can ask for its rematch"))
        if game.outcome is None:
            raise Invalid(
                said("the game is still being played: a rematch can be asked for once it is over")
            )
        kinds = dict(game.created_seats)  # as created: a seat handed to the AI was human
        swap = dict(zip(game.seats, reversed(list(game.seats)), strict=True))
        humans = [s for s, kind in kinds.items() if kind == "human"]
        token = access.new_token()
        state, offer = self.store.offer_rematch(game_id, seat, access.token_hash(token), nonce,
                                                solo=len(humans) == 1)  # fmt: skip
        if state == "made":
            found = self.store.rematch(game_id) or offer
            return Rematch(found.get("offered_by"), found["game_id"], swap[seat])
        if state == "making":
            raise Conflict(said("the rematch is being set up right now; ask again in a moment"))
        if state == "offered":
            return Rematch(seat, None, swap[seat], token)
        created = game.created
        players = {s: (game.joined.get(s) or {}).get("player") for s in game.seats}
        hashes = {swap[seat]: access.token_hash(token)}
        if offer:
            hashes[swap[offer["offered_by"]]] = offer["token_hash"]
        try:
            new_id = self.bingfa.create_game(
                created["game"], created.get("options") or {},
                {swap[s]: kind for s, kind in kinds.items()}, access=hashes,
                rated=bool(created.get("rated")), clock=created.get("clock"),
                extra={"rematch_of": game_id},
            )  # fmt: skip
        except BaseException:
            self.store.rematch_release(game_id, offer)
            raise
        first = offer.get("offered_by", seat)
        self.store.rematch_made(game_id, new_id, first)
        if offer:  # the seat that asked first joins first; the deal is at the second join
            self.bingfa.join(new_id, swap[first], player=players[first], nonce=offer["nonce"])
        self.bingfa.join(new_id, swap[seat], player=players[seat], nonce=nonce)
        return Rematch(first, new_id, swap[seat], token)

    def rematch_state(self, game_id: str, seat: str | None = None) -> Rematch:
        """Who asked for a rematch of ``game_id`` and the new game once it exists."""
        game = self.bingfa.load(game_id)  # a game that does not exist is a 404
        found = self.store.rematch(game_id) or {}
        swap = dict(zip(game.seats, reversed(list(game.seats)), strict=True))
        return Rematch(found.get("offered_by"), found.get("game_id"),
                       swap.get(seat) if seat else None)  # fmt: skip


def _check_nonce(nonce: Any) -> None:
    if nonce is not None and (not isinstance(nonce, str) or len(nonce) > MAX_NONCE_LENGTH):
        raise Invalid(
            said(
                "a nonce is a string of at most {MAX_NONCE_LENGTH} characters",
                MAX_NONCE_LENGTH=MAX_NONCE_LENGTH,
            )
        )


# -- words ---------------------------------------------------------------------------------
def describe(seek: Mapping[str, Any]) -> str:
    """The seek in a few words: its game's options (defaults included, as its catalogue
    says them), the clock, rated or not: "Standard, events, 1 day per move, rated"."""
    game = seek.get("game") or kinds.default_key()
    parts = kinds.options_words(game, seek.get("options") or {})
    if len(kinds.games.REGISTRY) > 1:  # which game, once there is more than one
        parts.insert(0, kinds.catalogue(game).title)
    match = match_of(kinds.games.REGISTRY[game]) if seek.get("match") else None
    if match is not None:
        parts.append(render(narration.TABLE, msg("table.match.seek", of=match.games_in_match)))
    clock = seek.get("clock")
    if clock:
        parts.append(f"{duration(clock['per_move_seconds'])} per move")
        if clock.get("bank_seconds"):
            parts.append(f"{duration(clock['bank_seconds'])} bank")
        if clock.get("vacation_days"):
            days = clock["vacation_days"]
            parts.append(f"{days} vacation day{'s' if days != 1 else ''}")
    else:
        parts.append("no clock")
    parts.append("rated" if seek.get("rated") else "unrated")
    return ", ".join(parts)


def duration(seconds: int) -> str:
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} seconds"
