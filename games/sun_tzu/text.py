"""Every word of Sun Tzu: component names and texts, and the one narration of its events,
commands, decisions and endings (``games.base.Text``), as messages (``games.messages``).

``TEXT.messages`` is message id -> English template. The functions answer a ``Message``
(id, values) from a perspective: a seat (``"blue"``; "you" for that seat's own doings) or
``None`` (a spectator, or a replay where everything is public). They tell what the
payload holds: a seat's own or a finished game's whole event names the cards, the public
stub of someone else's says only that something happened.

Ids: ``seat.<seat>`` (and ``.role``, ``.side``), ``province.<name>``, ``card.<card>``,
``warlord.<id>`` (and ``.text``), ``event_card.<id>`` (and ``.text``), ``variant.<id>``,
``log.<event type>…`` (narration), ``command.<type>…``, ``prompt.<kind>.you|they``,
``end.…``. The pages use the names and texts through ``GET /api/kinds/sun-tzu/text``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.messages import Join, Message, msg
from games.sun_tzu.catalogue import CATALOGUE
from games.sun_tzu.components import PROVINCES, SEATS, STANDARD_DECK, VARIANTS
from games.sun_tzu.glossary import GLOSSARY  # the board's tooltips (glossary.py)
from games.sun_tzu.page import PAGE  # the page parts' words (web/*.js)

# -- names and texts of the components -----------------------------------------------------
WARLORDS = {
    "reinforce": ("Reinforce", "In rounds 1–6: place 1 army from your reserve in a "
                  "province you control."),
    "head_start": ("Head start", "The score marker starts 1 space toward you."),
    "minus_recycle": ("Minus recycle", "After a battle where you played a −1: put it at the "
                      "bottom of your deck, then discard your deck's top card."),
    "manoeuvre": ("Manoeuvre", "In rounds 1–6: move 1 of your armies to an adjacent "
                  "province that is empty or yours."),
    "restraint": ("Restraint", "After a reveal, your 7, 8, 9 or 10 counts as a 6 in the "
                  "province you name."),
    "remove": ("Remove", "In rounds 1–6: remove 1 army from any province; it returns to its "
               "owner's reserve."),
    "counter_plague": ("Counter-plague", "When an opponent's Plague is revealed it counts as "
                       "a plain 0 and a normal battle happens."),
    "plague_recycle": ("Plague recycle", "After a battle where you played a Plague: put it "
                       "at the bottom of your deck, then discard your deck's top card."),
    "deadly_plague": ("Deadly plague", "This round your Plagues remove all armies but one "
                      "instead of half."),
    "double_six": ("Double six", "You may place your 6 where your 6-marker already stands."),
}  # fmt: skip

EVENT_CARD_TEXTS = {
    "epidemic": ("Epidemic", "When all 4 Plagues have been played: each player moves 1 army "
                 "from reserve (else board) to the set-aside pool."),
    "war_chariot": ("War chariot", "When a player has 6-markers in 3 provinces: that player "
                    "chooses 1 more unused Warlord."),
    "champion_challenge": ("Champion challenge", "A player who plays a 9 and does not win "
                           "that battle sets aside 1 army."),
    "hero_challenge": ("Hero challenge", "A player who plays a 10 and does not win that "
                       "battle sets aside 2 armies."),
    "light_infantry": ("Light infantry", "When a 1 meets a 1: the player behind on the score "
                       "track places 1 army there."),
}  # fmt: skip

ROLES = {"blue": "Sun Tzu", "red": "King of Chu"}
VARIANT_NAMES = {"standard": "Standard", "beginner": "Beginner"}


def _names() -> dict[str, str]:
    names: dict[str, str] = {"you": "You"}
    for seat in CATALOGUE.seats:
        names[f"seat.{seat.id}"] = seat.label
        names[f"seat.{seat.id}.role"] = ROLES[seat.id]
        names[f"seat.{seat.id}.side"] = seat.id  # as a battle line says it: "blue 5 vs red 3"
    for province in PROVINCES:
        names[f"province.{province}"] = province
    for card in dict.fromkeys(STANDARD_DECK):
        names[f"card.{card}"] = "Plague" if card == "plague" else card
    for warlord, (name, text) in WARLORDS.items():
        names[f"warlord.{warlord}"] = name
        names[f"warlord.{warlord}.text"] = text
    for card, (name, text) in EVENT_CARD_TEXTS.items():
        names[f"event_card.{card}"] = name
        names[f"event_card.{card}.text"] = text
    for variant in VARIANTS:
        names[f"variant.{variant}"] = VARIANT_NAMES[variant]
    return names


SENTENCES = {
    # places armies come from and go to
    "place.reserve": "the reserve",
    "place.aside": "the set-aside pool",
    "place.marker": "the 6-marker box of {province}",
    # what happened to the armies (a battle's margin, a Plague, a 6-marker, a cost, an
    # event, a Warlord), each a sentence, told per reader ("You lost", "Red lost")
    "armies": "{n} armies",
    "armies.one": "1 army",
    "you.whom": "you",
    "whose.you": "your",
    "whose": "{seat}'s",
    "fx.lost": "{who} lost {armies} in {province}",
    "fx.placed": "{who} placed {armies} in {to} from the reserve",
    "fx.moved": "{who} moved {armies} from {source} to {to}",
    "fx.plague": "{card} took {n} of {whose} armies in {province}",
    "fx.six": "The 6-marker in {province} cost {whom} {armies} (out of play)",
    "fx.six.from": "The 6-marker in {province} cost {whom} {armies} from {source} (out of play)",
    "fx.aside": "{cause} cost {whom} {armies}, set aside from {source}",
    "fx.aside.plain": "{who} set aside {armies} from {source}",
    "fx.returned": "{who} moved {armies} from {source} to the reserve",
    "fx.other": "{who} moved {armies} from {source} to {to}",
    "fx.the": "The {card}",
    # a Warlord played, with its targets
    "play.move": "{name}: move 1 army from {source} to {to}",
    "play.remove": "{name}: remove 1 army from {province}",
    "play.reserve": "{name}: 1 army from your reserve to {province}",
    "play.plain": "{name}",
    "play.by": "{seat}: {play}",
    "fired": "{seat}'s {warlord}",
    "placed.card": "{province} {card}",
    "points": "{seat} {points}",
    "marker.centre": "at the centre",
    "marker.toward": "{n} toward {seat}",
    # the narration of the events
    "log.game_started": "The cards are dealt ({variant} game).",
    "log.game_started.events": "The cards are dealt ({variant} game, with event cards).",
    "log.event_deck_shuffled": "The event deck is shuffled.",
    "log.deck_shuffled.you": "Your deck is shuffled.",
    "log.deck_shuffled": "{seat}'s deck is shuffled.",
    "log.warlords_to_choose": "Each player chooses a Warlord in secret.",
    "log.warlord_chosen.you": "You chose {warlord} as your Warlord.",
    "log.warlord_chosen.you.extra": "You chose {warlord} as your extra Warlord.",
    "log.warlord_chosen": "{seat} chose {warlord} as their Warlord.",
    "log.warlord_chosen.extra": "{seat} chose {warlord} as their extra Warlord.",
    "log.warlord_chosen.hidden": "{who} chose a Warlord.",
    "log.warlord_chosen.hidden.extra": "{who} chose an extra Warlord.",
    "log.warlord_played.head_start": "{who} played Head start: the marker starts 1 toward "
    "{toward}.",
    "log.warlord_played.fizzled": "{who} showed {play}, but it had no effect.",
    "log.warlord_played": "{who} played {play}.",
    "log.warlord_played.effects": "{who} played {name}. {effects}.",
    "log.round_started": "Round {round} begins.",
    "log.placed": "{who} placed five cards face down.",
    "log.placed.cards": "{who} placed face down: {cards}.",
    "log.cards_down": "Both players have placed.",
    "log.cards_down.plays": "Both players have placed. Warlords before the battles — {plays}.",
    "log.privilege_settled": "{seat} holds the privilege and chooses the order of battle.",
    "log.order_named": "{who} named the order of battle: {provinces}.",
    "log.battle": "{province}: blue {blue} vs red {red} — {result}",
    "log.battle.fired": "{province}: blue {blue} vs red {red} — {result} ({fired})",
    "log.battle.effects": "{battle}. {effects}.",
    "battle.plague": "Plague: no battle",
    "battle.deadly": "Deadly plague: no battle",
    "battle.tie": "a tie, nothing happens",
    "battle.win": "{winner} wins by {margin}",
    "log.armies_moved": "{moves}.",
    "log.event_triggered": "Event: {card} is triggered.",
    "log.event_triggered.next": "Event: {card} is triggered. Next event card: {next}.",
    "log.event_triggered.effects": "Event: {card} is triggered. {effects}.",
    "log.event_triggered.effects.next": "Event: {card} is triggered. {effects}. Next event "
    "card: {next}.",
    "log.card_recycled": "{who} recycled a {card} with {warlord}.",
    "log.window_opened": "The battles are over: Warlords may be played before scoring.",
    "log.window_closed": "After the battles — {plays}.",
    "log.after_battles_chosen": "{seat} plays after the battles: {plays}.",
    "log.after_battles_chosen.pass": "{seat} passes after the battles.",
    "log.after_battles_chosen.you": "You play after the battles: {plays}.",
    "log.after_battles_chosen.you.pass": "You pass after the battles.",
    "log.scored": "Scoring after round {round}: {points}; the marker is {marker}.",
    "log.round_ended": "Round {round} ends.",
    "log.cards_drawn": "{who} drew {cards}.",
    "log.cards_drawn.hidden": "{who} drew {count} cards.",
    "log.cards_drawn.hidden.one": "{who} drew 1 card.",
    "log.cards_drawn.hidden.some": "{who} drew some cards.",
    "log.card_kept": "{who} kept {cards}.",
    "log.card_kept.bottom": "{who} kept {cards}; to the bottom of the deck: {bottom}.",
    "log.card_kept.hidden": "{who} kept their cards.",
    "log.reinforced": "{who} discarded a {card}: 1 army from the set-aside pool to the reserve.",
    "log.game_ended": "Game over: {end}",
    # commands, as the computer suggests them (hints) and as the analysis lists them
    "command.place": "Place {cards}.",
    "command.place.plays": "Place {cards}, and play {plays}.",
    "command.place.card": "{card} in {province}",
    "command.choose_warlord": "Choose {warlord}.",
    "command.extra_warlord": "Choose {warlord}.",
    "command.next_province": "Fight next in {provinces}.",
    "command.keep": "Keep {cards}.",
    "command.sources": "Take the armies {take} (the rest from your reserve).",
    "command.sources.take": "{n} from {province}",
    "command.sources.reserve": "Take the armies from your reserve.",
    "command.after_battles": "Play {plays}.",
    "command.after_battles.pass": "Pass: play no Warlord now.",
    "command.reinforce": "Discard {card} for an exceptional reinforcement.",
    "command.resign": "Resign the game.",
    "command.with_reinforce": "{command} First discard {cards} for an exceptional reinforcement.",
    "command.other": "{type}.",
    # the decision a seat owes, for that seat (you) and for the others (they)
    "prompt.choose_warlord.you": "choose your Warlord",
    "prompt.choose_warlord.they": "choose a Warlord",
    "prompt.extra_warlord.you": "choose an extra Warlord",
    "prompt.extra_warlord.they": "choose an extra Warlord",
    "prompt.place.you": "place your five cards",
    "prompt.place.they": "place their cards",
    "prompt.next_province.you": "choose where the next battle is fought",
    "prompt.next_province.they": "choose where the next battle is fought",
    "prompt.sources.you": "say where your armies come from",
    "prompt.sources.they": "say where their armies come from",
    "prompt.after_battles.you": "play or pass a Warlord after the battles",
    "prompt.after_battles.they": "play or pass a Warlord after the battles",
    "prompt.keep.you": "choose the cards to keep",
    "prompt.keep.they": "choose the cards to keep",
    "prompt.other": "{kind}",
    # how the game ended: "end" is "{head}. {reason}", and the pages show the two apart
    "end": "{head}. {reason}",
    "end.head.draw": "The game is a draw",
    "end.head.you_win": "You win",
    "end.head.you_lose": "{winner} wins — you lose",
    "end.head.wins": "{winner} wins",
    "end.reason": "{why}.",
    "end.reason.round": "{why} (round {round}).",
    "end.why.points": "On points after round 9",
    "end.why.knockout": "By knockout: the score marker reached the end of the track",
    "end.why.reserve": "The marker ended at the centre, and the winner had more armies in reserve",
    "end.why.last_event": "The last event card was triggered, with the winner ahead on the "
    "score track",
    "end.why.last_event.reserve": "The last event card was triggered with the marker at the "
    "centre, and the winner had more armies in reserve",
    "end.why.last_event.draw": "The last event card was triggered with the marker at the "
    "centre, and both reserves were equal",
    "end.why.draw": "The marker ended at the centre and both reserves were equal",
    "end.why.forfeit": "The other player resigned",
    "end.why.forfeit.you": "You resigned",
    "end.why.forfeit.seat": "{seat} resigned",
    "end.why.time": "The other player ran out of time",
    "end.why.time.you": "You ran out of time",
    "end.why.time.seat": "{seat} ran out of time",
    "end.why.agreement": "Both players agreed to a draw",
    "end.why.other": "{reason}",
    "raw": "{text}",  # a name this table does not know, said as it is
}

MESSAGES: dict[str, str] = {**_names(), **SENTENCES, **GLOSSARY, **PAGE}


# -- helpers -------------------------------------------------------------------------------
def _seat(seat: str) -> Message:
    return msg(f"seat.{seat}")


def _who(seat: str | None, me: str | None) -> Message:
    """ "You" for the perspective's own seat, else the seat's name."""
    return msg("you") if seat is not None and seat == me else _seat(str(seat))


def _card(card: Any) -> Message:
    key = f"card.{card}"
    return msg(key) if key in MESSAGES else msg("raw", text=card)


def _cards(cards: Any) -> list[Message]:
    return [_card(c) for c in cards or ()]


def _province(name: Any) -> Message:
    key = f"province.{name}"
    return msg(key) if key in MESSAGES else msg("raw", text=name)


def _warlord(warlord: Any) -> Message:
    key = f"warlord.{warlord}"
    return msg(key) if key in MESSAGES else msg("raw", text=warlord)


def _event_card(card: Any) -> Message:
    key = f"event_card.{card}"
    return msg(key) if key in MESSAGES else msg("raw", text=card)


def _place(where: Any) -> Message:
    where = str(where)
    if where in ("reserve", "aside"):
        return msg(f"place.{where}")
    if where.startswith("marker@"):
        return msg("place.marker", province=_province(where[7:]))
    return _province(where)


def _board_order(cards: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """(province, card) in board order, whatever order the mapping was stored in (a
    record's canonical JSON sorts keys alphabetically)."""
    rank = {p: i for i, p in enumerate(PROVINCES)}
    return sorted(cards.items(), key=lambda pc: (rank.get(pc[0], len(rank)), str(pc[0])))


def _armies(n: Any) -> Message:
    return msg("armies.one") if n == 1 else msg("armies", n=n)


def _whom(seat: Any, me: str | None) -> Message:
    """ "you" (the object, mid-sentence) for the reader's own seat, else the seat's name."""
    return msg("you.whom") if seat is not None and seat == me else _seat(str(seat))


def _whose(seat: Any, me: str | None) -> Message:
    return msg("whose.you") if seat is not None and seat == me else msg("whose", seat=_seat(seat))


def _cause(why: Any) -> Message | None:
    """What made a seat set armies aside: a card ("The +2") or an event card."""
    if f"card.{why}" in MESSAGES:
        return msg("fx.the", card=_card(why))
    if f"event_card.{why}" in MESSAGES:
        return _event_card(why)
    return None


def _effect(move: Any, me: str | None, cause: Message | None = None,
            plague: Message | None = None) -> Message:  # fmt: skip
    """One army move ([seat, from, to, n]) as what happened to those armies, for ``me``."""
    seat, source, to, n = move
    source, to = str(source), str(to)
    who, armies = _who(seat, me), _armies(n)
    if to.startswith("marker@"):
        if source == "reserve":
            return msg("fx.six", province=_province(to[7:]), whom=_whom(seat, me),
                       armies=armies)  # fmt: skip
        return msg("fx.six.from", province=_province(to[7:]), whom=_whom(seat, me),
                   armies=armies, source=_place(source))  # fmt: skip
    if to == "aside":
        if cause is not None:
            return msg("fx.aside", cause=cause, whom=_whom(seat, me), armies=armies,
                       source=_place(source))  # fmt: skip
        return msg("fx.aside.plain", who=who, armies=armies, source=_place(source))
    if source in PROVINCES and to == "reserve":
        if plague is not None:
            return msg("fx.plague", card=plague, n=n, whose=_whose(seat, me),
                       province=_province(source))  # fmt: skip
        return msg("fx.lost", who=who, armies=armies, province=_province(source))
    if source == "reserve" and to in PROVINCES:
        return msg("fx.placed", who=who, armies=armies, to=_province(to))
    if source in PROVINCES and to in PROVINCES:
        return msg("fx.moved", who=who, armies=armies, source=_province(source),
                   to=_province(to))  # fmt: skip
    if to == "reserve":
        return msg("fx.returned", who=who, armies=armies, source=_place(source))
    return msg("fx.other", who=who, armies=armies, source=_place(source), to=_place(to))


def effects(moves: Any, me: str | None, cause: Message | None = None,
            plague: Message | None = None) -> Join | None:  # fmt: skip
    """The army moves as sentences (joined by ". "; the template ends the last one), or
    None when no army moved."""
    said = tuple(_effect(m, me, cause, plague) for m in moves or () if m[3])
    return Join(said, ". ") if said else None


def play(p: Mapping[str, Any]) -> Message:
    """A Warlord play with its targets, in words."""
    name = _warlord(p.get("warlord"))
    if p.get("from") and p.get("to"):
        return msg("play.move", name=name, source=_province(p["from"]), to=_province(p["to"]))
    if p.get("province"):
        key = "play.remove" if p.get("warlord") == "remove" else "play.reserve"
        return msg(key, name=name, province=_province(p["province"]))
    return msg("play.plain", name=name)


def _plays_by(plays: Any) -> Join:
    return Join(tuple(msg("play.by", seat=_seat(s), play=play(p)) for s, p in plays or ()), "; ")


def _marker(n: int) -> Message:
    if n == 0:
        return msg("marker.centre")
    return msg("marker.toward", n=abs(n), seat=_seat(SEATS[0] if n > 0 else SEATS[1]))


def _battle(p: Mapping[str, Any], me: str | None = None) -> Message:
    cards = p.get("cards") or {}
    if p.get("plague"):
        result = msg("battle.deadly" if p.get("deadly") else "battle.plague")
    elif not p.get("winner"):
        result = msg("battle.tie")
    else:
        result = msg("battle.win", winner=msg(f"seat.{p['winner']}.side"), margin=p.get("margin"))
    fired = [msg("fired", seat=_seat(s), warlord=_warlord(w))
             for s, ws in (p.get("fired") or {}).items() for w in ws]  # fmt: skip
    values = {"province": _province(p.get("province")), "blue": _card(cards.get(SEATS[0])),
              "red": _card(cards.get(SEATS[1])), "result": result}  # fmt: skip
    line = msg("log.battle.fired", **values, fired=fired) if fired else msg("log.battle", **values)
    # what the cards cost as they were revealed (6-markers, +2/+3), then the result
    said = [_effect(m, me, _cause(cards.get(m[0]))) for m in p.get("moves") or () if m[3]]
    plague = None
    if p.get("plague"):
        plague = _warlord("deadly_plague") if p.get("deadly") else _card("plague")
    said += [_effect(m, me, plague=plague) for m in p.get("resolution") or () if m[3]]
    if said:
        return msg("log.battle.effects", battle=line, effects=Join(tuple(said), ". "))
    return line


# -- the narration -------------------------------------------------------------------------
_BY_A_SEAT = frozenset({
    "deck_shuffled", "cards_drawn", "card_kept", "warlord_chosen", "warlord_played", "placed",
    "order_named", "armies_moved", "card_recycled", "after_battles_chosen", "reinforced",
})  # fmt: skip


def event(e: Mapping[str, Any], seat: str | None) -> Message | None:
    """The sentence that tells ``e`` (a whole event or its public stub) to ``seat``; None
    when there is nothing worth telling."""
    kind = e.get("type")
    actor = e.get("seat")
    if actor is None and kind in _BY_A_SEAT:
        return None  # a stub that says nothing, not even whose (e.g. a shuffle's)
    who = _who(actor, seat)
    if kind == "game_started":
        variant = msg(f"variant.{e.get('variant', 'standard')}")
        return msg("log.game_started.events" if e.get("events") else "log.game_started",
                   variant=variant)  # fmt: skip
    if kind == "event_deck_shuffled":
        return msg("log.event_deck_shuffled")
    if kind == "deck_shuffled":
        if actor == seat:
            return msg("log.deck_shuffled.you")
        return msg("log.deck_shuffled", seat=_seat(actor))
    if kind == "warlords_to_choose":
        return msg("log.warlords_to_choose")
    if kind == "warlord_chosen":
        extra = ".extra" if e.get("extra") else ""
        if not e.get("warlord"):
            return msg("log.warlord_chosen.hidden" + extra, who=who)
        if actor == seat:
            return msg("log.warlord_chosen.you" + extra, warlord=_warlord(e["warlord"]))
        return msg("log.warlord_chosen" + extra, seat=_seat(actor), warlord=_warlord(e["warlord"]))
    if kind == "warlord_played":
        if e.get("warlord") == "head_start":
            return msg("log.warlord_played.head_start", who=who, toward=_seat(actor))
        key = "log.warlord_played.fizzled" if e.get("fizzled") else "log.warlord_played"
        told = effects(e.get("moves"), seat)
        if told is not None and not e.get("fizzled"):
            return msg("log.warlord_played.effects", who=who, name=_warlord(e.get("warlord")),
                       effects=told)  # fmt: skip
        return msg(key, who=who, play=play(e))
    if kind == "round_started":
        return msg("log.round_started", round=e.get("round"))
    if kind == "placed":
        if e.get("cards"):
            cards = [msg("placed.card", province=_province(p), card=_card(c))
                     for p, c in _board_order(e["cards"])]  # fmt: skip
            return msg("log.placed.cards", who=who, cards=cards)
        return msg("log.placed", who=who)
    if kind == "cards_down":
        if e.get("plays"):
            return msg("log.cards_down.plays", plays=_plays_by(e["plays"]))
        return msg("log.cards_down")
    if kind == "privilege_settled":
        holder = e.get("holder")
        return msg("log.privilege_settled", seat=_seat(holder)) if holder else None
    if kind == "order_named":
        if not e.get("provinces"):
            return None
        return msg("log.order_named", who=who, provinces=[_province(p) for p in e["provinces"]])
    if kind in ("battle", "battle_revealed"):
        return _battle(e, seat)
    if kind == "battle_resolved":
        plague = _card("plague") if e.get("result") == "plague" else None
        told = effects(e.get("moves"), seat, plague=plague)
        return msg("log.armies_moved", moves=told) if told is not None else None
    if kind == "armies_moved":
        told = effects(e.get("moves"), seat, cause=_cause(e.get("why")))
        return msg("log.armies_moved", moves=told) if told is not None else None
    if kind == "event_triggered":
        card = _event_card(e.get("card"))
        told = effects(e.get("moves"), seat, cause=card)
        if told is not None:
            if e.get("next"):
                return msg("log.event_triggered.effects.next", card=card, effects=told,
                           next=_event_card(e["next"]))  # fmt: skip
            return msg("log.event_triggered.effects", card=card, effects=told)
        if e.get("next"):
            return msg("log.event_triggered.next", card=card, next=_event_card(e["next"]))
        return msg("log.event_triggered", card=card)
    if kind == "card_recycled":
        return msg("log.card_recycled", who=who, card=_card(e.get("card")),
                   warlord=_warlord(e.get("warlord")))  # fmt: skip
    if kind == "window_opened":
        return msg("log.window_opened")
    if kind == "window_closed":
        return msg("log.window_closed", plays=_plays_by(e["plays"])) if e.get("plays") else None
    if kind == "after_battles_chosen":
        if "plays" not in e:
            return None  # the public stub: told when the window closes
        key = "log.after_battles_chosen" + (".you" if actor == seat else "")
        if not e["plays"]:
            return msg(key + ".pass", seat=_seat(actor))
        return msg(key, seat=_seat(actor), plays=Join(tuple(play(p) for p in e["plays"]), "; "))
    if kind == "scored":
        points = e.get("points") or {}
        said = [msg("points", seat=_seat(s), points=points.get(s, 0)) for s in SEATS]
        return msg("log.scored", round=e.get("round"), points=said,
                   marker=_marker(e.get("marker", 0)))  # fmt: skip
    if kind == "round_ended":
        return msg("log.round_ended", round=e.get("round"))
    if kind == "cards_drawn":
        if e.get("cards"):
            return msg("log.cards_drawn", who=who, cards=_cards(e["cards"]))
        count = e.get("count")
        if count == 1:
            return msg("log.cards_drawn.hidden.one", who=who)
        if not isinstance(count, int):
            return msg("log.cards_drawn.hidden.some", who=who)
        return msg("log.cards_drawn.hidden", who=who, count=count)
    if kind == "card_kept":
        if "keep" not in e:
            return msg("log.card_kept.hidden", who=who)
        if e.get("bottom"):
            return msg("log.card_kept.bottom", who=who, cards=_cards(e["keep"]),
                       bottom=_cards(e["bottom"]))  # fmt: skip
        return msg("log.card_kept", who=who, cards=_cards(e["keep"]))
    if kind == "reinforced":
        return msg("log.reinforced", who=who, card=_card(e.get("card")))
    if kind == "game_ended":
        return msg("log.game_ended", end=end(e, seat))
    return None  # battle_ended: the battle's own line said it


def command(c: Mapping[str, Any], seat: str | None = None) -> Message:
    """The command as a suggestion to the seat that would give it ("Choose Reinforce.")."""
    said = _command(c)
    extra = c.get("reinforce") if c.get("type") != "reinforce" else None
    if extra:
        return msg("command.with_reinforce", command=said, cards=_cards(extra))
    return said


def _command(c: Mapping[str, Any]) -> Message:
    kind = c.get("type")
    if kind == "place":
        cards = [msg("command.place.card", card=_card(card), province=_province(p))
                 for p, card in _board_order(c.get("cards") or {})]  # fmt: skip
        plays = [play(p) for p in c.get("warlords") or ()]
        if plays:
            return msg("command.place.plays", cards=cards, plays=plays)
        return msg("command.place", cards=cards)
    if kind in ("choose_warlord", "extra_warlord"):
        return msg(f"command.{kind}", warlord=_warlord(c.get("warlord")))
    if kind == "next_province":
        provinces = c.get("provinces") or ([c["province"]] if c.get("province") else [])
        return msg("command.next_province", provinces=[_province(p) for p in provinces])
    if kind == "keep":
        keep = c.get("cards")
        return msg("command.keep", cards=_cards([keep] if isinstance(keep, str) else keep))
    if kind == "sources":
        take = [msg("command.sources.take", n=n, province=_province(p))
                for p, n in (c.get("take") or {}).items() if n]  # fmt: skip
        return msg("command.sources", take=take) if take else msg("command.sources.reserve")
    if kind == "after_battles":
        plays = [play(p) for p in c.get("warlords") or ()]
        return msg("command.after_battles", plays=plays) if plays else msg(
            "command.after_battles.pass")  # fmt: skip
    if kind == "reinforce":
        return msg("command.reinforce", card=_card(c.get("card")))
    if kind == "resign":
        return msg("command.resign")
    return msg("command.other", type=str(kind).replace("_", " "))


def prompt(kind: str, seat: str | None) -> Message:
    """The decision ``kind`` in a few words: for the seat that owes it (``seat`` given:
    "place your five cards"), or for the others (``None``: "place their cards")."""
    key = f"prompt.{kind}.{'you' if seat is not None else 'they'}"
    return msg(key) if key in MESSAGES else msg("prompt.other", kind=str(kind).replace("_", " "))


def end(outcome: Mapping[str, Any], seat: str | None) -> Message:
    """How the game ended, for ``seat`` (None: anyone else): the message ``end``, whose
    values ``head`` ("You win") and ``reason`` ("On points after round 9.") the pages show
    apart."""
    winner = outcome.get("winner")
    if not winner:
        head = msg("end.head.draw")
    elif seat is None:
        head = msg("end.head.wins", winner=_seat(winner))
    elif winner == seat:
        head = msg("end.head.you_win")
    else:
        head = msg("end.head.you_lose", winner=_seat(winner))
    reason = str(outcome.get("reason") or "")
    loser = next((s for s in SEATS if winner and s != winner), None)
    if reason in ("forfeit", "time") and loser is not None:
        why = (msg(f"end.why.{reason}.you") if seat == loser
               else msg(f"end.why.{reason}.seat", seat=_seat(loser)))  # fmt: skip
    elif reason == "last_event" and outcome.get("score") == 0:
        why = msg("end.why.last_event." + ("reserve" if winner else "draw"))
    elif f"end.why.{reason}" in MESSAGES:
        why = msg(f"end.why.{reason}")
    else:
        why = msg("end.why.other", reason=reason)
    if outcome.get("round") and reason != "points":
        said = msg("end.reason.round", why=why, round=outcome["round"])
    else:
        said = msg("end.reason", why=why)
    return msg("end", head=head, reason=said)


class SunTzuText:
    """The ``games.base.Text`` of Sun Tzu."""

    messages = MESSAGES
    event = staticmethod(event)
    command = staticmethod(command)
    prompt = staticmethod(prompt)
    end = staticmethod(end)


TEXT = SunTzuText()

__all__ = ["MESSAGES", "TEXT", "command", "end", "event", "play", "prompt"]
