"""The review page's Starlette application: pages, images, and the decisions.

Reads are open to the local address; every POST needs the launch token (X-Argus-Token), a JSON
body and, when the browser sends one, the page's own Origin. Decisions call
argus.loop.human.decisions, exactly what ``argus approve`` calls, one at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from argus.config import load_config
from argus.errors import ArgusError, InputError, StateError
from argus.io import loads_json
from argus.loop.human.decisions import (
    DECISION_KIND,
    Decision,
    accept_baseline,
    accept_config,
    approve_reference,
    record_spotcheck,
)
from argus.review.context import review_context
from argus.schemas import load_rubric
from argus.spec import Spec, View, load_spec
from argus.spec.paths import SPECS_DIR
from argus.store import Event, RunStore, db_path
from argus.ui._catalog import FILTERS, feature_runs, features, find_card, recent_runs
from argus.ui._marks import finding_marks, region_marks
from argus.ui._pages import error_page, list_page, view_page
from argus.ui._security import SECURITY_HEADERS, TOKEN_HEADER, Origin, read_image, token_matches

VIA = "ui"
STATIC = {
    "ui.js": ("argus.ui", "text/javascript; charset=utf-8"),
    "ui.css": ("argus.ui", "text/css; charset=utf-8"),
    "report.css": ("argus.report", "text/css; charset=utf-8"),
}
MAX_BODY = 64 * 1024
MAX_BATCH = 200


@dataclass(frozen=True)
class Settings:
    root: Path
    token: str
    origin: Origin


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _filter(request: Request) -> str:
    wanted = request.query_params.get("filter", "all")
    return wanted if wanted in FILTERS else "all"


def create_app(settings: Settings) -> Starlette:
    root = settings.root.resolve()
    decide_lock = threading.Lock()

    def index(request: Request) -> Response:
        wanted = _filter(request)
        runs = [feature_runs(root, f) for f in features(root)]
        waiting = {
            r.feature: [c for c in review_context(root, r.feature) if c.attention] for r in runs
        }
        return HTMLResponse(list_page(runs, wanted, recent_runs(root), waiting))

    def view(request: Request) -> Response:
        feature = request.path_params["feature"]
        slug = request.path_params["slug"]
        found = find_card(root, feature, slug, _at(request))
        if found is None:
            return HTMLResponse(error_page(404, f"no view {slug} of {feature}"), 404)
        runs, card = found
        marks = region_marks(card.snapshot.regions) if card.snapshot is not None else []
        if card.render is not None:
            marks += finding_marks(card.render)
        rubric: tuple[str, ...] = ()
        if runs.spec is not None:
            try:
                rubric = tuple(load_rubric(runs.spec.rubric_path).names)
            except ArgusError:
                rubric = ()
        events: list[Event] = []
        if db_path(root).is_file():
            with RunStore.open(root) as store:
                events = store.events(feature=feature, kind=DECISION_KIND, view=card.view)
        reviews = review_context(root, feature)  # context beside the decisions, never one
        page = view_page(root, runs, card, marks, rubric, events, _filter(request), reviews)
        return HTMLResponse(page)

    def file(request: Request) -> Response:
        try:
            data = read_image(root, request.query_params.get("path", ""))
        except InputError as exc:
            return Response(str(exc), 403, media_type="text/plain; charset=utf-8")
        return Response(data, media_type="image/png")

    def diff(request: Request) -> Response:
        params = request.path_params
        found = find_card(root, params["feature"], params["slug"], _at(request))
        if found is None or found[1].snapshot is None:
            return Response("no snapshot diff for this view", 404, media_type="text/plain")
        return Response(found[1].snapshot.png, media_type="image/png")

    def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found", 404, media_type="text/plain")
        package, media = STATIC[name]
        folder = resources.files(package)
        text = (folder / "static" / name if package == "argus.ui" else folder / name).read_text(
            "utf-8"
        )
        return Response(text, media_type=media)

    async def decide(request: Request) -> Response:
        body = await _json_body(request)

        def act() -> Decision:
            spec, view = _view_of(root, body)
            action = body.get("action")
            if action == "accept_baseline":
                return accept_baseline(
                    spec, load_config(root), view, via=VIA, iteration=_iteration(body)
                )
            if action == "approve_reference":
                return approve_reference(spec, view, via=VIA)
            if action == "accept_config":  # the feature's whole configuration (config pinning)
                return accept_config(spec, load_config(root), via=VIA)
            if action in ("approve_spotcheck", "reject_spotcheck"):
                wrong = body.get("dimension") if action == "reject_spotcheck" else None
                if action == "reject_spotcheck" and not (isinstance(wrong, str) and wrong):
                    raise InputError("a rejected spot-check names the dimension it got wrong")
                note = body.get("note")
                return record_spotcheck(
                    spec,
                    view,
                    wrong=wrong if isinstance(wrong, str) else None,
                    note=note.strip() or None if isinstance(note, str) else None,
                    via=VIA,
                )
            raise InputError(f"unknown action {str(action)[:40]!r}")

        decision = await run_in_threadpool(_serialized, decide_lock, act)
        return JSONResponse({"ok": True, "action": decision.action, "message": decision.message})

    async def batch(request: Request) -> Response:
        body = await _json_body(request)
        items = body.get("items")
        if not isinstance(items, list) or not items or len(items) > MAX_BATCH:
            raise InputError(f"items must be a list of 1 to {MAX_BATCH} views")

        def act() -> list[str]:
            config = load_config(root)
            messages = []
            for item in items:
                if not isinstance(item, dict):
                    raise InputError("each item names a feature, a view (slug) and an iteration")
                spec, view = _view_of(root, item)
                decision = accept_baseline(spec, config, view, via=VIA, iteration=_iteration(item))
                messages.append(decision.message)
            return messages

        messages = await run_in_threadpool(_serialized, decide_lock, act)
        return JSONResponse({"ok": True, "accepted": len(messages), "messages": messages})

    routes = [
        Route("/", index),
        Route("/view/{feature}/{slug}", view),
        Route("/file", file),
        Route("/diff/{feature}/{slug}.png", diff),
        Route("/static/{name}", static),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/decide", decide, methods=["POST"]),
        Route("/api/accept-baselines", batch, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(_Guard, settings=settings)
    return app


def _serialized(lock: threading.Lock, act: Callable[[], Any]) -> Any:
    with lock:
        return act()


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise InputError(f"request body over {MAX_BODY} bytes")
    try:
        data = loads_json(raw)
    except ValueError as exc:
        raise InputError("the request body is not JSON") from exc
    if not isinstance(data, dict):
        raise InputError("the request body must be a JSON object")
    return data


def _at(request: Request) -> int | None:
    """The ``?iteration=N`` a page or a diff asks for (None: the latest)."""
    value = request.query_params.get("iteration", "")
    return int(value) if value.isdigit() and len(value) < 7 else None


def _iteration(body: dict[str, Any]) -> int | None:
    value = body.get("iteration")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError("iteration must be a whole number")
    return value


def _view_of(root: Path, body: dict[str, Any]) -> tuple[Spec, View]:
    """The spec and the view a request names; InputError unless the spec has that view."""
    feature, slug = body.get("feature"), body.get("slug")
    if not isinstance(feature, str) or not isinstance(slug, str):
        raise InputError("name the feature and the view (slug)")
    if feature not in features(root):
        raise InputError(f"no feature {feature[:80]!r} here")
    spec = load_spec(root / SPECS_DIR / feature / "spec.json")
    view = next((v for v in spec.views() if v.slug == slug), None)
    if view is None:
        raise InputError(f"no view {slug[:80]!r} of feature {feature[:80]!r}")
    return spec, view


class _Guard:
    """ASGI middleware: the Host check, the token and Origin checks on POSTs, error mapping
    and the security headers on every response."""

    def __init__(self, app: Any, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        try:
            self._check(request)
            response: Response | None = None
        except Refused as exc:
            response = _refusal(exc.status, str(exc), request)
        if response is None:
            try:
                await self.app(scope, receive, _with_headers(send))
                return
            except StateError as exc:
                response = _refusal(409, str(exc), request)
            except ArgusError as exc:
                response = _refusal(400, str(exc), request)
        await response(scope, receive, _with_headers(send))

    def _check(self, request: Request) -> None:
        origin = self.settings.origin
        if not origin.host_allowed(request.headers.get("host")):
            raise Refused(421, "this page answers only on the address argus ui printed")
        if request.method in ("GET", "HEAD"):
            return
        if request.method != "POST":
            raise Refused(405, "only GET and POST")
        if not origin.origin_allowed(request.headers.get("origin")):
            raise Refused(403, "a request from another site is refused")
        if not token_matches(self.settings.token, request.headers.get(TOKEN_HEADER)):
            raise Refused(
                403, "the launch token is missing or wrong: paste the token argus ui printed"
            )
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "application/json":
            raise Refused(415, "send JSON")


def _refusal(status: int, message: str, request: Request) -> Response:
    if request.method == "POST" or request.url.path.startswith(("/file", "/diff")):
        return JSONResponse({"ok": False, "error": message}, status)
    return HTMLResponse(error_page(status, message), status)


_HEADERS = tuple(SECURITY_HEADERS.items())


def _with_headers(
    send: Callable[[Any], Awaitable[None]],
) -> Callable[[Any], Awaitable[None]]:
    async def wrapped(message: Any) -> None:
        if message["type"] == "http.response.start":
            headers = [
                (k, v)
                for k, v in message.get("headers", [])
                if k.decode("latin-1").lower() not in SECURITY_HEADERS
            ]
            headers += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in _HEADERS]
            message = {**message, "headers": headers}
        await send(message)

    return wrapped
