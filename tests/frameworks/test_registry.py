"""The framework registry: every framework's record, names, and unknown names refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.frameworks import KNOWN, framework_names, get_framework


def test_the_five_frameworks_and_server_rendered_apps_are_known() -> None:
    assert framework_names() == (
        "streamlit",
        "dash",
        "gradio",
        "nicegui",
        "panel",
        "server-rendered",
    )


def test_a_name_is_found_whatever_its_case_and_spaces() -> None:
    assert get_framework(" Streamlit ").name == "streamlit"


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(InputError) as caught:
        get_framework("django-rest")
    message = str(caught.value)
    assert "'django-rest'" in message and "\n" not in message
    for name in framework_names():
        assert name in message


@pytest.mark.parametrize("framework", KNOWN, ids=lambda f: f.name)
def test_each_record_is_usable(framework: object) -> None:
    from argus.frameworks import Framework

    assert isinstance(framework, Framework)
    command = framework.server.command_for(9123)
    assert "9123" in command and "{" not in command
    assert framework.server.health_path.startswith("/")
    assert framework.settle.ready.lstrip().startswith("() =>") and framework.settle.markers
    assert framework.fixture_input
    # A preset mask is a CSS selector the sensor resolves in the page, short enough for
    # probe.json to key its boxes by (tests/sense/test_css_masks_browser.py parses them all).
    assert all(mask.strip() and len(mask) <= 256 for mask in framework.masks)


def test_only_server_rendered_apps_are_reused() -> None:
    # Every other framework serves one page shell for every app: nothing to prove it is yours.
    reused = {f.name for f in KNOWN if f.server.reuse_existing}
    assert reused == {"server-rendered"}


def test_websocket_frameworks_wait_for_their_socket() -> None:
    by_socket = {f.name for f in KNOWN if f.settle.websocket}
    assert by_socket == {"streamlit", "nicegui", "panel"}


def _installed(module: str, *parts: str) -> str:
    """The text of a file shipped inside the installed package ``module`` (skipped when it is
    not installed)."""
    import importlib.util

    found = importlib.util.find_spec(module)
    if found is None or found.origin is None:
        pytest.skip(f"{module} is not installed")
    return Path(found.origin).parent.joinpath(*parts).read_text(encoding="utf-8")


def test_the_dash_preset_names_the_dev_tools_by_the_installed_renderers_classes() -> None:
    # dash-renderer gives its dev-tools menu classes only (DebugMenu): the preset masks the
    # bar and the popup above it by those, and a renamed class would leave the menu unmasked.
    renderer = _installed("dash", "dash-renderer", "build", "dash_renderer.dev.js")
    preset = get_framework("dash").masks
    for selector in (".dash-debug-menu__outer", ".dash-debug-menu__popup"):
        assert selector in preset
        assert f"'{selector[1:]}'" in renderer or f'"{selector[1:]}"' in renderer
    # The bar is fixed to the page's corner and the popup sits above it, outside its box:
    # masking the bar alone would leave an open popup in the snapshot.
    assert re.search(r"\.dash-debug-menu__outer \{[^}]*position: fixed", renderer)
    assert re.search(
        r"\.dash-debug-menu__popup \{[^}]*position: absolute;[^}]*bottom: 100%", renderer
    )


def test_the_panel_preset_masks_the_templates_busy_indicator() -> None:
    template = _installed("panel", "template", "vanilla", "vanilla.html")
    assert '<div class="pn-busy-container">' in template
    assert get_framework("panel").masks == (".pn-busy-container",)
