"""The declared-pair contrast gate: WCAG 2.x ratio of each fg/bg token pair per appearance.

contrast-pairs.json (the seed's shape, plus ``surface``)::

    {"pairs": [
        {"fg": "textPrimary", "bg": "surface", "min": 4.5},
        {"fg": "textMuted", "bg": "surface", "min": 3.0, "whitelist": ["dark"],
         "note": "placeholder text; AA-large"},
        {"fg": "onScrim", "bg": "scrim", "surface": "surface"}]}

Per pair and appearance: a translucent background is composited over the pair's ``surface``
(a token name or a colour; white by default), the foreground over that, and the ratio is
compared unrounded with ``min`` (default 4.5): 4.4951 fails a 4.5 minimum. Whitelisted rows
are still measured and shown, but do not fail the gate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from argus.color import RGBA, composite, contrast_ratio, parse_color
from argus.errors import InputError
from argus.io import read_json
from argus.tokens import Tokens

DEFAULT_MINIMUM = 4.5
DEFAULT_SURFACE = "white"
ALL_APPEARANCES_LABEL = "*"


class _PairDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    fg: str = Field(min_length=1)
    bg: str = Field(min_length=1)
    min: float = Field(default=DEFAULT_MINIMUM, ge=1.0, le=21.0)
    surface: str = Field(default=DEFAULT_SURFACE, min_length=1)
    whitelist: Any = False
    note: str = ""

    @field_validator("whitelist")
    @classmethod
    def _whitelist_shape(cls, value: Any) -> bool | list[str]:
        if isinstance(value, bool):
            return value
        if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
            return value
        raise ValueError("must be true, false or a list of appearance names")


class _PairsDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    # An empty list would make a gate that cannot fail: refuse it.
    pairs: list[_PairDoc] = Field(min_length=1)


@dataclass(frozen=True)
class ContrastPair:
    fg: str
    bg: str
    minimum: float
    surface: str
    whitelist: bool | tuple[str, ...]
    note: str

    def is_whitelisted(self, appearance: str) -> bool:
        return self.whitelist is True or (
            isinstance(self.whitelist, tuple) and appearance in self.whitelist
        )


@dataclass(frozen=True)
class ContrastRow:
    fg: str
    bg: str
    appearance: str
    ratio: float
    minimum: float
    passed: bool
    whitelisted: bool
    surface: str
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "fg": self.fg,
            "bg": self.bg,
            "appearance": self.appearance,
            "ratio": self.ratio,
            "min": self.minimum,
            "passed": self.passed,
            "whitelisted": self.whitelisted,
            "surface": self.surface,
            "note": self.note,
            "status": self.status,
        }

    @property
    def status(self) -> str:
        if self.passed:
            return "pass"
        return "whitelisted" if self.whitelisted else "fail"


@dataclass(frozen=True)
class ContrastReport:
    tokens_path: Path
    pairs_path: Path
    rows: tuple[ContrastRow, ...]

    @property
    def failures(self) -> tuple[ContrastRow, ...]:
        return tuple(row for row in self.rows if row.status == "fail")

    @property
    def passed(self) -> bool:
        return not self.failures

    def as_json(self) -> dict[str, Any]:
        return {
            "tokens": str(self.tokens_path),
            "pairs_file": str(self.pairs_path),
            "passed": self.passed,
            "failures": len(self.failures),
            "pairs": [row.as_json() for row in self.rows],
        }


def format_ratio(ratio: float) -> str:
    """Two decimals, truncated not rounded: a failing 4.4951 must never print as 4.50."""
    return str(Decimal(repr(ratio)).quantize(Decimal("0.01"), rounding=ROUND_DOWN))


def load_pairs(path: Path) -> tuple[ContrastPair, ...]:
    """Read contrast-pairs.json; keys starting with ``_`` or ``$`` are comments."""
    doc = read_json(path, what="contrast pairs file")
    if not isinstance(doc, Mapping):
        raise InputError(f"{path}: contrast pairs file must be a JSON object with a 'pairs' list")
    try:
        parsed = _PairsDoc.model_validate(_drop_comments(doc))
    except ValidationError as exc:
        error = exc.errors()[0]
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "unknown key (a pair has fg, bg, min, surface, whitelist, note)"
        raise InputError(f"{path}: {_json_path(error['loc'])}: {message}") from exc
    return tuple(
        ContrastPair(
            fg=p.fg,
            bg=p.bg,
            minimum=p.min,
            surface=p.surface,
            whitelist=p.whitelist if isinstance(p.whitelist, bool) else tuple(p.whitelist),
            note=p.note,
        )
        for p in parsed.pairs
    )


def _json_path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else f".{part}" if path else str(part)
    return path or "(top level)"


def _drop_comments(doc: Any) -> Any:
    if isinstance(doc, Mapping):
        return {
            k: _drop_comments(v)
            for k, v in doc.items()
            if not (isinstance(k, str) and k.startswith(("_", "$")))
        }
    if isinstance(doc, list):
        return [_drop_comments(v) for v in doc]
    return doc


def check_pairs(
    tokens: Tokens, pairs_path: Path, appearances: tuple[str, ...] | None = None
) -> ContrastReport:
    """Measure every declared pair in every appearance (or only ``appearances``)."""
    pairs = load_pairs(pairs_path)
    wanted = appearances or tokens.appearances or (ALL_APPEARANCES_LABEL,)
    for appearance in wanted:
        if appearance != ALL_APPEARANCES_LABEL:
            tokens.require_appearance(appearance)
    _check_names(tokens, pairs, pairs_path)
    rows = [
        _measure(tokens, pair, appearance, pairs_path) for pair in pairs for appearance in wanted
    ]
    return ContrastReport(tokens_path=tokens.source, pairs_path=pairs_path, rows=tuple(rows))


def whitelist_problems(
    tokens: Tokens, pairs: tuple[ContrastPair, ...], pairs_path: Path
) -> list[str]:
    """A whitelist naming an appearance the tokens do not define ("drak") would never apply:
    one line per such name. Tokens without appearances serve any, so nothing is checked."""
    if not tokens.appearances:
        return []
    return [
        f"{pairs_path}: pairs[{index}].whitelist names appearance '{name}', which "
        f"{tokens.source} does not define (it defines {', '.join(tokens.appearances)})"
        for index, pair in enumerate(pairs)
        if isinstance(pair.whitelist, tuple)
        for name in pair.whitelist
        if name not in tokens.appearances
    ]


def _check_names(tokens: Tokens, pairs: tuple[ContrastPair, ...], pairs_path: Path) -> None:
    problems = whitelist_problems(tokens, pairs, pairs_path)
    if problems:
        raise InputError(problems[0])
    for index, pair in enumerate(pairs):
        for role, name in (("fg", pair.fg), ("bg", pair.bg)):
            if name not in tokens.colors:
                raise InputError(
                    f"{pairs_path}: pairs[{index}].{role} names colour token '{name}', "
                    f"which {tokens.source} does not define"
                )
        if pair.surface not in tokens.colors:
            try:
                parse_color(pair.surface)
            except InputError as exc:
                raise InputError(
                    f"{pairs_path}: pairs[{index}].surface '{pair.surface}' is neither a colour "
                    f"token in {tokens.source} nor a colour"
                ) from exc


def _measure(tokens: Tokens, pair: ContrastPair, appearance: str, source: Path) -> ContrastRow:
    surface = _surface(tokens, pair.surface, appearance)
    bg = composite(_resolve(tokens, pair.bg, appearance), surface)
    ratio = contrast_ratio(_resolve(tokens, pair.fg, appearance), bg)
    return ContrastRow(
        fg=pair.fg,
        bg=pair.bg,
        appearance=appearance,
        ratio=ratio,
        minimum=pair.minimum,
        passed=ratio >= pair.minimum,
        whitelisted=pair.is_whitelisted(appearance),
        surface=pair.surface,
        note=pair.note,
    )


def _resolve(tokens: Tokens, name: str, appearance: str) -> RGBA:
    if appearance == ALL_APPEARANCES_LABEL:
        return next(iter(tokens.colors[name].values()))
    return tokens.color(name, appearance)


_WHITE = RGBA(255.0, 255.0, 255.0, 1.0)


def _surface(tokens: Tokens, surface: str, appearance: str) -> RGBA:
    """The opaque colour beneath the background: a token's colour when it names one."""
    color = (
        _resolve(tokens, surface, appearance) if surface in tokens.colors else parse_color(surface)
    )
    # A translucent surface sits on the page's canvas, which is white.
    return composite(color, _WHITE)
