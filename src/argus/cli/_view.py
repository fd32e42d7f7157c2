"""One web view of a feature, served and resolved to a URL, for commands that hand the URL to a
tool of their own (design extract, lighthouse) instead of the sensor.

    with served_view(root, args) as view:      # starts [web_server] unless --base-url
        run_tool(view.url, view.viewport)       # view.out_dir: the view's .argus-runs entry
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from argus.cli._args import feature_spec
from argus.config import load_config
from argus.errors import InputError
from argus.spec import View
from argus.spec.model import Viewport

RUNS_DIR = ".argus-runs"


@dataclass(frozen=True)
class ServedView:
    url: str
    viewport: Viewport
    color_scheme: str | None
    out_dir: Path  # argus/specs/FEATURE/.argus-runs/SLUG: the view's entry


@contextmanager
def served_view(root: Path, args: argparse.Namespace) -> Iterator[ServedView]:
    from argus.sense.server import web_server
    from argus.sense.views import plan_view

    config = load_config(root)
    spec = feature_spec(config.root, args.feature)
    target = spec.target(args.target)
    state = args.state or target.states[0]
    appearance = args.appearance or target.appearances[0]
    view = View(spec.feature, target.id, state, appearance)
    plan = plan_view(spec, view, config, base_url=args.base_url)
    if plan.url is None:
        raise InputError(
            f"{spec.path}: target '{target.id}' is not a web view (adapter views have no URL)"
        )
    serving = nullcontext() if args.base_url else web_server(config, config.root, spec)
    with serving:
        yield ServedView(
            plan.url, plan.viewport, plan.color_scheme, spec.spec_dir / RUNS_DIR / view.slug
        )
