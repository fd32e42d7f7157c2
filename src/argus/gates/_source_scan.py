"""Find hard-coded colours and spacing in source text (CSS, SCSS, JS/TS/JSX/TSX, Swift, HTML).

Pure text in, hits out; choosing the files is source_tokens' job. The scanners are
pattern-based, not full parsers: they look where a design value is written (a declaration,
a style object key, a SwiftUI modifier) and report literals that bypass the tokens.
``var(--token)`` is how a token is used and is never a hit; a line carrying the comment
``argus-allow`` is skipped; custom-property and top-level SCSS-variable definitions under
``:root``/``html``/``:host`` are the token definitions themselves and are exempt.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal

from coloraide.css import color_names

ALLOW_MARKER = "argus-allow"
LANGUAGES: dict[str, str] = {
    ".css": "css",
    ".scss": "scss",
    ".sass": "scss",
    ".less": "scss",
    ".js": "js",
    ".mjs": "js",
    ".cjs": "js",
    ".jsx": "js",
    ".ts": "js",
    ".tsx": "js",
    ".swift": "swift",
    ".html": "html",
    ".htm": "html",
    ".vue": "html",
    ".svelte": "html",
}

NAMED_COLORS = frozenset(n for n in color_names.name2val_map if n != "transparent")
HEX = r"#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})(?![0-9a-zA-Z_-])"
COLOR_FUNC = r"\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([^()]*\)"
COLOR_LITERAL = re.compile(f"{HEX}|{COLOR_FUNC}")
NAMED_WORD = re.compile(r"(?<![\w#.$-])([a-zA-Z]+)(?![\w(-])")
LENGTH = re.compile(r"(?<![\w.#-])(-?\d*\.?\d+)(px|rem)\b")

COLOR_PROPS = re.compile(
    r"^(?:color|background(?:-color)?|border(?:-(?:top|right|bottom|left|block|inline)"
    r"(?:-(?:start|end))?)?(?:-color)?|outline(?:-color)?|fill|stroke|(?:box|text)-shadow|"
    r"caret-color|accent-color|column-rule(?:-color)?|text-decoration(?:-color)?|"
    r"stop-color|flood-color|lighting-color|scrollbar-color|text-emphasis-color)$"
)
SPACING_PROPS = re.compile(
    r"^(?:(?:margin|padding|scroll-margin|scroll-padding)(?:-[a-z-]+)?|"
    r"(?:grid-)?(?:row-|column-)?gap)$"
)
TOKEN_SELECTOR = re.compile(r"^\s*(?::root|html|:host)\b")


@dataclass(frozen=True)
class SourceHit:
    line: int
    kind: Literal["color", "spacing"]
    literal: str
    property: str


def language_for(path: PurePath) -> str | None:
    return LANGUAGES.get(path.suffix.lower())


def scan_source(text: str, language: str) -> list[SourceHit]:
    """Every hard-coded colour or spacing literal in ``text``, minus allow-marked lines."""
    return list(_scan_cached(text, language))


# The loop gates every view of a feature over the same source files: scan each text once.
@functools.lru_cache(maxsize=256)
def _scan_cached(text: str, language: str) -> tuple[SourceHit, ...]:
    scanners = {"css": _scan_css, "scss": _scan_css, "js": _scan_js, "swift": _scan_swift}
    if language == "html":
        hits = list(_scan_html(text))
    else:
        hits = list(scanners[language](text, language))
    allowed = {i + 1 for i, line in enumerate(text.splitlines()) if ALLOW_MARKER in line}
    # One literal on one line is one hit, named by the first scanner that saw it.
    unique: dict[tuple[int, str], SourceHit] = {}
    for hit in hits:
        if hit.line not in allowed:
            unique.setdefault((hit.line, hit.literal), hit)
    return tuple(sorted(unique.values(), key=lambda h: (h.line, h.literal)))


# --- CSS / SCSS -----------------------------------------------------------------------------


def _blank_comments(text: str, line_comments: bool) -> str:
    """Replace comments with spaces, keeping every newline so line numbers stay true."""
    pattern = r"/\*.*?\*/|(?<![:\w])//[^\n]*" if line_comments else r"/\*.*?\*/"
    return re.sub(pattern, lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)


def _scan_css(text: str, language: str, first_line: int = 1) -> Iterator[SourceHit]:
    text = _blank_comments(text, line_comments=language == "scss")
    stack: list[str] = []
    start, depth, quote = 0, 0, ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and ch in "{};":
            if ch == "{":
                stack.append(text[start:i].strip())
            else:
                yield from _declaration(text, start, i, stack, first_line)
                if ch == "}" and stack:
                    stack.pop()
            start = i + 1
    yield from _declaration(text, start, len(text), stack, first_line)


def _declaration(
    text: str, start: int, end: int, stack: list[str], first_line: int
) -> Iterator[SourceHit]:
    chunk = text[start:end]
    if ":" not in chunk or not chunk.strip():
        return
    prop, value = chunk.split(":", 1)
    prop = prop.strip().lower()
    if not re.fullmatch(r"[$-]?-?[a-z][a-z0-9-]*", prop):
        return  # a nested selector such as `a:hover` met without its brace, or garbage
    rules = [s for s in stack if not s.startswith("@")]
    if prop.startswith(("--", "$")) and (not rules or TOKEN_SELECTOR.match(rules[-1])):
        return  # a token definition
    offset = start + len(chunk) - len(chunk.lstrip())
    line = first_line + text.count("\n", 0, offset)
    for literal, kind in _value_literals(prop, value):
        yield SourceHit(line, kind, literal, prop)


def _value_literals(prop: str, value: str) -> Iterator[tuple[str, Literal["color", "spacing"]]]:
    """Hard-coded literals in one declaration's value."""
    value = _strip_token_uses(value)
    is_custom = prop.startswith(("--", "$"))
    for m in COLOR_LITERAL.finditer(value):
        yield m.group(), "color"
    if COLOR_PROPS.match(prop) or is_custom:
        for m in NAMED_WORD.finditer(COLOR_LITERAL.sub(" ", value)):
            if m.group(1).lower() in NAMED_COLORS:
                yield m.group(1), "color"
    if SPACING_PROPS.match(prop):
        for m in LENGTH.finditer(value):
            if float(m.group(1)) != 0:
                yield m.group(), "spacing"


def _strip_token_uses(value: str) -> str:
    """Drop var(...) (a token use, fallback included), url(...) and quoted strings."""
    value = re.sub(r"""(["'])(?:\\.|(?!\1).)*\1""", " ", value)
    previous = None
    while previous != value:
        previous = value
        value = re.sub(r"\b(?:var|url|env)\([^()]*\)", " ", value)
    return value


# --- JS / TS / JSX / TSX --------------------------------------------------------------------

JS_PAIR = re.compile(
    r"""(?:^|[\s{,(;])["']?([a-zA-Z][a-zA-Z-]*)["']?\s*:\s*"""
    r"""(`[^`]*`|"[^"]*"|'[^']*'|-?\d*\.?\d+(?![\w.]))"""
)
JS_COLOR_STRING = re.compile(rf"""(["'`])\s*({HEX}|{COLOR_FUNC})\s*\1""")
JS_SPACING_NUMBER = re.compile(r"^-?\d*\.?\d+$")
JS_STRING = r"""(`[^`]*`|"[^"]*"|'[^']*')"""
# DOM style writes: el.style.marginTop = "13px", el.style["padding-left"] = "6px".
JS_STYLE_ASSIGN = re.compile(
    r"""\.style\s*(?:\.\s*([a-zA-Z]+)|\[\s*(["'`])([a-zA-Z-]+)\2\s*\])\s*=(?!=)\s*""" + JS_STRING
)
# el.style.setProperty("padding", "7px")
JS_SET_PROPERTY = re.compile(r"""\.setProperty\s*\(\s*(["'`])([a-zA-Z-]+)\1\s*,\s*""" + JS_STRING)
# el.setAttribute("style", "margin: 13px; color: #123456") (el.style.cssText is the same)
JS_STYLE_ATTRIBUTE = re.compile(r"""\.setAttribute\s*\(\s*(["'`])style\1\s*,\s*""" + JS_STRING)


def _scan_js(text: str, language: str) -> Iterator[SourceHit]:
    text = _blank_comments(text, line_comments=True)
    for number, line in enumerate(text.splitlines(), start=1):
        for m in JS_PAIR.finditer(line):
            prop = _kebab(m.group(1))
            raw = m.group(2)
            value = raw[1:-1] if raw[:1] in "\"'`" else raw
            if JS_SPACING_NUMBER.match(raw):
                # A bare number in a style object is px in React and React Native.
                if SPACING_PROPS.match(prop) and float(raw) != 0:
                    yield SourceHit(number, "spacing", raw, prop)
                continue
            if COLOR_PROPS.match(prop) or SPACING_PROPS.match(prop):
                for literal, kind in _value_literals(prop, value):
                    yield SourceHit(number, kind, literal, prop)
        for m in JS_COLOR_STRING.finditer(line):
            yield SourceHit(number, "color", m.group(2), "")
        yield from _dom_style_writes(number, line)
        # CSS written inside template literals (styled-components, css``, lit): prop: value;
        for m in re.finditer(r"(?<![\w-])([a-z][a-z-]*)\s*:\s*([^;:{}`'\"]+);", line):
            prop = m.group(1)
            if COLOR_PROPS.match(prop) or SPACING_PROPS.match(prop):
                for literal, kind in _value_literals(prop, m.group(2)):
                    yield SourceHit(number, kind, literal, prop)


def _dom_style_writes(number: int, line: str) -> Iterator[SourceHit]:
    """Literals written into an element's inline style from script."""
    for m in JS_STYLE_ASSIGN.finditer(line):
        prop = _kebab(m.group(1) or m.group(3))
        value = m.group(4)[1:-1]
        if prop == "css-text":
            yield from _inline_declarations(number, value)
        else:
            yield from _style_value(number, prop, value)
    for m in JS_SET_PROPERTY.finditer(line):
        yield from _style_value(number, m.group(2).lower(), m.group(3)[1:-1])
    for m in JS_STYLE_ATTRIBUTE.finditer(line):
        yield from _inline_declarations(number, m.group(2)[1:-1])


def _style_value(number: int, prop: str, value: str) -> Iterator[SourceHit]:
    if COLOR_PROPS.match(prop) or SPACING_PROPS.match(prop) or prop.startswith("--"):
        for literal, kind in _value_literals(prop, value):
            yield SourceHit(number, kind, literal, prop)


def _inline_declarations(number: int, css: str) -> Iterator[SourceHit]:
    """``prop: value; prop: value`` as in a style attribute or cssText."""
    for declaration in css.split(";"):
        prop, colon, value = declaration.partition(":")
        if colon:
            yield from _style_value(number, prop.strip().lower(), value)


def _kebab(name: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "-" + m.group(1).lower(), name).lower()


# --- Swift ----------------------------------------------------------------------------------

SWIFT_COLOR = re.compile(
    r"\b(?:Color|UIColor|NSColor|CGColor)\s*\(\s*(?:\.sRGB\s*,\s*|\.displayP3\s*,\s*)?"
    r"(?:red|hue|white|hex|srgbRed|displayP3Red)\s*:|#colorLiteral\s*\("
)
SWIFT_PADDING = re.compile(r"\.padding\s*\(\s*(?:[^()]*?,\s*)?(-?\d*\.?\d+)\s*\)")
SWIFT_SPACING = re.compile(r"\bspacing\s*:\s*(-?\d*\.?\d+)\b")


def _scan_swift(text: str, language: str) -> Iterator[SourceHit]:
    text = _blank_comments(text, line_comments=True)
    for number, line in enumerate(text.splitlines(), start=1):
        for m in SWIFT_COLOR.finditer(line):
            yield SourceHit(number, "color", m.group().rstrip(":( "), "color")
        for m in SWIFT_PADDING.finditer(line):
            if float(m.group(1)) != 0:
                yield SourceHit(number, "spacing", m.group(), "padding")
        for m in SWIFT_SPACING.finditer(line):
            if float(m.group(1)) != 0:
                yield SourceHit(number, "spacing", m.group(), "spacing")


# --- HTML (and single-file components) ------------------------------------------------------

HTML_STYLE_BLOCK = re.compile(r"(<style\b[^>]*>)(.*?)</style>", re.S | re.I)
HTML_STYLE_ATTR = re.compile(r"""\bstyle\s*=\s*(["'])(.*?)\1""", re.S | re.I)
HTML_COLOR_ATTR = re.compile(
    r"""(?<![\w-])(fill|stroke|color|bgcolor|stop-color)\s*=\s*(["'])(.*?)\2""", re.S | re.I
)
HTML_SCRIPT_BLOCK = re.compile(r"(<script\b[^>]*>)(.*?)</script>", re.S | re.I)


def _scan_html(text: str) -> Iterator[SourceHit]:
    for m in HTML_STYLE_BLOCK.finditer(text):
        first = text.count("\n", 0, m.start(2)) + 1
        yield from _scan_css(m.group(2), "css", first_line=first)
    for m in HTML_SCRIPT_BLOCK.finditer(text):
        first = text.count("\n", 0, m.start(2))
        for hit in _scan_js(m.group(2), "js"):
            yield SourceHit(hit.line + first, hit.kind, hit.literal, hit.property)
    for m in HTML_STYLE_ATTR.finditer(text):
        first = text.count("\n", 0, m.start(2)) + 1
        yield from _scan_css(m.group(2), "css", first_line=first)
    for m in HTML_COLOR_ATTR.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        for literal, kind in _value_literals(m.group(1).lower(), m.group(3)):
            yield SourceHit(line, kind, literal, m.group(1).lower())
