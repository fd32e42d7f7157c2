"""The loop guards its own ground: the project config and its run records are out of the
implementer's reach, and a sign-off is re-derived from the committed verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.loop.guard.config_guard import config_digest
from argus.loop.records.signoff import load_records
from argus.loop.records.status import Status
from argus.spec.model import View
from tests.loop.fake_implementer import forge_passes
from tests.loop.fakeapp import FEATURE, FakeServices, implementer_command, make_repo

RUNS = f"argus/specs/{FEATURE}/.argus-runs"


def _run(root: Path, mode: Mode = Mode.HEADLESS, factory: Any = FakeServices, **kw: Any) -> Any:
    options = LoopOptions(feature=FEATURE, root=root, mode=mode, **kw)
    outcome: RunOutcome = run_loop(options, services_factory=factory)
    return outcome


def _outcomes(root: Path, slug: str = "list-a-light") -> list[dict[str, Any]]:
    found = sorted(
        (root / RUNS / slug).glob("iteration-*/outcome.json"),
        key=lambda p: int(p.parent.name.removeprefix("iteration-")),
    )
    return [json.loads(p.read_text()) for p in found]


def _gate(target: str = "a11y_ids") -> dict[str, Any]:
    return {"name": "bad-id", "kind": "gate", "target": target, "fixable": True}


def _records(root: Path) -> list[dict[str, Any]]:
    return load_records(root / RUNS / "signoff.json")


# -- the project config -----------------------------------------------------------------------


def test_an_implementer_editing_argus_toml_is_caught_and_undone(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [_gate()])
    original = (root / "argus.toml").read_text()
    outcome = _run(root, implementer=implementer_command("--edit-config"), max_iterations=3)
    second = _outcomes(root)[1]
    assert second["kind"] == "integrity"
    assert second["integrity"]["modified"] == ["argus.toml"]
    assert second["integrity"]["restored"] is True
    assert (root / "argus.toml").read_text() == original
    assert outcome.status is Status.BLOCKED  # it cheats every time: never signed off


def _config_in_pyproject(root: Path) -> None:
    (root / "argus.toml").unlink()
    (root / "pyproject.toml").write_text(
        '[project]\nname = "demo"\n\n[tool.argus.judge]\nbackend = "metric"\n'
    )


def test_a_new_argus_toml_beside_a_pyproject_config_is_removed(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [_gate()])
    _config_in_pyproject(root)
    _run(root, implementer=implementer_command("--add-config"), max_iterations=2)
    second = _outcomes(root)[1]
    assert second["kind"] == "integrity"
    assert second["integrity"]["added"] == ["argus.toml"]
    assert not (root / "argus.toml").exists()


def test_an_edit_of_the_tool_argus_section_is_caught(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [_gate()])
    _config_in_pyproject(root)
    original = (root / "pyproject.toml").read_text()
    _run(root, implementer=implementer_command("--edit-config"), max_iterations=2)
    second = _outcomes(root)[1]
    assert second["kind"] == "integrity"
    assert second["integrity"]["modified"] == ["pyproject.toml"]
    assert (root / "pyproject.toml").read_text() == original


def test_config_digest_follows_the_effective_config_only(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    _config_in_pyproject(root)
    digest = config_digest(root)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('name = "demo"', 'name = "other"'))
    assert config_digest(root) == digest  # a dependency or name change is not the config
    pyproject.write_text(pyproject.read_text().replace('"metric"', '"command"'))
    assert config_digest(root) != digest
    changed = config_digest(root)
    (root / "argus.toml").write_text('[judge]\nbackend = "command"\n')
    assert config_digest(root) != changed  # argus.toml wins over [tool.argus]


def test_a_run_with_a_changed_config_is_not_resumed(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    first = _run(root, mode=Mode.INTERACTIVE)
    assert first.paused
    run = json.loads((root / RUNS / "run.json").read_text())
    assert run["config_sha256"] == config_digest(root)
    (root / "argus.toml").write_text('[judge]\nbackend = "metric"\ntimeout = 30\n')
    again = _run(root, mode=Mode.INTERACTIVE)
    assert again.status is Status.BLOCKED
    assert "project config (argus.toml) changed since run" in again.notes[0]
    assert "--new-run" in again.notes[0]
    fresh = _run(root, mode=Mode.INTERACTIVE, new_run=True)
    assert fresh.run_id != first.run_id and fresh.status is Status.NEEDS_CONTEXT


class _ConfigEditingServices(FakeServices):
    """As if something outside the implementer step changed the config mid-run."""

    def judge(self, view: View, sensed: Path, inputs: Any) -> Any:
        toml = self.spec.root / "argus.toml"
        toml.write_text(toml.read_text() + "# changed mid-run\n")
        return super().judge(view, sensed, inputs)


def test_a_config_changed_during_the_run_blocks_the_signoff(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    outcome = _run(root, factory=_ConfigEditingServices)
    assert outcome.status is Status.BLOCKED
    (view,) = outcome.views
    assert view.end == "signoff_refused"
    assert "argus.toml" in view.detail  # the protected-set check sees it first, and undoes it
    assert "changed mid-run" not in (root / "argus.toml").read_text()
    assert _records(root) == []


# -- the run records --------------------------------------------------------------------------


def test_forged_records_of_another_view_are_caught_and_removed(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [_gate()], states=("a", "b"))
    outcome = _run(root, implementer=implementer_command("--forge-records"), max_iterations=3)
    second = _outcomes(root)[1]
    assert second["kind"] == "integrity"
    assert f"{RUNS}/list-b-light/state.json" in second["integrity"]["added"]
    assert f"{RUNS}/list-b-light/iteration-2/outcome.json" in second["integrity"]["added"]
    # View b was then rendered and judged for real, not signed off on the forged files.
    assert [o["kind"] for o in _outcomes(root, "list-b-light")] == ["judged", "confirmed"]
    assert [r["state"] for r in _records(root)] == ["b"]
    assert outcome.views[0].status is Status.BLOCKED


def test_an_edited_verdict_of_an_earlier_iteration_is_put_back(tmp_path: Path) -> None:
    dim = {"name": "row", "kind": "dimension", "target": "typography", "fixable": True}
    root = make_repo(tmp_path, [dim])
    verdict = root / RUNS / "list-a-light" / "iteration-1" / "verdict.json"
    _run(root, implementer=implementer_command("--edit-verdict"), max_iterations=2)
    second = _outcomes(root)[1]
    assert second["kind"] == "integrity"
    assert second["integrity"]["modified"] == [f"{RUNS}/list-a-light/iteration-1/verdict.json"]
    assert "forged" not in verdict.read_text()


def _pause_with_b_waiting(root: Path, run_argus: Any) -> str:
    first = _run(root, mode=Mode.INTERACTIVE)
    assert first.paused
    approve = run_argus("approve", "--feature", FEATURE, "--target", "list", cwd=root)
    assert approve.returncode == 0, approve.stderr
    return str(first.run_id)


def test_a_forged_state_without_verdicts_is_not_signed_off(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    run_id = _pause_with_b_waiting(root, run_argus)
    forge_passes(root / RUNS / "list-b-light", run_id, "b")  # between two runs
    final = _run(root, mode=Mode.INTERACTIVE)
    b = next(v for v in final.views if v.view.state == "b")
    assert b.end == "signoff_refused" and b.status is Status.BLOCKED
    assert "iteration 1: no verdict.json" in b.detail
    assert [r["state"] for r in _records(root)] == ["a"]


def _forge_with_verdict(root: Path, run_id: str, verdict: dict[str, Any]) -> None:
    view_dir = root / RUNS / "list-b-light"
    forge_passes(view_dir, run_id, "b")
    (view_dir / "iteration-1" / "verdict.json").write_text(json.dumps(verdict))


def _copied_verdict(root: Path, **changes: Any) -> dict[str, Any]:
    source = root / RUNS / "list-a-light" / "iteration-1" / "verdict.json"
    data: dict[str, Any] = json.loads(source.read_text())
    data.update(changes)
    return data


def test_a_verdict_of_another_view_is_not_signed_off(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    run_id = _pause_with_b_waiting(root, run_argus)
    _forge_with_verdict(root, run_id, _copied_verdict(root))  # view a's verdict, as b's
    final = _run(root, mode=Mode.INTERACTIVE)
    b = next(v for v in final.views if v.view.state == "b")
    assert b.end == "signoff_refused"
    assert "verdict is for demo/list/a/light" in b.detail


def test_an_unnormalized_verdict_is_not_signed_off(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    run_id = _pause_with_b_waiting(root, run_argus)
    raw = _copied_verdict(root, state="b")
    for key in ("all_pass", "failed_dimensions", "unverified_dimensions", "corrections"):
        raw.pop(key)
    _forge_with_verdict(root, run_id, raw)
    final = _run(root, mode=Mode.INTERACTIVE)
    b = next(v for v in final.views if v.view.state == "b")
    assert b.end == "signoff_refused"
    assert "not a normalized verdict" in b.detail


# -- independence of the judge ----------------------------------------------------------------


def test_the_implementer_command_gets_its_model(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [_gate()])
    (root / "argus.toml").write_text(
        '[judge]\nbackend = "metric"\n\n[implementer]\nmodel = "claude-sonnet-4"\n'
    )
    outcome = _run(root, implementer=implementer_command("--model={model}"))
    assert outcome.status is Status.DONE
    assert "--model=claude-sonnet-4" in _outcomes(root)[1]["implementer"]["argv"]


def test_a_model_placeholder_without_a_model_is_blocked(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [_gate()])
    outcome = _run(root, implementer=implementer_command("--model={model}"))
    assert outcome.status is Status.BLOCKED
    assert "[implementer].model is empty" in outcome.notes[0]


def test_the_implementers_command_as_the_judge_is_blocked(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    command = implementer_command()
    same_agent = command.replace("{workdir} {prompt_file}", "").strip()
    (root / "argus.toml").write_text(f'[judge]\nbackend = "command"\ncommand = "{same_agent}"\n')
    outcome = _run(root, implementer=command)
    assert outcome.status is Status.BLOCKED
    assert "the implementer's own command" in outcome.notes[0]


# -- where a sign-off's reference came from ---------------------------------------------------


def test_a_view_without_its_own_reference_records_no_source(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    _run(root)
    sources = {r["state"]: r["reference_source"] for r in _records(root)}
    assert sources == {"a": "human", "b": None}  # b is not judged against a's reference


def test_a_reference_of_unknown_source_records_null_not_human(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    spec_path = root / f"argus/specs/{FEATURE}/spec.json"
    spec = json.loads(spec_path.read_text())
    del spec["targets"][0]["references"][0]["source"]
    spec_path.write_text(json.dumps(spec))
    _run(root)
    (record,) = _records(root)
    assert record["reference_source"] is None


def test_the_examples_reference_is_labelled_as_the_argus_render_it_is() -> None:
    from tests.support.habits import HABITS_DIR, HABITS_SPEC

    spec = json.loads((HABITS_DIR / HABITS_SPEC).read_text())
    (reference,) = spec["targets"][0]["references"]
    assert (reference["status"], reference["source"]) == ("present", "candidate")
    prose = (HABITS_DIR / HABITS_SPEC).with_name("spec.md").read_text()
    assert "approved candidate" in prose and "design reference" not in prose
