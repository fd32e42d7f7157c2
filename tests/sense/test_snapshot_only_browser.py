"""`argus sense --snapshot-only`: the named faster path collects the render and says so in
meta.json; without the flag the same view gets every kind of evidence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.cli import main
from tests.sense.test_web_sensor import make_web_repo
from tests.support.fixtures import static_server

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>p</title></head><body>
<h1>Title</h1><button type="button" data-testid="go">Go</button></body></html>"""
PROBED_ONLY = ("probe.json", "focus.json", "controls.json")


def _sense(root: Path, base_url: str, out: Path, *flags: str) -> dict[str, object]:
    view = ["--feature", "demo", "--target", "page", "--state", "default", "--appearance", "light"]
    code = main(
        ["sense", *view, "--root", str(root), "--base-url", base_url, "--out", str(out), *flags]
    )
    assert code == 0
    meta: dict[str, object] = json.loads((out / "meta.json").read_text())
    return meta


def test_snapshot_only_writes_the_render_and_says_it_collected_less(tmp_path: Path) -> None:
    root = make_web_repo(tmp_path, {"page.html": PAGE}, {"page": "/page.html"})
    with static_server(root) as base_url:
        fast = _sense(root, base_url, tmp_path / "fast", "--snapshot-only")
        full = _sense(root, base_url, tmp_path / "full")
    assert (fast["probed"], fast["evidence"]) == (False, "snapshot-only")
    assert (tmp_path / "fast" / "render.png").is_file()
    assert not any((tmp_path / "fast" / name).exists() for name in PROBED_ONLY)
    # The default path: the full evidence, and no claim of a narrower one.
    assert full["probed"] is True and "evidence" not in full
    assert all((tmp_path / "full" / name).is_file() for name in PROBED_ONLY)
    assert (tmp_path / "fast" / "render.png").read_bytes() == (
        tmp_path / "full" / "render.png"
    ).read_bytes()
