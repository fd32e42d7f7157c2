"""`argus assert judge` on a view: the evidence is sensed now, from the running example app."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.assertion.test_cli import JUDGE_SCRIPT, PASS
from tests.conftest import RunArgus
from tests.support.habits import copy_habits

pytestmark = pytest.mark.browser


def test_a_view_is_sensed_now_and_judged(run_argus: RunArgus, tmp_path: Path) -> None:
    root = copy_habits(tmp_path)
    script = tmp_path / "judge.py"
    script.write_text(JUDGE_SCRIPT, "utf-8")
    config = root / "argus.toml"
    text = config.read_text("utf-8")
    command = f'[judge]\nbackend = "command"\ncommand = "{sys.executable} {script} {{packet}}"'
    config.write_text(text.replace('[judge]\nbackend = "metric"', command), "utf-8")
    log = tmp_path / "prompt.txt"
    answer = {**PASS, "citations": ["screenshot", "ui-tree"]}
    judged = run_argus(
        "assert", "judge", "--root", str(root), "--feature", "habits", "--target", "list",
        "--state", "populated", "--appearance", "light", "--json",
        "--assertion", "Every habit row offers a way to mark it done.",
        env={**os.environ, "ANSWER": json.dumps(answer), "PROMPT_LOG": str(log)},
    )  # fmt: skip
    assert judged.returncode == 0, judged.stderr
    assert json.loads(judged.stdout)["verdict"] == "passed"
    runs = root / "argus/specs/habits/.argus-runs/assertions"
    (packet,) = [p for p in runs.iterdir() if p.is_dir()]
    assert packet.name.startswith("list-populated-light-")
    with Image.open(packet / "evidence/screenshot.png") as shot:
        assert shot.size == (1280, 800)
    tree = json.loads((packet / "evidence/ui-tree.json").read_text())
    assert tree["aria_snapshot"] and tree["elements"]
    assert sorted(p.name for p in runs.iterdir()) == [packet.name], "the sensing scratch is gone"
    prompt = log.read_text()
    assert "Every habit row offers a way to mark it done." in prompt
    headings = [
        e["name"] for e in tree["elements"] if e["role"] == "heading" and e["name"] and e["visible"]
    ]
    assert headings and all(name in prompt for name in headings), "the UI tree reached the judge"
