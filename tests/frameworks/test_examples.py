"""The framework examples (examples/frameworks/NAME) are what `argus init --framework NAME`
writes, and keep their own rules; no browser needed."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from argus.config import load_config
from argus.frameworks import get_framework
from argus.spec import load_spec
from tests.support.frameworks import EXAMPLES, FEATURE, example_port

NAMES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "argus.toml").is_file())


def test_every_example_is_a_known_framework() -> None:
    assert "streamlit" in NAMES
    for name in NAMES:
        get_framework(name.replace("_", "-"))


@pytest.mark.parametrize("name", NAMES)
def test_the_example_is_configured_as_init_writes_it(name: str) -> None:
    root = EXAMPLES / name
    config = load_config(root)
    framework = get_framework(config.framework)
    assert framework.name == name.replace("_", "-")
    port = example_port(name)
    assert config.web_server is not None
    assert config.web_server.command == framework.server.command_for(port)
    assert config.web_server.url == f"http://127.0.0.1:{port}{framework.server.health_path}"
    assert config.web_server.reuse_existing is framework.server.reuse_existing
    spec = load_spec(root / f"argus/specs/{FEATURE}/spec.json")
    for target in spec.targets:
        for reference in target.references:
            assert reference.file is not None
            assert (spec.spec_dir / reference.file).is_file()


@pytest.mark.parametrize("name", NAMES)
def test_the_fixtures_are_deterministic_data(name: str) -> None:
    fixtures = sorted((EXAMPLES / name / "fixtures").glob("*.json"))
    assert fixtures
    for path in fixtures:
        json.loads(path.read_text())
    app = (EXAMPLES / name / "app.py").read_text()
    assert not re.search(r"\bdatetime\.now|\bdate\.today|\brandom\.", app)


def test_the_streamlit_theme_is_the_examples_tokens() -> None:
    root = EXAMPLES / "streamlit"
    theme = tomllib.loads((root / ".streamlit/config.toml").read_text())["theme"]
    colors = json.loads((root / f"argus/specs/{FEATURE}/tokens.json").read_text())["colors"]
    assert theme["primaryColor"] == colors["accent"]
    assert theme["backgroundColor"] == colors["surface"]
    assert theme["secondaryBackgroundColor"] == colors["surface-alt"]
    assert theme["textColor"] == colors["text"]


def test_each_example_has_its_docs_recipe_and_screenshot() -> None:
    docs = (EXAMPLES.parents[1] / "docs/frameworks.md").read_text()
    for name in NAMES:
        image = Path(f"img/frameworks-{name}.png")
        assert f"]({image.as_posix()})" in docs, name
        assert (EXAMPLES.parents[1] / "docs" / image).is_file(), name
