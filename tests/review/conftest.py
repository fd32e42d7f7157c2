"""The review tests' fixtures: the stub model server and the habits example with a review
model, a notify command, a sign-off and a PR diff."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.judge.stub_llm import StubLLM
from tests.review.test_diff import file_diff
from tests.support.habits import copy_habits

SIGNOFF = Path("argus/specs/habits/.argus-runs/signoff.json")


@pytest.fixture
def stub() -> Iterator[StubLLM]:
    with StubLLM() as server:
        yield server


@pytest.fixture
def habits(tmp_path: Path) -> Path:
    root = copy_habits(tmp_path)
    config = root / "argus.toml"
    notify = tmp_path / "notified.txt"
    config.write_text(
        config.read_text()
        + f'\n[review]\nmodel = "openai/stub-reasoner"\nnotify_command = "cat > {notify}"\n'
    )
    signoff = root / SIGNOFF
    signoff.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(Path(__file__).parent / "signoff.json", signoff)
    (tmp_path / "pr.diff").write_text(file_diff("app.js") + file_diff("tests/test_app.py"))
    return root
