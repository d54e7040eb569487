"""The Warring States board's tips (``glossary.py``, shown by ``web/tips.js``): every id the
pages name exists, every area, border, general, track box and card has its tip, made from
the data file, and every tip renders without a placeholder left over."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.warring_states import RULES
from games.warring_states.data import PATH
from games.warring_states.glossary import GLOSSARY

WEB = Path(RULES.web)
RAW = json.loads(PATH.read_text(encoding="utf-8"))
SAMPLE = {"force": "Qin", "faction": "Lianheng", "area": "Longxi", "ready": 2, "tired": 1,
          "box": "Serve Qin", "side": "Lianheng", "n": 3, "target": 7, "turns": 5,
          "general": "Bai Qi"}  # fmt: skip


def test_every_tip_the_pages_name_is_a_message():
    named = set()
    for source in WEB.glob("*.js"):
        named |= set(re.findall(r'"(tip\.[a-z_.]+)"', source.read_text(encoding="utf-8")))
    assert {"tip.area.held", "tip.stack.city", "tip.card.down", "tip.initiative"} <= named
    assert named <= set(RULES.text.messages), named - set(RULES.text.messages)


def test_every_thing_on_the_board_has_its_tip_from_the_data():
    m = RULES.text.messages
    for area in RAW["areas"]:
        said = m[f"tip.area.{area['id']}"]
        assert said.startswith(f"{area['en']}: worth {area['rp']} RP")
    for b in RAW["borders"]:
        said = m[f"tip.border.{b['a']}.{b['b']}"]
        kind = {"mountain": "mountains", "waterway": "waterway", "normal": "open ground"}[b["type"]]
        assert kind in said, said
        if b["downstream"]:
            down = next(a["en"] for a in RAW["areas"] if a["id"] == b["downstream"])
            assert f"flowing toward {down}" in said
    for force in RAW["forces"]:
        for g in force.get("generals", []):
            said = m[f"tip.general.{g['id']}"]
            assert said.startswith(f"{g['en']}, a general of {force['en']}")
            assert g["icons"][0].title() in said
    for column in RAW["diplomacy_track"]["columns"]:
        for box in column["boxes"]:
            assert m[f"tip.box.{box['id']}"].startswith(box["en"])
    for cards in RAW["decks"].values():
        for card in cards:
            said = m[f"tip.card.{card['id']}"]
            assert said.startswith(card["name"]) and all(o in said for o in card["options"])


def test_every_tip_renders_whole():
    for key, template in GLOSSARY.items():
        said = template.format_map(SAMPLE)
        assert said.strip() and not re.search(r"[{}]", said), key
