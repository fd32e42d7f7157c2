"""`argus verdict check` through the real CLI: exit codes and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RunArgus
from tests.verdict.helpers import gate_result, verdict


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def _missing(name: str) -> dict[str, Any]:
    raw = verdict()
    del raw["dimensions"][name]
    return raw


VERDICTS = [
    ("plain pass", verdict(), 0, "outcome: pass"),
    ("honest pass with self-report", verdict(all_pass=True, failed_dimensions=[]), 0, "pass"),
    ("failing dimension", verdict({"hierarchy": 0.5}), 1, "FAIL (hierarchy)"),
    ("unverified", verdict({"accessibility": None}), 1, "UNVERIFIED (accessibility)"),
    ("inconclusive", verdict(status="inconclusive", error="judge timed out"), 1, "INCONCLUSIVE"),
    ("pass claimed over a failure", verdict({"typography": 0}, all_pass=True), 1, "corrected"),
    ("failure hidden in a passing claim", verdict(all_pass=False), 1, "corrected"),
]


@pytest.mark.parametrize(("label", "raw", "code", "needle"), VERDICTS, ids=[v[0] for v in VERDICTS])
def test_verdict_exit_codes(
    run_argus: RunArgus, tmp_path: Path, label: str, raw: Any, code: int, needle: str
) -> None:
    path = _write(tmp_path, "verdict.json", raw)
    result = run_argus("verdict", "check", str(path), cwd=tmp_path)
    assert result.returncode == code, result.stderr
    assert needle in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_corrected_verdict_json_and_stderr(run_argus: RunArgus, tmp_path: Path) -> None:
    path = _write(tmp_path, "verdict.json", verdict({"typography": 0}, all_pass=True))
    result = run_argus("verdict", "check", str(path), "--json", cwd=tmp_path)
    assert result.returncode == 1
    out = json.loads(result.stdout)
    assert out["all_pass"] is False and out["failed_dimensions"] == ["typography"]
    assert out["corrections"] == ["all_pass: reported true, derived false"]
    assert "corrected all_pass: reported true, derived false" in result.stderr


MALFORMED = [
    ("missing dimension", _missing("hierarchy"), "hierarchy missing"),
    ("score 0.7", verdict({"typography": 0.7}), "score 0.7"),
    ("not json", "{nope", "not valid JSON"),
    (
        "wrong anchor",
        verdict()
        | {
            "dimensions": {
                **verdict()["dimensions"],
                "hierarchy": {"score": 1, "anchor": "reference", "evidence": "x"},
            }
        },
        "the rubric says",
    ),
]


@pytest.mark.parametrize(("label", "raw", "needle"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_verdict_is_exit_2_one_line(
    run_argus: RunArgus, tmp_path: Path, label: str, raw: Any, needle: str
) -> None:
    path = _write(tmp_path, "verdict.json", raw)
    result = run_argus("verdict", "check", str(path), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("argus: ") and needle in lines[0]
    assert str(path) in lines[0]
    assert result.stdout == ""


def test_missing_and_oversized_files(run_argus: RunArgus, tmp_path: Path) -> None:
    result = run_argus("verdict", "check", str(tmp_path / "nope.json"), cwd=tmp_path)
    assert result.returncode == 2 and "verdict not found" in result.stderr
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (5 * 1024 * 1024 + 1))
    result = run_argus("verdict", "check", str(big), cwd=tmp_path)
    assert result.returncode == 2 and "over the 5 MiB limit" in result.stderr


def test_feature_rubric_is_used_when_present(run_argus: RunArgus, tmp_path: Path) -> None:
    from argus.schemas.rubric import default_rubric_text

    (tmp_path / "argus.toml").write_text("")
    rubric = json.loads(default_rubric_text())
    rubric["dimensions"]["hierarchy"]["threshold"] = 0.5
    feature_dir = tmp_path / "argus" / "specs" / "habits"
    feature_dir.mkdir(parents=True)
    (feature_dir / "rubric.json").write_text(json.dumps(rubric))
    path = _write(tmp_path, "verdict.json", verdict({"hierarchy": 0.5}))
    assert run_argus("verdict", "check", str(path), cwd=tmp_path).returncode == 0
    strict = _write(tmp_path, "strict.json", json.loads(default_rubric_text()))
    result = run_argus("verdict", "check", str(path), "--rubric", str(strict), cwd=tmp_path)
    assert result.returncode == 1


GATES = [
    ("all green", gate_result({"axe": "pass", "build": "skip"}), 0, "all green"),
    ("red gate", gate_result({"axe": "fail"}), 1, "RED: axe"),
    ("snapshot diff", gate_result({"snapshot": "diff"}), 1, "RED: snapshot"),
    (
        "missing ids",
        gate_result({"a11y_ids": {"expected": 2, "present": 1, "missing": ["add-button"]}}),
        1,
        "add-button",
    ),
    ("green but claimed red", gate_result({"axe": "pass"}, all_green=False), 1, "corrected"),
]


@pytest.mark.parametrize(("label", "raw", "code", "needle"), GATES, ids=[g[0] for g in GATES])
def test_gate_exit_codes(
    run_argus: RunArgus, tmp_path: Path, label: str, raw: Any, code: int, needle: str
) -> None:
    path = _write(tmp_path, "gate-result.json", raw)
    result = run_argus("verdict", "check", "--gate", str(path), cwd=tmp_path)
    assert result.returncode == code, result.stderr
    assert needle in result.stdout + result.stderr


def test_gate_json_output(run_argus: RunArgus, tmp_path: Path) -> None:
    path = _write(tmp_path, "g.json", gate_result({"console": "error"}, all_green=True))
    result = run_argus("verdict", "check", "--gate", str(path), "--json", cwd=tmp_path)
    assert result.returncode == 1
    assert json.loads(result.stdout)["all_green"] is False


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ((), "needs VERDICT.json or --gate"),
        (("v.json", "--gate", "g.json"), "needs VERDICT.json or --gate"),
        (("--gate", "g.json", "--rubric", "r.json"), "--rubric applies to verdicts"),
    ],
)
def test_usage_errors(
    run_argus: RunArgus, tmp_path: Path, args: tuple[str, ...], needle: str
) -> None:
    result = run_argus("verdict", "check", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("argus: ")
    assert needle in result.stderr and len(result.stderr.strip().splitlines()) == 1
