"""Every word of a game a person reads goes through the game's catalogs.

- A game's front end (its ``web/*.js``) writes no English of its own: each sentence is a
  message of the package (``t(id, values)``), so the game's catalog translates it. This
  scans every string literal of every registered game's ES modules (template literals'
  text too) and lists those that read as words: two or more words of letters, or a
  capitalised word. Literals that are not read are left out by where they stand: CSS
  classes, ids, attribute names and values that are identifiers, selectors, object keys,
  values compared with ``===``, imports, URLs. ``ALLOWED`` lists the few left, each with
  its reason.
- Every ``RulesError`` a game raises is given a ``said(...)`` sentence, which the game's
  catalog extracts, so its text can be said again in the reader's language.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import REGISTRY

GAMES = Path(__file__).resolve().parents[2] / "games"

# literal -> why it is no word a person reads
ALLOWED = {
    "Qin": "Sun Tzu's province ids (PROVINCES); shown as province.<id> messages",
    "Chu": "Sun Tzu's province ids (PROVINCES); shown as province.<id> messages",
    "Jin-Yan": "Sun Tzu's province ids (PROVINCES); shown as province.<id> messages",
    "Han-Qi": "Sun Tzu's province ids (PROVINCES); shown as province.<id> messages",
    "Wu": "Sun Tzu's province ids (PROVINCES); shown as province.<id> messages",
}

# attributes whose values are identifiers, not words (aria-label and title are read)
KEYS = (
    r"class|id|role|type|name|value|for|href|d|transform|viewBox|rx|tabindex|min|max|rows|"
    r"cols|\"(?:aria-hidden|aria-live|aria-current|aria-pressed|text-anchor|data-[\w-]+)\""
)
SKIP_BEFORE = re.compile(
    rf"(?:\b(?:from|import)\s*|(?:{KEYS})\s*:\s*|(?:querySelector|querySelectorAll|closest|"
    r"getElementById|createElementNS|setAttribute|getAttribute|hasAttribute)\(\s*|[!=]==\s*)$"
)
SKIP_AFTER = re.compile(r"^\s*(?::(?!:)|[!=]==)")
WORD = re.compile(r"[A-Za-z]")
CAPITALISED = re.compile(r"\b[A-Z][a-z]+")


def literals(source: str) -> list[tuple[int, str, str, str]]:
    """The string literals of an ES module: (line, text, code before, code after). A
    template literal gives its text outside ``${…}`` (with the code before the whole
    template); the strings inside ``${…}`` are scanned too."""
    found: list[tuple[int, str, str, str]] = []
    i, n = 0, len(source)
    inside: list[list[int]] = []  # per ${ } we are in: [brace depth, where its template opened]
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if source.startswith("/*", i):
            i = source.index("*/", i) + 2
            continue
        if c in "\"'":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            found.append(_found(source, i, j + 1, source[i + 1 : j]))
            i = j + 1
            continue
        if c == "`" or (c == "}" and inside and inside[-1][0] == 0):
            opened = i if c == "`" else inside.pop()[1]
            j = i + 1
            while j < n and source[j] != "`" and not source.startswith("${", j):
                j += 2 if source[j] == "\\" else 1
            text = source[i + 1 : j]
            if source.startswith("${", j):
                inside.append([0, opened])
                i = j + 2
            else:
                i = j + 1
            if text.strip():
                found.append(_found(source, opened, i, text))
            continue
        if inside and c == "{":
            inside[-1][0] += 1
        elif inside and c == "}":
            inside[-1][0] -= 1
        i += 1
    return found


def _found(source: str, start: int, end: int, text: str) -> tuple[int, str, str, str]:
    line = source.count("\n", 0, start) + 1
    return line, text, source[max(0, start - 60) : start], source[end : end + 10]


def reads_as_words(text: str) -> bool:
    if text.startswith(("http://", "https://")):
        return False
    tokens = [t for t in text.split() if WORD.search(t)]
    return len(tokens) >= 2 or bool(CAPITALISED.search(text))


def strays(path: Path) -> list[tuple[int, str]]:
    """The literals of ``path`` that read as words where a person reads them."""
    out = []
    for line, text, before, after in literals(path.read_text(encoding="utf-8")):
        if text in ALLOWED or not reads_as_words(text):
            continue
        if SKIP_BEFORE.search(before) or SKIP_AFTER.search(after):
            continue
        out.append((line, text))
    return out


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_a_games_front_end_writes_no_words_of_its_own(key):
    files = sorted(Path(REGISTRY[key].web).glob("*.js"))
    assert files, f"{key} has no ES modules in {REGISTRY[key].web}"
    found = [
        f"{path.relative_to(GAMES.parent)}:{line}: {text!r}"
        for path in files
        for line, text in strays(path)
    ]
    assert not found, "English in a game's front end, not a message:\n" + "\n".join(found)


def test_the_scan_finds_words_and_leaves_identifiers(tmp_path):
    js = tmp_path / "x.js"
    js.write_text(
        'import { el } from "/static/api.js";\n'
        'el("p", { class: "muted small", "aria-label": "A map" }, "Seal the bid");\n'
        "// Comments say what they like\n"
        'if (e.key === "Escape") say(`Your hand (${n("Two words")})`);\n'
        'node.querySelector(".a .b"); const o = { "Key Name": 1 }; t("page.x", {});\n',
        encoding="utf-8",
    )
    assert [text for _, text in strays(js)] == ["A map", "Seal the bid", "Your hand (", "Two words"]


RAISED = re.compile(r"(?<!class )\bRulesError\(")
SAID = re.compile(r"\bRulesError\(\s*said\(")
# (file, argument) -> where its said() sentence is made
SAID_ELSEWHERE = {
    ("sun_tzu/commands.py", "error"): "plays.play_error and battle.take_error return said()",
    ("warring_states/rules.py", "exc.args[0]"): "data.config raises ValueError(said(...))",
}


def test_every_rules_error_of_a_game_is_said():
    found = []
    for path in sorted(GAMES.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(GAMES).as_posix()
        for hit in RAISED.finditer(source):
            argument = re.match(r"\s*([\w.\[\]]+)\)", source[hit.end() :])
            if SAID.match(source, hit.start()):
                continue
            if argument and (where, argument.group(1)) in SAID_ELSEWHERE:
                continue
            line = source.count("\n", 0, hit.start()) + 1
            found.append(f"{path.relative_to(GAMES.parent)}:{line}")
    assert not found, "RulesError without said(...):\n" + "\n".join(found)


def test_the_sentences_said_elsewhere_are_said():
    """The errors raised with a sentence made elsewhere: that sentence is a said()."""
    from games.sun_tzu.battle import take_error
    from games.sun_tzu.plays import play_error
    from games.warring_states.data import load

    assert (
        take_error([[(0, 3)]], 2, {}).template
        == "you must take exactly {expected} armies from the board"
    )
    error = play_error(None, 0, {"warlord": "nope"})
    assert error.template == "{warlord!r} is not a Warlord you can play with targets"
    with pytest.raises(ValueError) as raised:
        load().config({"no_such_switch": 1})
    assert raised.value.args[0].template == "there is no config switch {name!r}"


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_every_message_id_a_front_end_names_is_a_message(key):
    """``t("page.x")`` of an id the package lacks would show the id itself: each id named
    whole is a message; one made in a template (``t(`page.why.${why}`)``) has messages
    under its fixed start."""
    rules = REGISTRY[key]
    messages = rules.text.messages
    missing = []
    for path in sorted(Path(rules.web).glob("*.js")):
        source = path.read_text(encoding="utf-8")
        for hit in re.finditer(r"\bt\(\s*(?:\"([\w.+-]+)\"|`([\w.+-]*)\$\{)", source):
            whole, start = hit.groups()
            if whole and whole not in messages:
                missing.append(f"{path.name}: {whole}")
            if start and not any(m.startswith(start) for m in messages):
                missing.append(f"{path.name}: {start}…")
    assert not missing, "message ids the front end names but the package lacks:\n" + "\n".join(
        missing
    )
