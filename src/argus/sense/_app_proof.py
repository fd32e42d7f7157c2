"""A server Argus did not start must prove it is the project's app before anything is sensed.

``reuse_existing`` keeps a server that already answers at the URL. That server may be anything
listening there: a developer's dev server, or a process the implementer left running from an
earlier run, serving a page of its choosing. So before it is used, its pages must show one of:

- ``[web_server] marker``: a text the project's HTML holds (a ``<meta name="argus-app"
  content="...">``, say; the way for an app whose ids appear only once its script ran);
- an id of a target's ``a11y_contract`` as an ``id`` or ``data-testid`` attribute, in the page
  of that target's first view.

Neither found: the view errors with one line (exit 2) saying what was looked for.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator

from argus.config import ProjectConfig
from argus.errors import ArgusError, SensorError
from argus.spec.model import Spec, View

MAX_BODY_BYTES = 2 * 1024 * 1024
TIMEOUT_S = 10.0
MAX_PAGES = 5
# Local servers must never be reached through a proxy from the environment.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _body(url: str) -> str:
    try:
        with _OPENER.open(url, timeout=TIMEOUT_S) as response:
            return bytes(response.read(MAX_BODY_BYTES)).decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return bytes(exc.read(MAX_BODY_BYTES)).decode("utf-8", "replace")
    except (OSError, ValueError):
        return ""


def _has_id(body: str, element_id: str) -> bool:
    """``element_id`` as an ``id`` or ``data-testid`` attribute (the contract reads both)."""
    value = re.escape(element_id)
    attribute = r"(?<![\w-])(?:id|data-testid)\s*=\s*"
    pattern = rf"""{attribute}(?:"{value}"|'{value}'|{value}(?=[\s>/]))"""
    return re.search(pattern, body) is not None


def _pages(spec: Spec, config: ProjectConfig) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each target's first page with the ids its contract names exactly (no wildcard); a page
    two targets share is fetched once, for the ids of both."""
    from argus.sense.views import plan_view

    pages: dict[str, tuple[str, ...]] = {}
    for target in spec.targets[:MAX_PAGES]:
        ids = tuple(i for i in target.a11y_contract if not i.endswith("*"))
        if not ids or not target.states or not target.appearances:
            continue
        view = View(spec.feature, target.id, target.states[0], target.appearances[0])
        try:
            url = plan_view(spec, view, config).url
        except ArgusError:
            continue
        if url:
            pages[url] = tuple(dict.fromkeys((*pages.get(url, ()), *ids)))
    yield from pages.items()


def prove_app(url: str, config: ProjectConfig, spec: Spec | None) -> None:
    """Return when the server at ``url`` shows the project's marker or one of its contract's
    ids; SensorError (one line) otherwise."""
    server = config.web_server
    marker = server.marker if server is not None else ""
    looked: list[str] = []
    if marker:
        if marker in _body(url):
            return
        looked.append(f"the marker {marker!r} at {url}")
    for page, ids in _pages(spec, config) if spec is not None else ():
        body = _body(page)
        if any(_has_id(body, i) for i in ids):
            return
        looked.append(f"an id of the a11y contract ({', '.join(ids[:3])}) at {page}")
    what = "; ".join(looked) or "nothing to look for (no marker, no a11y contract id)"
    raise SensorError(
        f"web server: {url} already answers but Argus did not start it and cannot tell it is "
        f"this project's app (looked for {what}): another program may hold the port; stop it "
        "or move [web_server] url and base_url to a free port, or, if it is your app, set "
        "[web_server] marker to a text its page holds"
    )
