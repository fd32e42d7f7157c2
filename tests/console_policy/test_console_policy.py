"""One console.json, one answer: the console gate, the metric judge and the referee agree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.config import ProjectConfig, load_config
from argus.console_policy import ConsolePolicy
from argus.errors import ConfigError, InputError
from argus.gates._console import check_console
from argus.gates.base import GateStatus
from argus.judge.metric import MetricJudge
from argus.referee.verdict import referee
from tests.judge.conftest import PacketFactory
from tests.judge.test_metric import good_page

NOT_FOUND = "Failed to load resource: the server responded with a status of 404 (Not Found)"
FAVICON = {"level": "error", "text": NOT_FOUND, "location": "http://127.0.0.1:8000/favicon.ico:0:0"}
WIDGET = {
    "level": "error",
    "text": "chat widget: cannot reach the support server",
    "location": "https://widget.example/loader.js:1:20",
}
OWN = {
    "level": "error",
    "text": "TypeError in app.js",
    "location": "http://127.0.0.1:8000/app.js:3:1",
}


def capture(*messages: dict[str, str]) -> dict[str, Any]:
    return {"messages": list(messages), "page_errors": []}


def write_toml(root: Path, text: str) -> None:
    (root / "argus.toml").write_text(text, encoding="utf-8")


IGNORE_WIDGET = '[gates.console]\nignore = ["^https://widget\\\\.example/"]\n'


def test_the_policy_forgives_the_implicit_favicon_and_configured_patterns() -> None:
    policy = ConsolePolicy.from_patterns([r"^https://widget\.example/"])
    counts = policy.count(capture(FAVICON, WIDGET, OWN))
    assert (counts.console_errors, counts.ignored_favicon, counts.ignored_by_pattern) == (1, 1, 1)
    assert ConsolePolicy().count(capture(FAVICON, WIDGET)).console_errors == 1


def test_page_errors_are_never_ignored() -> None:
    policy = ConsolePolicy.from_patterns(["TypeError"])
    counts = policy.count({"messages": [], "page_errors": [{"text": "TypeError: x"}]})
    assert counts.page_errors == 1


@pytest.mark.parametrize("pattern", ["(", ""])
def test_a_bad_ignore_pattern_is_a_config_error(tmp_path: Path, pattern: str) -> None:
    write_toml(tmp_path, f"[gates.console]\nignore = [{json.dumps(pattern)}]\n")
    with pytest.raises(ConfigError, match=r"argus\.toml: gates\.console\.ignore"):
        load_config(tmp_path)
    with pytest.raises(InputError):
        ConsolePolicy.from_patterns([pattern])


@pytest.mark.parametrize(
    ("messages", "toml", "errors"),
    [
        ((FAVICON,), "", 0),  # Chromium's own request: nobody counts it
        ((FAVICON, WIDGET), "", 1),
        ((FAVICON, WIDGET), IGNORE_WIDGET, 0),
        ((FAVICON, WIDGET, OWN), IGNORE_WIDGET, 1),
    ],
)
def test_gate_metric_judge_and_referee_give_one_answer(
    tmp_path: Path,
    make_packet: PacketFactory,
    messages: tuple[dict[str, str], ...],
    toml: str,
    errors: int,
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    if toml:
        write_toml(root, toml)
    config = load_config(root)
    console = capture(*messages)

    gate = check_console(console, config.gates.max_console_errors, config.gates.console.policy())
    assert gate.data["console_errors"] == errors
    assert gate.status is (GateStatus.FAIL if errors else GateStatus.PASS)

    packet = make_packet(probe=good_page(), contract={"expectations": None}, console=console)
    judged = MetricJudge(config).measure(packet, ("functional_correctness",))
    result = judged["functional_correctness"]
    if errors:
        assert result.score == 0 and f"{errors} console error" in result.evidence
    else:
        assert result.score is None  # clean console, prose-only contract: abstains

    (root / "console.json").write_text(json.dumps(console), encoding="utf-8")
    (root / "referee.json").write_text(json.dumps({"console": "console.json"}), encoding="utf-8")
    verdict = referee(root / "referee.json", root)
    gates = {g["name"]: g for g in verdict.to_json()["gates"]}
    assert gates["console"]["measured"] == {"errors": errors}
    assert gates["console"]["status"] == ("fail" if errors else "pass")


def test_default_config_has_no_ignore_patterns() -> None:
    assert ProjectConfig().gates.console.ignore == []
