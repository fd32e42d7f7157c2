"""The referee's layout gate: the linter run as a process, exit codes mapped, envelope checked."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from argus.referee import _layout_gate as gate_module
from argus.referee.verdict import referee
from tests.layout.pbir import good_page, variant, write_inline, write_page


def verdict_for(root: Path, page: dict[str, Any]) -> dict[str, Any]:
    write_page(root / "pages" / "p1", page)
    (root / "referee.json").write_text(json.dumps({"surface": "pbir", "layout": "pages/p1"}))
    return referee(root / "referee.json", root).to_json()


def layout(verdict: dict[str, Any]) -> dict[str, Any]:
    return next(g for g in verdict["gates"] if g["name"] == "layout")


def test_a_clean_page_passes_and_a_broken_one_fails(tmp_path: Path) -> None:
    ok = verdict_for(tmp_path / "a", good_page())
    assert layout(ok)["status"] == "pass" and layout(ok)["measured"]["linter_exit"] == 0
    bad = verdict_for(tmp_path / "b", variant(chart={"position.height": 545}))
    assert layout(bad)["status"] == "fail" and layout(bad)["measured"]["checks"] == ["check-1"]
    assert (bad["passed"], bad["next_action"]) == (False, "fix-layout")
    assert "chart" not in json.dumps(layout(bad))  # names from the file never reach the verdict


def test_a_missing_reference_is_degraded_but_a_failing_lint_stays_a_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "types.json").write_text("{not json")  # there, but unreadable: could not verify
    monkeypatch.setenv("ARGUS_VISUAL_TYPES", str(tmp_path / "types.json"))
    clean = verdict_for(tmp_path / "a", good_page())
    assert layout(clean)["status"] == "degraded" and clean["passed"] is None
    failing = verdict_for(tmp_path / "b", variant(table={"position.height": 570}))
    assert layout(failing)["status"] == "fail" and failing["passed"] is False
    monkeypatch.setenv("ARGUS_VISUAL_TYPES", str(tmp_path / "absent.json"))
    named_but_absent = verdict_for(tmp_path / "c", good_page())
    assert layout(named_but_absent)["status"] == "error"  # a wrong path is bad input (exit 2)


def test_a_broken_layout_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "pages" / "p1").mkdir(parents=True)
    (tmp_path / "pages" / "p1" / "page.json").write_text("{broken")
    (tmp_path / "referee.json").write_text(json.dumps({"layout": "pages/p1"}))
    verdict = referee(tmp_path / "referee.json", tmp_path).to_json()
    assert layout(verdict) == {"name": "layout", "status": "error", "measured": {"linter_exit": 2}}


def test_schema_drift_is_a_loud_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_module, "LINT_SCHEMA_VERSION", 2)
    verdict = verdict_for(tmp_path, good_page())
    assert layout(verdict)["status"] == "error" and layout(verdict)["measured"]["schema_drift"]
    assert any("schema_version" in note for note in verdict["notes"])


def test_a_forged_degraded_exit_with_errors_is_a_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    envelope = {"schema_version": 1, "exit_code": 3, "summary": {"errors": 2, "warnings": 0}}

    def forged(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(args, 3, json.dumps(envelope), "")

    monkeypatch.setattr(gate_module.subprocess, "run", forged)
    assert gate_module.layout_gate(tmp_path, tmp_path).status == "fail"
    envelope["exit_code"] = 0  # the envelope and the exit code disagree
    assert gate_module.layout_gate(tmp_path, tmp_path).status == "error"


def test_the_linters_one_file_page_is_refereed_like_a_pbir_folder(tmp_path: Path) -> None:
    for name, page in (("good", good_page()), ("bad", variant(table={"visual.visualType": "x"}))):
        write_inline(tmp_path / f"{name}.json", page)
        (tmp_path / f"{name}-referee.json").write_text(json.dumps({"layout": f"{name}.json"}))
    good = referee(tmp_path / "good-referee.json", tmp_path).to_json()
    assert layout(good)["status"] == "pass"
    bad = referee(tmp_path / "bad-referee.json", tmp_path).to_json()
    assert layout(bad)["status"] == "fail" and layout(bad)["measured"]["checks"] == ["check-7"]
