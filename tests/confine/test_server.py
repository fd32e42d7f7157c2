"""The app's web server runs confined: an edited server script restarted by Argus writes
nothing outside the workspace nor in its protected set, and dies with its run; a server whose
Argus was killed (kill -9) is not left running to be reused."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from argus.config import ProjectConfig, WebServerConfig
from argus.confine import Confinement
from argus.sense.server import url_answers, web_server
from tests.conftest import REPO_ROOT
from tests.support.habits import free_port

SERVER = Path(__file__).with_name("serve_and_write.py")


def _use(backend: Confinement, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``detect`` pick ``backend``, as a user's machine would."""
    if backend.backend == "landlock":
        monkeypatch.setenv("ARGUS_SANDBOX", "landlock")
    else:
        monkeypatch.delenv("ARGUS_SANDBOX", raising=False)


def _config(repo: Path, outside: Path) -> tuple[ProjectConfig, str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    command = f"{sys.executable} {SERVER} {port} {outside}"
    server = WebServerConfig(command=command, url=url, timeout=20, reuse_existing=False)
    return ProjectConfig(root=repo, web_server=server), url


def test_an_edited_server_cannot_write_outside_the_workspace(
    backend: Confinement, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _use(backend, monkeypatch)
    outside = tmp_path / "outside.txt"
    config, url = _config(repo, outside)
    with web_server(config, repo) as served:
        assert served == url and url_answers(url)
    assert not url_answers(url)  # it died with its block
    assert (repo / "argus.toml").read_text() == "# config\n"
    assert (repo / "argus" / "specs" / "demo" / "spec.md").read_text() == "- the spec\n"
    assert not outside.exists()


def test_unconfined_the_same_server_writes_where_it_likes(repo: Path, tmp_path: Path) -> None:
    # ARGUS_SANDBOX=off (tests/conftest.py): the writes happen; the hash checks and the
    # "hash-checked only" protection of the run are what is left (tests/loop/test_sandbox.py).
    outside = tmp_path / "outside.txt"
    config, _ = _config(repo, outside)
    with web_server(config, repo):
        pass
    assert outside.exists() and "server" in (repo / "argus.toml").read_text()


@pytest.mark.process
def test_a_server_dies_with_an_argus_killed_with_kill_9(
    backend: Confinement, repo: Path, tmp_path: Path
) -> None:
    config, url = _config(repo, tmp_path / "outside.txt")
    assert config.web_server is not None
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from argus.config import ProjectConfig, WebServerConfig\n"
        "from argus.sense.server import web_server\n"
        f"server = WebServerConfig(command={config.web_server.command!r}, url={url!r})\n"
        f"config = ProjectConfig(root=Path({str(repo)!r}), web_server=server)\n"
        "with web_server(config, config.root):\n"
        "    print('up', flush=True)\n"
        "    time.sleep(120)\n"
    )
    env = {**os.environ, "ARGUS_SANDBOX": "landlock" if backend.backend == "landlock" else ""}
    argus = subprocess.Popen(
        [sys.executable, "-c", script], cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE
    )
    try:
        assert argus.stdout is not None and argus.stdout.readline() == b"up\n"
        assert url_answers(url)
    finally:
        argus.send_signal(signal.SIGKILL)
        argus.wait()
    # Bubblewrap: gone with its parent. Landlock: its cgroup is ended when Argus next starts
    # a server, before it could reuse it.
    if backend.backend == "landlock":
        with web_server(_config(repo, tmp_path / "o2.txt")[0], repo):
            pass
    for _ in range(500):  # the kernel ends the namespace a moment after its parent died
        if not url_answers(url, timeout=0.2):
            break
    assert not url_answers(url)
