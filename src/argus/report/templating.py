"""Every HTML page Argus writes comes from a Jinja2 template with autoescape on.

The pages show text from renders, probes, judges and the user's files, none of which is ever
markup: with autoescape every ``{{ value }}`` is escaped unless a macro made it, so no page
assembles markup from strings. Templates live in a ``templates/`` folder of the package that
owns the page; each page's package is searched first, then the report's, whose
``macros.html`` (badges, tables, lists) every page imports.
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import quote

from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined

from argus.report._text import ACTIONS, DASH, KINDS, anchor_id, score_text, tone, when


@functools.cache
def environment(package: str = "argus.report") -> Environment:
    """The environment for pages owned by ``package`` (its templates, then the report's)."""
    loaders = [
        PackageLoader(name, "templates") for name in dict.fromkeys((package, "argus.report"))
    ]
    env = Environment(
        loader=ChoiceLoader(loaders),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(when=when, tone=tone, anchor_id=anchor_id, score=score_text)
    env.filters["urlquote"] = _path_segment
    env.globals.update(DASH=DASH, KINDS=KINDS, ACTIONS=ACTIONS)
    return env


def _path_segment(text: str) -> str:
    """``text`` as one URL path segment (a ``/`` in it is quoted too)."""
    return quote(str(text), safe="")


def render(template: str, package: str = "argus.report", **context: Any) -> str:
    """The page ``template`` of ``package`` rendered with ``context``."""
    return environment(package).get_template(template).render(**context)
