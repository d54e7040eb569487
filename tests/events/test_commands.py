"""Commands have the shapes their game declares; anything else is refused, naming it.

The write path's door (``events.commands``): the fast test and the marshmallow schema agree,
what is refused says why, and any command that gets through is stored and read back byte
for byte, whatever a client sends.
"""

from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

import games
from events.commands import ITEMS_MAX, TEXT_MAX, CommandRefused, Commands, fast_test, field_of
from events.envelope import canonical
from events.schemas import JSON_INT_MAX

RULES = games.get("sun-tzu")
COMMANDS = Commands(games.REGISTRY)

# Hostile values: huge and float numbers, lone surrogates, deep nesting, long texts.
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([JSON_INT_MAX, JSON_INT_MAX + 1, -(2**64), 10**400, 2**64]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.sampled_from(["\ud800", "x" * (TEXT_MAX + 1), "Qin", "remove", "7", "largest"]),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
SPECS = [spec for rules in games.REGISTRY.values() for spec in rules.command_fields.values()]


def parts(spec):
    """Every field spec inside a declaration, nested ones included."""
    if isinstance(spec, dict):
        for inner in spec.values():
            yield inner
            yield from parts(inner)
    elif isinstance(spec, list | tuple):
        for inner in spec:
            yield inner
            yield from parts(inner)


FIELD_SPECS = sorted({repr(p): p for s in SPECS for p in parts(s)}.items())


@settings(max_examples=800, deadline=None)
@given(st.sampled_from(FIELD_SPECS), VALUES)
def test_the_fast_test_agrees_with_the_schema(named, value):
    _, spec = named
    try:
        field_of(spec).deserialize(value)
        accepted = True
    except ValidationError:
        accepted = False
    assert fast_test(spec)(value) is accepted


def test_the_agreement_test_meets_both_answers():
    take = {"*": "int"}
    assert fast_test(take)({"Qin": 2}) and not fast_test(take)({"Qin": 2.0})
    assert not fast_test(take)({"Qin": JSON_INT_MAX + 1})
    assert not fast_test(["str"])(["x"] * (ITEMS_MAX + 1))


@pytest.mark.parametrize(
    "command,sentence,field",
    [
        ({"type": "resign", "zz": 1}, "the resign command has no field 'zz'", "zz"),
        ({"type": "resign", "zz": 10**400}, "has no field 'zz'", "zz"),
        ({"type": "place", "cards": {"Qin": ["7"]}}, "cards.Qin: Not a valid string", "cards.Qin"),
        ({"type": "sources", "take": {"Qin": 2**64}}, "take.Qin: Must be", "take.Qin"),
        ({"type": "sources", "take": {"Qin": 1.5}}, "take.Qin: Not a valid integer", "take.Qin"),
        ({"type": "keep", "cards": "x" * 201}, "cards: is none of the shapes", "cards"),
        ({"type": "place", "cards": {}, "warlords": [{"warlord": "remove", "q": 1}]},
         "warlords.0.q: Unknown field", "warlords.0.q"),
        ({"type": "place", "cards": {}, "order": ["Qin"] * 65}, "order: Longer than", "order"),
        ({"type": "choose_warlord", "warlord": True}, "warlord: Not a valid string", "warlord"),
        ({"type": "launch"}, "there is no command 'launch'; the commands are: choose", "type"),
        ({"type": ["place"]}, 'a command is an object with a "type"', "type"),
        ([{"type": "resign"}], 'a command is an object with a "type"', "type"),
    ],
)  # fmt: skip
def test_a_command_of_another_shape_is_refused_with_a_sentence(command, sentence, field):
    with pytest.raises(CommandRefused, match=sentence.replace("(", r"\(")) as refused:
        COMMANDS.load("sun-tzu", command)
    assert field in refused.value.errors


def test_a_declared_command_is_given_back_unchanged():
    command = {"type": "place", "cards": {"Qin": "7"}, "arm": {"restraint": None},
               "supply": ["Qin", "Wu"], "reinforce": []}  # fmt: skip
    assert COMMANDS.load("sun-tzu", command) is command


def test_every_declaration_names_known_kinds_only():
    for spec in SPECS:
        Commands({"t": type("T", (), {"command_fields": {"c": spec}})})  # raises if unknown
    with pytest.raises(ValueError, match="unknown command field kind"):
        fast_test("float")
    with pytest.raises(ValueError, match="every command's own field"):
        Commands({"t": type("T", (), {"command_fields": {"c": {"type": "int"}}})})


# -- the store keeps what it accepted, byte for byte ---------------------------------------
@pytest.fixture(scope="module")
def redis_store(redis_url):
    import redis

    from events.redis_store import RedisEventStore

    client = redis.Redis.from_url(redis_url)
    yield RedisEventStore(client)
    client.close()


def mutated(command_types):
    """A command of a declared type with fields set to hostile values, declared or not."""
    names = st.sampled_from(
        ["cards", "warlords", "arm", "order", "supply", "take", "card", "warlord", "province",
         "provinces", "reinforce", "zz", "type"]
    )  # fmt: skip
    return st.builds(
        lambda type_, extra: {"type": type_, **extra},
        st.sampled_from(command_types),
        st.dictionaries(names, VALUES, max_size=3),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_accepted_command_round_trips_through_the_store_byte_for_byte(redis_store, data):
    from events.writepath import WritePath

    bingfa = WritePath(redis_store)
    game_id = bingfa.create_game("sun-tzu", {"events": True}, {"blue": "human", "red": "human"})
    bingfa.join(game_id, "blue")
    bingfa.join(game_id, "red")
    game = bingfa.load(game_id)
    seat = next(iter(game.pending))
    legal = RULES.legal(game.state, seat)
    # (the deal differs from game to game: a legal command is drawn by its index)
    pick = data.draw(st.integers(0, 10**6))
    command = data.draw(st.one_of(st.just(legal[pick % len(legal)]),
                                  mutated(RULES.command_types)))  # fmt: skip
    before = redis_store.version(game_id)
    try:
        result = bingfa.submit(game_id, seat, command)
    except (CommandRefused, games.RulesError):
        assert redis_store.version(game_id) == before  # refused: nothing written
        return
    given_env = next(e for e in redis_store.read(game_id, after=before)
                     if e.type == "command_given")  # fmt: skip
    stored = orjson.loads(given_env.payload_json)["command"]
    assert stored == command
    assert orjson.dumps(stored, option=orjson.OPT_SORT_KEYS) == canonical(command)
    # …and the game reads back whole: every later read of it works.
    assert bingfa.load(game_id).version == result.version
    assert [e.seq for e in redis_store.read(game_id)] == list(range(1, result.version + 1))
