"""Player profiles, Flask-free: a display name for a browser's player id, and a recovery
code that carries that identity to another browser.

A player id is the browser's identity (``session["player"]``, see
``service.api.games.player_id``). It is public (it is in the games' ``seat_joined``
events); the recovery code is a secret: shown once, only its sha256 is stored, and making
a new one invalidates the old. Recovering gives the id back, and the API puts it in the
new browser's session; the old browser keeps working too.

Names are 2 to 24 letters, digits, spaces, ``_`` or ``-`` (any script: 孙子 is a name),
unique without regard to case, and can be changed. A player without one is shown by a
short anonymous label ("Player 3fa2"), which nobody can take as a name.

Profiles are not a read model: they are not in any stream, so ``bingfa rebuild`` leaves
them alone. In Redis they live under ONE hash tag, each change one Lua script (atomic,
Redis Cluster safe):

    pf:{profiles}:names     hash  the name folded for comparison -> player
    pf:{profiles}:name      hash  player -> the name as they wrote it
    pf:{profiles}:folded    hash  player -> their name's folded form (to free it)
    pf:{profiles}:codes     hash  sha256 of a recovery code -> player
    pf:{profiles}:code      hash  player -> the sha256 of their recovery code
    pf:{profiles}:language  hash  player -> the language they chose (games.i18n.LOCALES)
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import unicodedata
from collections.abc import Iterable
from typing import Any, Protocol

from events.i18n import PROFILE_LANGUAGES
from games.i18n import said

NAME_MIN, NAME_MAX = 2, 24
_NAME = re.compile(r"[\w \-]+")  # \w: letters and digits of any script, and _
# The anonymous label ("Player 3fa2"), matched loosely on a name's ASCII look-alike: a name
# that reads as one (Cyrillic Р, Greek Ρ, fullwidth letters, I for l, o for 0) is refused.
_ANONYMOUS = re.compile(r"p[l1i|]ayer[ _-]*[0-9a-fo]{4}")
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U
CODE_GROUPS, CODE_GROUP = 4, 4  # XXXX-XXXX-XXXX-XXXX: 80 random bits
_CODE_LOOKALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})


class NameRefused(ValueError):
    """Not a name we accept (the sentence says why)."""


class NameTaken(Exception):
    """Someone else has that name."""


class WrongCode(Exception):
    """No identity has this recovery code (the same for every wrong code)."""


class MalformedCode(ValueError):
    """Not the shape of a recovery code at all."""


# -- pure: names and codes --------------------------------------------------------------
def clean_name(raw: Any) -> str:
    """The name as stored: Unicode-normalised (NFKC), trimmed, inner spaces collapsed.
    Raises NameRefused with a sentence for the player."""
    if not isinstance(raw, str):
        raise NameRefused(said("a name is text"))
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise NameRefused(
            said(
                "a name has {NAME_MIN} to {NAME_MAX} characters",
                NAME_MIN=NAME_MIN,
                NAME_MAX=NAME_MAX,
            )
        )
    if not _NAME.fullmatch(name):
        raise NameRefused(said("a name has only letters, digits, spaces, _ and -"))
    if _ANONYMOUS.fullmatch(looks_like(name)):
        raise NameRefused(
            said('"{name}" looks like the label of a player without a name', name=name)
        )
    return name


def looks_like(name: str) -> str:
    """What a name looks like, lower-cased: each character that Unicode's confusables
    list (``confusable_homoglyphs``) gives an ASCII look-alike for as that character
    (Cyrillic "Р" and Greek "Ρ" are "P"), after NFKC ("ｐ" is "p")."""
    return "".join(map(_ascii_look_alike, unicodedata.normalize("NFKC", name))).casefold()


def _ascii_look_alike(char: str) -> str:
    if char.isascii():
        return char
    # Imported here: its table costs a web process 8 MB, and only names outside ASCII ask.
    from confusable_homoglyphs import confusables

    for found in confusables.is_confusable(char, greedy=True) or ():
        for glyph in found["homoglyphs"]:
            if len(glyph["c"]) == 1 and glyph["c"].isascii():
                return glyph["c"]
    return char


def folded(name: str) -> str:
    """The form two names are compared in: "Zhuge Liang" and "zhuge liang" are one name."""
    return name.casefold()


def anonymous_label(player: str) -> str:
    """A short label for a player without a name, the same every time for that id."""
    return "Player " + hashlib.sha256(player.encode()).hexdigest()[:4]


def new_code() -> str:
    """A recovery code, ``XXXX-XXXX-XXXX-XXXX``, from the operating system's CSPRNG."""
    groups = ["".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_GROUP))
              for _ in range(CODE_GROUPS)]  # fmt: skip
    return "-".join(groups)


def code_hash(raw: Any) -> str:
    """The sha256 of a code as a person may type it: any case, with or without dashes
    and spaces, O for 0 and I or L for 1. Raises MalformedCode when it cannot be one."""
    if not isinstance(raw, str):
        raise MalformedCode(said("a recovery code is text"))
    code = re.sub(r"[\s\-]", "", raw).upper().translate(_CODE_LOOKALIKES)
    if len(code) != CODE_GROUPS * CODE_GROUP or any(c not in CODE_ALPHABET for c in code):
        raise MalformedCode(
            said(
                "a recovery code is 16 letters and digits in four groups, like 7K2M-9QXA-B4TR-WZ3H"
            )
        )
    return hashlib.sha256(code.encode()).hexdigest()


# -- the stores -------------------------------------------------------------------------
class ProfileStore(Protocol):
    def name_of(self, player: str) -> str | None: ...

    def names_of(self, players: Iterable[str]) -> dict[str, str | None]: ...

    def set_name(self, player: str, name: str) -> str:
        """Give ``player`` the (checked) name; raises NameRefused, NameTaken."""
        ...

    def has_recovery(self, player: str) -> bool: ...

    def new_recovery(self, player: str) -> str:
        """A new recovery code for ``player`` (the old one stops working), shown once."""
        ...

    def recover(self, code: str) -> str:
        """The player whose recovery code this is; raises WrongCode, MalformedCode."""
        ...

    def language(self, player: str) -> str | None:
        """The language ``player`` chose (one of ``games.i18n.LOCALES``), if any."""
        ...

    def set_language(self, player: str, code: str) -> None: ...


class MemoryProfiles:
    """Profiles in this process (the in-memory store's companion, for tests)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owners: dict[str, str] = {}  # folded name -> player
        self._names: dict[str, str] = {}  # player -> name
        self._codes: dict[str, str] = {}  # code hash -> player
        self._code_of: dict[str, str] = {}  # player -> code hash
        self._languages: dict[str, str] = {}  # player -> language

    def name_of(self, player: str) -> str | None:
        return self._names.get(player)

    def names_of(self, players: Iterable[str]) -> dict[str, str | None]:
        return {p: self._names.get(p) for p in players}

    def set_name(self, player: str, name: str) -> str:
        name = clean_name(name)
        key = folded(name)
        with self._lock:
            owner = self._owners.get(key)
            if owner is not None and owner != player:
                raise NameTaken(said('the name "{name}" is taken; choose another', name=name))
            old = self._names.get(player)
            if old is not None and folded(old) != key:
                del self._owners[folded(old)]
            self._owners[key] = player
            self._names[player] = name
        return name

    def has_recovery(self, player: str) -> bool:
        return player in self._code_of

    def new_recovery(self, player: str) -> str:
        code = new_code()
        digest = code_hash(code)
        with self._lock:
            old = self._code_of.get(player)
            if old is not None:
                del self._codes[old]
            self._codes[digest] = player
            self._code_of[player] = digest
        return code

    def recover(self, code: str) -> str:
        player = self._codes.get(code_hash(code))
        if player is None:
            raise WrongCode(WRONG_CODE)
        return player

    def language(self, player: str) -> str | None:
        return self._languages.get(player)

    def set_language(self, player: str, code: str) -> None:
        self._languages[player] = code


WRONG_CODE = said("that recovery code does not open any identity here; check it against the "
              "one you saved (making a new code turns the old one off)")  # fmt: skip

_SET_NAME = """
local owner = redis.call('HGET', KEYS[1], ARGV[2])
if owner and owner ~= ARGV[1] then return 0 end
local old = redis.call('HGET', KEYS[3], ARGV[1])
if old and old ~= ARGV[2] then redis.call('HDEL', KEYS[1], old) end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return 1
"""

_NEW_CODE = """
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then redis.call('HDEL', KEYS[1], old) end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
"""


class RedisProfiles:
    """Profiles in the event store's Redis (keys: see the module's docstring)."""

    TAG = "pf:{profiles}:"

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self.owners, self.names = self.TAG + "names", self.TAG + "name"
        self.folded, self.codes, self.code_of = (self.TAG + "folded", self.TAG + "codes",
                                                 self.TAG + "code")  # fmt: skip
        self._set_name = redis.register_script(_SET_NAME)
        self._new_code = redis.register_script(_NEW_CODE)
        self.languages = PROFILE_LANGUAGES  # the workers read it too (events.i18n)

    def name_of(self, player: str) -> str | None:
        raw = self.redis.hget(self.names, player)
        return raw.decode() if raw is not None else None

    def names_of(self, players: Iterable[str]) -> dict[str, str | None]:
        players = list(players)
        if not players:
            return {}
        raws = self.redis.hmget(self.names, players)
        return {p: r.decode() if r is not None else None for p, r in zip(players, raws,
                                                                          strict=True)}  # fmt: skip

    def set_name(self, player: str, name: str) -> str:
        name = clean_name(name)
        keys = [self.owners, self.names, self.folded]
        if not self._set_name(keys=keys, args=[player, folded(name), name]):
            raise NameTaken(said('the name "{name}" is taken; choose another', name=name))
        return name

    def has_recovery(self, player: str) -> bool:
        return bool(self.redis.hexists(self.code_of, player))

    def new_recovery(self, player: str) -> str:
        code = new_code()
        self._new_code(keys=[self.codes, self.code_of], args=[player, code_hash(code)])
        return code

    def recover(self, code: str) -> str:
        raw = self.redis.hget(self.codes, code_hash(code))
        if raw is None:
            raise WrongCode(WRONG_CODE)
        return raw.decode()

    def language(self, player: str) -> str | None:
        raw = self.redis.hget(self.languages, player)
        return raw.decode() if raw is not None else None

    def set_language(self, player: str, code: str) -> None:
        self.redis.hset(self.languages, player, code)
