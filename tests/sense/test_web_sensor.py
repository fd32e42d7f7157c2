"""The built-in web sensor against real pages in a real Chromium."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from argus.config import ProjectConfig
from argus.diff.png import decode_png
from argus.sense import TRUNCATION_MARKER, Sensor
from argus.sense.controls_choice import GATES, LOOP
from argus.sense.probe import STYLE_PROPERTIES
from argus.spec import Spec, View, load_spec
from tests.conftest import RunArgus
from tests.support.fixtures import static_server
from tests.support.habits import HABITS_SPEC, copy_habits, free_port

pytestmark = pytest.mark.browser
Serve = Callable[[Path], str]

LONG = "Lorem ipsum dolor sit amet " * 20  # 540 characters

PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>probe</title>
<style>
  body {{ margin: 0; font-family: "DejaVu Sans"; color: rgb(17, 17, 20); }}
  .pad {{ padding: 8px 16px; margin: 4px; border: 2px solid rgb(200, 0, 0); border-radius: 6px; }}
  .gone {{ display: none; }}
  @keyframes spin {{ from {{ transform: rotate(0deg); }} to {{ transform: rotate(360deg); }} }}
  .spin {{ animation: spin 1s linear infinite; width: 20px; height: 20px; background: red; }}
</style></head>
<body>
  <header><h1 id="title">Title</h1></header>
  <main data-testid="main">
    <h2 aria-level="4" role="heading">Fake heading</h2>
    <button class="pad" data-testid="save">Save <span aria-hidden="true">★</span></button>
    <button data-testid="icon" aria-label="Close dialog">×</button>
    <button data-testid="labelled" aria-labelledby="title">x</button>
    <button data-testid="unlabeled"></button>
    <label for="email">Email address</label><input id="email" data-testid="email">
    <a href="#more" title="More info">More</a>
    <img alt="A cat" width="10" height="10" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
    <p data-testid="long">{LONG}</p>
    <p class="gone" data-testid="hidden">hidden text</p>
    <ul><li>one</li><li>two</li></ul>
    <div class="spin"></div>
    <input data-testid="focused" autofocus>
  </main>
  <script>
    console.log("hello from the page");
    console.warn("careful");
    console.error("{LONG}");
    setTimeout(() => {{ throw new Error("boom in a timer"); }}, 0);
  </script>
</body></html>
"""

FLICKER = """<!doctype html><html><body><p id="n">0</p>
<script>
  let i = 0;
  setInterval(() => { document.getElementById("n").textContent = ++i; }, 5);
</script>
</body></html>"""


def make_web_repo(tmp_path: Path, pages: dict[str, str], routes: dict[str, str]) -> Path:
    """A repository with one spec whose targets (id -> route) are served from ``pages``."""
    root = tmp_path / "web"
    spec_dir = root / "argus" / "specs" / "demo"
    spec_dir.mkdir(parents=True)
    (root / "argus.toml").write_text("")
    for name, html in pages.items():
        (root / name).write_text(html)
    (spec_dir / "tokens.json").write_text(json.dumps({"colors": {"ink": "#111114"}}))
    targets = [
        {"id": tid, "route": route, "states": ["default"], "appearances": ["light", "dark"]}
        for tid, route in routes.items()
    ]
    spec = {
        "feature": "demo",
        "adapter": "web",
        "design_system": {"tokens": "argus/specs/demo/tokens.json"},
        "viewport": {"width": 800, "height": 600},
        "targets": targets,
    }
    (spec_dir / "spec.json").write_text(json.dumps(spec))
    return root


@pytest.fixture(scope="module")
def probe_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("probe")
    return make_web_repo(
        tmp,
        {"page.html": PAGE, "flicker.html": FLICKER},
        {"page": "/page.html", "flicker": "/flicker.html", "missing": "/nope.html"},
    )


@pytest.fixture(scope="module")
def sensed(
    probe_page: Path, gates_sensor: Sensor, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The probe page sensed once (dark) for every test that only reads its files."""
    spec = load_spec(probe_page / "argus/specs/demo/spec.json")
    out = tmp_path_factory.mktemp("sensed")
    with static_server(probe_page) as base_url:
        result = gates_sensor.sense(
            spec, View("demo", "page", "default", "dark"), out, base_url=base_url
        )
    assert result.ok, result.error
    return out


def _by_testid(probe: dict[str, Any], testid: str) -> dict[str, Any]:
    return next(e for e in probe["elements"] if e["testid"] == testid)


def test_probe_format(sensed: Path) -> None:
    probe = json.loads((sensed / "probe.json").read_text())
    assert probe["version"] == 1
    assert probe["url"].endswith("/page.html?argus_fixture=default&argus_appearance=dark")
    assert probe["viewport"] == {"width": 800, "height": 600}
    elements = probe["elements"]
    assert elements[0]["tag"] == "html" and elements[0]["parent"] is None
    assert elements[1]["tag"] == "body" and elements[1]["parent"] == 0
    assert elements[0]["color_scheme"] == "light" and elements[0]["canvas"] == "rgb(255, 255, 255)"
    for i, element in enumerate(elements):
        assert element["index"] == i
        assert element["parent"] is None or element["parent"] < i, "document order"
        assert list(element["style"]) == list(STYLE_PROPERTIES)
        assert set(element) >= {"role", "name", "id", "testid", "text", "box", "visible"}
    title = next(e for e in elements if e["id"] == "title")
    assert (title["role"], title["name"], title["heading_level"]) == ("heading", "Title", 1)
    assert elements[title["parent"]]["tag"] == "header"
    assert elements[title["parent"]]["role"] == "banner"
    fake = next(e for e in elements if e["tag"] == "h2")
    assert fake["heading_level"] == 4
    save = _by_testid(probe, "save")
    assert (save["role"], save["name"], save["interactive"]) == ("button", "Save", True)
    assert save["style"]["padding-top"] == "8px" and save["style"]["margin-left"] == "4px"
    assert save["style"]["border-top-color"] == "rgb(200, 0, 0)"
    assert save["style"]["border-radius"] == "6px"
    assert save["box"]["width"] > 0 and save["visible"] is True
    assert _by_testid(probe, "icon")["name"] == "Close dialog"
    assert _by_testid(probe, "labelled")["name"] == "Title"
    assert _by_testid(probe, "unlabeled")["name"] == ""
    email = _by_testid(probe, "email")
    assert (email["role"], email["name"]) == ("textbox", "Email address")
    link = next(e for e in elements if e["tag"] == "a")
    assert (link["role"], link["name"]) == ("link", "More")
    img = next(e for e in elements if e["tag"] == "img")
    assert (img["role"], img["name"]) == ("img", "A cat")
    assert [e["role"] for e in elements if e["tag"] in ("ul", "li")] == [
        "list",
        "listitem",
        "listitem",
    ]
    hidden = _by_testid(probe, "hidden")
    assert hidden["visible"] is False and hidden["text"] == "hidden text"
    assert _by_testid(probe, "main")["role"] == "main"


def test_long_text_is_truncated_in_probe_and_console(sensed: Path) -> None:
    probe = json.loads((sensed / "probe.json").read_text())
    text = _by_testid(probe, "long")["text"]
    assert len(text) == 256 and text.endswith(TRUNCATION_MARKER)
    assert all(len(line) <= 256 for line in probe["aria_snapshot"].split("\n"))
    assert TRUNCATION_MARKER in probe["aria_snapshot"]
    console = json.loads((sensed / "console.json").read_text())
    error = next(m for m in console["messages"] if m["level"] == "error")
    assert len(error["text"]) == 256 and error["text"].endswith(TRUNCATION_MARKER)


def test_aria_snapshot_is_playwrights(sensed: Path) -> None:
    aria = json.loads((sensed / "probe.json").read_text())["aria_snapshot"]
    assert '- heading "Title" [level=1]' in aria
    assert '- button "Close dialog"' in aria
    assert '- link "More"' in aria


def test_console_and_page_errors_are_captured(sensed: Path) -> None:
    console = json.loads((sensed / "console.json").read_text())
    levels = {(m["level"], m["text"][:20]) for m in console["messages"]}
    assert ("log", "hello from the page") in levels
    assert ("warning", "careful") in levels
    log = next(m for m in console["messages"] if m["level"] == "log")
    assert "/page.html?" in log["location"] and log["location"].endswith(":27:12")
    assert console["page_errors"] == [{"text": "Error: boom in a timer"}]


def test_axe_results_are_written(sensed: Path) -> None:
    axe = json.loads((sensed / "axe.json").read_text())
    assert axe["passes"] > 0
    rules = {v["id"]: v for v in axe["violations"]}
    assert "button-name" in rules
    violation = rules["button-name"]
    assert violation["impact"] == "critical" and violation["help"]
    assert ['button[data-testid="unlabeled"]'] in [n["target"] for n in violation["nodes"]]
    assert "wcag2aa" in axe["options"]["tags"]


def test_meta_records_browser_view_fonts_and_timings(sensed: Path) -> None:
    meta = json.loads((sensed / "meta.json").read_text())
    assert meta["browser"]["name"] == "chromium" and meta["browser"]["version"]
    assert meta["viewport"] == {"width": 800, "height": 600}
    assert (meta["appearance"], meta["color_scheme"], meta["fixture"]) == (
        "dark",
        "dark",
        "default",
    )
    assert meta["settled"] is True and 2 <= meta["attempts"] <= 5
    families = {font["family"] for font in meta["fonts"]["rendered"]}
    assert any("DejaVu" in family for family in families), families
    assert meta["timings_ms"]["navigate"] > 0 and meta["timings_ms"]["total"] > 0


def test_render_is_a_png_of_the_viewport(sensed: Path) -> None:
    from PIL import Image

    with Image.open(sensed / "render.png") as image:
        assert image.size == (800, 600)


def test_axe_is_skipped_when_its_gate_is_disabled(
    probe_page: Path, serve: Serve, tmp_path: Path
) -> None:
    config = ProjectConfig.model_validate({"root": probe_page, "gates": {"enabled": ["console"]}})
    spec = load_spec(probe_page / "argus/specs/demo/spec.json")
    with Sensor(config, controls=GATES) as sensor:
        result = sensor.sense(
            spec, View("demo", "page", "default", "light"), tmp_path, base_url=serve(probe_page)
        )
    assert result.ok and not (tmp_path / "axe.json").exists()
    assert json.loads((tmp_path / "meta.json").read_text())["color_scheme"] == "light"


def test_a_page_that_never_settles_says_so(
    probe_page: Path, gates_sensor: Sensor, serve: Serve, tmp_path: Path
) -> None:
    spec = load_spec(probe_page / "argus/specs/demo/spec.json")
    result = gates_sensor.sense(
        spec, View("demo", "flicker", "default", "light"), tmp_path, base_url=serve(probe_page)
    )
    assert result.ok and result.settled is False and result.attempts == 5
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["settled"] is False and meta["attempts"] == 5


def test_route_that_does_not_answer_is_data_in_the_api(
    probe_page: Path, gates_sensor: Sensor, tmp_path: Path
) -> None:
    spec = load_spec(probe_page / "argus/specs/demo/spec.json")
    dead = f"http://127.0.0.1:{free_port()}"
    result = gates_sensor.sense(
        spec, View("demo", "page", "default", "light"), tmp_path, base_url=dead
    )
    assert not result.ok
    assert "page-default-light" in str(result.error) and "did not answer" in str(result.error)


def test_http_error_route_is_a_sensor_failure(
    probe_page: Path, gates_sensor: Sensor, serve: Serve, tmp_path: Path
) -> None:
    spec = load_spec(probe_page / "argus/specs/demo/spec.json")
    result = gates_sensor.sense(
        spec, View("demo", "missing", "default", "light"), tmp_path, base_url=serve(probe_page)
    )
    assert result.error is not None and "answered HTTP 404" in result.error


def test_cli_route_that_does_not_answer_is_exit_2(probe_page: Path, run_argus: RunArgus) -> None:
    done = run_argus(
        "sense", "--feature", "demo", "--target", "page", "--state", "default",
        "--appearance", "light", "--base-url", f"http://127.0.0.1:{free_port()}", cwd=probe_page,
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "did not answer" in lines[0] and lines[0].startswith("argus: ")


def test_cli_never_settled_is_reported(probe_page: Path, serve: Serve, run_argus: RunArgus) -> None:
    done = run_argus(
        "sense", "--feature", "demo", "--target", "flicker", "--state", "default",
        "--appearance", "light", "--base-url", serve(probe_page), "--out", str(probe_page / "o"),
        cwd=probe_page,
    )  # fmt: skip
    assert done.returncode == 0
    assert "never settled" in done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--target", "nope", "--state", "populated", "--appearance", "light"], "no target 'nope'"),
        (["--target", "list", "--state", "nope", "--appearance", "light"], "no state 'nope'"),
        (["--target", "list", "--state", "empty", "--appearance", "nope"], "no appearance 'nope'"),
        (["--target", "list"], "give --state, --appearance"),
    ],
)
def test_cli_unknown_view_is_exit_2_one_line(
    tmp_path: Path, run_argus: RunArgus, args: list[str], message: str
) -> None:
    root = copy_habits(tmp_path)
    done = run_argus("sense", "--feature", "habits", *args, cwd=root)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


def test_cli_unknown_feature_is_exit_2(tmp_path: Path, run_argus: RunArgus) -> None:
    done = run_argus("sense", "--feature", "nope", "--all", cwd=copy_habits(tmp_path))
    assert done.returncode == 2
    assert "no feature 'nope' here (features: habits)" in done.stderr


def test_cli_all_starts_the_web_server_and_senses_every_view(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root = copy_habits(tmp_path)
    # Nothing here reads controls.json: the dead-control probe (eight more loads of each view)
    # is left out, as [sense] max_controls = 0 does. `argus sense` runs it by default: the
    # tests that read it are in tests/sense/test_dashboard_freshness_browser.py and
    # tests/frameworks/test_streamlit_browser.py.
    with (root / "argus.toml").open("a") as config:
        config.write("\n[sense]\nmax_controls = 0\n")
    env = {**__import__("os").environ, "CI": "true"}
    done = run_argus("sense", "--feature", "habits", "--all", "--workers", "2", cwd=root, env=env)
    assert done.returncode == 0, done.stderr
    runs = root / "argus/specs/habits/.argus-runs"
    slugs = ["list-populated-light", "list-populated-dark", "list-empty-light", "list-empty-dark"]
    for slug in slugs:
        assert (runs / slug / "render.png").is_file()
        assert f"{slug}: sensed in" in done.stderr
    empty = json.loads((runs / "list-empty-dark/probe.json").read_text())
    assert not [e for e in empty["elements"] if e["role"] == "listitem"]
    populated = json.loads((runs / "list-populated-dark/probe.json").read_text())
    rows = [e["testid"] for e in populated["elements"] if e["role"] == "listitem"]
    fixture = json.loads((root / "fixtures/populated.json").read_text())
    assert rows == [f"row.habit.{h['id']}" for h in fixture["habits"]]


def _habits(tmp_path: Path) -> tuple[Spec, Path]:
    root = copy_habits(tmp_path)
    return load_spec(root / HABITS_SPEC), root


def test_canonical_view_matches_the_approved_reference(
    gates_sensor: Sensor, serve: Serve, tmp_path: Path
) -> None:
    spec, root = _habits(tmp_path)
    view = spec.canonical_view("list")
    result = gates_sensor.sense(spec, view, tmp_path / "out", base_url=serve(root))
    assert result.ok, result.error
    reference = spec.target("list").reference_for(view.state, view.appearance)
    assert reference is not None and reference.file is not None
    # The same pixels; not the same bytes: the reference was encoded by Playwright's
    # screenshot, the render by Chromium's fast PNG encoder (argus.sense._shots).
    render, approved = result.render.read_bytes(), reference.file.read_bytes()
    assert np.array_equal(decode_png(render), decode_png(approved))


def test_same_view_sensed_20_times_is_byte_identical(serve: Serve, tmp_path: Path) -> None:
    spec, root = _habits(tmp_path)
    base = serve(root)
    view = View("habits", "list", "populated", "dark")
    # axe and the dead-control probe (on a page of its own) do not touch the render; leaving
    # them out keeps the 20 renders quick.
    config = ProjectConfig.model_validate(
        {"root": root, "gates": {"enabled": []}, "sense": {"max_controls": 0}}
    )

    with Sensor(config, controls=LOOP) as sensor:

        def digest(i: int) -> str:
            result = sensor.sense(spec, view, tmp_path / str(i), base_url=base)
            assert result.ok, result.error
            return hashlib.sha256(result.render.read_bytes()).hexdigest()

        with ThreadPoolExecutor(max_workers=2) as pool:
            digests = list(pool.map(digest, range(20)))
    assert len(set(digests)) == 1, f"{len(set(digests))} different renders in 20"


def test_text_rects_cover_the_own_text_only(sensed: Path) -> None:
    elements = json.loads((sensed / "probe.json").read_text())["elements"]
    title = next(e for e in elements if e["id"] == "title")
    (rect,) = title["text_rects"]  # one line of text
    box = title["box"]
    assert box["x"] <= rect["x"] and rect["x"] + rect["width"] <= box["x"] + box["width"] + 0.01
    assert 0 < rect["width"] < box["width"] / 4  # "Title" is short; the h1 block is wide
    long = _by_testid({"elements": elements}, "long")
    assert len(long["text_rects"]) > 1  # one per line
    assert all(e["text_rects"] == [] for e in elements if not e["text"] or not e["visible"])


CANVAS_PAGES = {
    "plain": "<!doctype html><html><body><p>x</p></body></html>",
    "meta": '<!doctype html><html><head><meta name="color-scheme" content="light dark"></head>'
    "<body><p>x</p></body></html>",
    "root": '<!doctype html><html style="color-scheme: dark"><body><p>x</p></body></html>',
    "only-light": '<!doctype html><html style="color-scheme: only light"><head>'
    '<meta name="color-scheme" content="dark"></head><body><p>x</p></body></html>',
}


@pytest.mark.parametrize(
    ("target", "appearance", "canvas"),
    [
        ("plain", "dark", (255, 255, 255)),  # a dark preference alone does not darken the canvas
        ("meta", "dark", (18, 18, 18)),
        ("meta", "light", (255, 255, 255)),
        ("root", "light", (18, 18, 18)),
        ("only-light", "dark", (255, 255, 255)),  # the root's color-scheme wins over the meta
    ],
)
def test_the_probe_names_the_canvas_chromium_paints(
    tmp_path: Path,
    gates_sensor: Sensor,
    serve: Serve,
    target: str,
    appearance: str,
    canvas: tuple[int, int, int],
) -> None:
    from PIL import Image

    pages = {f"{name}.html": html for name, html in CANVAS_PAGES.items()}
    root = make_web_repo(tmp_path, pages, {name: f"/{name}.html" for name in CANVAS_PAGES})
    spec = load_spec(root / "argus/specs/demo/spec.json")
    out = tmp_path / "out"
    result = gates_sensor.sense(
        spec, View("demo", target, "default", appearance), out, base_url=serve(root)
    )
    assert result.ok, result.error
    html = json.loads((out / "probe.json").read_text())["elements"][0]
    assert html["tag"] == "html"
    assert html["canvas"] == "rgb({}, {}, {})".format(*canvas)
    assert html["color_scheme"] == ("dark" if canvas == (18, 18, 18) else "light")
    with Image.open(out / "render.png") as image:
        assert image.convert("RGB").getpixel((790, 590)) == canvas  # an empty corner


@pytest.mark.parametrize(
    ("project", "target", "axe_written"),
    [
        (["console"], ["axe", "console"], True),  # the target asks for axe: it runs
        (["axe", "console"], ["console"], False),  # the target's own list leaves axe out
        (["axe"], None, True),  # no list of its own: the project's
    ],
)
def test_axe_runs_when_the_targets_own_gates_include_it(
    tmp_path: Path,
    serve: Serve,
    project: list[str],
    target: list[str] | None,
    axe_written: bool,
) -> None:
    root = make_web_repo(tmp_path, {"p.html": CANVAS_PAGES["plain"]}, {"page": "/p.html"})
    spec_path = root / "argus/specs/demo/spec.json"
    if target is not None:
        raw = json.loads(spec_path.read_text())
        raw["targets"][0]["gates"] = target
        spec_path.write_text(json.dumps(raw))
    config = ProjectConfig.model_validate({"root": root, "gates": {"enabled": project}})
    with Sensor(config, controls=GATES) as sensor:
        result = sensor.sense(
            load_spec(spec_path), View("demo", "page", "default", "light"), tmp_path / "out",
            base_url=serve(root),
        )  # fmt: skip
    assert result.ok, result.error
    assert (tmp_path / "out" / "axe.json").is_file() is axe_written


FONTS = """<!doctype html><html><head><style>
  body { margin: 0; font-family: "DejaVu Sans"; }
  .serif { font-family: "Liberation Serif"; font-weight: 700; }
  .mono { font-family: "Liberation Mono"; }
</style></head><body>
  <p>Sans text</p>
  <div><span></span><div><b class="serif">Bold serif, deep in the tree</b></div></div>
  <p><em>Italic sans</em></p>
  <p class="mono" hidden>hidden mono</p>
</body></html>"""


def test_meta_names_the_fonts_each_visible_text_was_drawn_with(
    gates_sensor: Sensor, tmp_path: Path
) -> None:
    root = make_web_repo(tmp_path, {"fonts.html": FONTS}, {"fonts": "/fonts.html"})
    spec = load_spec(root / "argus/specs/demo/spec.json")
    with static_server(root) as base_url:
        result = gates_sensor.sense(
            spec, View("demo", "fonts", "default", "light"), tmp_path / "out", base_url=base_url
        )
    assert result.ok, result.error
    fonts = json.loads((tmp_path / "out" / "meta.json").read_text())["fonts"]
    declared = {(f["family"], f["weight"], f["style"]) for f in fonts["declared"]}
    assert declared == {
        ('"DejaVu Sans"', "400", "normal"),
        ('"Liberation Serif"', "700", "normal"),
        ('"DejaVu Sans"', "400", "italic"),
    }
    rendered = {f["postscript_name"]: f for f in fonts["rendered"]}
    assert {"DejaVuSans", "LiberationSerif-Bold", "DejaVuSans-Oblique"} <= set(rendered), rendered
    assert not any("Mono" in name for name in rendered), "hidden text draws nothing"
    assert all(f["glyphs"] > 0 and not f["web_font"] for f in rendered.values())
    assert fonts["web_fonts_loaded"] == []
