"""Text expectations: Jinja2 templates over a fixture's data, rendered to the strings a page
must show.

    "texts": {"fixture": "fixtures/cart.json",
              "expect": ["{{ items|length }} {{ 'item'|plural(items|length) }}",
                         "{% for i in items %}{{ '%.2f'|format(i.qty * i.price) }}\\n{% endfor %}"]}

Templates run in Jinja2's sandbox with undefined names an error. The fixture's top-level keys
are the template's names (a fixture that is not an object is ``fixture``). Each non-empty line
a template renders, white space collapsed, is one text. Filters beyond Jinja2's: ``plural``
(``'item'|plural(n)`` is "item" for 1, else "items"; ``'box'|plural(n, 'boxes')``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment

from argus.errors import InputError

MAX_TEXTS = 200


def _plural(word: str, count: Any, many: str | None = None) -> str:
    return word if count == 1 else (many if many is not None else f"{word}s")


def _environment() -> SandboxedEnvironment:
    env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False)
    env.filters["plural"] = _plural
    return env


def render_texts(templates: tuple[str, ...], fixture: Path | None, where: str) -> list[str]:
    """The texts ``templates`` say the page shows, rendered over ``fixture``'s data."""
    context: dict[str, Any] = {}
    if fixture is not None:
        try:
            data = json.loads(fixture.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{where}: cannot read the texts fixture {fixture}: {exc}") from exc
        context = dict(data) if isinstance(data, dict) else {"fixture": data}
    env = _environment()
    out: list[str] = []
    for template in templates:
        try:
            rendered = env.from_string(template).render(context)
        except TemplateError as exc:
            raise InputError(
                f"{where}: text template {template[:60]!r} does not render: {exc}; fix the "
                "template or the fixture"
            ) from exc
        out.extend(" ".join(line.split()) for line in rendered.splitlines() if line.strip())
    return out[:MAX_TEXTS]
