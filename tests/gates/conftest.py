"""Shared inputs for the gate tests: the Habits tokens, GateInputs over a Habits copy."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from argus.config import load_config
from argus.gates.base import GateInputs
from argus.gates.inputs import gate_inputs
from argus.spec import View, load_spec
from argus.tokens import Tokens, load_tokens
from tests.support.habits import HABITS_DIR, HABITS_SPEC, copy_habits

HABITS_TOKENS = HABITS_DIR / "argus" / "specs" / "habits" / "tokens.json"


@pytest.fixture(scope="session")
def tokens() -> Tokens:
    return load_tokens(HABITS_TOKENS)


SensedDocs = dict[str, Any]


@pytest.fixture
def habits_inputs(tmp_path: Path) -> Callable[..., GateInputs]:
    """GateInputs for a copy of the Habits example with hand-written sensed files.

    make(probe=..., console=..., axe=..., state="populated", appearance="light")
    """
    root = copy_habits(tmp_path)

    def make(
        *,
        probe: SensedDocs | None = None,
        console: SensedDocs | None = None,
        axe: SensedDocs | None = None,
        state: str = "populated",
        appearance: str = "light",
    ) -> GateInputs:
        sensed = tmp_path / "sensed"
        sensed.mkdir(exist_ok=True)
        docs = {"probe.json": probe, "console.json": console, "axe.json": axe}
        for name, doc in docs.items():
            if doc is not None:
                (sensed / name).write_text(json.dumps(doc), encoding="utf-8")
        config = load_config(root)
        spec = load_spec(root / HABITS_SPEC)
        view = View(spec.feature, "list", state, appearance)
        return gate_inputs(spec, view, sensed, config=config, run_dir=tmp_path / "run")

    return make
