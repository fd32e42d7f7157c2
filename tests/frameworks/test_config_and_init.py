"""``framework`` in argus.toml and ``argus init --framework NAME``."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from argus.config import load_config
from argus.errors import ConfigError
from argus.frameworks import KNOWN, Framework, get_framework
from tests.conftest import RunArgus


def test_config_names_a_known_framework(tmp_path: Path) -> None:
    (tmp_path / "argus.toml").write_text('framework = "Dash"\n')
    assert load_config(tmp_path).framework == "dash"


def test_config_with_an_unknown_framework_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "argus.toml").write_text('framework = "flask-admin"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path)
    message = str(caught.value)
    assert "argus.toml: framework:" in message and "streamlit" in message
    assert "\n" not in message


@pytest.mark.parametrize("framework", KNOWN, ids=lambda f: f.name)
def test_init_writes_the_frameworks_server_and_readiness(
    tmp_path: Path, run_argus: RunArgus, framework: Framework
) -> None:
    (tmp_path / ".git").mkdir()
    result = run_argus("init", "shop", "--framework", framework.name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wrote argus.toml" in result.stdout and "docs/frameworks.md" in result.stdout
    config = load_config(tmp_path)
    port = framework.server.port
    assert config.framework == framework.name
    assert config.base_url == f"http://127.0.0.1:{port}"
    server = config.web_server
    assert server is not None
    assert server.command == framework.server.command_for(port)
    assert server.url == f"http://127.0.0.1:{port}{framework.server.health_path}"
    assert server.timeout == framework.server.timeout
    assert server.reuse_existing is framework.server.reuse_existing
    assert run_argus("lint", cwd=tmp_path).returncode == 0


def test_init_with_a_url_starts_the_app_on_its_port(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / ".git").mkdir()
    url = "http://127.0.0.1:9411"
    result = run_argus("init", "shop", "--framework", "streamlit", "--url", url, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = tomllib.loads((tmp_path / "argus.toml").read_text())
    assert data["base_url"] == url
    assert "--server.port 9411" in data["web_server"]["command"]
    assert data["web_server"]["url"] == url + get_framework("streamlit").server.health_path


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--framework", "flask-admin"], "known frameworks: streamlit, dash, gradio"),
        (["--framework", "dash", "--start-command", "python app.py"], "drop --start-command"),
        (["--framework", "dash", "--url", "localhost:8050"], "--url"),
    ],
)
def test_init_with_a_bad_framework_is_one_line_exit_2_and_writes_nothing(
    tmp_path: Path, run_argus: RunArgus, args: list[str], needle: str
) -> None:
    (tmp_path / ".git").mkdir()
    result = run_argus("init", "shop", *args, cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("argus: ") and needle in lines[0]
    assert not (tmp_path / "argus.toml").exists() and not (tmp_path / "argus").exists()


def test_init_with_a_framework_never_touches_an_existing_config(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    (tmp_path / "argus.toml").write_text('base_url = "http://127.0.0.1:9"\n')
    result = run_argus("init", "shop", "--framework", "gradio", cwd=tmp_path)
    assert result.returncode == 2 and "already configured" in result.stderr
    assert "framework = 'gradio'" in result.stderr
    assert (tmp_path / "argus.toml").read_text() == 'base_url = "http://127.0.0.1:9"\n'
