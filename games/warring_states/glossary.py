"""What each thing on the Warring States board is, for the page's tooltips (``web/tips.js``):
message id -> English text, merged into ``text.MESSAGES``.

Made from ``data.json`` wherever the data says it (areas, their RP and borders, border
costs, generals and their icons, the track's boxes and their factions, the cards' names,
sides and flags); the sentences around the data are our own, short. Ids:
``tip.area.<AREA>`` (its RP and borders), ``tip.area.held``/``.empty`` (who holds it now),
``tip.border.<A>.<B>``, ``tip.stack.city``/``.field``, ``tip.general.<ID>``
(+ ``.ready``/``.spent``), ``tip.box.<BOX>``, ``tip.counter`` (+ ``.locked``),
``tip.card.<CARD>`` (+ ``tip.card.down``), ``tip.deck``, ``tip.discard``, ``tip.hand``,
``tip.rp``, ``tip.qin_rp.<victory>``, ``tip.initiative`` (+ ``.flipped``), ``tip.turn``,
``tip.phase``, ``tip.acting``, ``tip.dice``.
"""

from __future__ import annotations

import json

from games.warring_states.data import PATH, load

D = load()
RAW = json.loads(PATH.read_text(encoding="utf-8"))
NAMES = {x["id"]: x["en"] for f in RAW["forces"] for x in [f, *f.get("generals", [])]}
C = D.constants
FACTION = {"lianheng": "Lianheng", "alliance": "the Alliance", "neutral": "Neutral"}
ICON = {
    "sword": "Sword: when activated, +1 to his own side's die.",
    "shield": "Shield: when activated, −1 to the enemy's die.",
    "horse": f"Horse: when activated, his stack moves {C.ma_horse} MP instead of {C.ma_default}.",
}


def _border(a: str, b: str) -> str:
    border = D.borders.get((a, b)) or D.borders[(b, a)]
    na, nb = D.names[a], D.names[b]
    if border.kind == "mountain":
        return f"{na} – {nb}: mountains; crossing costs {C.cost_mountain} MP."
    if border.kind == "waterway":
        down = D.names[border.downstream] if border.downstream else nb
        return (
            f"{na} – {nb}: a waterway flowing toward {down}; {C.cost_waterway_downstream} MP "
            f"downstream, {C.cost_waterway_upstream} MP upstream."
        )
    return f"{na} – {nb}: open ground; crossing costs {C.cost_normal} MP."


def _kind_word(a: str, b: str) -> str:
    border = D.borders.get((a, b)) or D.borders[(b, a)]
    if border.kind == "waterway":
        return f"{D.names[b]} (waterway)"
    return f"{D.names[b]} (mountains)" if border.kind == "mountain" else D.names[b]


def _area(area: str) -> str:
    near = ", ".join(_kind_word(area, b) for b in D.neighbours[area])
    return (
        f"{D.names[area]}: worth {D.rp[area]} RP to the faction that controls it. "
        f"It borders {near}."
    )


def _general(gen: str) -> str:
    g = D.generals[gen]
    icons = " ".join(ICON.get(i, i) for i in g.icons)
    return f"{NAMES[gen]}, a general of {NAMES[g.force]}: he counts as one army counter. {icons}"


def _box(box: str, name: str) -> str:
    faction = D.boxes[box]["faction"]
    if faction == "neutral":
        return (
            f"{name}: a force here is Neutral. Its counters stop and fight whoever enters "
            "their area, and its areas' RP count for nobody."
        )
    return (
        f"{name}: a force here belongs to {FACTION[faction]}, which directs it; its areas' "
        f"RP count for {FACTION[faction]}."
    )


def _card(raw: dict) -> str:
    card = D.cards[raw["id"]]
    copies = f", {card.count} copies" if card.count > 1 else ""
    bits = [f"{card.name} ({FACTION[card.side]}'s card{copies})."]
    options = raw.get("options") or []
    if options:
        bits.append("Face up: " + "; or ".join(options) + ".")
    if raw.get("face_up_condition"):
        bits.append(f"Face up only if {raw['face_up_condition']}.")
    if card.response_only:
        bits.append("It is played only as a response.")
    elif card.brk:
        bits.append("A Break card: it can also answer the other side's play as a response.")
    if card.character:
        bits.append("A character: when it is played face up, the other side may cancel it.")
    return " ".join(bits)


def _glossary() -> dict[str, str]:
    out: dict[str, str] = {}
    for area in D.areas:
        out[f"tip.area.{area}"] = _area(area)
    for border in RAW["borders"]:  # as the page draws them (text.py's border.A.B)
        out[f"tip.border.{border['a']}.{border['b']}"] = _border(border["a"], border["b"])
    for gen in D.generals:
        out[f"tip.general.{gen}"] = _general(gen)
    for column in RAW["diplomacy_track"]["columns"]:
        for box in column["boxes"]:
            out[f"tip.box.{box['id']}"] = _box(box["id"], box["en"])
    for cards in RAW["decks"].values():
        for card in cards:
            out[f"tip.card.{card['id']}"] = _card(card)
    return out


GLOSSARY: dict[str, str] = {
    **_glossary(),
    "tip.area.held": "Its city is held by {force}, of {faction}.",
    "tip.area.empty": "Nobody holds its city.",
    "tip.stack.city": "{force} ({faction}) holds the city of {area}: {ready} ready and {tired} "
    "exhausted counters. Exhausted counters may not move or attack until readied.",
    "tip.stack.field": "{force} ({faction}) in the field of {area}: {ready} ready and {tired} "
    "exhausted counters. Exhausted counters may not move or attack until readied.",
    "tip.general.ready": "{general} is ready.",
    "tip.general.spent": "{general} is exhausted.",
    "tip.counter": "{force} stands in {box}; it belongs to {faction}.",
    "tip.counter.locked": "{force} stands in {box}; it belongs to {faction}. Not Received: "
    "its counter is locked and no diplomacy action may move it now.",
    "tip.card.down": "Face down, any card makes one generic action instead (a military "
    "operation, a reinforcement, a diplomacy or a weather action) and its face stays hidden.",
    "tip.deck": "{side}'s draw deck: {n} cards left, in a hidden order.",
    "tip.discard": "{side}'s discard pile: {n} cards. Cards played face up are shown; cards "
    "played face down stay hidden from the other side.",
    "tip.hand": "{side} holds {n} cards.",
    "tip.rp": "RP (resource points): each side adds up the RP of the areas its faction "
    f"controls. At each turn's draw, the side with more RP draws {C.draw_more_rp} cards, "
    f"the other {C.draw_fewer_or_equal_rp}.",
    "tip.qin_rp.basic": "Only the areas Qin itself controls count here. Lianheng wins if Qin "
    "holds at least {target} RP at the end of the last turn; otherwise the Alliance wins. "
    "If Qin is eliminated, the Alliance wins at once.",
    "tip.qin_rp.bid": "Only the areas Qin itself controls count here. Lianheng wins if Qin "
    "holds at least {target} RP (the winning bid) at the end of the last turn; otherwise the "
    "Alliance wins. If Qin is eliminated, the Alliance wins at once.",
    "tip.initiative": "The initiative token: the side it stands on acts first each turn. A "
    "weather action moves it to the other side (from the next turn) or flips it in place.",
    "tip.initiative.flipped": "The initiative token is flipped: nobody may move it again this "
    "turn.",
    "tip.turn": "The game lasts {turns} turns; victory is judged after the last one.",
    "tip.phase": "Each turn: draw, then alternating action phases until both sides pass in "
    "a row, then the end step.",
    "tip.dice": "The last dice rolled. Every die comes from the game's secret seed, "
    "committed to when the game began and revealed when it ends; the replay's Verification "
    "then rolls them again and checks they match.",
    "tip.acting": "The side acting now plays one card face up or face down, or passes.",
}
