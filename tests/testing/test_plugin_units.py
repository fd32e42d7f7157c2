"""The plugin's pieces that need no browser: update modes, names, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from argus.testing.plugin import ViewAssert, safe_name, update_mode


class FakeConfig:
    def __init__(self, given: str | None) -> None:
        self.given = given

    def getoption(self, name: str) -> str | None:
        assert name == "argus_update"
        return self.given


@pytest.mark.parametrize(
    ("given", "ci", "expected"),
    [
        (None, None, ("missing", False)),
        (None, "true", ("none", False)),
        ("changed", "true", ("changed", True)),
        ("missing", None, ("missing", True)),
        ("all", None, ("all", True)),
        ("none", None, ("none", False)),
        (None, "false", ("missing", False)),  # CI=false is not CI, as for `argus gates`
    ],
)
def test_update_mode_follows_playwright_and_ci(
    monkeypatch: pytest.MonkeyPatch, given: str | None, ci: str | None, expected: tuple[str, bool]
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    assert update_mode(FakeConfig(given)) == expected  # type: ignore[arg-type]


def test_safe_names() -> None:
    assert safe_name("test_list[chromium-populated-light]") == "test_list-chromium-populated-light"
    assert safe_name("tests/a.py::test x") == "tests-a.py-test-x"
    assert safe_name("...") == "view"


def test_names_are_checked_and_never_reused(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    node = request.node
    assert isinstance(node, pytest.Item)
    view = ViewAssert(node, tmp_path)
    assert view._name(None, None) == "test_names_are_checked_and_never_reused"
    assert view._name(None, None) == "test_names_are_checked_and_never_reused-2"
    assert view._name("home", None) == "home"
    with pytest.raises(ValueError, match="used twice"):
        view._name("home", None)
    for bad in ("../x", "a/b", ".hidden", ""):
        with pytest.raises(ValueError, match="use letters, digits"):
            view._name(bad, None)


def test_a_target_needs_both_feature_and_target(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    node = request.node
    assert isinstance(node, pytest.Item)
    view = ViewAssert(node, tmp_path)
    with pytest.raises(ValueError, match="name both feature= and target="):
        view._spec_view("habits", None, None, None)
    with pytest.raises(ValueError, match="state and appearance need feature= and target="):
        view._spec_view(None, None, "populated", None)


def test_only_a_sync_page_is_taken(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    node = request.node
    assert isinstance(node, pytest.Item)
    with pytest.raises(TypeError, match="takes a Playwright sync-API Page, not str"):
        ViewAssert(node, tmp_path)("not a page")  # type: ignore[arg-type]


def test_the_html_report_embeds_the_images_of_a_failure(tmp_path: Path) -> None:
    from PIL import Image

    from argus.testing.report import write_report

    images = {}
    for label in ("render", "baseline", "diff"):
        images[label] = tmp_path / f"{label}.png"
        Image.new("RGB", (4, 3), (200, 10, 10)).save(images[label])
    failed = {
        "test": "tests/test_a.py::test_x",
        "name": "home",
        "status": "failed",
        "ok": False,
        "message": "view 'home' does not match its baseline\n  measured: 12 pixels differ",
        **{label: str(path) for label, path in images.items()},
    }
    passed = {**failed, "name": "list", "status": "passed", "ok": True, "message": "0 pixels"}
    tests = {"tests/test_a.py::test_x": "passed", "tests/test_a.py::test_<y>": "error"}
    html = write_report(
        tmp_path / "out" / "report.html", [failed, passed], None, None, tests
    ).read_text()
    assert "2 assertion(s), 1 failed; 2 test(s), 1 failed or did not run." in html
    assert html.count("data:image/png;base64,") == 3  # only the failure's images
    assert "view &#39;home&#39; does not match its baseline" in html
    # The test that failed without an assertion is listed, escaped; the passing one is not.
    assert '<td>tests/test_a.py::test_&lt;y&gt;</td><td class="outcome">error</td>' in html
    assert "<td>tests/test_a.py::test_x</td><td class" not in html


def test_the_plugins_browser_options_never_ignore_the_project_config(tmp_path: Path) -> None:
    from argus.errors import ConfigError
    from argus.testing import context_options, launch_options

    (tmp_path / "argus.toml").write_text('[browser]\nexecutable = "/nope/chrome"\n')
    with pytest.raises(ConfigError, match=r"\[browser\] executable = '/nope/chrome'"):
        launch_options(tmp_path)
    (tmp_path / "argus.toml").write_text("[browser]\nlocale = 3\n")  # invalid: not defaults
    with pytest.raises(ConfigError, match=r"browser\.locale"):
        context_options(tmp_path)
    (tmp_path / "argus.toml").write_text('[browser]\nlocale = "de-DE"\n')
    assert context_options(tmp_path)["locale"] == "de-DE"
