"""Sensor behaviours with no other test: colour-scheme emulation, a page whose network never
goes quiet, a navigation timeout, the pool's bounds and its one browser, and `argus gates
--sense` when sensing fails."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from argus.config import ProjectConfig
from argus.sense import Sensor
from argus.sense import sensor as sensor_module
from argus.sense.controls_choice import GATES
from argus.spec import View, load_spec
from tests.conftest import RunArgus
from tests.sense.test_web_sensor import make_web_repo
from tests.support.habits import free_port

pytestmark = pytest.mark.browser
Serve = Callable[[Path], str]

SCHEMED = """<!doctype html><html><head><style>
  p { color: rgb(10, 10, 10); background-color: rgb(250, 250, 250); }
  @media (prefers-color-scheme: dark) {
    p { color: rgb(240, 240, 240); background-color: rgb(20, 20, 20); }
  }
</style></head><body><p id="t">scheme</p></body></html>"""

# A request every 30 ms: the network is never quiet for the 100 ms the sensor waits for.
BUSY = """<!doctype html><html><body><p>busy</p><script>
  setInterval(() => fetch("busy.html?" + Math.random()), 30);
</script></body></html>"""

PAGES = {"schemed.html": SCHEMED, "busy.html": BUSY}
ROUTES = {"schemed": "/schemed.html", "busy": "/busy.html"}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_web_repo(tmp_path, PAGES, ROUTES)


def _spec(repo: Path):
    return load_spec(repo / "argus/specs/demo/spec.json")


@pytest.mark.parametrize(
    ("appearance", "color", "background"),
    [
        ("light", "rgb(10, 10, 10)", "rgb(250, 250, 250)"),
        ("dark", "rgb(240, 240, 240)", "rgb(20, 20, 20)"),
    ],
)
def test_the_appearance_is_emulated_as_the_colour_scheme(
    repo: Path,
    gates_sensor: Sensor,
    serve: Serve,
    tmp_path: Path,
    appearance: str,
    color: str,
    background: str,
) -> None:
    out = tmp_path / "out"
    view = View("demo", "schemed", "default", appearance)
    result = gates_sensor.sense(_spec(repo), view, out, base_url=serve(repo))
    assert result.ok, result.error
    elements = json.loads((out / "probe.json").read_text())["elements"]
    p = next(e for e in elements if e["id"] == "t")
    assert (p["style"]["color"], p["style"]["background-color"]) == (color, background)
    assert json.loads((out / "meta.json").read_text())["color_scheme"] == appearance


def _fast_timeouts(repo: Path, base_url: str) -> None:
    (repo / "argus.toml").write_text(f'base_url = "{base_url}"\n[browser]\ntimeout = 2\n')


def test_a_page_whose_network_never_goes_idle_is_exit_2(
    repo: Path, serve: Serve, run_argus: RunArgus
) -> None:
    _fast_timeouts(repo, serve(repo))
    done = run_argus(
        "sense", "--feature", "demo", "--target", "busy", "--state", "default",
        "--appearance", "light", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("argus: busy-default-light: ")
    assert "network never went idle" in lines[0]


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A server that accepts connections and never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
                held.append(conn)
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join(timeout=2)
    for conn in held:
        conn.close()
    listener.close()


def test_a_navigation_timeout_is_exit_2(
    repo: Path, silent_server: str, run_argus: RunArgus
) -> None:
    _fast_timeouts(repo, silent_server)
    done = run_argus(
        "sense", "--feature", "demo", "--target", "schemed", "--state", "default",
        "--appearance", "light", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("argus: schemed-default-light: ")
    assert "did not answer" in lines[0] and "Timeout" in lines[0]


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _browser_processes() -> int:
    """Chromium main processes under this test process (its children carry --type=; they
    rewrite their command line into one string, so it is searched whole)."""
    count = 0
    for pid in _descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                command = fh.read().replace(b"\0", b" ")
        except OSError:
            continue
        program = os.path.basename(command.split(b" ", 1)[0])
        if program.startswith(b"chrom") and b"crashpad" not in program:
            count += b"--type=" not in command
    return count


def test_the_pool_stays_within_its_workers_on_one_browser(
    repo: Path, serve: Serve, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    active = 0
    peak = 0
    real = sensor_module.sense_web_view

    async def counted(*args: Any, **kwargs: Any):
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        try:
            await asyncio.sleep(0.05)  # hold the slot long enough for others to pile up
            return await real(*args, **kwargs)
        finally:
            active -= 1

    monkeypatch.setattr(sensor_module, "sense_web_view", counted)
    spec = _spec(repo)
    views = [View("demo", "schemed", "default", a) for a in ("light", "dark")] * 3
    browsers: list[int] = []
    before = _browser_processes()  # e.g. the session's warm sensor
    config = ProjectConfig.model_validate({"root": repo, "gates": {"enabled": []}})
    with Sensor(config, workers=2, controls=GATES) as sensor:
        results = sensor.sense_many(
            spec,
            views,
            tmp_path / "runs",
            base_url=serve(repo),
            on_done=lambda _: browsers.append(_browser_processes()),
        )
    assert all(r.ok for r in results), [r.error for r in results]
    assert peak == 2  # the pool was used, and never beyond its two workers
    assert [n - before for n in browsers] == [1] * len(views)  # one Chromium for every view


def test_cli_gates_sense_failure_is_exit_2_one_line(repo: Path, run_argus: RunArgus) -> None:
    (repo / "argus.toml").write_text(f'base_url = "http://127.0.0.1:{free_port()}"\n')
    done = run_argus(
        "gates", "--feature", "demo", "--target", "schemed", "--state", "default",
        "--appearance", "light", "--sense", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("argus: sensing failed: schemed-default-light: ")
    assert "did not answer" in lines[0]
    assert not (
        repo / "argus/specs/demo/.argus-runs/schemed-default-light/gate-result.json"
    ).exists()


TINY_TARGETS = """<!doctype html><html lang="en"><head><title>t</title><style>
  button { width: 12px; height: 12px; padding: 0; margin: 0; border: 0; }
</style></head><body><main>
  <button aria-label="one"></button><button aria-label="two"></button>
</main></body></html>"""


def test_default_axe_tags_include_wcag_22(tmp_path: Path, serve: Serve) -> None:
    """The bundled axe-core knows WCAG 2.2's tags: target-size (2.5.8, AA) runs by default."""
    root = make_web_repo(tmp_path, {"tiny.html": TINY_TARGETS}, {"tiny": "/tiny.html"})
    config = ProjectConfig.model_validate({"root": root, "gates": {"enabled": ["axe"]}})
    assert {"wcag22a", "wcag22aa"} <= set(config.gates.axe.tags)
    with Sensor(config, controls=GATES) as sensor:
        result = sensor.sense(
            _spec(root), View("demo", "tiny", "default", "light"), tmp_path / "out",
            base_url=serve(root),
        )  # fmt: skip
    assert result.ok, result.error
    axe = json.loads((tmp_path / "out" / "axe.json").read_text())
    assert "target-size" in {v["id"] for v in axe["violations"]}


@pytest.mark.parametrize(
    ("extra", "status"), [("", "pass"), ('<img src="nope.png" alt="">', "fail")]
)
def test_a_page_without_an_icon_passes_the_console_gate(
    tmp_path: Path, gates_sensor: Sensor, serve: Serve, extra: str, status: str
) -> None:
    from argus.gates.inputs import gate_inputs
    from argus.gates.runner import run_gates

    html = f"<!doctype html><html><body><p>no icon here</p>{extra}</body></html>"
    root = make_web_repo(tmp_path, {"plain.html": html}, {"plain": "/plain.html"})
    spec = _spec(root)
    view = View("demo", "plain", "default", "light")
    out = tmp_path / "out"
    assert gates_sensor.sense(spec, view, out, base_url=serve(root)).ok
    console = json.loads((out / "console.json").read_text())
    assert any(m["location"].split("/")[-1].startswith("favicon.ico") for m in console["messages"])
    inputs = gate_inputs(spec, view, out, config=ProjectConfig(root=root))
    outcome = run_gates(inputs, ["console"], record=False).outcome("console")
    assert outcome.status.value == status, outcome.summary
    assert outcome.data["ignored_favicon"] == 1
