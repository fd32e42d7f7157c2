"""The project config: where it is read from, its defaults, and one-line errors for bad keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from argus import config as config_module
from argus.config import DEFAULT_URL_TEMPLATE, load_config
from argus.errors import ConfigError


def test_defaults_when_no_file(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config.source is None
    assert config.root == tmp_path.resolve()
    assert (config.viewport.width, config.viewport.height) == (1280, 800)
    assert config.url_template == DEFAULT_URL_TEMPLATE
    assert config.web_server is None
    assert config.gates.max_console_errors == 0
    assert "axe" in config.gates.enabled
    assert config.judge.backend == "metric"
    assert config.pool_size >= 1


@pytest.mark.parametrize(("cpus", "views"), [(None, 1), (1, 1), (2, 1), (4, 3), (16, 15)])
def test_the_pool_leaves_a_core_to_the_browser_unless_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cpus: int | None, views: int
) -> None:
    monkeypatch.setattr(config_module.os, "cpu_count", lambda: cpus)
    assert load_config(tmp_path).pool_size == views
    (tmp_path / "argus.toml").write_text("workers = 2\n")
    assert load_config(tmp_path).pool_size == 2


def test_argus_toml_is_read(tmp_path: Path) -> None:
    (tmp_path / "argus.toml").write_text(
        'base_url = "http://127.0.0.1:9000"\nworkers = 3\n'
        "viewport = { width = 390, height = 844 }\n"
        '[web_server]\ncommand = "python3 -m http.server 9000"\n'
        '[gates.axe]\ntags = ["wcag2a"]\n[gates.commands.build]\ncommand = "make"\n'
    )
    config = load_config(tmp_path)
    assert config.source == tmp_path.resolve() / "argus.toml"
    assert config.base_url == "http://127.0.0.1:9000"
    assert config.pool_size == 3
    assert config.viewport.width == 390
    assert config.web_server is not None and config.web_server.reuse_existing is True
    assert config.web_server.timeout == 60
    assert config.gates.axe.tags == ["wcag2a"]
    assert config.gates.commands["build"].timeout == 300


def test_pyproject_tool_argus_is_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n[tool.argus]\nbase_url = "http://localhost:3000"\n'
    )
    config = load_config(tmp_path)
    assert config.base_url == "http://localhost:3000"
    assert config.source == tmp_path.resolve() / "pyproject.toml"


def test_argus_toml_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.argus]\nbase_url = "http://a"\n')
    (tmp_path / "argus.toml").write_text('base_url = "http://b"\n')
    assert load_config(tmp_path).base_url == "http://b"


def test_pyproject_without_section_gives_defaults(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert load_config(tmp_path).source is None


@pytest.mark.parametrize(
    ("filename", "text", "expected"),
    [
        ("argus.toml", "[gates]\nenabeld = []\n", "argus.toml: gates.enabeld: unknown key"),
        ("argus.toml", "base_urll = 'x'\n", "argus.toml: base_urll: unknown key"),
        ("argus.toml", "viewport = { width = 'wide' }\n", "argus.toml: viewport.width:"),
        ("argus.toml", "workers = 0\n", "argus.toml: workers:"),
        ("argus.toml", "[web_server]\nurl = 'http://x'\n", "web_server.command: required key"),
        ("argus.toml", "[gates.axe]\nimpact_floor = 'huge'\n", "gates.axe.impact_floor:"),
        ("argus.toml", "base_url = \n", "argus.toml: not valid TOML"),
        (
            "pyproject.toml",
            "[tool.argus.browser]\nexecutabel = 'x'\n",
            "pyproject.toml: tool.argus.browser.executabel: unknown key",
        ),
        ("pyproject.toml", "[tool]\nargus = 3\n", "[tool.argus] must be a table"),
    ],
)
def test_bad_config_is_one_line_naming_file_and_key(
    tmp_path: Path, filename: str, text: str, expected: str
) -> None:
    (tmp_path / filename).write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    message = str(info.value)
    assert expected in message
    assert "\n" not in message
    assert str(tmp_path.resolve() / filename) in message


def test_several_problems_are_counted(tmp_path: Path) -> None:
    (tmp_path / "argus.toml").write_text("a = 1\nb = 2\n")
    with pytest.raises(ConfigError, match=r"\(and 1 more problem\)"):
        load_config(tmp_path)


def test_example_config_is_valid() -> None:
    root = Path(__file__).resolve().parents[2] / "examples" / "habits"
    config = load_config(root)
    assert config.web_server is not None
    assert config.base_url.startswith("http://127.0.0.1:")


def test_snapshot_platform_suffix(tmp_path: Path) -> None:
    import sys

    (tmp_path / "argus.toml").write_text('[gates.snapshot]\nplatform = "auto"\n')
    assert load_config(tmp_path).gates.snapshot.platform_suffix == sys.platform
    (tmp_path / "argus.toml").write_text('[gates.snapshot]\nplatform = "ci"\n')
    assert load_config(tmp_path).gates.snapshot.platform_suffix == "ci"
    (tmp_path / "argus.toml").write_text("")
    assert load_config(tmp_path).gates.snapshot.platform_suffix is None
    (tmp_path / "argus.toml").write_text('[gates.snapshot]\nplatform = "../up"\n')
    with pytest.raises(ConfigError, match="platform"):
        load_config(tmp_path)
