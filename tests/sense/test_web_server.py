"""The configured web server: started, waited on, reused, stopped, and timed out."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from argus.config import ProjectConfig, WebServerConfig
from argus.errors import ConfigError, SensorError
from argus.sense.server import url_answers, web_server
from tests.conftest import RunArgus
from tests.support.habits import copy_habits, free_port

Serve = Callable[[Path], str]


def _config(tmp_path: Path, command: str, port: int, **options: Any) -> ProjectConfig:
    server = WebServerConfig(command=command, url=f"http://127.0.0.1:{port}/", **options)
    return ProjectConfig(root=tmp_path, web_server=server)


def _http_server(port: int) -> str:
    return f"{sys.executable} -m http.server {port} --bind 127.0.0.1"


def test_starts_waits_and_stops(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("hello")
    port = free_port()
    config = _config(tmp_path, _http_server(port), port, timeout=20)
    with web_server(config) as url:
        assert url == f"http://127.0.0.1:{port}/"
        assert url_answers(url)
    assert not url_answers(f"http://127.0.0.1:{port}/")


def test_reuses_a_server_that_already_answers(tmp_path: Path, serve: Serve) -> None:
    (tmp_path / "index.html").write_text('<meta name="argus-app" content="shop">')
    base = serve(tmp_path)
    port = int(base.rsplit(":", 1)[1])
    # The command would fail if it ran: reuse must not start it.
    config = _config(tmp_path, "exit 3", port, marker='content="shop"')
    with web_server(config) as url:
        assert url_answers(url)
    assert url_answers(base), "a reused server is not ours to stop"


def test_a_reused_server_without_the_marker_is_refused_in_one_line(
    tmp_path: Path, serve: Serve
) -> None:
    (tmp_path / "index.html").write_text("<p>some other app</p>")
    port = int(serve(tmp_path).rsplit(":", 1)[1])
    config = _config(tmp_path, "exit 3", port, marker='content="shop"')
    with pytest.raises(SensorError) as info, web_server(config):
        pass
    message = str(info.value)
    assert "\n" not in message and "cannot tell it is this project's app" in message
    assert "'content=\"shop\"'" in message and "[web_server] marker" in message
    bare = _config(tmp_path, "exit 3", port)  # nothing to prove it with: refused too
    with pytest.raises(SensorError, match="no marker, no a11y contract id"), web_server(bare):
        pass


def test_existing_server_without_reuse_is_an_error(tmp_path: Path, serve: Serve) -> None:
    port = int(serve(tmp_path).rsplit(":", 1)[1])
    config = _config(tmp_path, "exit 3", port, reuse_existing=False)
    with pytest.raises(SensorError, match="already answers"), web_server(config):
        pass


def test_server_that_never_answers_times_out_with_its_output(tmp_path: Path) -> None:
    port = free_port()
    config = _config(tmp_path, "echo booting slowly; sleep 30", port, timeout=0.5)
    with pytest.raises(SensorError) as info, web_server(config):
        pass
    message = str(info.value)
    assert "did not answer within 0.5s" in message
    assert "booting slowly" in message
    assert "\n" not in message


def test_server_that_exits_early_reports_its_exit_code(tmp_path: Path) -> None:
    port = free_port()
    config = _config(tmp_path, "echo no such module >&2; exit 4", port, timeout=10)
    with (
        pytest.raises(SensorError, match=r"exited with code 4 .*no such module"),
        web_server(config),
    ):
        pass


def test_no_server_configured_yields_none(tmp_path: Path) -> None:
    with web_server(ProjectConfig(root=tmp_path)) as url:
        assert url is None


def test_server_without_any_url_is_a_config_error(tmp_path: Path) -> None:
    config = ProjectConfig(root=tmp_path, web_server=WebServerConfig(command="true"))
    with pytest.raises(ConfigError, match=r"web_server\.url"), web_server(config):
        pass


def test_cli_server_that_never_comes_up_is_exit_2(tmp_path: Path, run_argus: RunArgus) -> None:
    root = copy_habits(tmp_path)
    config = root / "argus.toml"
    text = config.read_text().replace('command = "python3 serve.py', 'command = "sleep 30 #')
    config.write_text(text.replace("timeout = 20", "timeout = 0.5"))
    done = run_argus("sense", "--feature", "habits", "--all", cwd=root)
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("argus: web server: ") and "did not answer within 0.5s" in last


def _habits_reusing(tmp_path: Path, served: Path, serve: Serve) -> tuple[ProjectConfig, Any]:
    from argus.config import load_config
    from argus.spec import load_spec
    from tests.support.habits import HABITS_SPEC, copy_habits

    root = copy_habits(tmp_path)
    base = serve(served if served.is_absolute() else root / served)
    config = load_config(root)
    assert config.web_server is not None
    server = config.web_server.model_copy(update={"command": "exit 3", "url": base + "/"})
    config = config.model_copy(update={"web_server": server, "base_url": base})
    return config, load_spec(root / HABITS_SPEC)


def test_a_reused_server_proves_itself_by_an_id_of_the_a11y_contract(
    tmp_path: Path, serve: Serve
) -> None:
    config, spec = _habits_reusing(tmp_path, Path("."), serve)  # the app's own page
    with web_server(config, spec.root, spec) as url:
        assert url is not None and url_answers(url)
    other = tmp_path / "other"
    other.mkdir()
    (other / "index.html").write_text('<p id="habits">not the app</p>')
    config, spec = _habits_reusing(tmp_path / "b", other, serve)
    refused = pytest.raises(SensorError, match=r"an id of the a11y contract \(habits.screen")
    with refused, web_server(config, spec.root, spec):
        pass


def test_the_server_command_finds_argus_own_scripts_when_path_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Argus run from a virtualenv that was never activated: `streamlit run ...` (here: the
    interpreter's own name) is found in Argus's scripts directory, after the user's PATH."""
    scripts = Path(sys.executable).parent
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    port = free_port()
    name = Path(sys.executable).name
    command = (
        f"sh -c 'echo \"$PATH\" > seen-path; exec {name} -m http.server {port} --bind 127.0.0.1'"
    )
    config = _config(tmp_path, command, port, timeout=20)
    with web_server(config) as url:
        assert url is not None and url_answers(url)
    assert (tmp_path / "seen-path").read_text().strip() == f"/usr/bin:/bin:{scripts}"


def test_own_scripts_come_last_and_once() -> None:
    from argus.sense.server import with_own_scripts

    scripts = str(Path(sys.executable).parent)
    assert with_own_scripts({"PATH": "/a:/b"})["PATH"] == f"/a:/b:{scripts}"
    assert with_own_scripts({"PATH": f"{scripts}:/a"})["PATH"] == f"{scripts}:/a"
    assert with_own_scripts({})["PATH"] == scripts
    assert with_own_scripts({"PATH": "/a", "X": "1"})["X"] == "1"
