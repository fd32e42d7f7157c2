"""`argus state` through the real CLI: the seed's loop_state steps, with our refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RunArgus
from tests.spec.project import make_project
from tests.verdict.helpers import gate_result, verdict

VIEW_ARGS = (
    "--feature",
    "habits",
    "--target",
    "list",
    "--state",
    "populated",
    "--appearance",
    "light",
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    make_project(tmp_path)  # habits: target list, states populated/empty, light/dark
    return tmp_path


def state_cmd(run_argus: RunArgus, repo: Path, step: str, *extra: str) -> tuple[int, Any, str]:
    result = run_argus("state", step, *VIEW_ARGS, "--json", *extra, cwd=repo)
    data = json.loads(result.stdout) if result.returncode == 0 else None
    return result.returncode, data, result.stderr


def write_verdict(
    repo: Path, iteration: int, scores: dict[str, Any] | None = None, **extra: Any
) -> str:
    path = repo / f"verdict-{iteration}.json"
    path.write_text(json.dumps(verdict(scores, iteration=iteration, **extra)))
    return str(path)


def test_two_passes_sign_off(run_argus: RunArgus, repo: Path) -> None:
    code, data, _ = state_cmd(run_argus, repo, "init", "--reference-source", "human")
    assert code == 0 and data["decision"]["next_action"] == "implement"
    state_file = repo / "argus/specs/habits/.argus-runs/list-populated-light/state.json"
    assert state_file.is_file()

    code, data, _ = state_cmd(run_argus, repo, "record", "--verdict", write_verdict(repo, 1))
    assert code == 0 and data["state"]["consecutive_passes"] == 1
    assert data["decision"]["next_action"] == "confirm"

    code, data, _ = state_cmd(run_argus, repo, "unchanged")
    assert code == 0 and data["decision"]["should_signoff"] is True

    code, data, _ = state_cmd(run_argus, repo, "show")
    assert code == 0 and data["state"]["iteration"] == 2


def test_record_normalizes_instead_of_trusting(run_argus: RunArgus, repo: Path) -> None:
    state_cmd(run_argus, repo, "init")
    lying = write_verdict(repo, 1, {"typography": 0}, all_pass=True, failed_dimensions=[])
    code, data, stderr = state_cmd(run_argus, repo, "record", "--verdict", lying)
    assert code == 0
    assert data["state"]["consecutive_passes"] == 0
    assert data["decision"]["fix_dimensions"] == ["typography"]
    # The correction is said out loud and kept with the state, not fixed silently.
    assert f"argus: {lying}: corrected all_pass: reported true, derived false" in stderr
    kept = data["state"]["last_verdict"]["corrections"]
    assert "all_pass: reported true, derived false" in kept
    _, shown, _ = state_cmd(run_argus, repo, "show")
    assert shown["state"]["last_verdict"]["corrections"] == kept


def test_unchanged_after_a_fail_is_refused(run_argus: RunArgus, repo: Path) -> None:
    state_cmd(run_argus, repo, "init")
    state_cmd(run_argus, repo, "record", "--verdict", write_verdict(repo, 1, {"hierarchy": 0}))
    code, _, stderr = state_cmd(run_argus, repo, "unchanged")
    assert code == 2
    assert stderr.startswith("argus: ") and "last step was fail" in stderr
    assert len(stderr.strip().splitlines()) == 1
    _, data, _ = state_cmd(run_argus, repo, "show")
    assert data["state"]["iteration"] == 1  # nothing written by the refused step


def test_replayed_verdict_is_refused(run_argus: RunArgus, repo: Path) -> None:
    state_cmd(run_argus, repo, "init")
    first = write_verdict(repo, 1)
    assert state_cmd(run_argus, repo, "record", "--verdict", first)[0] == 0
    code, _, stderr = state_cmd(run_argus, repo, "record", "--verdict", first)
    assert code == 2 and "record each verdict once" in stderr


def test_gate_fail_from_a_gate_result_or_names(run_argus: RunArgus, repo: Path) -> None:
    state_cmd(run_argus, repo, "init")
    gate = repo / "gate-result.json"
    gate.write_text(json.dumps(gate_result({"axe": "fail", "console": "pass", "snapshot": "diff"})))
    code, data, _ = state_cmd(run_argus, repo, "gate-fail", "--gate", str(gate))
    assert code == 0 and data["decision"]["red_gates"] == ["axe", "snapshot"]
    assert data["decision"]["next_action"] == "fix_gates"
    code, data, _ = state_cmd(run_argus, repo, "gate-fail", "--red", "sensor")
    assert code == 0 and data["state"]["red_gates"] == ["sensor"]
    green = repo / "green.json"
    green.write_text(json.dumps(gate_result({"axe": "pass"})))
    code, _, stderr = state_cmd(run_argus, repo, "gate-fail", "--gate", str(green))
    assert code == 2 and "every gate is green" in stderr
    code, _, stderr = state_cmd(run_argus, repo, "gate-fail")
    assert code == 2 and "needs --gate" in stderr


def test_budget_and_freeze_through_the_cli(run_argus: RunArgus, repo: Path) -> None:
    state_cmd(run_argus, repo, "init", "--max-iterations", "3")
    for n in (1, 2, 3):
        code, data, _ = state_cmd(
            run_argus,
            repo,
            "record",
            "--verdict",
            write_verdict(repo, n, {"hierarchy": 0, "typography": 0.5}),
        )
        assert code == 0
    decision = data["decision"]
    assert decision["frozen"] == ["typography", "hierarchy"]  # rubric order
    assert (
        decision["should_signoff"] is False
    )  # frozen-only failures converge, but one step is not two
    assert decision["budget_exhausted"] is True and decision["next_action"] == "stop_budget"
    code, _, stderr = state_cmd(run_argus, repo, "unchanged")
    assert code == 2 and "used its budget of 3" in stderr


def test_init_resumes_and_reset_starts_over(run_argus: RunArgus, repo: Path) -> None:
    state_cmd(run_argus, repo, "init")
    state_cmd(run_argus, repo, "gate-fail", "--red", "build")
    assert state_cmd(run_argus, repo, "init")[1]["state"]["iteration"] == 1
    assert state_cmd(run_argus, repo, "init", "--reset")[1]["state"]["iteration"] == 0


@pytest.mark.parametrize(
    ("step", "extra", "needle"),
    [
        ("show", (), "run 'argus state init' first"),
        ("record", ("--verdict", "nope.json"), "run 'argus state init' first"),
    ],
)
def test_steps_before_init_are_one_line_errors(
    run_argus: RunArgus, repo: Path, step: str, extra: tuple[str, ...], needle: str
) -> None:
    code, _, stderr = state_cmd(run_argus, repo, step, *extra)
    assert code == 2 and needle in stderr and len(stderr.strip().splitlines()) == 1


def test_corrupt_state_file_is_named(run_argus: RunArgus, repo: Path) -> None:
    state_cmd(run_argus, repo, "init")
    path = repo / "argus/specs/habits/.argus-runs/list-populated-light/state.json"
    path.write_text('{"feature": "habits", "iteration": ')
    code, _, stderr = state_cmd(run_argus, repo, "show")
    assert code == 2 and str(path) in stderr and "not valid JSON" in stderr


def test_bad_names_and_verdicts(run_argus: RunArgus, repo: Path) -> None:
    result = run_argus("state", "show", *VIEW_ARGS[:-1], "../../etc", cwd=repo)
    assert result.returncode == 2 and "not a plain name" in result.stderr
    state_cmd(run_argus, repo, "init")
    bad = repo / "bad.json"
    raw = verdict(iteration=1)
    del raw["dimensions"]["accessibility"]
    bad.write_text(json.dumps(raw))
    code, _, stderr = state_cmd(run_argus, repo, "record", "--verdict", str(bad))
    assert code == 2 and "accessibility missing" in stderr


def test_text_output(run_argus: RunArgus, repo: Path) -> None:
    result = run_argus("state", "init", *VIEW_ARGS, cwd=repo)
    assert result.returncode == 0
    assert "habits/list/populated/light" in result.stdout
    assert "next: implement" in result.stdout


@pytest.mark.parametrize(
    ("flag", "value", "needle"),
    [
        ("--feature", "nope", "no feature 'nope'"),
        ("--target", "grid", "'grid'"),
        ("--state", "loading", "no state 'loading'"),
        ("--appearance", "sepia", "no appearance 'sepia'"),
    ],
)
@pytest.mark.parametrize("step", ["init", "unchanged"])
def test_views_the_spec_does_not_have_are_refused(
    run_argus: RunArgus, repo: Path, step: str, flag: str, value: str, needle: str
) -> None:
    args = list(VIEW_ARGS)
    args[args.index(flag) + 1] = value
    result = run_argus("state", step, *args, cwd=repo)
    assert result.returncode == 2, result.stdout
    assert result.stderr.startswith("argus: ") and needle in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (repo / "argus/specs/habits/.argus-runs").exists()
    assert not (repo / "argus/specs/nope").exists()
