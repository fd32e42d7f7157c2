"""The Textual adapter (argus.adapters.textual) on examples/textual: the adapter contract
proven on a toolkit nobody here wrote. Sensing is deterministic, the gates fail a low-contrast
theme and a widget without its id, and the example signs off (sense, gates, metric judge,
twice) in a headless loop."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from argus.adapters.textual import main as adapter_main
from argus.adapters.textual._raster import ScreenshotError, grid_of
from argus.loop.records.signoff import load_records
from tests.conftest import REPO_ROOT, RunArgus

EXAMPLE = REPO_ROOT / "examples/textual"
RUNS = "argus/specs/shopping/.argus-runs"
VIEW = ("--feature", "shopping", "--target", "list")


def _rasteriser_missing() -> str:
    for module in ("textual", "cairosvg"):
        if importlib.util.find_spec(module) is None:
            return f"{module!r} cannot be imported: install the 'textual' extra (make test does)"
    try:
        import cairosvg  # noqa: F401  (loads libcairo)
    except OSError as exc:
        return f"libcairo cannot be loaded ({exc}): apt-get install libcairo2 (make cairo does)"
    return ""


if _rasteriser_missing():
    pytest.skip(_rasteriser_missing(), allow_module_level=True)


@pytest.fixture
def example(tmp_path: Path) -> Path:
    root = tmp_path / "textual"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".argus-runs", "__snapshots__"))
    return root


def _sense(run_argus: RunArgus, root: Path, state: str, appearance: str) -> Path:
    result = run_argus("sense", *VIEW, "--state", state, "--appearance", appearance, cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    return root / RUNS / f"list-{state}-{appearance}"


def _gates(run_argus: RunArgus, root: Path, state: str, appearance: str) -> dict[str, Any]:
    run_argus("gates", *VIEW, "--state", state, "--appearance", appearance, cwd=root)
    path = root / RUNS / f"list-{state}-{appearance}/gate-result.json"
    result: dict[str, Any] = json.loads(path.read_text())
    return dict(result["details"])


def test_two_senses_are_byte_identical_and_match_the_reference(
    example: Path, run_argus: RunArgus, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _sense(run_argus, example, "populated", "dark")
    first = {name: (out / name).read_bytes() for name in ("render.png", "probe.json", "focus.json")}
    # The shell's Textual settings do not reach the render: no monochrome, no animation.
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "full")
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "standard")
    _sense(run_argus, example, "populated", "dark")
    for name, data in first.items():
        assert (out / name).read_bytes() == data, name
    reference = example / "argus/specs/shopping/references/list-populated-dark.png"
    assert first["render.png"] == reference.read_bytes()


def test_the_probe_is_the_widget_tree_in_pixels(example: Path, run_argus: RunArgus) -> None:
    out = _sense(run_argus, example, "populated", "light")
    probe = json.loads((out / "probe.json").read_text())
    assert probe["terminal"] == {"columns": 80, "rows": 16, "cell": [12, 24]}
    elements = {e["id"]: e for e in probe["elements"] if e["id"]}
    title, add = elements["list-title"], elements["list-add"]
    # Screen padding 1 2: the title at cell (2, 1), 12 x 24 px a cell.
    assert title["box"] == {"x": 24, "y": 24, "width": 156, "height": 24}
    assert (title["role"], title["heading_level"], title["name"]) == ("heading", 1, "Shopping list")
    assert title["style"]["font-weight"] == "700"
    assert (add["role"], add["name"], add["interactive"]) == ("button", "Add item", True)
    assert add["style"]["background-color"] == "rgb(29, 77, 216)"  # the theme's primary
    assert [e["id"] for e in probe["elements"] if e["role"] == "option"] == [
        "row-item-milk",
        "row-item-bread",
        "row-item-apples",
    ]
    assert [stop["id"] for stop in probe["focus_order"]] == ["list-items", "list-add"]
    stops = json.loads((out / "focus.json").read_text())["stops"]
    assert all(stop["changed_pixels"] > 0 for stop in stops)


def test_the_empty_state_comes_from_its_fixture(example: Path, run_argus: RunArgus) -> None:
    probe = json.loads((_sense(run_argus, example, "empty", "light") / "probe.json").read_text())
    ids = [e["id"] for e in probe["elements"]]
    assert "list-empty" in ids and not any(i.startswith("row-item-") for i in ids)
    assert [stop["id"] for stop in probe["focus_order"]] == ["list-add"]


def test_a_low_contrast_theme_fails_the_contrast_gate(example: Path, run_argus: RunArgus) -> None:
    app = example / "app.py"
    # The dark theme's text a grey on its navy surface: 1.9:1.
    app.write_text(app.read_text().replace('foreground="#f1f5f9"', 'foreground="#475569"'))
    _sense(run_argus, example, "populated", "dark")
    gates = _gates(run_argus, example, "populated", "dark")
    assert gates["rendered_contrast"]["status"] == "fail", gates["rendered_contrast"]
    assert any(f["element"] == "#list-title" for f in gates["rendered_contrast"]["findings"])
    assert gates["token_compliance"]["status"] == "fail"  # the grey is no token either


def test_a_widget_without_its_id_fails_the_a11y_ids_gate(
    example: Path, run_argus: RunArgus
) -> None:
    app = example / "app.py"
    app.write_text(
        app.read_text().replace('Button("Add item", id="list-add")', 'Button("Add item")')
    )
    _sense(run_argus, example, "populated", "light")
    gates = _gates(run_argus, example, "populated", "light")
    assert gates["a11y_ids"]["status"] == "fail"
    assert gates["a11y_ids"]["data"]["missing"] == ["list-add"]


def test_a_focus_style_removed_fails_the_focus_visible_gate(
    example: Path, run_argus: RunArgus
) -> None:
    css = example / "app.tcss"
    shown = "Button:focus {\n    text-style: bold reverse;\n}"
    hidden = "Button:focus {\n    text-style: none;\n    background-tint: $foreground 0%;\n}"
    assert shown in css.read_text()
    css.write_text(css.read_text().replace(shown, hidden))
    _sense(run_argus, example, "populated", "light")
    gates = _gates(run_argus, example, "populated", "light")
    assert gates["focus_visible"]["status"] == "fail"
    assert [f["element"] for f in gates["focus_visible"]["findings"]] == ["#list-add"]


def test_the_example_signs_off_in_a_headless_loop(example: Path, run_argus: RunArgus) -> None:
    result = run_argus("loop", "--feature", "shopping", "--mode", "headless", cwd=example)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "status: DONE (exit 0)" in result.stdout
    records = load_records(example / RUNS / "signoff.json")
    views = sorted((r["state"], r["appearance"]) for r in records)
    assert views == [
        ("empty", "dark"),
        ("empty", "light"),
        ("populated", "dark"),
        ("populated", "light"),
    ]
    for record in records:
        assert not record.get("concerns"), record.get("concerns")
        dimensions = record["final_verdict"]["dimensions"]
        assert {k: v["score"] for k, v in dimensions.items()} == dict.fromkeys(dimensions, 1)
        axe = dimensions["accessibility"]["measurements"]["axe"]
        assert axe == {"applies": False, "adapter": "textual"}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--size", "80by24"], "--size '80by24': expected COLUMNSxROWS"),
        (["--appearance", "sepia"], "--appearance 'sepia' has no theme"),
        (["--app", "missing.py:App"], "missing.py does not exist"),
        (["--theme", "dark"], "expected APPEARANCE=THEME"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    args = {
        "--app": str(EXAMPLE / "app.py") + ":ShoppingList",
        "--route": "app://shopping/list",
        "--state": "populated",
        "--appearance": "light",
        "--fixture": "populated",
        "--out": str(tmp_path),
    }
    args.update(dict(zip(extra[::2], extra[1::2], strict=True)))
    code = adapter_main([part for pair in args.items() for part in pair])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not list(tmp_path.iterdir())


def test_wide_characters_keep_their_cells() -> None:
    from textual.geometry import Region  # after the module's skip: textual may be missing

    from argus.adapters.textual._probe import screen_cells, shown_text

    rows = screen_cells(["ab漢字 c", "  x  "])
    assert rows[0] == ["a", "b", "漢", "", "字", "", " ", "c"]
    text, rects = shown_text(rows, Region(2, 0, 4, 1))
    assert text == "漢字"  # cells 2-5: both wide characters, whole
    assert rects == [{"x": 24, "y": 0, "width": 48, "height": 24}]
    assert shown_text(rows, Region(0, 1, 5, 1)) == (
        "x",
        [{"x": 24, "y": 24, "width": 12, "height": 24}],
    )


def test_a_screenshot_of_another_shape_is_refused() -> None:
    with pytest.raises(ScreenshotError, match="no terminal group"):
        grid_of('<svg viewBox="0 0 10 10"><rect/></svg>')
