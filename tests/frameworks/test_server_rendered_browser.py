"""The server-rendered example (examples/frameworks/server-rendered: Flask templates with
HTMX) signs off, and the sensor waits for HTMX's swap, not for a quiet network alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.frameworks import (
    VIEW,
    copy_framework_example,
    require,
    sensed,
    server_env,
    signs_off_with_a_held_control,
)

pytestmark = pytest.mark.browser
require("flask", "Flask")

NAME = "server-rendered"


def test_the_example_signs_off(tmp_path: Path, run_argus: Any) -> None:
    signs_off_with_a_held_control(run_argus, tmp_path, NAME, "request")


def test_an_htmx_swap_still_under_way_is_waited_for(tmp_path: Path, run_argus: Any) -> None:
    # The key figures' response is in, but HTMX holds the swap (class htmx-swapping) before
    # the figures replace the empty row: the network is quiet and the page still, so only
    # HTMX's classes say it is not done. Without the settle rule the figures are missing.
    root = copy_framework_example(NAME, tmp_path)
    page = root / "templates/index.html"
    text = page.read_text()
    assert text.count('hx-trigger="load">') == 1
    page.write_text(
        text.replace('hx-trigger="load">', 'hx-trigger="load" hx-swap="innerHTML swap:1500ms">')
    )
    # Only the capture's elements are read: the dead-control probe is left out (its copies
    # would wait out the held swap too); the sign-off above reads what it finds.
    with (root / "argus.toml").open("a") as config:
        config.write("\n[sense]\nmax_controls = 0\n")
    result = run_argus("sense", "--feature", "shop", "--all", cwd=root, env=server_env())
    assert result.returncode == 0, result.stdout + result.stderr
    texts = {element.get("text", "") for element in sensed(root, VIEW)["elements"]}
    assert {"Revenue", "Orders", "Average order"} <= texts
