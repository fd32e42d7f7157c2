"""Match a Playwright-style ARIA snapshot template against the ARIA snapshot a probe recorded.

Both texts use the YAML-like shape Playwright prints (``- role "name" [attr]: text``, two-space
nesting, ``- text: ...`` text nodes, ``- /url: ...`` properties). The template semantics are
Playwright's ``toMatchAriaSnapshot`` ones, kept to what a spec needs:

- a template node matches a node of the same role whose attributes include the template's
  (``[level=1]``, ``[checked]``, ``[disabled]``, ``[expanded]``, ``[pressed]``, ``[selected]``);
- a name or text written in quotes must equal the actual one (white space collapsed); one
  written as ``/regex/`` must be found in it (Python ``re.search``);
- a node's template children must appear among its actual children in the same order, others may
  sit between them (``- /children: equal`` demands exactly those children, ``deep-equal`` the same
  all the way down);
- optionally (``unnamed_controls``), a control with no accessible name at all matches a named
  template node of its role, so that one fault (a missing label) is not charged twice;
- the whole template matches when its top-level nodes match, in order, among the children of
  some node of the tree (the root or any descendant), like a locator on ``body``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Literal

from argus.errors import InputError

ContainerMode = Literal["contain", "equal", "deep-equal"]
_BOOL_ATTRS = frozenset({"checked", "disabled", "expanded", "pressed", "selected"})
_KEY = re.compile(r"^(?P<role>[A-Za-z][\w-]*)\s*(?P<rest>.*)$", re.S)
_ATTR = re.compile(r"\[\s*([a-z-]+)\s*(?:=\s*([^\]\s]+)\s*)?\]")


@dataclass(frozen=True)
class TextPattern:
    """A name or text to match: literal (collapsed white space) or a regular expression."""

    literal: str | None = None
    regex: re.Pattern[str] | None = None

    def matches(self, actual: str) -> bool:
        if self.regex is not None:
            return self.regex.search(actual) is not None
        return collapse(actual) == collapse(self.literal or "")

    def __str__(self) -> str:
        return f"/{self.regex.pattern}/" if self.regex is not None else json.dumps(self.literal)


@dataclass
class AriaNode:
    """One parsed line: a role node, or a text node when ``role`` is ``"text"``."""

    role: str
    name: TextPattern | None = None
    attrs: dict[str, str] = field(default_factory=dict)
    props: dict[str, TextPattern] = field(default_factory=dict)
    children: list[AriaNode] = field(default_factory=list)
    mode: ContainerMode | None = None  # None: contain, unless a deep-equal ancestor says otherwise

    def describe(self) -> str:
        name = f" {self.name}" if self.name is not None else ""
        attrs = "".join(f"[{k}]" if v == "true" else f"[{k}={v}]" for k, v in self.attrs.items())
        return f"{self.role}{name}{(' ' + attrs) if attrs else ''}"


def collapse(text: str) -> str:
    return " ".join(text.split())


def _unquote_yaml(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            return text[1:-1]
        return value if isinstance(value, str) else text
    return text


def _pattern(text: str, where: str) -> TextPattern:
    text = text.strip()
    if len(text) >= 2 and text.startswith("/") and text.endswith("/"):
        try:
            return TextPattern(regex=re.compile(text[1:-1]))
        except re.error as exc:
            raise InputError(f"{where}: bad regular expression {text} ({exc})") from exc
    return TextPattern(literal=_unquote_yaml(text))


def _split_key_value(body: str) -> tuple[str, str | None]:
    """Split ``key: value`` at the first colon outside quotes, regexes and brackets."""
    quote: str | None = None
    depth = 0
    i = 0
    while i < len(body):
        ch = body[i]
        if quote:
            if ch == "\\" and quote in '"/':
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "\"'" or (ch == "/" and i > 0 and body[i - 1] == " "):
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == ":" and depth == 0 and (i + 1 == len(body) or body[i + 1] == " "):
            return body[:i].strip(), body[i + 1 :].strip()
        i += 1
    return body.strip(), None


def _parse_name(rest: str, where: str) -> tuple[TextPattern | None, str]:
    rest = rest.strip()
    if rest.startswith('"'):
        m = re.match(r'"(?:[^"\\]|\\.)*"', rest)
        if not m:
            raise InputError(f"{where}: unterminated quoted name in {rest!r}")
        return _pattern(m.group(0), where), rest[m.end() :]
    if rest.startswith("/"):
        m = re.match(r"/(?:[^/\\]|\\.)*/", rest)
        if not m:
            raise InputError(f"{where}: unterminated /regex/ name in {rest!r}")
        return _pattern(m.group(0), where), rest[m.end() :]
    return None, rest


def _parse_line(body: str, where: str) -> tuple[AriaNode | None, tuple[str, str] | None]:
    """A node, or a ``(/prop, value)`` pair for property lines."""
    key, value = _split_key_value(body)
    key = _unquote_yaml(key) if key[:1] in "'\"" else key
    if key.startswith("/"):
        return None, (key[1:], value or "")
    if key == "text":
        return AriaNode(role="text", name=_pattern(value or "", where)), None
    m = _KEY.match(key)
    if not m:
        raise InputError(f"{where}: cannot read ARIA line {body!r}")
    node = AriaNode(role=m.group("role"))
    node.name, attrs = _parse_name(m.group("rest"), where)
    for attr in _ATTR.finditer(attrs):
        node.attrs[attr.group(1)] = (attr.group(2) or "true").lower()
    leftover = _ATTR.sub("", attrs).strip()
    if leftover:
        raise InputError(f"{where}: unexpected {leftover!r} in ARIA line {body!r}")
    if value:
        node.children.append(AriaNode(role="text", name=_pattern(value, where)))
    return node, None


def parse_aria(text: str, *, where: str = "ARIA snapshot") -> AriaNode:
    """Parse a snapshot or a template into a tree under a ``fragment`` root."""
    root = AriaNode(role="fragment")
    stack: list[tuple[int, AriaNode]] = [(-1, root)]
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        body = raw.strip()
        if not body.startswith("-"):
            raise InputError(f"{where}: line {lineno} does not start with '- ': {body[:60]!r}")
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        node, prop = _parse_line(body[1:].strip(), f"{where} line {lineno}")
        if prop is not None:
            name, value = prop
            if name == "children":
                if value not in ("contain", "equal", "deep-equal"):
                    raise InputError(
                        f"{where} line {lineno}: /children must be contain|equal|deep-equal"
                    )
                parent.mode = value  # type: ignore[assignment]
            else:
                parent.props[name] = _pattern(value, f"{where} line {lineno}")
            continue
        assert node is not None
        parent.children.append(node)
        stack.append((indent, node))
    return root


# Roles a person operates; their accessible name is accessibility's business (see below).
CONTROL_ROLES = frozenset(
    {
        "button",
        "link",
        "checkbox",
        "radio",
        "switch",
        "textbox",
        "searchbox",
        "combobox",
        "slider",
        "spinbutton",
        "tab",
        "menuitem",
        "option",
    }
)


@dataclass(frozen=True)
class _Matcher:
    # With ``unnamed_controls``, a control that stands where the template expects it but has
    # no accessible name at all still matches: the missing name is charged to accessibility
    # (every control must be named) instead of reading as a missing element.
    unnamed_controls: bool = False

    def node(self, actual: AriaNode, template: AriaNode, deep_equal: bool) -> bool:
        if template.role == "text":
            actual_text = (actual.name.literal or "") if actual.name else ""
            return (
                actual.role == "text"
                and template.name is not None
                and template.name.matches(actual_text)
            )
        if actual.role != template.role or actual.role == "text":
            return False
        for key, want in template.attrs.items():
            have = actual.attrs.get(key, "false" if key in _BOOL_ATTRS else "")
            if have != want:
                return False
        if template.name is not None:
            actual_name = actual.name.literal if actual.name and actual.name.literal else ""
            excused = not actual_name and self.unnamed_controls and actual.role in CONTROL_ROLES
            if not excused and (not actual_name or not template.name.matches(actual_name)):
                return False
        for key, want_prop in template.props.items():
            have_prop = actual.props.get(key)
            if have_prop is None or not want_prop.matches(have_prop.literal or ""):
                return False
        return self.children(actual.children, template, deep_equal)

    def children(self, children: list[AriaNode], template: AriaNode, deep_equal: bool) -> bool:
        wanted = template.children
        # Playwright's order: an explicit mode wins, then an inherited deep-equal, then contain.
        if template.mode == "contain":
            exact = deep = False
        elif template.mode == "equal":
            exact, deep = True, False
        else:
            exact = deep = template.mode == "deep-equal" or deep_equal
        if exact:
            return len(children) == len(wanted) and all(
                self.node(c, t, deep) for c, t in zip(children, wanted, strict=True)
            )
        remaining = iter(children)
        return all(any(self.node(c, t, False) for c in remaining) for t in wanted)

    def anywhere(self, snapshot: AriaNode, template: AriaNode) -> bool:
        pending = [snapshot]
        while pending:
            node = pending.pop(0)
            if node.role != "text" and self.children(node.children, template, False):
                return True
            pending.extend(c for c in node.children if c.role != "text")
        return False


def template_matches(
    snapshot: AriaNode, template: AriaNode, *, unnamed_controls: bool = False
) -> bool:
    """True when the template's top-level nodes match under the root or under any descendant."""
    return not template.children or _Matcher(unnamed_controls).anywhere(snapshot, template)


def first_unmatched(
    snapshot: AriaNode, template: AriaNode, *, unnamed_controls: bool = False
) -> str | None:
    """The first top-level template line that cannot be found anywhere (for evidence)."""
    matcher = _Matcher(unnamed_controls)
    for wanted in template.children:
        if not matcher.anywhere(snapshot, AriaNode(role="fragment", children=[wanted])):
            return wanted.describe()
    return None
