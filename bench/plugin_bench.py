"""The pytest plugin per assertion, beside Playwright Test and pytest-playwright-visual.

Subject: the Habits example's canonical view (list-populated-light), served by the example's
server, one warm page, the same Chromium and flags for all three (Argus's ``launch_options``).
Each tool runs a loop inside one test and times ``page.goto`` + one screenshot assertion per
iteration, against a baseline written before (untimed):

* Argus's plugin: ``argus_snapshot(page, name)`` (stable capture, Argus's kernel) in a pytest
  run with pytest-playwright's ``page``;
* Playwright Test: ``expect(page).toHaveScreenshot()`` (bench.view_bench's project, Node);
* pytest-playwright-visual 2.1.2 from PyPI (installed into bench/.peers/python, never into
  the venv): ``assert_snapshot(page.screenshot())`` once the view's rows are shown (it has
  no stable capture, and the example renders them from a fixture it fetches, at times after
  the load event), compared with the pure-Python pixelmatch port.

Ratios are Argus's median over each peer's. ``python -m bench.plugin_bench [--quick]``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from argus.config import load_config
from argus.sense import discover_browser
from argus.sense.views import plan_view
from argus.spec import View, load_spec
from bench.area_cli import area_main
from bench.example import CANONICAL, SPEC, copy_example, served
from bench.peers import PLUGIN_PEERS, VIEW_PEERS, ensure_peers, ensure_python_peers
from bench.view_bench import PlaywrightTest

# The canonical view's rows: rendered once the example's fixture has loaded.
READY = '[data-testid^="row.habit."]'
CONFTEST = """
import json, os
import pytest
from argus.testing import context_options, launch_options

JOB = json.loads(open(os.environ["PLUGIN_BENCH_JOB"]).read())

@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, **launch_options()}

@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, **context_options(), "viewport": JOB["viewport"],
            "color_scheme": "light"}

@pytest.fixture
def job():
    return JOB
"""

ARGUS_TEST = """
import json, time

def test_loop(page, argus_snapshot, job):
    times = []
    for i in range(job["warmup"] + job["repeat"]):
        started = time.perf_counter()
        page.goto(job["url"])
        argus_snapshot(page, f"view-{i}")
        times.append((time.perf_counter() - started) * 1000)
    open(job["times_file"], "w").write(json.dumps(times[job["warmup"]:]))
"""

VISUAL_TEST = """
import json, time

def test_loop(page, assert_snapshot, job):
    times = []
    for i in range(job["warmup"] + job["repeat"]):
        started = time.perf_counter()
        page.goto(job["url"])
        page.locator(job["ready"]).first.wait_for()
        assert_snapshot(page.screenshot(), name="view.png")
        times.append((time.perf_counter() - started) * 1000)
    open(job["times_file"], "w").write(json.dumps(times[job["warmup"]:]))
"""


def _pytest(
    directory: Path, args: list[str], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


def _project(root: Path, name: str, test: str) -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (directory / "test_bench.py").write_text(test, encoding="utf-8")
    return directory


def _times(path: Path) -> list[float]:
    values: list[float] = json.loads(path.read_text())
    return values


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def run(quick: bool = False) -> dict[str, Any]:
    peers = ensure_peers(VIEW_PEERS)
    python_peers = ensure_python_peers(PLUGIN_PEERS)
    warmup, repeat = (1, 3) if quick else (2, 10)
    with tempfile.TemporaryDirectory(prefix="argus-plugin-bench-") as tmp:
        work = Path(tmp)
        root = copy_example(work)
        config = load_config(root)
        spec = load_spec(root / SPEC)
        view = View(spec.feature, *CANONICAL)
        with served(root) as base_url:
            plan = plan_view(spec, view, config, base_url=base_url)
            assert plan.url is not None
            job_file = work / "job.json"
            times_file = work / "times.json"
            job = {
                "url": plan.url,
                "viewport": {"width": plan.viewport.width, "height": plan.viewport.height},
                "warmup": warmup,
                "repeat": repeat,
                "times_file": str(times_file),
                # What the peer waits for before its one screenshot, as a user of it would:
                # the example renders its rows from a fixture it fetches, which may come
                # after the load event (pytest-playwright-visual has no stable capture).
                "ready": READY,
            }
            job_file.write_text(json.dumps(job))
            env = {k: v for k, v in os.environ.items() if k != "CI"}
            env["PLUGIN_BENCH_JOB"] = str(job_file)

            argus_dir = _project(work, "with-argus", ARGUS_TEST)
            no_visual = ["-p", "no:playwright_visual"]
            prepared = _pytest(argus_dir, [*no_visual, "--update-snapshots=all"], env)
            if prepared.returncode != 0:
                raise RuntimeError(f"argus plugin prepare run failed:\n{prepared.stdout[-1500:]}")
            timed = _pytest(argus_dir, [*no_visual, "--update-snapshots=none"], env)
            if timed.returncode != 0:
                raise RuntimeError(f"argus plugin timed run failed:\n{timed.stdout[-1500:]}")
            argus_ms = _times(times_file)

            visual_dir = _project(work, "with-visual", VISUAL_TEST)
            visual_env = {**env, "PYTHONPATH": str(python_peers)}
            # The first run writes the baseline in its first assertion, and fails (its way).
            _pytest(visual_dir, ["-p", "no:argus"], visual_env)
            visual = _pytest(visual_dir, ["-p", "no:argus"], visual_env)
            if visual.returncode != 0:
                output = (visual.stdout + visual.stderr)[-1500:]
                raise RuntimeError(f"pytest-playwright-visual run failed:\n{output}")
            visual_ms = _times(times_file)

            project = PlaywrightTest(config, root, discover_browser(config))
            try:
                project.run("single", "all", url=plan.url)
                playwright_ms = project.loop(plan.url, warmup, repeat)["assert"]
            finally:
                project.close()
    medians = {
        "argus_plugin": _median(argus_ms),
        "playwright_to_have_screenshot": _median(playwright_ms),
        "pytest_playwright_visual": _median(visual_ms),
    }
    return {
        "quick": quick,
        "repeat": repeat,
        "peers": {"playwright_test": VIEW_PEERS[0], "python": list(PLUGIN_PEERS)},
        "peers_dir": str(peers),
        "samples_ms": {
            "argus_plugin": argus_ms,
            "playwright_to_have_screenshot": playwright_ms,
            "pytest_playwright_visual": visual_ms,
        },
        "medians_ms": medians,
        "ratios": {
            "argus_over_to_have_screenshot": round(
                medians["argus_plugin"] / medians["playwright_to_have_screenshot"], 3
            ),
            "argus_over_pytest_playwright_visual": round(
                medians["argus_plugin"] / medians["pytest_playwright_visual"], 3
            ),
        },
    }


def main(argv: list[str] | None = None) -> int:
    return area_main(
        run,
        "pytest plugin per assertion vs toHaveScreenshot and pytest-playwright-visual",
        "1 warm-up and 3 timed assertions per tool",
        argv,
    )


if __name__ == "__main__":
    raise SystemExit(main())
