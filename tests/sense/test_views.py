"""Resolving a view: URL template, base URL, fixture, viewport precedence, bad views."""

from __future__ import annotations

from pathlib import Path

import pytest

from argus.config import ProjectConfig, ViewportConfig
from argus.errors import ConfigError, InputError
from argus.sense.views import build_url, plan_view
from argus.spec import View, load_spec
from tests.support.habits import HABITS_SPEC, copy_habits

FIELDS = {
    "route": "/",
    "fixture": "populated",
    "appearance": "dark",
    "state": "populated",
    "target": "list",
    "feature": "habits",
}


def _config(**kwargs: object) -> ProjectConfig:
    return ProjectConfig.model_validate({"base_url": "http://127.0.0.1:9000", **kwargs})


@pytest.mark.parametrize(
    ("template", "route", "expected"),
    [
        (None, "/", "http://127.0.0.1:9000/?argus_fixture=populated&argus_appearance=dark"),
        (None, "/app/list", "http://127.0.0.1:9000/app/list?argus_fixture=populated&argus_appearance=dark"),
        (None, "list", "http://127.0.0.1:9000/list?argus_fixture=populated&argus_appearance=dark"),
        (None, "/?lang=en", "http://127.0.0.1:9000/?lang=en&argus_fixture=populated&argus_appearance=dark"),
        (None, "http://other:1/x", "http://other:1/x?argus_fixture=populated&argus_appearance=dark"),
        ("{route}#/{target}/{state}?theme={appearance}", "/", "http://127.0.0.1:9000/#/list/populated?theme=dark"),
        ("/{feature}{route}", "/", "http://127.0.0.1:9000/habits/"),
    ],
)  # fmt: skip
def test_url_template(template: str | None, route: str, expected: str) -> None:
    config = _config(**({"url_template": template} if template else {}))
    assert build_url(config, {**FIELDS, "route": route}) == expected


def test_fixture_values_are_url_encoded() -> None:
    url = build_url(_config(), {**FIELDS, "fixture": "a b&c"})
    assert "argus_fixture=a%20b%26c" in url


def test_base_url_override_wins() -> None:
    assert build_url(_config(), FIELDS, "http://127.0.0.1:1234/").startswith(
        "http://127.0.0.1:1234/?"
    )


def test_unknown_placeholder_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"url_template: unknown placeholder \{fixtur\}"):
        build_url(_config(url_template="{route}?f={fixtur}"), FIELDS)


def test_relative_route_without_base_url_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="base_url is not set"):
        build_url(ProjectConfig(), FIELDS)


@pytest.fixture
def spec_root(tmp_path: Path) -> Path:
    return copy_habits(tmp_path)


def test_plan_uses_fixture_map_and_spec_viewport(spec_root: Path) -> None:
    spec = load_spec(spec_root / HABITS_SPEC)
    plan = plan_view(spec, View("habits", "list", "empty", "dark"), _config())
    assert plan.fixture == "empty"
    assert (plan.viewport.width, plan.viewport.height) == (1280, 800)
    assert plan.color_scheme == "dark"
    assert plan.url == "http://127.0.0.1:9000/?argus_fixture=empty&argus_appearance=dark"


def test_viewport_precedence_target_then_spec_then_config(spec_root: Path) -> None:
    import json

    path = spec_root / HABITS_SPEC
    data = json.loads(path.read_text())
    config = _config(viewport=ViewportConfig(width=800, height=600))
    view = View("habits", "list", "populated", "light")
    data["targets"][0]["viewport"] = {"width": 390, "height": 844}
    path.write_text(json.dumps(data))
    assert plan_view(load_spec(path), view, config).viewport.width == 390
    del data["targets"][0]["viewport"]
    path.write_text(json.dumps(data))
    assert plan_view(load_spec(path), view, config).viewport.width == 1280  # the spec's
    del data["viewport"]
    path.write_text(json.dumps(data))
    assert plan_view(load_spec(path), view, config).viewport.width == 800  # the config's


@pytest.mark.parametrize(
    ("view", "message"),
    [
        (View("habits", "grid", "populated", "light"), "no target 'grid'"),
        (View("habits", "list", "loading", "light"), "no state 'loading'"),
        (View("habits", "list", "empty", "sepia"), "no appearance 'sepia'"),
    ],
)
def test_unknown_view_parts_are_input_errors(spec_root: Path, view: View, message: str) -> None:
    spec = load_spec(spec_root / HABITS_SPEC)
    with pytest.raises(InputError, match=message):
        plan_view(spec, view, _config())


def test_other_appearances_are_not_emulated(spec_root: Path) -> None:
    import json

    path = spec_root / HABITS_SPEC
    data = json.loads(path.read_text())
    data["targets"][0]["appearances"] = ["light", "high-contrast"]
    path.write_text(json.dumps(data))
    plan = plan_view(load_spec(path), View("habits", "list", "empty", "high-contrast"), _config())
    assert plan.color_scheme is None


def test_the_probe_is_asked_the_targets_masks_then_the_frameworks_preset(spec_root: Path) -> None:
    import json

    from argus.frameworks import get_framework

    path = spec_root / HABITS_SPEC
    data = json.loads(path.read_text())
    preset = get_framework("dash").masks
    data["targets"][0]["snapshot"] = {"masks": [".clock", preset[0]]}
    path.write_text(json.dumps(data))
    view = View("habits", "list", "populated", "light")
    plan = plan_view(load_spec(path), view, _config(framework="dash"))
    # Each selector once, the target's first: the probe records what the comparison paints.
    assert plan.masks == (".clock", *preset)
    assert plan_view(load_spec(path), view, _config()).masks == (".clock", preset[0])
