"""Commands as each game declares them: their shapes, the limits every value keeps, and a
check that refuses anything else before the rules see it.

A game declares ``command_fields`` (in its package, beside its events): for each command type,
the fields it carries. A field's spec is plain data:

    "str", "int", "bool"      a text, a whole number, true or false ("?" after: or null)
    [spec]                    a list of such values
    {"name": spec, ...}       an object with exactly these fields ("~name": may be absent)
    {"*": spec}               an object with any names, each value a spec
    (spec, spec, ...)         any one of these

and ``type`` is every command's own. Whatever a command carries beyond its declaration is
refused, naming it, so what is stored (``command_given``) is only what the game declared.
Every value keeps the limits below, so a command always survives the event store's codec
(``events.envelope.fast_canonical``) byte for byte and any JSON reader reads it exactly.

``Commands.load`` is the write path's door: a plain-Python test first (about a
microsecond), and the marshmallow schema derived from the same declaration only when it
fails, for the sentence that says what is wrong. ``tests/events/test_commands.py`` checks
that the two agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from events.schemas import JSON_INT_MAX as INT_MAX
from events.schemas import StrictBoolean, StrictInteger, StrictList, flatten
from games.base import RulesError
from games.i18n import said

# The limits of every value in a command (docs: README "Commands"; the OpenAPI says them).
# INT_MAX: whole numbers any JSON reader (JavaScript's too) holds exactly.
TEXT_MAX = 200  # characters in a text
ITEMS_MAX = 64  # items in a list, names in an object

Spec = Any
Test = Callable[[Any], bool]


class CommandRefused(RulesError):
    """A command that does not have the shape its game declares; ``errors`` by field. (A
    refusal the rules would give too, only earlier: a ``RulesError``.)"""

    def __init__(self, sentence: str, errors: Mapping[str, Any] | None = None) -> None:
        super().__init__(sentence)
        self.errors = dict(errors or {})


# -- the fast test -------------------------------------------------------------------------
def _text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= TEXT_MAX


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -INT_MAX <= value <= INT_MAX


_SCALARS: dict[str, Test] = {"str": _text, "int": _whole, "bool": lambda v: isinstance(v, bool)}


def fast_test(spec: Spec) -> Test:
    """A plain-Python test that accepts exactly what ``field_of(spec)`` loads."""
    if isinstance(spec, str):
        kind, nullable = spec.rstrip("?"), spec.endswith("?")
        if kind not in _SCALARS:
            raise ValueError(f"unknown command field kind {spec!r}")
        test = _SCALARS[kind]
        return (lambda v: v is None or test(v)) if nullable else test
    if isinstance(spec, list):
        (item_spec,) = spec
        item = fast_test(item_spec)
        return lambda v: isinstance(v, list) and len(v) <= ITEMS_MAX and all(map(item, v))
    if isinstance(spec, tuple):
        options = [fast_test(s) for s in spec]
        return lambda v: any(test(v) for test in options)
    if isinstance(spec, dict) and set(spec) == {"*"}:
        value = fast_test(spec["*"])
        return lambda v: (isinstance(v, dict) and len(v) <= ITEMS_MAX
                          and all(_text(k) and value(x) for k, x in v.items()))  # fmt: skip
    if isinstance(spec, dict):
        return _object_test(spec)
    raise ValueError(f"unknown command field spec {spec!r}")


def _object_test(declared: Mapping[str, Spec]) -> Test:
    rules = [(name.lstrip("~"), name.startswith("~"), fast_test(s)) for name, s in declared.items()]
    allowed = frozenset(r[0] for r in rules)

    def test(value: Any) -> bool:
        if not isinstance(value, dict) or not allowed.issuperset(value):
            return False
        for key, optional, check in rules:
            if key not in value:
                if not optional:
                    return False
            elif not check(value[key]):
                return False
        return True

    return test


# -- the schema, for the sentence ----------------------------------------------------------
class AnyOf(fields.Field):
    """The first of several fields that loads the value."""

    def __init__(self, options: list[fields.Field], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.options = options

    def _deserialize(self, value, attr, data, **kwargs):
        for option in self.options:
            try:
                return option.deserialize(value, attr, data)
            except ValidationError:
                continue
        raise ValidationError("is none of the shapes this field takes")


def field_of(spec: Spec, required: bool = True) -> fields.Field:
    if isinstance(spec, str):
        kind, nullable = spec.rstrip("?"), spec.endswith("?")
        kw = {"required": required, "allow_none": nullable}
        if kind == "str":
            return fields.String(validate=validate.Length(max=TEXT_MAX), **kw)
        if kind == "int":
            return StrictInteger(strict=True, validate=validate.Range(-INT_MAX, INT_MAX), **kw)
        if kind == "bool":
            return StrictBoolean(**kw)
        raise ValueError(f"unknown command field kind {spec!r}")
    if isinstance(spec, list):
        return StrictList(field_of(spec[0]), validate=validate.Length(max=ITEMS_MAX),
                          required=required)  # fmt: skip
    if isinstance(spec, tuple):
        options = [field_of(s) for s in spec]
        return AnyOf(options, required=required, allow_none=any(o.allow_none for o in options))
    if isinstance(spec, dict) and set(spec) == {"*"}:
        return fields.Dict(keys=fields.String(validate=validate.Length(max=TEXT_MAX)),
                           values=field_of(spec["*"]), validate=validate.Length(max=ITEMS_MAX),
                           required=required)  # fmt: skip
    if isinstance(spec, dict):
        return fields.Nested(object_schema("part", spec), required=required)
    raise ValueError(f"unknown command field spec {spec!r}")


def object_schema(name: str, declared: Mapping[str, Spec]) -> Schema:
    attrs = {key.lstrip("~"): field_of(spec, required=not key.startswith("~"))
             for key, spec in declared.items()}  # fmt: skip
    return Schema.from_dict(attrs, name=name)(unknown=RAISE)


# -- every game's commands -----------------------------------------------------------------
class Commands:
    """The declared commands of every game in ``registry``."""

    def __init__(self, registry: Mapping[str, Any]) -> None:
        self._tests: dict[tuple[str, str], Test] = {}
        self._schemas: dict[tuple[str, str], Schema] = {}
        self._types: dict[str, tuple[str, ...]] = {}
        for key, rules in registry.items():
            declared = getattr(rules, "command_fields", None)
            if declared is None:
                continue
            self._types[key] = tuple(declared)
            for type_, spec in declared.items():
                if "type" in spec:
                    raise ValueError(f"{key} {type_}: 'type' is every command's own field")
                whole = {"type": "str", **spec}
                self._tests[key, type_] = _object_test(whole)
                self._schemas[key, type_] = object_schema(f"{type_}_command", whole)

    def declares(self, game: str) -> bool:
        return game in self._types

    def valid(self, game: str, command: Any) -> bool:
        """Whether ``command`` has a declared shape (the store's check: no sentence)."""
        type_ = command.get("type") if isinstance(command, dict) else None
        test = self._tests.get((game, type_)) if isinstance(type_, str) else None
        return test is not None and test(command)

    def load(self, game: str, command: Any) -> dict[str, Any]:
        """The command, when it has the shape its game declares for its type; else
        ``CommandRefused`` with a sentence for the player and the faults by field."""
        if self.valid(game, command) or game not in self._types:
            return command  # (a game that declares no commands: a tool's or a test's toy)
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            example = '{"type": "resign"}'
            raise CommandRefused(said("a command is an object with a \"type\", for example "
                                      "{example}", example=example),
                                 {"type": "Missing or not a text."})  # fmt: skip
        type_ = command["type"]
        schema = self._schemas.get((game, type_))
        if schema is None:
            known = ", ".join(self._types.get(game, ()))
            raise CommandRefused(
                said(
                    "there is no command {type_!r}; the commands are: {known}",
                    type_=type_[:TEXT_MAX],
                    known=known,
                ),
                {"type": "Unknown command."},
            )
        try:
            schema.load(command)
        except ValidationError as error:
            faults = flatten(error.messages)
            raise CommandRefused(_sentence(type_, schema, faults), faults) from None
        raise AssertionError(f"{game} {type_}: the fast test and the schema disagree")


def _sentence(type_: str, schema: Schema, faults: Mapping[str, str]) -> str:
    unknown = sorted(k for k, v in faults.items() if "." not in k and v == "Unknown field.")
    takes = ", ".join(n for n in schema.fields if n != "type") or said("no other fields")
    parts = []
    if unknown:
        names = ", ".join(repr(k[:40]) for k in unknown[:5]) + (", …" if len(unknown) > 5 else "")
        parts.append(said("the {type} command has no field {names} (it takes: {takes})",
                          type=type_, names=names, takes=takes))  # fmt: skip
    # each field's own fault stays marshmallow's English: a machine-readable detail, as
    # the problem document's ``errors`` carries it too
    wrong = [f"{k[:80]}: {v}" for k, v in sorted(faults.items()) if k not in unknown]
    if wrong:
        faults_ = "; ".join(wrong[:5]) + (" …" if len(wrong) > 5 else "")
        parts.append(said("the {type} command is not right: {faults}", type=type_,
                          faults=faults_))  # fmt: skip
    if len(parts) == 2:  # two sentences, each said on its own
        return said("{first}; {second}", first=parts[0], second=parts[1])
    return parts[0] if parts else ""
