"""The Sun Tzu position notation: round trips over random games, known answers, rejections."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import games
from games.sun_tzu import notation
from games.sun_tzu.state import State

RULES = games.get("sun-tzu")
OPTION_SETS = [
    {"variant": variant, "events": events}
    for variant in ("standard", "beginner")
    for events in (True, False)
]
DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"


def play(seed: int, options: dict, on_event=None):
    """Yield every position of one random game, the first and the last included."""
    rng = random.Random(seed)
    events = RULES.setup(options, rng)
    if on_event:
        for e in events:
            on_event(e)
    st = RULES.fold(events)
    yield st
    while True:
        pending = RULES.pending(st)
        if not pending:
            return
        for seat in pending:
            cmd = RULES.random_command(st, seat, rng)
            for e in RULES.decide(st, seat, cmd, rng):
                if on_event:
                    on_event(e)
                st = RULES.evolve(st, e)
                yield st


def assert_round_trip(st: State) -> str:
    text = notation.format(st)
    back = notation.parse(text)
    assert back == st, [k for k, v in vars(st).items() if vars(back)[k] != v]
    assert notation.format(back) == text
    return text


def field(text: str, name: str) -> str:
    """The value of one field of a position."""
    for token in text.split(" "):
        key, _, value = token.partition("=")
        if key == name:
            return value
    raise AssertionError(f"no field {name}")


def replace_field(text: str, name: str, value: str) -> str:
    tokens = text.split(" ")
    i = [t.partition("=")[0] for t in tokens].index(name)
    tokens[i] = f"{name}={value}"
    return " ".join(tokens)


# ---------------------------------------------------------------------------------------
# Round trips over every position of random games.
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o['variant']}-{o['events']}")
@pytest.mark.parametrize("seed", range(12))
def test_round_trip_every_position_of_random_games(seed: int, options: dict) -> None:
    phases = set()
    last = None
    for st in play(seed, options):
        text = assert_round_trip(st)
        assert text.isascii() and text.isprintable() and "  " not in text
        assert field(text, "pending") == notation.write_pending(st)
        phases.add(st.phase)
        last = st
    assert last is not None and last.phase == "over"
    assert {"place", "battle", "draw", "over"} <= phases


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o['variant']}-{o['events']}")
def test_round_trip_positions_folded_from_stored_json_events(options: dict) -> None:
    # The service stores events as JSON: states folded from decoded events round-trip too.
    log: list = []
    positions = list(play(101, options, on_event=log.append))
    st = State()
    for event in json.loads(json.dumps(log)):
        st = RULES.evolve(st, event)
        assert_round_trip(st)
    assert st == positions[-1]


def test_round_trip_initial_state() -> None:
    text = assert_round_trip(RULES.initial())
    assert field(text, "phase") == "new"
    assert field(text, "displays") == "-"
    assert field(text, "pending") == "-"


@settings(max_examples=20, deadline=None, database=None)
@given(
    seed=hs.integers(min_value=0, max_value=2**32 - 1),
    options=hs.sampled_from(OPTION_SETS),
)
def test_round_trip_hypothesis(seed: int, options: dict) -> None:
    for st in play(seed, options):
        assert_round_trip(st)


def test_spaces_inside_json_strings_stay_out_of_the_field_separators() -> None:
    # A client may attach extra keys to a Warlord play; they travel in the plan as given.
    st = next(s for s in play(3, OPTION_SETS[0]) if s.phase == "place")
    st = st.copy()
    st.plans = ({"warlords": [{"warlord": "remove", "note": "a b\tc é"}]}, {})
    text = assert_round_trip(st)
    assert text.isascii() and len(text.split(" ")) == len(notation.FIELDS) + 2


# ---------------------------------------------------------------------------------------
# The shape of the notation.
def test_fields_cover_every_state_attribute_once() -> None:
    attrs = [a for name in notation.FIELDS for a in notation.ATTRIBUTES[name]]
    assert len(attrs) == len(set(attrs))
    assert set(attrs) == set(vars(State()))


def test_format_writes_the_header_the_fields_in_order_then_pending() -> None:
    text = notation.format(next(play(0, OPTION_SETS[0])))
    names = [t.partition("=")[0] for t in text.split(" ")]
    assert names == [notation.HEADER, *notation.FIELDS, "pending"]


def test_equal_states_give_equal_text_whatever_the_dict_key_order() -> None:
    st = next(s for s in play(5, OPTION_SETS[0]) if s.battle is not None)
    shuffled = st.copy()
    shuffled.battle = dict(reversed(list(st.battle.items())))
    assert shuffled == st
    assert notation.format(shuffled) == notation.format(st)


# ---------------------------------------------------------------------------------------
# Known answers.
HAND_WRITTEN = (
    "sun-tzu/1 variant=beginner events=no round=2 phase=place "
    "displays=124,135,143,232,234 board=Qin:b3,Chu:r2,Jin-Yan:-,Han-Qi:b1B1,Wu:r4R1 "
    "reserve=16/14 aside=0/0 score=0 "
    "hands=1,2,3,4,5,6,7,8,+1,+1,-1/1,2,3,4,5,6,7,8,+1 "
    "decks=-1,plague,+1,-1,plague,9/+1,10,-1,plague,+1,-1,-1 gone=10/9,plague "
    "burned=-/- drawn=-/- keep=0/0 played1=no/no kept=-/- spent=-/- extra=0/0 placed=-/- "
    "plans=- first=- queue=- deadly=no privilege=- order=- fought=- current=- stage=- "
    "battle=- tasks=- recycled=- window=- answered=- event=- eventdeck=- eventsdone=- "
    "plagues=1 outcome=- pending=blue:place,red:place"
)


def test_known_answer_hand_written_position() -> None:
    st = notation.parse(HAND_WRITTEN)
    assert st.variant == "beginner" and st.events_on is False
    assert (st.round, st.phase, st.score) == (2, "place", 0)
    assert st.displays == ((1, 2, 4), (1, 3, 5), (1, 4, 3), (2, 3, 2), (2, 3, 4))
    assert st.armies == ((3, 0), (0, 2), (0, 0), (1, 0), (0, 4))
    assert st.markers == ((0, 0), (0, 0), (0, 0), (1, 0), (0, 1))
    assert st.reserve == (16, 14) and st.aside == (0, 0)
    assert st.hands[0] == ("1", "2", "3", "4", "5", "6", "7", "8", "+1", "+1", "-1")
    assert st.decks[1] == ("+1", "10", "-1", "plague", "+1", "-1", "-1")
    assert st.gone == (("10",), ("9", "plague"))
    assert st.placed == (None, None) and st.plans == ({}, {})
    assert st.first_placer is None and st.privilege is None and st.current is None
    assert st.stage == "" and st.battle is None and st.window == ((), ())
    assert st.plagues_played == 1 and st.outcome is None
    assert RULES.pending(st) == {"blue": "place", "red": "place"}
    assert notation.format(st) == HAND_WRITTEN
    # The position can be played on: analysis from a position.
    assert RULES.legal(st, "blue")
    provinces = ["Qin", "Chu", "Jin-Yan", "Han-Qi", "Wu"]
    cmd = {"type": "place", "cards": dict(zip(provinces, "12345", strict=True))}
    events = RULES.decide(st, "blue", cmd, random.Random(0))
    assert [e["type"] for e in events] == ["placed"]


BATTLE = (
    "sun-tzu/1 variant=standard events=yes round=5 phase=battle "
    "displays=232,252,315,135,323 board=Qin:b5B1,Chu:r9R2,Jin-Yan:r4B1,Han-Qi:b1,Wu:b2 "
    "reserve=5/0 aside=6/6 score=-1 hands=1,3,6,7,10/1,3,4,5,-1,plague,plague "
    "decks=plague,+1,-1/+1,7,10 gone=8,+1,+1,+3,-1,9,-1/+2,+1,9,+3,-1 burned=-/- "
    "drawn=-/- keep=0/0 played1=no/no kept=manoeuvre/double_six spent=manoeuvre/double_six "
    "extra=0/0 placed=2,plague,4,5,+2/2,+1,-1,8,6 "
    'plans=[{"supply":["Qin","Han-Qi","Jin-Yan","Wu","Chu"],"warlords":'
    '[{"from":"Wu","to":"Han-Qi","warlord":"manoeuvre"}]},{"order":["Chu","Jin-Yan"]}] '
    "first=blue queue=- deadly=no privilege=blue order=- fought=- current=Wu stage=effects "
    'battle={"cards":{"blue":"+2","red":"6"},"deadly":false,"fired":{},"margin":2,'
    '"moves":[["blue","reserve","aside",1]],"plague":false,"plagues":0,"province":"Wu",'
    '"tasks":[{"kind":"cost","n":1,"province":"Wu","seat":"red","to":"marker@Wu",'
    '"why":"six"}],"type":"battle_revealed","values":{"blue":["bonus",2],"red":'
    '["number",6]},"visible_to":"all","winner":"blue"} '
    'tasks=[{"kind":"cost","n":1,"province":"Wu","seat":"red","to":"marker@Wu","why":"six"}] '
    "recycled=- window=- answered=- event=war_chariot "
    "eventdeck=champion_challenge,hero_challenge,light_infantry,epidemic eventsdone=- "
    "plagues=0 outcome=- pending=red:sources"
)


def test_known_answer_battle_position_with_json_parts() -> None:
    st = notation.parse(BATTLE)
    assert (st.round, st.phase, st.current, st.stage) == (5, "battle", 4, "effects")
    assert st.armies[1] == (0, 9) and st.markers[1] == (0, 2)
    assert st.placed == (("2", "plague", "4", "5", "+2"), ("2", "+1", "-1", "8", "6"))
    assert st.plans[0]["warlords"] == [{"from": "Wu", "to": "Han-Qi", "warlord": "manoeuvre"}]
    assert st.plans[1] == {"order": ["Chu", "Jin-Yan"]}
    assert st.first_placer == 0 and st.privilege == 0
    assert st.battle["cards"] == {"blue": "+2", "red": "6"} and st.battle["winner"] == "blue"
    task = {"kind": "cost", "n": 1, "province": "Wu", "seat": "red", "to": "marker@Wu"}
    assert st.tasks == ({**task, "why": "six"},)
    assert st.event_up == "war_chariot" and st.event_deck[-1] == "epidemic"
    assert RULES.pending(st) == {"red": "sources"}
    assert notation.format(st) == BATTLE


def test_known_answer_window_queue_recycled_and_outcome() -> None:
    st = notation.parse(BATTLE).copy()
    st.queue = ((1, {"warlord": "remove", "province": "Qin"}),)
    st.window = (None, ())
    st.answered = (1, 0)
    st.recycled = ((1, 4), (0, 0))
    st.outcome = {"winner": None, "reason": "draw", "score": 0, "reserve": {"blue": 1, "red": 1}}
    text = assert_round_trip(st)
    assert field(text, "queue") == '[["red",{"province":"Qin","warlord":"remove"}]]'
    assert field(text, "window") == "[null,[]]"
    assert field(text, "answered") == "red,blue"
    assert field(text, "recycled") == "red@Wu,blue@Qin"
    assert field(text, "outcome") == (
        '{"reason":"draw","reserve":{"blue":1,"red":1},"score":0,"winner":null}'
    )


def test_pending_may_be_left_out() -> None:
    without = HAND_WRITTEN.rsplit(" ", 1)[0]
    assert notation.parse(without) == notation.parse(HAND_WRITTEN)


def test_every_position_written_in_the_docs_parses_and_round_trips() -> None:
    lines = re.findall(r"^sun-tzu/1 .*$", DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert lines
    for line in lines:
        assert notation.format(notation.parse(line)) == line


# ---------------------------------------------------------------------------------------
# Rejections: each names the field at fault.
def _drop(name: str):
    return lambda t: " ".join(x for x in t.split(" ") if not x.startswith(name + "="))


REJECTIONS = [
    ("header", lambda t: t.replace("sun-tzu/1", "sun-tzu/2")),
    ("header", lambda t: " " + t),
    ("position", lambda t: t.replace("Qin", "Qín", 1)),
    ("position", lambda t: t.replace(" round", "\nround")),
    ("variant", lambda t: replace_field(t, "variant", "advanced")),
    ("events", lambda t: replace_field(t, "events", "true")),
    ("round", lambda t: replace_field(t, "round", "-1")),
    ("round", _drop("round")),
    ("phase", lambda t: replace_field(t, "phase", "lunch")),
    ("displays", lambda t: replace_field(t, "displays", "12,135,143,232,234")),
    ("displays", lambda t: replace_field(t, "displays", "124,135")),
    ("board", lambda t: t.replace("Qin:b3,Chu:r2", "Chu:r2,Qin:b3")),
    ("board", lambda t: t.replace("Qin:b3", "Qin:x3")),
    ("board", lambda t: t.replace("Qin:b3", "Qin:")),
    ("board", lambda t: t.replace(",Wu:r4R1", "")),
    ("reserve", lambda t: replace_field(t, "reserve", "16")),
    ("reserve", lambda t: replace_field(t, "reserve", "16/many")),
    ("aside", lambda t: replace_field(t, "aside", "0/0/0")),
    ("score", lambda t: replace_field(t, "score", "two")),
    ("hands", lambda t: t.replace("6,7,8,+1 ", "6,7,8,+4 ")),
    ("hands", lambda t: t.replace("hands=1,2,3", "hands=1,,2,3")),
    ("decks", lambda t: replace_field(t, "decks", "/-")),
    ("keep", lambda t: replace_field(t, "keep", "one/0")),
    ("played1", lambda t: replace_field(t, "played1", "yes/maybe")),
    ("kept", lambda t: replace_field(t, "kept", "remove/-")),
    ("spent", lambda t: replace_field(t, "spent", "-/napoleon")),
    ("placed", lambda t: replace_field(t, "placed", "1,2,3,4/-")),
    ("plans", lambda t: replace_field(t, "plans", "[{}")),
    ("plans", lambda t: replace_field(t, "plans", "{}")),
    ("plans", lambda t: replace_field(t, "plans", '[{"order":["Rome"]},{}]')),
    ("plans", lambda t: replace_field(t, "plans", '[{"warlords":[{"n":1}]},{}]')),
    ("first", lambda t: replace_field(t, "first", "green")),
    ("queue", lambda t: replace_field(t, "queue", '[["green",{"warlord":"remove"}]]')),
    ("deadly", lambda t: replace_field(t, "deadly", "1")),
    ("privilege", lambda t: replace_field(t, "privilege", "both")),
    ("order", lambda t: replace_field(t, "order", "Qin,Rome")),
    ("fought", lambda t: replace_field(t, "fought", "")),
    ("current", lambda t: replace_field(t, "current", "Rome")),
    ("stage", lambda t: replace_field(t, "stage", "middle")),
    ("battle", lambda t: replace_field(t, "battle", "[]")),
    ("battle", lambda t: replace_field(t, "battle", '{"province":"Rome"}')),
    ("tasks", lambda t: replace_field(t, "tasks", '[{"kind":"cost","n":1,"to":"aside"}]')),
    ("recycled", lambda t: replace_field(t, "recycled", "blue:Wu")),
    ("window", lambda t: replace_field(t, "window", "[null]")),
    ("answered", lambda t: replace_field(t, "answered", "blue,green")),
    ("event", lambda t: replace_field(t, "event", "earthquake")),
    ("eventdeck", lambda t: replace_field(t, "eventdeck", "epidemic,earthquake")),
    ("eventsdone", lambda t: replace_field(t, "eventsdone", "7")),
    ("plagues", lambda t: replace_field(t, "plagues", "1.5")),
    ("outcome", lambda t: replace_field(t, "outcome", '"blue"')),
    ("pending", lambda t: replace_field(t, "pending", "blue:place")),
    ("pending", lambda t: replace_field(t, "pending", "-")),
    ("pending", lambda t: t + " extra=1"),
    ("pending", lambda t: t.replace(" pending=", " later=")),
]


REJECTION_IDS = [f"{name}-{i}" for i, (name, _) in enumerate(REJECTIONS)]


@pytest.mark.parametrize(("name", "corrupt"), REJECTIONS, ids=REJECTION_IDS)
def test_malformed_text_is_rejected_naming_the_field(name: str, corrupt) -> None:
    text = corrupt(HAND_WRITTEN)
    assert text != HAND_WRITTEN
    with pytest.raises(ValueError, match=rf"^{re.escape(name)}: "):
        notation.parse(text)


def test_rejection_messages_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match=r"^hands: red's part: '\+4' is not a card$"):
        notation.parse(HAND_WRITTEN.replace("7,8,+1 decks", "7,8,+4 decks"))
    with pytest.raises(ValueError, match=r"^kept: blue's part: 'remove' is a red Warlord$"):
        notation.parse(replace_field(HAND_WRITTEN, "kept", "remove/-"))
    with pytest.raises(ValueError, match=r"^round: missing \(the position ends after 'events'\)"):
        notation.parse(HAND_WRITTEN.split(" round=")[0])
    with pytest.raises(ValueError, match=r"^pending: the text says 'blue:place' but the posi"):
        notation.parse(replace_field(HAND_WRITTEN, "pending", "blue:place"))


def test_parse_wants_text() -> None:
    with pytest.raises(ValueError, match=r"^position: "):
        notation.parse(b"sun-tzu/1")  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None, database=None)
@given(
    start=hs.integers(min_value=0, max_value=len(BATTLE)),
    length=hs.integers(min_value=0, max_value=8),
    junk=hs.text(alphabet=hs.characters(min_codepoint=32, max_codepoint=126), max_size=8),
)
def test_corrupted_text_gives_a_state_or_a_value_error(start: int, length: int, junk: str) -> None:
    text = BATTLE[:start] + junk + BATTLE[start + length :]
    try:
        st = notation.parse(text)
    except ValueError as e:
        assert re.match(r"^[a-z0-9]+: ", str(e)), str(e)
        return
    assert isinstance(st, State)
