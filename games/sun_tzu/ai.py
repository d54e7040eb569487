"""The Sun Tzu AI parts: what the generic search (``workers.ai.search``) needs, and the
easy level's rules of thumb (``games.base.AiParts``; ``RULES.ai``).

* Evaluation: a win probability from the score, the board weighted by the scorings still
  to come, the reserves, the cards in hand and the Warlords unused.
* Candidates: the placements worth searching (framed cards with 0-2 others, strong cards
  on contested valuable provinces, a Plague on the opponent's biggest stack, a -1 where
  little is at stake, the 6 off our own 6-markers, at most one targeted Warlord play);
  every other decision is answered by a rule of thumb (``rule_of_thumb``), in play and in
  playouts. Only placements are searched in play (``searchable``).
* Horizon: a playout ends once the scoring that closes the root's set of rounds is done.
* ``heuristic`` (the easy level): the rules of thumb from a view, one decision at a time.
* For the analysis of finished games: which decisions can be judged (``assessable``: those
  whose position ``knowledge.determinize`` rebuilds, answered by the command of their own
  kind, not a stand-alone reinforcement or a resignation) and the answers a decision other
  than a placement is judged among (``alternatives``).

Every function but ``heuristic``, ``searchable`` and ``assessable`` takes a full ``State``;
the AI only ever builds one with ``knowledge.determinize`` from the seat's view, so nothing
here can peek. When the state is a sample, the opponent's cards in it are guesses, and the
functions that choose for a seat read only that seat's own cards and the public board.
Pure: chance only from the ``rng`` given.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from functools import lru_cache
from itertools import combinations
from typing import Any

from games.sun_tzu import battle, knowledge, moves, rulings
from games.sun_tzu.components import (
    FRAMED,
    PLAGUE,
    PROVINCES,
    SCORING_ROUNDS,
    SEATS,
    WARLORDS_OF,
)
from games.sun_tzu.flow import holds, owed
from games.sun_tzu.state import State

# How much a card still in hand is worth, in score points (framed cards come back: 0).
CARD_WORTH = {"7": 0.5, "8": 0.7, "9": 0.9, "10": 1.1, "+1": 0.5, "+2": 0.7, "+3": 0.8,
              "-1": 0.25, PLAGUE: 0.7}  # fmt: skip
# A card's strength when matching cards to provinces: a bonus wins by k whatever it meets,
# so it ranks like a high number; -1 is a cheap throwaway (it only ever loses by 1).
STRENGTH = {**{str(n): float(n) for n in range(1, 11)}, "+1": 6.5, "+2": 7.5, "+3": 8.5,
            "-1": 0.5, PLAGUE: 0.0}  # fmt: skip
PREFERRED_WARLORDS = (("head_start", "manoeuvre", "reinforce"),
                      ("remove", "deadly_plague", "counter_plague"))  # fmt: skip
LATER_SCORINGS = (1.0, 0.55, 0.35)  # weight of the next scoring, the one after, the last
ROOT_CANDIDATES, INNER_CANDIDATES = 16, 8  # placements searched for the AI / in the tree
# Playouts: how often the cheap policy plays a sensible placement rather than a random one,
# and how much it jitters province priorities (less jitter: less noisy evaluations).
PLAYOUT_SENSE, PLAYOUT_NOISE = 0.85, 0.8
ARMED = knowledge.ARMED  # free to arm: always worth it


# ---------------------------------------------------------------------------------------
# Evaluation
def scorings_left(st: State) -> list[int]:
    """Columns of the score displays still to be scored, nearest first."""
    scored_now = st.phase in ("scored", "draw", "over") or st.round == 0
    return [
        i
        for i, r in enumerate(SCORING_ROUNDS)
        if r > st.round or (r == st.round and not scored_now)
    ]


def advantage(st: State, me: int) -> float:
    """``me``'s advantage in score points: the track plus what the board, reserve, hand
    and Warlords are likely to bring at the scorings still to come."""
    opp = 1 - me
    sign = 1 if me == 0 else -1
    x = sign * st.score
    left = scorings_left(st)
    for p, (blue, red) in enumerate(st.armies):
        d = (blue - red) * sign
        if not blue and not red:
            continue
        hold = math.tanh(d / 2.0)
        x += hold * sum(st.displays[p][c] * LATER_SCORINGS[i] for i, c in enumerate(left))
    if left:
        x += 0.12 * (st.reserve[me] - st.reserve[opp])
        x += sum(CARD_WORTH.get(c, 0.0) for c in st.hands[me])
        x -= sum(CARD_WORTH.get(c, 0.0) for c in st.hands[opp])
        unused = [len(st.kept[s]) - len(st.spent[s]) for s in (me, opp)]
        x += 0.4 * (unused[0] - unused[1])
    else:
        x += 0.05 * (st.reserve[me] - st.reserve[opp])  # the tie-break at 0
    return x


def evaluate(st: State, seat: str) -> float:
    """The probability that ``seat`` wins, from the heuristic advantage."""
    me = SEATS.index(seat)
    if st.outcome is not None:
        winner = st.outcome["winner"]
        return 0.5 if winner is None else float(winner == seat)
    spread = 1.5 + 1.5 * len(scorings_left(st))
    return 1.0 / (1.0 + math.exp(-advantage(st, me) / spread))


def set_end(st: State) -> int:
    """The scoring round that closes the set of rounds ``st`` is in."""
    done = st.phase in ("scored", "draw", "over")
    return next((r for r in SCORING_ROUNDS if r > st.round or (r == st.round and not done)), 9)


def horizon(root: State, st: State) -> bool:
    """Cut a playout once the scoring that closes the root's set of rounds is done."""
    end = set_end(root)
    return st.phase == "over" or st.round > end or (st.round == end and st.phase == "draw")


# ---------------------------------------------------------------------------------------
# Placements
def _priorities(st: State, me: int, rng: Any, noise: float) -> list[float]:
    left = scorings_left(st) or [2]
    now, later = left[0], left[1:]
    out = []
    for p, armies in enumerate(st.armies):
        d = armies[me] - armies[1 - me]
        contest = 1.0 / (1.0 + (d / 4.0) ** 2)
        value = st.displays[p][now] + 0.4 * sum(st.displays[p][c] for c in later)
        out.append(value * (0.3 + contest) * (1.0 + noise * (2 * rng.random() - 1)))
    return out


def _assign(st: State, me: int, cards: tuple[str, ...], prio: list[float]) -> list[str] | None:
    """Cards to provinces: a Plague where the opponent's stack is largest, a -1 where it
    matters least, the rest strongest to most important; the 6 off our own 6-markers."""
    order = sorted(range(5), key=lambda p: -prio[p])
    slots: list[str | None] = [None] * 5
    rest = list(cards)
    for _ in range(rest.count(PLAGUE)):
        free = [p for p in range(5) if slots[p] is None]
        target = max(free, key=lambda p: (st.armies[p][1 - me] - st.armies[p][me], -prio[p]))
        slots[target] = PLAGUE
        rest.remove(PLAGUE)
    rest.sort(key=lambda c: -STRENGTH[c])
    for p in order:
        if slots[p] is None:
            slots[p] = rest.pop(0)
    if "6" in slots:
        six = slots.index("6")
        if st.markers[six][me] and not holds(st, me, "double_six"):
            free = [p for p in order if not st.markers[p][me] and slots[p] != PLAGUE]
            if not free:
                return None
            other = free[0]
            slots[six], slots[other] = slots[other], "6"
    return slots  # type: ignore[return-value]


def _card_sets(st: State, me: int, rng: Any, limit: int) -> list[tuple[str, ...]]:
    """Five-card sets worth trying: framed cards (they come back) with 0-2 others."""
    plague_ok = max(a[1 - me] - a[me] for a in st.armies) >= 3
    sets = _sets_of(st.hands[me], plague_ok)
    if not sets and len(st.hands[me]) >= 5:
        return [tuple(rng.sample(list(st.hands[me]), 5))]
    return sets[:limit]


@lru_cache(maxsize=4096)
def _sets_of(hand: tuple[str, ...], plague_ok: bool) -> list[tuple[str, ...]]:
    framed = sorted((c for c in hand if c in FRAMED), key=int)
    specials = sorted({c for c in hand if c not in FRAMED}, key=lambda c: -STRENGTH[c])
    if not plague_ok:
        specials = [c for c in specials if c != PLAGUE]
    sets: list[tuple[str, ...]] = []
    for k in (0, 1, 2):
        for extra in combinations(specials, k):
            room = 5 - k
            if room > len(framed):
                continue
            top = framed[-room:]
            sets.append((*top, *extra))
            if "6" in top and len(framed) > room:  # spare the army a 6 costs
                sets.append((*[c for c in framed if c != "6"][-room:], *extra))
            if "1" in framed and "1" not in top:  # the 1 draws an extra card
                sets.append(("1", *top[1:], *extra))
    seen, out = set(), []
    for s in sets:
        key = tuple(sorted(s))
        if key not in seen and len(s) == 5:
            seen.add(key)
            out.append(s)
    return out


def placements(st: State, seat: str, rng: Any, n: int = 14) -> list[dict[str, Any]]:
    """Placement commands worth searching, most promising first."""
    me = SEATS.index(seat)
    out: list[dict[str, Any]] = []
    keys: set = set()
    sets = _card_sets(st, me, rng, limit=8)
    for noise in (0.0, 0.35, 0.7):
        for cards in sets:
            if len(out) >= n:
                break
            slots = _assign(st, me, cards, _priorities(st, me, rng, noise))
            if slots is None:
                continue
            command = _placement(st, me, slots)
            if key(command) not in keys:
                keys.add(key(command))
                out.append(command)
    plays = _warlord_plays(st, me)
    with_plays = [{**c, "warlords": [*c.get("warlords", ()), p]} for c in out[:3] for p in plays]
    return (out[: n - len(with_plays)] + with_plays)[:n] or [_random_placement(st, me, rng)]


def quick_placement(st: State, seat: str, rng: Any) -> dict[str, Any]:
    """One reasonable placement, cheaply: the default policy of playouts."""
    me = SEATS.index(seat)
    sets = _card_sets(st, me, rng, limit=8)
    if sets and rng.random() < PLAYOUT_SENSE:
        slots = _assign(st, me, rng.choice(sets), _priorities(st, me, rng, PLAYOUT_NOISE))
        if slots is not None:
            return _placement(st, me, slots)
    return _random_placement(st, me, rng)


def _random_placement(st: State, me: int, rng: Any) -> dict[str, Any]:
    hand = list(st.hands[me])
    for _ in range(50):
        slots = rng.sample(hand, 5)
        if "6" not in slots or not st.markers[slots.index("6")][me]:
            return _placement(st, me, slots)
    return _placement(st, me, [c for c in hand if c != "6"][:5])


def _placement(st: State, me: int, slots: list[str]) -> dict[str, Any]:
    command: dict[str, Any] = {"type": "place", "cards": dict(zip(PROVINCES, slots, strict=True))}
    if "6" in slots and st.markers[slots.index("6")][me]:
        command["warlords"] = [{"warlord": "double_six"}]
    arm = {w: True for w in ARMED if holds(st, me, w)}
    if arm:
        command["arm"] = arm
    # A standing choice of army sources: the AI is never asked mid-battle.
    command["supply"] = "largest"
    return command


def _warlord_plays(st: State, me: int) -> list[dict[str, Any]]:
    """The most useful targeted Warlord play before the battles, if any (at most one)."""
    best = _best_play(st, me, before=True)
    return [best] if best else []


def _best_play(st: State, me: int, before: bool) -> dict[str, Any] | None:
    """The Remove / Reinforce / Manoeuvre play that most improves control of valuable
    provinces now, with its gain in points at the coming scoring; None when none helps."""
    if st.variant != "standard" or st.round > 6:
        return None
    left = scorings_left(st) or [2]
    value = [d[left[0]] for d in st.displays]
    opp = 1 - me
    best, gain = None, 0.0
    for w in ("remove", "reinforce", "manoeuvre"):
        if not holds(st, me, w):
            continue
        for p in range(5):
            a = st.armies[p]
            if w == "remove" and a[opp] == 1 and not a[me]:
                g = value[p]
            elif w == "reinforce" and a[me] and st.reserve[me] and a[me] <= 2:
                g = 0.3 * value[p]
            elif w == "manoeuvre" and a[me] >= 2:
                targets = [q for q in rulings.ADJACENT[p] if not any(st.armies[q])]
                if not targets:
                    continue
                q = max(targets, key=lambda q: value[q])
                if value[q] > gain:
                    best, gain = {"warlord": w, "from": PROVINCES[p], "to": PROVINCES[q]}, value[q]
                continue
            else:
                continue
            if g > gain:
                best, gain = {"warlord": w, "province": PROVINCES[p]}, g
    # Before the battles the board will still change: play only clear gains.
    return best if gain >= (3 if before else 1) or (best and st.round == 6) else None


# ---------------------------------------------------------------------------------------
# The other decisions: quick rules of thumb (used by every level and in playouts)
def rule_of_thumb(st: State, seat: str, rng: Any) -> dict[str, Any] | None:
    """A quick answer to whatever ``seat`` owes in ``st`` (None: it owes nothing)."""
    me = SEATS.index(seat)
    kind = owed(st).get(me)
    if kind is None:
        return None
    if kind == "place":
        return quick_placement(st, seat, rng)
    if kind == "keep":
        ranked = sorted(st.drawn[me], key=lambda c: -CARD_WORTH.get(c, 0.0))
        return {"type": "keep", "cards": ranked[: st.keep_n[me]]}
    if kind == "next_province":
        left = [p for p in range(5) if p not in st.fought]
        col = (scorings_left(st) or [2])[0]
        return {
            "type": "next_province",
            "provinces": [PROVINCES[max(left, key=lambda p: st.displays[p][col])]],
        }
    if kind == "after_battles":
        play = _best_play(st, me, before=False)
        return {"type": "after_battles", "warlords": [play] if play else []}
    if kind == "sources":
        return _sources(st, me)
    if kind == "choose_warlord":
        return {"type": "choose_warlord", "warlord": PREFERRED_WARLORDS[me][0]}
    if kind == "extra_warlord":
        order = [*PREFERRED_WARLORDS[me], *WARLORDS_OF[me]]
        free = [w for w in order if w not in st.kept[me] and w not in rulings.NOT_AN_EXTRA_WARLORD]
        return {"type": "extra_warlord", "warlord": free[0]}
    raise ValueError(f"no rule of thumb for {kind!r}")


def _sources(st: State, me: int) -> dict[str, Any]:
    """Take owed armies from the stacks that can best spare them, tier by tier."""
    task = st.tasks[0]
    need = battle.board_need(st.reserve[me], task)
    take: dict[int, int] = {}
    for tier in battle.source_tiers(st.armies, me, task):
        have = dict(tier)
        while need and any(have.values()):
            p = max((p for p in have if have[p]), key=lambda p: (
                have[p] - st.armies[p][1 - me] - st.displays[p][0] * 0.2, -p))  # fmt: skip
            take[p] = take.get(p, 0) + 1
            have[p] -= 1
            need -= 1
    return {"type": "sources", "take": {PROVINCES[p]: k for p, k in sorted(take.items())}}


def key(command: dict[str, Any]) -> Hashable:
    """A hashable identity of a command, for the search's statistics. A placement's arming
    and supply choice follow from the position, so its cards and plays identify it."""
    if command["type"] == "place":
        plays = command.get("warlords")
        return (*command["cards"].values(), _freeze(plays) if plays else None)
    return _freeze(command)


def _freeze(x: Any) -> Hashable:
    if isinstance(x, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in x.items()))
    if isinstance(x, list | tuple):
        return tuple(_freeze(v) for v in x)
    return x


# ---------------------------------------------------------------------------------------
# The easy level: rules of thumb, one decision at a time, no lookahead.
EASY_NOISE = 0.35  # jitter of province priorities: easy is not predictable either


def heuristic(view: dict[str, Any], seat: str, rng: Any) -> dict[str, Any] | None:
    """The easy level, from ``seat``'s view: a placement matching strong cards to contested
    valuable provinces (with a Plague on the opponent's biggest stack and throwaways where
    little is at stake), and the rules of thumb for every other decision; the Warlord at
    random among the useful ones."""
    st = knowledge.determinize(view, seat, rng)
    me = SEATS.index(seat)
    kind = (view.get("decision") or {}).get("kind")
    if kind == "choose_warlord":
        return {"type": "choose_warlord", "warlord": rng.choice(PREFERRED_WARLORDS[me])}
    if kind != "place":
        return rule_of_thumb(st, seat, rng)
    sets = _card_sets(st, me, rng, limit=8)
    slots = _assign(st, me, rng.choice(sets), _priorities(st, me, rng, EASY_NOISE))
    return _placement(st, me, slots) if slots else _random_placement(st, me, rng)


# ---------------------------------------------------------------------------------------
# The analysis of finished games (``workers.analysis``)
def assessable(view: dict[str, Any], seat: str, command: dict[str, Any]) -> bool:
    """Whether ``command``, sent by ``seat`` when it saw ``view``, can be judged by the
    search: its position can be rebuilt from the view (not mid-battle: army sources, an
    extra Warlord) and it answers the decision owed (not a stand-alone reinforcement or a
    resignation)."""
    kind = (view.get("decision") or {}).get("kind")
    return kind in knowledge.PLAYABLE and command.get("type") == kind


def alternatives(st: State, seat: str, played: dict[str, Any]) -> list[dict[str, Any]]:
    """The answers ``played`` is judged among when it is not a placement: the legal
    commands of its kind (the next province: one province at a time)."""
    kind = played["type"]
    legal = [c for c in moves.legal(st, seat) if c["type"] == kind]
    if kind == "next_province":
        legal = [c for c in legal if len(c["provinces"]) == 1]
    return legal


# ---------------------------------------------------------------------------------------
class AiParts:
    """``games.base.AiParts`` for Sun Tzu: what ``workers.ai.search`` uses, and the easy
    level's policy."""

    determinize = staticmethod(knowledge.determinize)
    evaluate = staticmethod(evaluate)
    horizon = staticmethod(horizon)
    key = staticmethod(key)
    heuristic = staticmethod(heuristic)
    assessable = staticmethod(assessable)
    alternatives = staticmethod(alternatives)
    fallback = staticmethod(rule_of_thumb)

    @staticmethod
    def searchable(view: dict[str, Any], seat: str) -> bool:
        """Only placements are searched in play; everything else is a rule of thumb."""
        decision = view.get("decision") or {}
        return decision.get("kind") == "place"

    @staticmethod
    def candidates(st: State, seat: str, rng: Any, root: bool) -> list[dict[str, Any]]:
        if owed(st).get(SEATS.index(seat)) == "place":
            return placements(st, seat, rng, n=ROOT_CANDIDATES if root else INNER_CANDIDATES)
        return [rule_of_thumb(st, seat, rng)]

    @staticmethod
    def rollout(st: State, seat: str, rng: Any) -> dict[str, Any] | None:
        return rule_of_thumb(st, seat, rng)


AI = AiParts()
