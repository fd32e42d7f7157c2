"""The real Lighthouse against the example app: the command and the opt-in gate."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.config import load_config
from argus.gates import run_gates
from argus.gates.inputs import load_view_inputs
from tests.conftest import RunArgus
from tests.support.habits import copy_habits

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        shutil.which("node") is None, reason="Node.js is absent: Lighthouse needs it"
    ),
]
VIEW = ("--feature", "habits", "--target", "list", "--state", "populated", "--appearance", "light")


def valid(report: dict[str, object]) -> set[str]:
    categories = report["categories"]
    assert isinstance(categories, dict)
    return {name for name, c in categories.items() if 0 <= c["score"] <= 1}


def test_argus_lighthouse_runs_on_the_example(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: RunArgus
) -> None:
    root = copy_habits(tmp_path)
    result = run_argus("lighthouse", *VIEW, "--base-url", serve(root), cwd=root, timeout=900)
    assert result.returncode in (0, 1), result.stderr
    out = json.loads(result.stdout)
    assert out["status"] in ("pass", "fail")
    written = root / "argus/specs/habits/.argus-runs/list-populated-light/lighthouse.json"
    report = json.loads(written.read_text())
    assert valid(report) == {"accessibility", "performance", "best-practices", "seo"}
    assert {c["category"] for c in out["categories"]} == valid(report)


def test_the_opt_in_gate_runs_lighthouse_on_the_view(tmp_path: Path) -> None:
    root = copy_habits(tmp_path)
    toml = root / "argus.toml"
    toml.write_text(
        toml.read_text()
        + "\n[gates.lighthouse]\naccessibility = 0\nperformance = 0\nbest_practices = 0\nseo = 0\n"
    )
    assert "lighthouse" not in load_config(root).gates.enabled  # off by default
    inputs = load_view_inputs(root, "habits", "list", "empty", "light", run_dir=tmp_path / "run")
    run = run_gates(inputs, ["lighthouse"], record=False)
    outcome = run.outcome("lighthouse")
    assert outcome.status == "pass", outcome.summary
    assert len(outcome.data["categories"]) == 4
    assert valid(json.loads((tmp_path / "run" / "lighthouse.json").read_text())) == {
        "accessibility",
        "performance",
        "best-practices",
        "seo",
    }
