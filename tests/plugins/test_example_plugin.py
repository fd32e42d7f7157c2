"""The example plug-in package (examples/plugin), installed for real with pip, loaded by its
entry points: its gate and its judge run in the gate runner, the judge flow and a real loop."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from argus.config import parse_config
from argus.errors import ConfigError
from argus.gates import GateInputs, GateStatus, run_gates
from argus.judge import get_judge
from tests.conftest import REPO_ROOT
from tests.gates.probes import el, page
from tests.plugins.fakedist import forget_plugins
from tests.support.habits_loop import EXAMPLE_IMPLEMENTER, served_copy

MakeInputs = Callable[..., GateInputs]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/plugin built and installed by pip into a folder of its own (offline)."""
    work = tmp_path_factory.mktemp("plugin")
    source = shutil.copytree(REPO_ROOT / "examples" / "plugin", work / "source")
    target = work / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--target", str(target), str(source)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return target


@pytest.fixture
def on_path(installed: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(installed))
    forget_plugins()
    return installed


def test_the_installed_gate_counts_headings_by_its_settings(
    on_path: Path, habits_inputs: MakeInputs, tmp_path: Path
) -> None:
    two = page(el("h1", text="Habits"), el("h1", text="Today"))
    data = {"gates": {"enabled": ["heading_count"], "heading_count": {"max_h1": 1}}}
    config = parse_config(data, source=tmp_path / "argus.toml", root=tmp_path)
    inputs = habits_inputs(probe=two)
    failed = run_gates(_replace(inputs, config), record=False).outcome("heading_count")
    assert failed.status is GateStatus.FAIL and len(failed.findings) == 1
    data["gates"]["heading_count"] = {"max_h1": 2}
    config = parse_config(data, source=tmp_path / "argus.toml", root=tmp_path)
    passed = run_gates(_replace(inputs, config), record=False).outcome("heading_count")
    assert passed.status is GateStatus.PASS
    data["gates"]["heading_count"] = {"max_h1": -1}
    config = parse_config(data, source=tmp_path / "argus.toml", root=tmp_path)
    with pytest.raises(ConfigError, match=r"gates\.heading_count\.max_h1: Input should be"):
        run_gates(_replace(inputs, config), record=False)


def test_the_installed_judge_is_built_with_its_settings(on_path: Path, tmp_path: Path) -> None:
    data = {"judge": {"backend": "signed-metric", "signed-metric": {"signature": "seen"}}}
    judge = get_judge(
        "signed-metric", parse_config(data, source=tmp_path / "a.toml", root=tmp_path)
    )
    assert judge.name == "signed-metric" and judge.signature == "seen"


def _replace(inputs: GateInputs, config: Any) -> GateInputs:
    import dataclasses

    return dataclasses.replace(inputs, config=config)


@pytest.mark.browser
@pytest.mark.process  # the plug-in is found on the child's PYTHONPATH (its entry points)
def test_an_external_gate_and_judge_run_in_a_real_loop(
    installed: Path, tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    root = served_copy(tmp_path, serve, ["missing_id"])
    config = root / "argus.toml"
    text = config.read_text().replace('"tell_tales"]', '"tell_tales", "heading_count"]')
    text = text.replace('backend = "metric"', 'backend = "signed-metric"')
    text += (
        '\n[gates.heading_count]\nmax_h1 = 1\n\n[judge.signed-metric]\nsignature = "plug-in ok"\n'
    )
    config.write_text(text)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(installed), str(REPO_ROOT / "src")])}
    result = run_argus(
        "loop", "--feature", "habits", "--mode", "headless", "--implementer", EXAMPLE_IMPLEMENTER,
        cwd=root, env=env, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    view = root / "argus/specs/habits/.argus-runs/list-populated-light"
    last = max(view.glob("iteration-*"), key=lambda p: int(p.name.split("-")[1]))
    gates = json.loads((last / "gate-result.json").read_text())
    assert gates["gates"]["heading_count"] == "pass"
    verdicts = [json.loads(p.read_text()) for p in view.glob("iteration-*/verdict.json")]
    assert verdicts and all(v["backend"] == "signed-metric" for v in verdicts)
    evidence = [d["evidence"] for v in verdicts for d in v["dimensions"].values()]
    assert all(e.endswith("(plug-in ok)") for e in evidence)
