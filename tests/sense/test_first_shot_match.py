"""The capture stops at a first screenshot equal to the view's baseline or its previous
settled render (as Playwright's toHaveScreenshot stops at a first match); without a match, or
with nothing to compare with, two identical shots in a row are still required."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image
from PIL.PngImagePlugin import PngInfo

from argus.diff.png import decode_png, encode_png
from argus.sense import Sensor
from argus.sense._shots import plain_png
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo

pytestmark = pytest.mark.browser

PAGE = "<!doctype html><html><body><h1 style='color:#123'>Still</h1></body></html>"
VIEW = View("demo", "still", "default", "light")


def _meta(out: Path) -> dict[str, object]:
    meta: dict[str, object] = json.loads((out / "meta.json").read_text())
    return meta


def test_a_render_equal_to_the_last_settled_one_takes_one_shot(
    tmp_path: Path, gates_sensor: Sensor, serve: Callable[[Path], str]
) -> None:
    repo = make_web_repo(tmp_path, {"still.html": PAGE}, {"still": "/still.html"})
    spec = load_spec(repo / "argus/specs/demo/spec.json")
    out = tmp_path / "out"
    base = serve(repo)
    first = gates_sensor.sense(spec, VIEW, out, base_url=base)
    assert first.ok and first.attempts == 2  # nothing to compare with: two shots
    before = (out / "render.png").read_bytes()
    again = gates_sensor.sense(spec, VIEW, out, base_url=base)
    assert again.ok and again.attempts == 1 and again.settled is True
    assert (out / "render.png").read_bytes() == before
    assert _meta(out)["attempts"] == 1

    # A previous render not taken at rest is no proof: back to two shots.
    meta = _meta(out)
    (out / "meta.json").write_text(json.dumps({**meta, "settled": False}))
    assert gates_sensor.sense(spec, VIEW, out, base_url=base).attempts == 2


def test_a_baseline_that_differs_does_not_end_the_capture(
    tmp_path: Path, gates_sensor: Sensor, serve: Callable[[Path], str]
) -> None:
    repo = make_web_repo(tmp_path, {"still.html": PAGE}, {"still": "/still.html"})
    spec = load_spec(repo / "argus/specs/demo/spec.json")
    baseline = repo / "argus/specs/demo/__snapshots__/still-default-light.png"
    baseline.parent.mkdir()
    Image.new("RGB", (800, 600), (255, 255, 255)).save(baseline)
    result = gates_sensor.sense(spec, VIEW, tmp_path / "a", base_url=serve(repo))
    assert result.ok and result.attempts == 2
    # The render itself as the baseline: its first shot matches.
    baseline.write_bytes((tmp_path / "a/render.png").read_bytes())
    result = gates_sensor.sense(spec, VIEW, tmp_path / "b", base_url=serve(repo))
    assert result.ok and result.attempts == 1


def test_a_baseline_from_another_encoder_with_the_same_pixels_ends_the_capture(
    tmp_path: Path, gates_sensor: Sensor, serve: Callable[[Path], str]
) -> None:
    """The shots are Chromium's fast encoding (argus.sense._shots); a baseline written by
    Playwright's screenshot or an older Argus has other bytes for the same pixels. It still
    ends the capture, and the render keeps the baseline's bytes, so the snapshot gate's
    byte-identical shortcut holds. A baseline carrying more than pixels (a text chunk) ends it
    too, but the render keeps the shot's own bytes."""
    repo = make_web_repo(tmp_path, {"still.html": PAGE}, {"still": "/still.html"})
    spec = load_spec(repo / "argus/specs/demo/spec.json")
    base = serve(repo)
    first = gates_sensor.sense(spec, VIEW, tmp_path / "a", base_url=base)
    assert first.ok and first.attempts == 2
    shot = (tmp_path / "a/render.png").read_bytes()
    baseline = repo / "argus/specs/demo/__snapshots__/still-default-light.png"
    baseline.parent.mkdir()
    other = encode_png(decode_png(shot), compress_level=9)
    assert other != shot and plain_png(other)
    baseline.write_bytes(other)
    again = gates_sensor.sense(spec, VIEW, tmp_path / "b", base_url=base)
    assert again.ok and again.attempts == 1 and again.settled is True
    assert (tmp_path / "b/render.png").read_bytes() == other

    noted = io.BytesIO()
    text = PngInfo()
    text.add_text("Comment", "not a pixel")
    Image.open(io.BytesIO(other)).save(noted, format="PNG", pnginfo=text)
    assert not plain_png(noted.getvalue())
    baseline.write_bytes(noted.getvalue())
    third = gates_sensor.sense(spec, VIEW, tmp_path / "c", base_url=base)
    assert third.ok and third.attempts == 1
    assert (tmp_path / "c/render.png").read_bytes() == shot
