"""`argus tokens show TOKENS.json`: print the design-token model Argus loaded from a file."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from argus.color import to_hex
from argus.tokens import ALL_APPEARANCES, Tokens, load_tokens


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tokens",
        help="inspect design tokens",
        description="Inspect a design tokens file (Argus's tokens.json shape or W3C DTCG).",
    )
    actions = parser.add_subparsers(dest="tokens_action", metavar="ACTION", required=True)
    show = actions.add_parser(
        "show",
        help="print the loaded token model",
        description="Print the colours (per appearance), spacing, type scale, radii and fonts "
        "Argus reads from a tokens file. Exit 0, or 2 when the file is unreadable or invalid.",
    )
    show.add_argument("tokens_file", type=Path, metavar="TOKENS.json")
    show.add_argument("--appearance", help="show the colours as resolved in this appearance")
    show.add_argument("--json", action="store_true", help="print JSON instead of text")
    show.set_defaults(func=show_tokens)


def show_tokens(args: argparse.Namespace) -> int:
    tokens = load_tokens(args.tokens_file)
    if args.appearance:
        tokens.require_appearance(args.appearance)
    model = tokens_as_json(tokens, args.appearance)
    if args.json:
        print(json.dumps(model, indent=2))
    else:
        print(render_text(tokens, model))
    return 0


def tokens_as_json(tokens: Tokens, appearance: str | None = None) -> dict[str, Any]:
    colors: dict[str, Any]
    if appearance:
        colors = {name: to_hex(c) for name, c in tokens.palette(appearance).items()}
    else:
        colors = {
            name: {a: to_hex(c) for a, c in by_appearance.items()}
            for name, by_appearance in tokens.colors.items()
        }
    return {
        "source": str(tokens.source),
        "format": tokens.format,
        "appearances": list(tokens.appearances),
        "appearance": appearance,
        "colors": colors,
        "spacing": dict(tokens.spacing),
        "type": dict(tokens.type_scale),
        "radii": dict(tokens.radii),
        "fonts": dict(tokens.font_families),
        "typography": {
            name: {
                "size": r.size,
                "kind": r.kind,
                "weight": r.weight,
                "line_height": r.line_height,
                "letter_spacing": r.letter_spacing,
            }
            for name, r in tokens.type_roles.items()
        },
        "color_roles": {
            name: {"only": list(r.only), "appearances": list(r.appearances)}
            for name, r in tokens.color_roles.items()
        },
    }


def render_text(tokens: Tokens, model: dict[str, Any]) -> str:
    shown = model["appearance"] or ", ".join(tokens.appearances) or "not split by appearance"
    lines = [f"{tokens.source} ({tokens.format} format); appearances: {shown}"]
    width = max((len(n) for section in _SECTIONS for n in model[section]), default=0) + 2
    lines.append(f"colours ({len(model['colors'])})")
    for name, value in model["colors"].items():
        if isinstance(value, str):
            lines.append(f"  {name:<{width}}{value}")
        elif set(value) == {ALL_APPEARANCES}:
            lines.append(f"  {name:<{width}}{value[ALL_APPEARANCES]}  (every appearance)")
        else:
            lines.append(f"  {name:<{width}}" + "  ".join(f"{a} {h}" for a, h in value.items()))
    for section, title in (("spacing", "spacing"), ("type", "type scale"), ("radii", "radii")):
        lines.append(f"{title} ({len(model[section])})")
        lines.extend(f"  {n:<{width}}{v:g}px" for n, v in model[section].items())
    lines.append(f"fonts ({len(model['fonts'])})")
    lines.extend(f"  {n:<{width}}{v}" for n, v in model["fonts"].items())
    if tokens.type_roles:
        lines.append(f"type roles ({len(tokens.type_roles)})")
        lines.extend(f"  {r.describe()}" for r in tokens.type_roles.values())
    if tokens.color_roles:
        lines.append(f"colour roles ({len(tokens.color_roles)})")
        for name, role in tokens.color_roles.items():
            parts = []
            if role.only:
                parts.append(f"only {', '.join(role.only)}")
            if role.appearances:
                parts.append(f"appearances {', '.join(role.appearances)}")
            lines.append(f"  {name:<{width}}{'; '.join(parts)}")
    return "\n".join(lines)


_SECTIONS = ("colors", "spacing", "type", "radii", "fonts")
