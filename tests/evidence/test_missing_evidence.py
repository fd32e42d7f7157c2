"""Evidence that is missing, empty or self-contradicting is never green (issue 12).

Each case is something that passed before: an empty axe.json or console.json, a sensed
directory that cannot show which view it holds, a gate result in which nothing ran, a referee
that shipped on a lone fidelity score, and a duplicate key where the last value won.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.referee.verdict import referee
from argus.spec import View
from tests.conftest import RunArgus
from tests.gates.test_cli_gates import VIEW, project
from tests.support.sensed import seal_sensed
from tests.verdict.helpers import gate_result, verdict

SENSED_VIEW = View("habits", "list", "populated", "light")


def _gate(run_argus: RunArgus, root: Path, sensed: Path) -> tuple[int, dict[str, Any], str]:
    done = run_argus("gates", *VIEW, "--sensed", str(sensed), "--json", cwd=root)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}, done.stderr


@pytest.mark.parametrize("name", ["axe.json", "console.json"])
def test_an_empty_sensed_document_is_an_error_never_a_pass(
    tmp_path: Path, run_argus: RunArgus, name: str
) -> None:
    root, sensed = project(tmp_path)
    (sensed / name).write_text("{}")
    seal_sensed(sensed, SENSED_VIEW)  # as the sensor wrote it
    code, result, stderr = _gate(run_argus, root, sensed)
    gate = name.removesuffix(".json")
    assert code == 1, stderr
    assert result["gates"][gate] == "error"
    assert result["all_green"] is False


@pytest.mark.parametrize(
    ("key", "doc"),
    [("page_errors", {"messages": []}), ("messages", {"page_errors": []})],
)
def test_a_console_capture_missing_one_list_is_an_error(
    tmp_path: Path, run_argus: RunArgus, key: str, doc: dict[str, Any]
) -> None:
    root, sensed = project(tmp_path)
    (sensed / "console.json").write_text(json.dumps(doc))
    seal_sensed(sensed, SENSED_VIEW)
    code, result, _ = _gate(run_argus, root, sensed)
    assert (code, result["gates"]["console"]) == (1, "error")
    assert key in result["details"]["console"]["summary"]


@pytest.mark.parametrize(
    "meta",
    [None, "", "null", "[]", "{}", '{"view": "list-populated-light"}', '{"view": null}'],
    ids=["missing", "empty", "null", "array", "no-view", "view-a-string", "view-null"],
)
def test_sensed_files_that_cannot_show_their_view_are_refused(
    tmp_path: Path, run_argus: RunArgus, meta: str | None
) -> None:
    root, sensed = project(tmp_path)
    if meta is None:
        (sensed / "meta.json").unlink()
    else:
        (sensed / "meta.json").write_text(meta)
    done = run_argus("gates", *VIEW, "--sensed", str(sensed), cwd=root)
    assert done.returncode == 2, done.stdout
    assert len(done.stderr.strip().splitlines()) == 1 and "meta.json" in done.stderr
    assert not (root / "argus/specs/habits/.argus-runs").exists() or not any(
        (root / "argus/specs/habits/.argus-runs").rglob("gate-result.json")
    )


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_verdict_check_refuses_a_gate_result_where_no_gate_ran(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    path = _write(tmp_path, "g.json", gate_result({}))
    done = run_argus("verdict", "check", "--gate", str(path), cwd=tmp_path)
    assert done.returncode == 2 and "all green" not in done.stdout
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_new_snapshot_baseline_alone_is_not_green(tmp_path: Path, run_argus: RunArgus) -> None:
    path = _write(tmp_path, "g.json", gate_result({"snapshot": "new", "axe": "skip"}))
    done = run_argus("verdict", "check", "--gate", str(path), "--json", cwd=tmp_path)
    assert done.returncode == 1 and json.loads(done.stdout)["all_green"] is False
    both = _write(tmp_path, "h.json", gate_result({"snapshot": "new", "axe": "pass"}))
    done = run_argus("verdict", "check", "--gate", str(both), cwd=tmp_path)
    assert done.returncode == 0


def test_verdict_check_never_calls_an_all_skip_result_green(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    path = _write(tmp_path, "g.json", gate_result({"build": "skip", "axe": "skip"}))
    done = run_argus("verdict", "check", "--gate", str(path), "--json", cwd=tmp_path)
    assert done.returncode == 1
    assert json.loads(done.stdout)["all_green"] is False


def test_referee_refuses_an_empty_gate_result(tmp_path: Path) -> None:
    _write(tmp_path, "g.json", gate_result({}))
    config = _write(tmp_path, "referee.json", {"gates": "g.json"})
    with pytest.raises(InputError, match="'gates' is empty"):
        referee(config, tmp_path)


def test_referee_calls_an_all_skip_gate_result_an_error(tmp_path: Path) -> None:
    _write(tmp_path, "g.json", gate_result({"build": "skip"}))
    _write(tmp_path, "ssim.json", {"ssim_score": 0.99})
    config = _write(tmp_path, "referee.json", {"gates": "g.json", "ssim": "ssim.json"})
    result = referee(config, tmp_path)
    gates = {g.name: g.status for g in result.gates}
    assert gates["gates"] == "error"
    assert (result.passed, result.next_action, result.exit_code) == (False, "fix-gates", 1)


def test_referee_never_ships_on_a_lone_fidelity_score(tmp_path: Path, run_argus: RunArgus) -> None:
    _write(tmp_path, "ssim.json", {"ssim_score": 0.99})
    (tmp_path / ".git").mkdir()
    config = _write(tmp_path, "referee.json", {"ssim": "ssim.json"})
    done = run_argus("referee", str(config), "--root", str(tmp_path), cwd=tmp_path)
    out = json.loads(done.stdout)
    assert out["next_action"] != "ship" and out["passed"] is None
    assert out["next_action"] == "capture-runtime-evidence"


def test_referee_ships_when_function_and_fidelity_both_passed(tmp_path: Path) -> None:
    _write(tmp_path, "ssim.json", {"ssim_score": 0.99})
    _write(tmp_path, "g.json", gate_result({"axe": "pass", "build": "skip"}))
    config = _write(tmp_path, "referee.json", {"gates": "g.json", "ssim": "ssim.json"})
    result = referee(config, tmp_path)
    assert (result.passed, result.next_action) == (True, "ship")


# -- duplicate keys: the last value must not silently win ---------------------------------


def test_a_duplicate_dimension_in_a_verdict_is_bad_input(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    raw = verdict({"accessibility": 0})
    failing = json.dumps(raw["dimensions"]["accessibility"])
    passing = json.dumps({**raw["dimensions"]["accessibility"], "score": 1})
    text = json.dumps(raw).replace(
        f'"accessibility": {failing}', f'"accessibility": {failing}, "accessibility": {passing}'
    )
    assert text.count('"accessibility"') == 2
    path = _write(tmp_path, "verdict.json", text)
    done = run_argus("verdict", "check", str(path), cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert "duplicate key 'accessibility'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_duplicate_gate_in_a_gate_result_is_bad_input(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    text = '{"feature": "habits", "target": "list", "gates": {"axe": "fail", "axe": "pass"}}'
    path = _write(tmp_path, "g.json", text)
    done = run_argus("verdict", "check", "--gate", str(path), cwd=tmp_path)
    assert done.returncode == 2 and "duplicate key 'axe'" in done.stderr


def test_a_lighthouse_report_lacking_a_category_never_passes(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    from tests.support.habits import copy_habits

    root = copy_habits(tmp_path)
    view = ["--feature", "habits", "--target", "list", "--state", "empty", "--appearance", "light"]
    (root / "partial.json").write_text(json.dumps({"categories": {"seo": {"score": 1}}}))
    done = run_argus("lighthouse", *view, "--from-report", "partial.json", cwd=root)
    out = json.loads(done.stdout)
    assert done.returncode == 1 and out["status"] == "error"
    graded = {c["category"]: c["status"] for c in out["categories"]}
    assert graded["seo"] == "pass" and graded["accessibility"] == "not_captured"
