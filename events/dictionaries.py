"""Preset dictionaries for compressing stored payloads (``events.redis_store``).

A payload stored compressed is one byte, the number of its dictionary here, then the raw
deflate of its canonical JSON made with that dictionary; so these bytes are part of the
stored format. A dictionary in use is NEVER edited or removed (``tests/events/
test_stored_layouts.py`` pins each one's sha256): a better one is added under a new
number and ``NEWEST`` points the game at it; entries written before keep reading with
theirs. Numbers are 1 to 122: a stored payload starting with ``{`` (123) is plain JSON.

Each is made by ``python -m bench.zdict GAME``: the most frequent payloads of random
games, the most frequent last. A game without one stores plain JSON.
"""

from __future__ import annotations

import zlib

SUN_TZU_1 = b"".join((
    b'{"margin":3,"moves":[],"province":"Wu","result":"win","tasks":[{"kind":"supply","n":3,"province":"Wu","seat":"red","to":"Wu","why":"margin"}],"winner":"red"}',
    b'{"command":{"cards":["+3"],"type":"keep"},"seat":"blue"}',
    b'{"command":{"cards":["8"],"type":"keep"},"seat":"blue"}',
    b'{"card":"plague","seat":"blue"}',
    b'{"command":{"provinces":["Han-Qi"],"type":"next_province"},"seat":"blue"}',
    b'{"command":{"reinforce":["-1"],"take":{},"type":"sources"},"seat":"red"}',
    b'{"command":{"cards":["+2","-1"],"type":"keep"},"seat":"red"}',
    b'{"command":{"take":{"Jin-Yan":1},"type":"sources"},"seat":"red"}',
    b'{"command":{"cards":["10"],"type":"keep"},"seat":"red"}',
    b'{"cards":{"blue":"2","red":"2"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Wu","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",2],"red":["number",2]},"winner":null}',
    b'{"command":{"cards":["+2"],"type":"keep"},"seat":"blue"}',
    b'{"command":{"take":{"Jin-Yan":1},"type":"sources"},"seat":"blue"}',
    b'{"command":{"cards":["+2"],"type":"keep"},"seat":"red"}',
    b'{"bottom":["+1"],"keep":["plague"],"seat":"red"}',
    b'{"bottom":["-1"],"keep":["+1"],"seat":"blue"}',
    b'{"cards":["+1","-1"],"keep":1,"seat":"blue"}',
    b'{"cards":{"blue":"4","red":"4"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Qin","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",4],"red":["number",4]},"winner":null}',
    b'{"cards":{"blue":"5","red":"5"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Wu","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",5],"red":["number",5]},"winner":null}',
    b'{"cards":{"blue":"2","red":"1"},"deadly":false,"fired":{},"margin":1,"moves":[],"plague":false,"plagues":0,"province":"Qin","resolution":[["blue","reserve","Qin",1]],"result":"win","tasks":[],"values":{"blue":["number",2],"red":["number",1]},"winner":"blue"}',
    b'{"cards":{"blue":"3","red":"3"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Qin","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",3],"red":["number",3]},"winner":null}',
    b'{"command":{"take":{"Chu":1},"type":"sources"},"seat":"blue"}',
    b'{"command":{"cards":["7"],"type":"keep"},"seat":"red"}',
    b'{"provinces":["Han-Qi"],"seat":"blue"}',
    b'{"cards":{"blue":"5","red":"4"},"deadly":false,"fired":{},"margin":1,"moves":[],"plague":false,"plagues":0,"province":"Jin-Yan","resolution":[["blue","reserve","Jin-Yan",1]],"result":"win","tasks":[],"values":{"blue":["number",5],"red":["number",4]},"winner":"blue"}',
    b'{"provinces":["Jin-Yan","Han-Qi"],"seat":"blue"}',
    b'{"command":{"cards":["7"],"type":"keep"},"seat":"blue"}',
    b'{"seat":"blue","warlord":"manoeuvre"}',
    b'{"command":{"type":"choose_warlord","warlord":"manoeuvre"},"seat":"blue"}',
    b'{"seat":"red","warlord":"remove"}',
    b'{"command":{"type":"choose_warlord","warlord":"remove"},"seat":"red"}',
    b'{"bottom":["-1"],"keep":["plague"],"seat":"blue"}',
    b'{"cards":{"blue":"4","red":"4"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Jin-Yan","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",4],"red":["number",4]},"winner":null}',
    b'{"cards":{"blue":"2","red":"1"},"deadly":false,"fired":{},"margin":1,"moves":[],"plague":false,"plagues":0,"province":"Han-Qi","resolution":[["blue","reserve","Han-Qi",1]],"result":"win","tasks":[],"values":{"blue":["number",2],"red":["number",1]},"winner":"blue"}',
    b'{"cards":{"blue":"1","red":"1"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Qin","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",1],"red":["number",1]},"winner":null}',
    b'{"command":{"cards":["9"],"type":"keep"},"seat":"red"}',
    b'{"cards":{"blue":"2","red":"2"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Chu","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",2],"red":["number",2]},"winner":null}',
    b'{"cards":{"blue":"5","red":"5"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Han-Qi","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",5],"red":["number",5]},"winner":null}',
    b'{"command":{"cards":["+1","plague"],"type":"keep"},"seat":"blue"}',
    b'{"bottom":["+1"],"keep":["+1"],"seat":"red"}',
    b'{"cards":["+1","+1"],"keep":1,"seat":"red"}',
    b'{"cards":{"blue":"2","red":"2"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Qin","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",2],"red":["number",2]},"winner":null}',
    b'{"seat":"blue","warlord":"minus_recycle"}',
    b'{"command":{"type":"choose_warlord","warlord":"minus_recycle"},"seat":"blue"}',
    b'{"cards":{"blue":"1","red":"1"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Wu","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",1],"red":["number",1]},"winner":null}',
    b'{"seat":"blue","warlord":"reinforce"}',
    b'{"command":{"type":"choose_warlord","warlord":"reinforce"},"seat":"blue"}',
    b'{"command":{"provinces":["Chu"],"type":"next_province"},"seat":"blue"}',
    b'{"seat":"blue","warlord":"restraint"}',
    b'{"command":{"type":"choose_warlord","warlord":"restraint"},"seat":"blue"}',
    b'{"provinces":["Wu"],"seat":"red"}',
    b'{"command":{"cards":["8"],"type":"keep"},"seat":"red"}',
    b'{"command":{"cards":["-1","plague"],"type":"keep"},"seat":"red"}',
    b'{"cards":["-1","plague"],"keep":1,"seat":"blue"}',
    b'{"seat":"red","warlord":"double_six"}',
    b'{"command":{"type":"choose_warlord","warlord":"double_six"},"seat":"red"}',
    b'{"command":{"take":{"Qin":1},"type":"sources"},"seat":"red"}',
    b'{"card":"-1","seat":"red"}',
    b'{"provinces":["Qin"],"seat":"blue"}',
    b'{"provinces":["Chu"],"seat":"blue"}',
    b'{"cards":["+1"],"keep":1,"seat":"red"}',
    b'{"command":{"cards":["+1","plague"],"type":"keep"},"seat":"red"}',
    b'{"command":{"provinces":["Jin-Yan"],"type":"next_province"},"seat":"blue"}',
    b'{"bottom":["-1"],"keep":["-1"],"seat":"blue"}',
    b'{"cards":["-1","-1"],"keep":1,"seat":"blue"}',
    b'{"seats":["blue","red"]}',
    b'{"command":{"take":{"Han-Qi":1},"type":"sources"},"seat":"blue"}',
    b'{"command":{"provinces":["Jin-Yan"],"type":"next_province"},"seat":"red"}',
    b'{"command":{"take":{"Wu":1},"type":"sources"},"seat":"blue"}',
    b'{"command":{"cards":["9"],"type":"keep"},"seat":"blue"}',
    b'{"cards":{"blue":"3","red":"3"},"deadly":false,"fired":{},"margin":0,"moves":[],"plague":false,"plagues":0,"province":"Han-Qi","resolution":[],"result":"tie","tasks":[],"values":{"blue":["number",3],"red":["number",3]},"winner":null}',
    b'{"command":{"cards":["-1","-1"],"type":"keep"},"seat":"blue"}',
    b'{"provinces":["Jin-Yan"],"seat":"red"}',
    b'{"seats":["blue"]}',
    b'{"command":{"take":{"Han-Qi":1},"type":"sources"},"seat":"red"}',
    b'{"provinces":["Jin-Yan"],"seat":"blue"}',
    b'{"command":{"cards":["+3"],"type":"keep"},"seat":"red"}',
    b'{"command":{"take":{"Chu":1},"type":"sources"},"seat":"red"}',
    b'{"seat":"red","warlord":"counter_plague"}',
    b'{"command":{"type":"choose_warlord","warlord":"counter_plague"},"seat":"red"}',
    b'{"seat":"red","warlord":"plague_recycle"}',
    b'{"command":{"type":"choose_warlord","warlord":"plague_recycle"},"seat":"red"}',
    b'{"command":{"cards":["+1","-1"],"type":"keep"},"seat":"blue"}',
    b'{"command":{"cards":["+1","-1"],"type":"keep"},"seat":"red"}',
    b'{"score":1,"seat":"blue","warlord":"head_start"}',
    b'{"seat":"blue","warlord":"head_start"}',
    b'{"command":{"type":"choose_warlord","warlord":"head_start"},"seat":"blue"}',
    b'{"plays":[],"seat":"blue"}',
    b'{"command":{"type":"after_battles","warlords":[]},"seat":"blue"}',
    b'{"command":{"cards":["-1"],"type":"keep"},"seat":"red"}',
    b'{"command":{"cards":["plague"],"type":"keep"},"seat":"blue"}',
    b'{"command":{"cards":["plague"],"type":"keep"},"seat":"red"}',
    b'{"command":{"cards":["+1"],"type":"keep"},"seat":"red"}',
    b'{"command":{"cards":["+1"],"type":"keep"},"seat":"blue"}',
    b'{"seats":["red"]}',
    b'{"province":"Qin"}',
    b'{"plays":[],"seat":"red"}',
    b'{"command":{"type":"after_battles","warlords":[]},"seat":"red"}',
    b'{"command":{"cards":["-1"],"type":"keep"},"seat":"blue"}',
    b'{"round":9}',
    b'{"province":"Jin-Yan"}',
    b'{"province":"Wu"}',
    b'{"province":"Chu"}',
    b'{"plays":[]}',
    b'{"province":"Han-Qi"}',
    b'{}',
    b'{"nonce_sha256":null,"player":"ai:random","seat":"red"}',
    b'{"nonce_sha256":null,"player":"bench-player","seat":"blue"}',
    b'{"holder":null}',
    b'{"round":8}',
    b'{"round":7}',
    b'{"round":6}',
    b'{"round":5}',
    b'{"round":4}',
    b'{"round":3}',
    b'{"round":2}',
    b'{"round":1}',
    b'{"holder":"red"}',
    b'{"holder":"blue"}',
    b'{"first":"blue","plays":[]}',
))  # fmt: skip

DICTIONARIES: dict[int, bytes] = {1: SUN_TZU_1}
NEWEST: dict[str, int] = {"sun-tzu": 1}  # game key -> the dictionary its new entries use

# Raw deflate (no header: the dictionary number says what it is). The window and memory
# settings are the writer's choice (an inflater with the largest window reads any), picked
# so that a fresh compressor, copied from one primed with the dictionary, is cheap.
_WBITS, _LEVEL, _MEMLEVEL = -14, 9, 4
_PLAIN = ord("{")


class _Packer:
    """A compressor primed with one dictionary, copied for each payload."""

    __slots__ = ("number", "primed")

    def __init__(self, number: int) -> None:
        self.number = number
        self.primed = zlib.compressobj(_LEVEL, zlib.DEFLATED, _WBITS, _MEMLEVEL,
                                       zlib.Z_DEFAULT_STRATEGY, DICTIONARIES[number])  # fmt: skip

    def pack(self, payload_json: bytes) -> bytes:
        deflate = self.primed.copy()
        packed = deflate.compress(payload_json) + deflate.flush()
        if len(packed) + 1 >= len(payload_json):
            return payload_json  # nothing gained: kept plain
        return bytes((self.number,)) + packed


_packers = {game: _Packer(number) for game, number in NEWEST.items()}


def pack(game: str | None, payload_json: bytes) -> bytes:
    """The stored form of a payload's canonical JSON: compressed with its game's newest
    dictionary, or plain when the game has none (or it would not be shorter)."""
    packer = _packers.get(game)  # type: ignore[arg-type]
    return payload_json if packer is None else packer.pack(payload_json)


def unpack(stored: bytes) -> bytes:
    """The canonical JSON a stored payload holds (plain JSON as it is)."""
    if not stored or stored[0] == _PLAIN:
        return stored
    zdict = DICTIONARIES.get(stored[0])
    if zdict is None:
        raise ValueError(f"a payload packed with dictionary {stored[0]}, which this release lacks")
    # a fresh inflater is cheaper than copying a primed one (no window to copy)
    inflate = zlib.decompressobj(-15, zdict)
    payload_json = inflate.decompress(stored[1:])
    if not inflate.eof:
        raise ValueError("a packed payload is cut short")
    return payload_json
