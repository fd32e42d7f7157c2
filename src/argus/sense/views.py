"""Resolve one view of a spec into what a sensor needs: URL, fixture, viewport, appearance."""

from __future__ import annotations

import string
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from argus.config import ProjectConfig
from argus.errors import ConfigError, InputError
from argus.frameworks import framework_masks
from argus.spec.model import Spec, View, Viewport
from argus.spec.paths import baseline_path
from argus.spec.steps import Step
from argus.spec.typed import FocusTrap

TEMPLATE_FIELDS = frozenset({"route", "fixture", "appearance", "state", "target", "feature"})
COLOR_SCHEMES = frozenset({"light", "dark"})


@dataclass(frozen=True)
class ViewPlan:
    """Everything about one view that does not need a browser."""

    view: View
    adapter: str
    route: str
    fixture: str
    viewport: Viewport
    full_page: bool
    url: str | None  # web adapter only
    gates: tuple[str, ...] = ()  # the gates the view's target runs (axe needs the live page)
    steps: tuple[Step, ...] = ()  # run after load, before capture (argus.sense._steps)
    focus_stops: int = 0  # elements of the focus order to record (the state's focus_order)
    focus_trap: FocusTrap | None = None  # the state's focus_trap expectation: walk it
    keep_ids: tuple[str, ...] = ()  # the a11y-id contract: a sampled probe still dumps these
    baseline: Path | None = None  # the view's snapshot baseline: a first shot equal to it settles
    # The snapshot mask selectors the probe resolves in the page: the target's, then the
    # framework's preset (argus.gates.comparison paints the same ones).
    masks: tuple[str, ...] = ()

    @property
    def color_scheme(self) -> str | None:
        """The colour scheme to emulate: light/dark appearances only; None means no emulation."""
        return self.view.appearance if self.view.appearance in COLOR_SCHEMES else None


def check_view(spec: Spec, view: View) -> None:
    """InputError naming the spec when the view's target, state or appearance is not in it."""
    target = spec.target(view.target)
    if view.state not in target.states:
        raise InputError(
            f"{spec.path}: target '{target.id}' has no state '{view.state}' "
            f"(states: {', '.join(target.states)})"
        )
    if view.appearance not in target.appearances:
        raise InputError(
            f"{spec.path}: target '{target.id}' has no appearance '{view.appearance}' "
            f"(appearances: {', '.join(target.appearances)})"
        )


def build_url(config: ProjectConfig, fields: dict[str, str], base_url: str | None = None) -> str:
    """The URL of a view: ``url_template`` filled in, joined to ``base_url`` for relative routes."""
    where = config.source or "argus.toml"
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(config.url_template) if name}
    except ValueError as exc:
        raise ConfigError(f"{where}: url_template: {exc}") from exc
    unknown = sorted(names - TEMPLATE_FIELDS)
    if unknown:
        raise ConfigError(
            f"{where}: url_template: unknown placeholder {{{unknown[0]}}} "
            f"(known: {', '.join(sorted(TEMPLATE_FIELDS))})"
        )
    quoted = {key: urllib.parse.quote(value, safe="") for key, value in fields.items()}
    quoted["route"] = fields["route"]  # the route is already a URL or a path
    url = config.url_template.format(**quoted)
    # A route with its own query string: the template's '?' becomes '&'.
    head, sep, tail = url.partition("?")
    url = head + sep + tail.replace("?", "&")
    if urllib.parse.urlsplit(url).scheme:
        return url
    base = base_url if base_url is not None else config.base_url
    if not base:
        raise ConfigError(
            f"{where}: base_url is not set and the route '{fields['route']}' is relative; "
            "set base_url (e.g. http://127.0.0.1:8000) or give the target an absolute route"
        )
    return base.rstrip("/") + "/" + url.lstrip("/")


def plan_view(
    spec: Spec, view: View, config: ProjectConfig, *, base_url: str | None = None
) -> ViewPlan:
    check_view(spec, view)
    target = spec.target(view.target)
    fixture = target.fixture_for(view.state)
    expectation = target.expectations.get(view.state)
    default = Viewport(config.viewport.width, config.viewport.height)
    url = None
    if spec.adapter == "web":
        fields = {
            "route": target.route,
            "fixture": fixture,
            "appearance": view.appearance,
            "state": view.state,
            "target": target.id,
            "feature": spec.feature,
        }
        url = build_url(config, fields, base_url)
    return ViewPlan(
        view=view,
        adapter=spec.adapter,
        route=target.route,
        fixture=fixture,
        viewport=spec.viewport_for(target.id, default),
        full_page=target.full_page,
        url=url,
        gates=config.gates.for_target(target.gates),
        steps=target.steps_for(view.state),
        focus_stops=len(expectation.focus_order) if expectation is not None else 0,
        focus_trap=expectation.typed.focus_trap if expectation is not None else None,
        keep_ids=target.a11y_contract,
        baseline=baseline_path(
            spec.spec_dir,
            view.target,
            view.state,
            view.appearance,
            config.gates.snapshot.platform_suffix,
        ),
        masks=view_masks(target.snapshot.masks, config.framework),
    )


def view_masks(masks: tuple[str, ...], framework: str) -> tuple[str, ...]:
    """The target's ``masks``, then the ``framework``'s preset ones it does not name."""
    return (*masks, *(m for m in framework_masks(framework) if m not in masks))
