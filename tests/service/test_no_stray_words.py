"""No word a person reads is written outside the catalogs: the page templates and the pages'
ES modules say every sentence through ``_()`` (tests/service/test_catalogs.py checks the
catalogs translate them). The games' own front ends: tests/games/test_game_words_are_messages.py.

The finder is a heuristic, strict on purpose: in a template, text between tags and the
words of ``title``/``aria-label``/``placeholder``/``alt`` attributes outside ``{{ }}``; in
a module, a string literal that reads as words (two words, or one capitalised word) and is
not the first argument of ``_(``. What it must leave alone is listed in ``ALLOWED`` with
the reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[2] / "service"
TEMPLATES = sorted((SERVICE / "templates").glob("*.html"))
MODULES = sorted((SERVICE / "static").glob("*.js"))

# literal -> why it is not a word a person reads
ALLOWED = {
    "Bingfa": "the site's name",
    "Accept": "an HTTP header's name",
    "Authorization": "an HTTP header's name",
    "Content-Type": "an HTTP header's name",
    "Bearer": "the authorization scheme",
    "Idempotency-Key": "an HTTP header's name",
    "Last-Event-ID": "an HTTP header's name",
    "X-Bingfa-Language": "an HTTP header's name",
    "Escape": "a key's name (KeyboardEvent.key)",
    "Enter": "a key's name (KeyboardEvent.key)",
    "Home": "a key's name (KeyboardEvent.key)",
    "End": "a key's name (KeyboardEvent.key)",
    "PageUp": "a key's name (KeyboardEvent.key)",
    "PageDown": "a key's name (KeyboardEvent.key)",
    "ArrowLeft": "a key's name (KeyboardEvent.key)",
    "ArrowRight": "a key's name (KeyboardEvent.key)",
    "English": "the picker names each language in itself",
}
# an attribute or property whose value is for the machine (class names, types, roles)
MACHINE_KEYS = ("class", "className", "type", "rel", "role", "id", "name", "for", "lang",
                "method", "action", "href", "src", "autocomplete", "inputmode", "key")  # fmt: skip
WORDS = re.compile(r"[A-Za-z]{2,}[\s\u00a0]+[A-Za-z]{2,}")
CAPITALISED = re.compile(r"^[A-Z][a-z]{2,}[.!?:…]?$")


def reads_as_words(text: str) -> bool:
    text = text.strip()
    if not text or text in ALLOWED:
        return False
    if re.match(r"^[#.\[/:a-z-]", text) and not WORDS.search(text):
        return False  # a selector, a path, an id or a key
    if re.search(r"^[\w.#\[\]=\"' :>*-]+$", text) and re.search(r"[#\[\]=>]", text):
        return False  # a CSS selector with words in it
    if text.startswith(("http://", "https://", "/", "data:", "mailto:")):
        return False
    return bool(WORDS.search(text) or CAPITALISED.match(text))


def literals(source: str):
    """(line, text, called) of each string literal of an ES module: ``called`` is the
    function it is the first argument of (``_``, ``t``, …) or ''. Template literals give
    their text with each ``${…}`` as a space."""
    i, n, line = 0, len(source), 1
    last = ""  # the last significant character, to tell a regex literal from a division
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            line += source.count("\n", i, end)
            i = end + 2
            continue
        if c == "/" and last in "(,=:[!&|?{};+-*%<>~^":
            j = i + 1
            in_class = False
            while j < n and (source[j] != "/" or in_class):
                if source[j] == "\\":
                    j += 1
                elif source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                j += 1
            i = j + 1
            last = "/"
            continue
        if c in "\"'`":
            j, text, depth = i + 1, [], 0
            while j < n:
                d = source[j]
                if d == "\\":
                    text.append(source[j : j + 2])
                    j += 2
                    continue
                if c == "`" and source.startswith("${", j):
                    depth, j = 1, j + 2
                    while j < n and depth:
                        depth += {"{": 1, "}": -1}.get(source[j], 0)
                        j += 1
                    text.append(" ")
                    continue
                if d == c:
                    break
                text.append(d)
                j += 1
            before = source[max(0, i - 80) : i].rstrip()
            called = re.search(r"([\w.$]+)\($", before)
            keyed = re.search(rf"\b({'|'.join(MACHINE_KEYS)})\"?\s*[:=]$", before)
            if keyed:
                called = None
                yield line, "", keyed.group(1)  # a class, a role, a type: not words
            else:
                yield line, "".join(text), called.group(1) if called else ""
            line += source.count("\n", i, j)
            i = j + 1
            last = c
            continue
        if not c.isspace():
            last = c
        i += 1


def stray_in_module(path: Path) -> list[str]:
    found = []
    for line, text, called in literals(path.read_text(encoding="utf-8")):
        if called.split(".")[-1] in ("_", "t"):
            continue  # said through the catalogs (the pages' or the game's)
        if called.split(".")[-1] in ("querySelector", "querySelectorAll", "closest",
                                     "getElementById", "matches", "addEventListener"):  # fmt: skip
            continue
        if reads_as_words(text):
            found.append(f"{path.name}:{line}: {text!r}")
    return found


JINJA = re.compile(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", re.S)
READ_ATTRIBUTES = re.compile(r"\b(title|aria-label|placeholder|alt)=\"([^\"]*)\"")


def stray_in_template(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    source = re.sub(r"<!--.*?-->", "", source, flags=re.S)
    source = re.sub(r"<(script|style)\b.*?</\1>", "", source, flags=re.S)
    found = []
    for name, value in READ_ATTRIBUTES.findall(source):
        bare = JINJA.sub("", value)
        if re.search(r"[A-Za-z]", bare) and not re.match(r"^(https?://\S+|[X-]+)$", bare):
            found.append(f"{path.name}: {name}={value!r}")
    text = JINJA.sub(" ", source)
    text = re.sub(r"<[^>]*>", "\n", text)
    for piece in text.splitlines():
        piece = piece.strip()
        if piece and re.search(r"[A-Za-z]{2,}", piece) and piece not in ALLOWED:
            found.append(f"{path.name}: {piece!r}")
    return found


@pytest.mark.parametrize("path", TEMPLATES, ids=[p.name for p in TEMPLATES])
def test_a_template_says_every_word_through_the_catalog(path):
    stray = stray_in_template(path)
    assert not stray, f"words outside {{{{ _() }}}} in {path.name}: {stray[:10]}"


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_a_module_says_every_word_through_the_catalog(path):
    stray = stray_in_module(path)
    assert not stray, f"words outside _() in {path.name}: {stray[:10]}"


def test_the_finder_finds_what_it_is_for(tmp_path):
    page = tmp_path / "page.html"
    page.write_text('<p>{{ _("Said") }}</p><button title="Close it">{{ _("Go") }}</button>'
                    "<h2>Your games</h2>", encoding="utf-8")  # fmt: skip
    assert stray_in_template(page) == ["page.html: title='Close it'", "page.html: 'Your games'"]
    module = tmp_path / "page.js"
    module.write_text(
        'el("p", {}, _("Said {x}", { x }));\n'
        'el("p", {}, "Not said");\n'
        "const s = `Your turn: ${prompt}`; // a comment with words in it\n"
        'document.querySelector("#game .board");\n'
        'const r = /"quoted" words/g; el("b", {}, \'Send\');\n',
        encoding="utf-8",
    )
    assert stray_in_module(module) == [
        "page.js:2: 'Not said'",
        "page.js:3: 'Your turn:  '",
        "page.js:5: 'Send'",
    ]
