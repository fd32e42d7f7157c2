"""Hypothesis strategies that turn a valid input file into a hostile one.

Three families, mixed: structural (a value somewhere in the parsed document replaced by another
JSON value, a key dropped, a key given twice), byte-level (truncation, inserted or flipped
bytes, a byte-order mark, invalid UTF-8) and special texts that broke readers before (integers
of thousands of digits, NaN, deep nesting, NUL and lone surrogates in strings).
"""

from __future__ import annotations

import json
import re
import struct
import zlib
from typing import Any

from hypothesis import strategies as st

# Sentinels that a JSON encoder cannot write: replaced in the text after json.dumps.
_RAW = {
    "__BIGINT__": "1" * 5000,
    "__NEGBIGINT__": "-" + "9" * 4400,
    "__NAN__": "NaN",
    "__INF__": "-Infinity",
    "__BIGFLOAT__": "1e999",
    "__DEEP__": "[" * 5000 + "]" * 5000,
}
_STRINGS = [
    "",
    "\x00",
    "a\x00b",
    "../../../../etc/passwd",
    "/etc/passwd",
    "\ud800",
    "x" * 10_000,
    "pass",
    "skip",
    "error",
    "fail",
    "light",
    "*",
    "{}",
    "1e999",
    "http://example.invalid/",
    "\u202etxt",
]

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(_STRINGS),
    st.sampled_from(sorted(_RAW)),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)


def dumps(value: Any) -> str:
    text = json.dumps(value, indent=1)
    for sentinel, raw in _RAW.items():
        text = text.replace(f'"{sentinel}"', raw)
    return text


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*at, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_paths(item, (*at, index)))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any, *, delete: bool = False) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        copy = dict(value)
        if delete and not rest:
            copy.pop(head, None)
        else:
            copy[head] = _replace(value[head], rest, new, delete=delete)
        return copy
    copy_list = list(value)
    if delete and not rest:
        del copy_list[head]
    else:
        copy_list[head] = _replace(value[head], rest, new, delete=delete)
    return copy_list


@st.composite
def structural(draw: st.DrawFn, seed: Any) -> bytes:
    doc = seed
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "replace", "delete", "wrap", "duplicate"]))
        if op == "delete" and path:
            doc = _replace(doc, path, None, delete=True)
        elif op == "wrap":
            doc = _replace(doc, path, [_get(doc, path)])
        elif op == "duplicate" and path and isinstance(path[-1], str):
            text = dumps(doc)
            key = json.dumps(path[-1])
            extra = dumps(draw(json_value))
            # The key again, right after its first occurrence's value starts: a second value.
            return text.replace(f"{key}: ", f"{key}: {extra}, {key}: ", 1).encode(
                "utf-8", "surrogatepass"
            )
        else:
            doc = _replace(doc, path, draw(json_value))
    return dumps(doc).encode("utf-8", "surrogatepass")


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


@st.composite
def byte_level(draw: st.DrawFn, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        op = draw(st.sampled_from(["truncate", "insert", "flip", "delete", "bom", "latin1"]))
        at = draw(st.integers(min_value=0, max_value=max(0, len(data))))
        if op == "truncate":
            del data[at:]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif op == "flip" and at < len(data):
            data[at] ^= draw(st.integers(min_value=1, max_value=255))
        elif op == "delete":
            del data[at : at + draw(st.integers(min_value=1, max_value=16))]
        elif op == "bom":
            data[0:0] = b"\xef\xbb\xbf"
        elif op == "latin1":
            data[at:at] = "é".encode("latin-1")
    return bytes(data)


SPECIAL_DOCS = [
    b"",
    b"{}",
    b"[]",
    b"null",
    b"0",
    b'""',
    b"\xff\xfe{}",
    b"1" * 5000,
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a": NaN}',
    b'{"a": 1, "a": 2}',
]


def json_inputs(seed: Any) -> st.SearchStrategy[bytes]:
    """Hostile variants of the JSON document ``seed``."""
    text = dumps(seed).encode()
    return st.one_of(
        structural(seed),
        structural(seed),
        byte_level(text),
        st.sampled_from(SPECIAL_DOCS),
    )


# -- TOML -------------------------------------------------------------------------------

_TOML_VALUES = [
    "1" * 5000,
    '"\\u0000"',
    "[1, 2]",
    "{ a = 1 }",
    '"../../x"',
    "-1",
    "0",
    "nan",
    "inf",
    "1e999",
    "true",
    '""',
    '["x", 1]',
    "2026-01-01T00:00:00Z",
    "[[]]",
    '"' + "x" * 5000 + '"',
]
_ASSIGN = re.compile(rb"^(\s*[A-Za-z0-9_.\"-]+\s*=\s*)(.*)$", re.M)


@st.composite
def toml_inputs(draw: st.DrawFn, seed: bytes) -> bytes:
    kind = draw(st.sampled_from(["value", "value", "bytes", "line", "special"]))
    if kind == "bytes":
        return draw(byte_level(seed))
    if kind == "special":
        return draw(
            st.sampled_from(
                [b"", b"\xff\xfe", b"a = 1\na = 2\n", b"[gates]\n[gates]\n", b"tool = 1\n"]
            )
        )
    lines = seed.split(b"\n")
    if kind == "line":
        at = draw(st.integers(min_value=0, max_value=len(lines)))
        lines.insert(at, draw(st.sampled_from([b"[tool]", b"x = 1", b"[gates.axe]", b"\x00"])))
        return b"\n".join(lines)
    assignments = [i for i, line in enumerate(lines) if _ASSIGN.match(line)]
    if not assignments:
        return seed
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        index = draw(st.sampled_from(assignments))
        match = _ASSIGN.match(lines[index])
        assert match is not None
        value = draw(st.sampled_from(_TOML_VALUES)).encode()
        lines[index] = match.group(1) + value
    return b"\n".join(lines)


# -- PNG --------------------------------------------------------------------------------


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _png(width: int, height: int, depth: int, colour: int, idat: bytes, extra: bytes) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + extra
        + _chunk(b"IDAT", idat)
        + _chunk(b"IEND", b"")
    )


@st.composite
def png_inputs(draw: st.DrawFn, seed: bytes) -> bytes:
    kind = draw(st.sampled_from(["bytes", "header", "header", "chunks"]))
    if kind == "bytes":
        return draw(byte_level(seed))
    width = draw(st.sampled_from([0, 1, 2, 7, 64, 12000, 150_000_000, 2**31 - 1, 2**32 - 1]))
    height = draw(st.sampled_from([0, 1, 3, 64, 12000, 150_000_000, 2**31 - 1]))
    depth = draw(st.sampled_from([1, 2, 4, 8, 16, 3, 0, 255]))
    colour = draw(st.sampled_from([0, 2, 3, 4, 6, 1, 7]))
    body = draw(st.sampled_from([b"", b"\x00" * 64, zlib.compress(b"\x00" * 4096), b"junk"]))
    extra = b""
    if kind == "chunks":
        chunk = draw(st.sampled_from([b"tEXt", b"zTXt", b"iTXt", b"PLTE", b"tRNS", b"sBIT"]))
        payload = draw(st.binary(max_size=16))
        extra = _chunk(chunk, payload) * draw(st.sampled_from([1, 5, 1001, 3000]))
    return _png(width, height, depth, colour, body, extra)
