"""States reached by interaction: a spec state's steps run on the real page before capture."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from argus.sense import Sensor
from argus.spec import View, load_spec
from tests.conftest import RunArgus
from tests.support.fixtures import static_server
from tests.support.habits import HABITS_SPEC, copy_habits

pytestmark = pytest.mark.browser

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>steps</title>
<style>
  body { margin: 0; font-family: "DejaVu Sans"; } dialog { width: 300px; }
  #out { color: rgb(0, 0, 0); }
  @media (prefers-color-scheme: dark) { #out { color: rgb(1, 2, 3); } }
</style>
</head><body>
  <main>
    <h1>Steps</h1>
    <button type="button" id="open">Add habit</button>
    <label>Cadence <select data-testid="cadence">
      <option value="daily">Daily</option><option value="weekly">Weekly</option>
    </select></label>
    <label><input type="checkbox" data-testid="remind"> Remind me</label>
    <p id="out" data-testid="out">closed</p>
  </main>
  <dialog id="dlg" aria-label="New habit">
    <label for="name">Habit name</label><input id="name" data-testid="name">
    <button type="button" data-testid="save">Save</button>
  </dialog>
  <script>
    const dlg = document.getElementById("dlg");
    document.getElementById("open").addEventListener("click", () => {
      dlg.showModal();
      document.getElementById("name").focus();
    });
    document.querySelector("[data-testid=save]").addEventListener("click", () => {
      const n = document.getElementById("name").value;
      const c = document.querySelector("[data-testid=cadence]").value;
      const r = document.querySelector("[data-testid=remind]").checked;
      document.getElementById("out").textContent = `saved ${n} ${c} ${r}`;
      dlg.close();
    });
  </script>
</body></html>
"""

STATES: dict[str, list[dict[str, Any]]] = {
    "dialog": [
        {"action": "click", "locator": {"role": "button", "name": "Add habit"}},
        {"action": "wait_for", "locator": {"role": "dialog", "name": "New habit"}},
        {"action": "fill", "locator": {"testid": "name"}, "value": "Stretch"},
    ],
    "saved": [
        {"action": "select", "locator": {"testid": "cadence"}, "value": "weekly"},
        {"action": "check", "locator": {"text": "Remind me"}},
        {"action": "click", "locator": {"css": "#open"}},
        {"action": "fill", "locator": {"role": "textbox", "name": "Habit name"}, "value": "Run"},
        {"action": "press", "key": "Tab"},
        {"action": "press", "key": "Enter"},
        {"action": "wait_for_text", "text": "saved Run weekly true"},
    ],
    "narrow": [
        {"action": "set_viewport", "width": 400, "height": 300},
        {"action": "emulate", "color_scheme": "dark"},
    ],
    "missing": [
        {"action": "click", "locator": {"role": "button", "name": "Add habit"}},
        {"action": "click", "locator": {"role": "button", "name": "Delete"}, "timeout_s": 0.5},
    ],
    "ambiguous": [{"action": "hover", "locator": {"css": "button"}, "timeout_s": 0.5}],
    "plain": [{"action": "scroll_into_view", "locator": {"testid": "out"}}],
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("steps")
    spec_dir = root / "argus" / "specs" / "demo"
    spec_dir.mkdir(parents=True)
    (root / "argus.toml").write_text("")
    (root / "page.html").write_text(PAGE)
    (spec_dir / "tokens.json").write_text(json.dumps({"colors": {"ink": "#111114"}}))
    spec = {
        "feature": "demo",
        "adapter": "web",
        "design_system": {"tokens": "argus/specs/demo/tokens.json"},
        "viewport": {"width": 640, "height": 480},
        "targets": [
            {
                "id": "page",
                "route": "/page.html",
                "states": [*STATES, "loaded"],
                "steps": STATES,
                "gates": ["console"],
            }
        ],
    }
    (spec_dir / "spec.json").write_text(json.dumps(spec))
    return root


def sense(repo: Path, sensor: Sensor, state: str, out: Path) -> tuple[Any, dict[str, Any]]:
    spec = load_spec(repo / "argus/specs/demo/spec.json")
    with static_server(repo) as base_url:
        result = sensor.sense(spec, View("demo", "page", state, "light"), out, base_url=base_url)
    probe = json.loads((out / "probe.json").read_text()) if result.ok else {}
    return result, probe


def by_testid(probe: dict[str, Any], testid: str) -> dict[str, Any]:
    return next(e for e in probe["elements"] if e["testid"] == testid)


def test_steps_open_a_dialog_before_the_capture(
    repo: Path, gates_sensor: Sensor, tmp_path: Path
) -> None:
    result, probe = sense(repo, gates_sensor, "dialog", tmp_path / "dialog")
    assert result.ok, result.error
    assert by_testid(probe, "name")["visible"] is True
    assert 'dialog "New habit"' in probe["aria_snapshot"]
    assert "steps" in result.timings_ms
    loaded, plain = sense(repo, gates_sensor, "loaded", tmp_path / "loaded")
    assert loaded.ok, loaded.error
    assert by_testid(plain, "name")["visible"] is False
    assert "steps" not in loaded.timings_ms
    assert (tmp_path / "dialog/render.png").read_bytes() != (
        tmp_path / "loaded/render.png"
    ).read_bytes()


def test_select_check_fill_and_keys_reach_the_state(
    repo: Path, gates_sensor: Sensor, tmp_path: Path
) -> None:
    result, probe = sense(repo, gates_sensor, "saved", tmp_path / "saved")
    assert result.ok, result.error
    assert by_testid(probe, "out")["text"] == "saved Run weekly true"


def test_viewport_and_media_steps_apply_to_the_capture_and_not_the_next_view(
    repo: Path, gates_sensor: Sensor, tmp_path: Path
) -> None:
    result, probe = sense(repo, gates_sensor, "narrow", tmp_path / "narrow")
    assert result.ok, result.error
    assert Image.open(tmp_path / "narrow/render.png").size == (400, 300)
    assert by_testid(probe, "out")["style"]["color"] == "rgb(1, 2, 3)"
    loaded, plain = sense(repo, gates_sensor, "loaded", tmp_path / "after")
    assert loaded.ok, loaded.error
    assert Image.open(tmp_path / "after/render.png").size == (640, 480)
    assert by_testid(plain, "out")["style"]["color"] == "rgb(0, 0, 0)"


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        ("missing", "page-missing-light: step 2 (click button 'Delete') timed out after 0.5s"),
        ("ambiguous", "page-ambiguous-light: step 1 (hover css 'button') failed: "),
    ],
)
def test_a_failing_step_is_a_sensing_error_naming_the_step(
    repo: Path, gates_sensor: Sensor, tmp_path: Path, state: str, expected: str
) -> None:
    result, _ = sense(repo, gates_sensor, state, tmp_path / state)
    assert not result.ok
    assert result.error is not None and result.error.startswith(expected), result.error
    assert "\n" not in result.error
    assert not (tmp_path / state / "render.png").exists()


def test_a_scroll_step_keeps_the_page_sensable(
    repo: Path, gates_sensor: Sensor, tmp_path: Path
) -> None:
    result, probe = sense(repo, gates_sensor, "plain", tmp_path / "plain")
    assert result.ok, result.error
    assert by_testid(probe, "out")["text"] == "closed"


def test_the_example_s_add_form_is_reached_by_a_click_and_holds_the_focus(
    gates_sensor: Sensor, serve: Callable[[Path], str], tmp_path: Path
) -> None:
    root = copy_habits(tmp_path)
    spec = load_spec(root / HABITS_SPEC)
    out = tmp_path / "add"
    result = gates_sensor.sense(
        spec, View("habits", "add", "open", "light"), out, base_url=serve(root)
    )
    assert result.ok, result.error
    probe = json.loads((out / "probe.json").read_text())
    assert by_testid(probe, "habits.form")["visible"] is True
    assert [e["testid"] for e in probe["elements"] if e.get("focused")] == ["habits.form.name"]
    # The spec's focus_order is walked after the capture: the field, then Tab to Save.
    assert [e["testid"] for e in probe["focus_order"]] == ["habits.form.name", "habits.form.save"]
    assert "focus_order" in result.timings_ms
    assert 'button "Add habit" [expanded]' in probe["aria_snapshot"]


def test_argus_sense_says_which_step_failed_in_one_line(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root = copy_habits(tmp_path)
    spec_path = root / HABITS_SPEC
    data = json.loads(spec_path.read_text())
    data["targets"][1]["steps"]["open"][0]["locator"]["name"] = "Add a habit"
    data["targets"][1]["steps"]["open"][0]["timeout_s"] = 0.5
    spec_path.write_text(json.dumps(data))
    view = ("--target", "add", "--state", "open", "--appearance", "light")
    done = run_argus("sense", "--feature", "habits", *view, cwd=root)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        "argus: add-open-light: step 1 (click button 'Add a habit') timed out after 0.5s: "
    )
