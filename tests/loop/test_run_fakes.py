"""The loop's logic on a fake app: convergence, freeze, budget, integrity, modes, HE-1/HE-2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.loop.engine import _endings
from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.loop.records.signoff import load_records
from argus.loop.records.status import Status, exit_code
from argus.store.runstore import RunStore
from tests.loop.fakeapp import (
    FEATURE,
    FakeServices,
    defects_of,
    implementer_command,
    make_repo,
    set_defects,
)
from tests.support.fsyncs import record_fsyncs

SERVICES: list[FakeServices] = []


def _factory(*args: Any) -> FakeServices:
    services = FakeServices(*args)
    SERVICES.append(services)
    return services


def _run(root: Path, mode: Mode = Mode.HEADLESS, **kwargs: Any) -> RunOutcome:
    SERVICES.clear()
    options = LoopOptions(feature=FEATURE, root=root, mode=mode, **kwargs)
    return run_loop(options, services_factory=_factory)


def _spec_dir(root: Path) -> Path:
    return root / "argus" / "specs" / FEATURE


def _outcomes(root: Path, slug: str = "list-a-light") -> list[dict[str, Any]]:
    view_dir = _spec_dir(root) / ".argus-runs" / slug
    found = sorted(view_dir.glob("iteration-*/outcome.json"), key=lambda p: int(p.parent.name[10:]))
    return [json.loads(p.read_text()) for p in found]


def gate(name: str, target: str, fixable: bool = True) -> dict[str, Any]:
    return {"name": name, "kind": "gate", "target": target, "fixable": fixable}


def dim(name: str, target: str, fixable: bool = True) -> dict[str, Any]:
    return {"name": name, "kind": "dimension", "target": target, "fixable": fixable}


def test_converges_fixing_gates_then_dimensions_and_signs_off(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path, [gate("bad-id", "a11y_ids"), dim("missing-row", "functional_correctness")]
    )
    outcome = _run(root, implementer=implementer_command())
    assert outcome.status is Status.DONE, outcome
    kinds = [o["kind"] for o in _outcomes(root)]
    # gates red -> fixed -> judged fail -> fixed -> judged pass -> unchanged confirm
    assert kinds == ["gates_red", "judged", "judged", "confirmed"]
    assert defects_of(root) == []
    (record,) = load_records(_spec_dir(root) / ".argus-runs" / "signoff.json")
    assert record["run_id"] == outcome.run_id
    assert record["iterations"] == 4
    assert record["human_spotcheck"] == {"status": "pending"}  # headless leaves it pending
    assert record["final_verdict"]["all_pass"] is True
    assert record["snapshot_baseline"] == f"argus/specs/{FEATURE}/__snapshots__/list-a-light.png"
    assert record["reference_source"] == "human"
    (view,) = outcome.views
    assert view.detail == (
        f"signed off after 4 iterations; snapshot baseline argus/specs/{FEATURE}/__snapshots__/"
        "list-a-light.png"
    )
    # The confirm did not call the judge: 2 judged iterations, 4 renders.
    assert SERVICES[0].calls["judge"] == 2
    assert SERVICES[0].calls["sense"] == 4


def test_the_probe_runs_only_on_iterations_the_loop_judges(tmp_path: Path) -> None:
    # Red gates, then two judged iterations, then a confirm the judge never sees: the
    # evidence only the judge reads is collected twice, each time right before it.
    root = make_repo(
        tmp_path, [gate("bad-id", "a11y_ids"), dim("missing-row", "functional_correctness")]
    )
    assert _run(root, implementer=implementer_command()).status is Status.DONE
    outcomes = _outcomes(root)
    assert [o["kind"] for o in outcomes] == ["gates_red", "judged", "judged", "confirmed"]
    assert ["probe" in o["timings"] for o in outcomes] == [False, True, True, False]
    assert SERVICES[0].order == ["probe", "judge", "probe", "judge"]


def test_the_evidence_a_sign_off_rests_on_is_flushed_before_it_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_repo(tmp_path, [])
    signoff = _spec_dir(root) / ".argus-runs" / "signoff.json"
    records_then: list[int] = []
    real_sync = _endings.sync_tree

    def sync_tree(folder: Path) -> None:
        records_then.append(len(load_records(signoff)))
        real_sync(folder)

    monkeypatch.setattr(_endings, "sync_tree", sync_tree)
    flushed = record_fsyncs(monkeypatch)
    assert _run(root).status is Status.DONE
    assert records_then == [0]  # once, and before the sign-off's record
    view_dir = (_spec_dir(root) / ".argus-runs" / "list-a-light").resolve()
    renders = sorted(view_dir.glob("iteration-*/render.png"))
    assert len(renders) == 2 and set(renders) <= set(flushed)


def test_no_edit_on_the_first_iteration_or_on_a_confirm(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    outcome = _run(root, implementer=implementer_command())
    assert outcome.status is Status.DONE
    assert (root / "prompts-seen.txt").read_text() == ""  # the implementer never ran
    assert [o["kind"] for o in _outcomes(root)] == ["judged", "confirmed"]


def test_the_unchanged_checks_method_reaches_the_outcome_and_the_events(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    outcome = _run(root, implementer=implementer_command())
    confirmed = _outcomes(root)[-1]
    assert confirmed["kind"] == "confirmed"
    assert (confirmed["unchanged"], confirmed["unchanged_method"]) == (True, "identical-bytes")
    with RunStore.open(root) as store:
        decisions = store.events(run_id=outcome.run_id, kind="decision")
    payload = decisions[-1].payload
    assert payload["unchanged_method"] == "identical-bytes" and payload["unchanged"] is True
    assert "unchanged_ratio" in payload


def test_prompt_names_only_the_failing_items_with_evidence(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dim("spacing", "layout_spacing")])
    _run(root, implementer=implementer_command())
    prompt = (root / "prompts-seen.txt").read_text()
    assert "`layout_spacing`:" in prompt  # its evidence fenced on the lines after it
    assert "\nfake evidence for layout_spacing (failing)\n" in prompt
    assert "JUDGE NOTES" not in prompt  # nothing else from the judge
    assert "fake evidence for typography" not in prompt  # no passing dimension
    assert "screenshot" not in prompt.lower()
    assert "The list shows every item of the fixture." in prompt  # spec.md criteria
    assert '"text": "#111111"' in prompt  # tokens
    assert f"argus/specs/{FEATURE}/spec.json" in prompt  # protected files named


def test_a_defect_the_implementer_cannot_fix_freezes_its_dimension(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dim("odd-hierarchy", "hierarchy", fixable=False)])
    outcome = _run(root, implementer=implementer_command())
    assert outcome.status is Status.DONE_WITH_CONCERNS
    (view,) = outcome.views
    assert "frozen: hierarchy" in view.concerns
    (record,) = load_records(_spec_dir(root) / ".argus-runs" / "signoff.json")
    assert record["concerns"] == ["frozen: hierarchy"]
    prompts = (root / "prompts-seen.txt").read_text().split("=====")
    # Asked to fix it until it froze (3 failing verdicts: 2 edits), never after.
    assert sum("`hierarchy`" in p for p in prompts) == 2


def test_budget_exhausted_is_blocked(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [gate("console", "console", fixable=False)])
    outcome = _run(root, implementer=implementer_command(), max_iterations=3)
    assert outcome.status is Status.BLOCKED
    assert outcome.views[0].end == "budget"
    assert len(_outcomes(root)) == 3
    assert load_records(_spec_dir(root) / ".argus-runs" / "signoff.json") == []


def test_unverified_dimension_signs_off_with_a_concern(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [{"name": "x", "kind": "abstain", "target": "visual_fidelity"}])
    outcome = _run(root, implementer=implementer_command())
    assert outcome.status is Status.DONE_WITH_CONCERNS
    assert "unverified: visual_fidelity" in outcome.views[0].concerns


def test_an_implementer_that_edits_the_spec_is_caught_and_undone(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [gate("bad-id", "a11y_ids")])
    spec_md = _spec_dir(root) / "spec.md"
    original = spec_md.read_text()
    outcome = _run(root, implementer=implementer_command("--tamper"), max_iterations=3)
    outcomes = _outcomes(root)
    assert outcomes[1]["kind"] == "integrity"
    assert outcomes[1]["integrity"]["modified"] == [f"argus/specs/{FEATURE}/spec.md"]
    assert outcomes[1]["integrity"]["restored"] is True
    assert outcomes[1]["passed"] is False
    assert spec_md.read_text() == original  # put back
    assert outcome.status is Status.BLOCKED  # it tampers every time: no sign-off
    prompts = (root / "prompts-seen.txt").read_text().split("=====")
    assert "changed protected files" in prompts[1]
    assert "`a11y_ids`" in prompts[1]  # still asked to fix the original failure


def test_implementer_crash_and_missing_status_are_recorded_not_fatal(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [gate("bad-id", "a11y_ids")])
    outcome = _run(root, implementer=implementer_command("--crash"), max_iterations=3)
    assert outcome.status is Status.BLOCKED
    second = _outcomes(root)[1]
    assert second["implementer"]["outcome"] == "crashed"
    assert second["kind"] == "gates_red"


def test_sensor_failure_is_the_render_pseudo_gate_not_a_build_gate(tmp_path: Path) -> None:
    # `build` is a gate a project configures (a command): a page that cannot be rendered must
    # not read as a failed build in a project that has none.
    root = make_repo(tmp_path, [{"name": "boom", "kind": "sensor", "target": "build"}])
    outcome = _run(root, mode=Mode.REPORT_ONLY)
    assert outcome.status is Status.BLOCKED  # no render: nothing was checked
    assert outcome.views[0].concerns == ("not rendered: the sensor failed, so no gate ran",)
    view_dir = _spec_dir(root) / ".argus-runs" / "report-only" / "list-a-light"
    gate_result = json.loads((view_dir / "iteration-1" / "gate-result.json").read_text())
    assert gate_result["gates"] == {"render": "fail"}
    assert "could not be rendered" in gate_result["details"]["render"]["summary"]
    assert gate_result["all_green"] is False
    outcome_json = _outcomes(root, "report-only/list-a-light")[0]
    assert outcome_json["red_gates"] == ["render"]


def test_no_implementer_configured_blocks_with_a_clear_reason(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [gate("bad-id", "a11y_ids")])
    outcome = _run(root)
    assert outcome.status is Status.BLOCKED
    assert "[implementer] command" in outcome.views[0].detail


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_report_only_writes_nothing_outside_the_run_directory(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [dim("spacing", "layout_spacing")])
    before = _tree(root)
    outcome = _run(root, mode=Mode.REPORT_ONLY, implementer=implementer_command())
    assert outcome.status is Status.FAILED  # a failing dimension reads as failed, not done
    assert "failing: layout_spacing" in outcome.views[0].concerns
    after = _tree(root)
    runs = f"argus/specs/{FEATURE}/.argus-runs/"
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    assert changed, "report-only wrote nothing at all"
    assert all(p.startswith(runs) for p in changed), sorted(changed)
    assert (root / "prompts-seen.txt").read_text() == ""  # no implementer
    assert len(_outcomes(root, "report-only/list-a-light")) == 1  # exactly one iteration


def test_report_only_with_a_red_gate_is_failed_exit_1(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [gate("bad-id", "a11y_ids")])
    outcome = _run(root, mode=Mode.REPORT_ONLY)
    assert outcome.status is Status.FAILED
    assert exit_code(outcome.status) == 1
    assert outcome.views[0].concerns == ("red gate: a11y_ids",)


def test_report_only_with_an_unverified_dimension_has_concerns(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [{"name": "x", "kind": "abstain", "target": "visual_fidelity"}])
    outcome = _run(root, mode=Mode.REPORT_ONLY)
    assert outcome.status is Status.DONE_WITH_CONCERNS


def test_report_only_of_a_clean_view_is_done_without_signoff(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    outcome = _run(root, mode=Mode.REPORT_ONLY)
    assert outcome.status is Status.DONE
    assert not (_spec_dir(root) / ".argus-runs" / "signoff.json").exists()


def test_missing_reference_needs_context_then_approval_continues(
    tmp_path: Path, run_argus: Any
) -> None:
    root = make_repo(tmp_path, [], reference="needed")
    outcome = _run(root)
    assert outcome.status is Status.NEEDS_CONTEXT
    assert outcome.views[0].end == "needs_reference"
    note = next(n for n in outcome.notes if n.startswith("HE-1"))
    command = f"argus approve --feature {FEATURE} --target list --state a --appearance light"
    assert command in note
    spec = json.loads((_spec_dir(root) / "spec.json").read_text())
    assert spec["targets"][0]["references"][0]["status"] == "candidate"
    candidate = _spec_dir(root) / ".argus-runs" / "candidates" / "list-a-light.png"
    assert candidate.is_file()
    # Rerunning before approval changes nothing: still waiting.
    assert _run(root).status is Status.NEEDS_CONTEXT

    done = run_argus(*command.split()[1:], cwd=root)
    assert done.returncode == 0, done.stderr
    spec = json.loads((_spec_dir(root) / "spec.json").read_text())
    entry = spec["targets"][0]["references"][0]
    assert (entry["status"], entry["source"]) == ("present", "candidate")
    assert (_spec_dir(root) / entry["file"]).is_file()
    assert not candidate.exists()

    outcome = _run(root)
    assert outcome.status is Status.DONE
    (record,) = load_records(_spec_dir(root) / ".argus-runs" / "signoff.json")
    assert record["reference_source"] == "candidate"


def test_report_only_with_a_missing_reference_reports_the_gap_only(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], reference="needed")
    before = _tree(root)
    outcome = _run(root, mode=Mode.REPORT_ONLY)
    assert outcome.status is Status.NEEDS_CONTEXT
    spec = json.loads((_spec_dir(root) / "spec.json").read_text())
    assert spec["targets"][0]["references"][0]["status"] == "needed"
    changed = {p for p, data in _tree(root).items() if before.get(p) != data}
    assert all(p.startswith(f"argus/specs/{FEATURE}/.argus-runs/") for p in changed)


def test_interactive_pauses_after_first_signoff_then_continues(
    tmp_path: Path, run_argus: Any
) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    first = _run(root, mode=Mode.INTERACTIVE)
    assert first.status is Status.NEEDS_CONTEXT
    assert first.paused
    assert [v.end for v in first.views] == ["signed_off", "waiting_for_spotcheck"]
    assert any(n.startswith("HE-2") for n in first.notes)
    # Without the spot-check, a rerun resumes the same run and still waits.
    again = _run(root, mode=Mode.INTERACTIVE)
    assert again.run_id == first.run_id and again.resumed
    assert again.status is Status.NEEDS_CONTEXT

    approve = run_argus("approve", "--feature", FEATURE, "--target", "list", cwd=root)
    assert approve.returncode == 0, approve.stderr
    assert "approved" in approve.stdout
    final = _run(root, mode=Mode.INTERACTIVE)
    assert final.run_id == first.run_id
    assert final.status is Status.DONE
    records = load_records(_spec_dir(root) / ".argus-runs" / "signoff.json")
    assert [r["state"] for r in records] == ["a", "b"]  # each once
    assert records[0]["human_spotcheck"]["status"] == "approved"
    assert records[1]["human_spotcheck"]["status"] == "pending"  # only the first pauses


def test_spotcheck_naming_a_wrong_dimension_is_a_concern(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [])
    assert _run(root, mode=Mode.INTERACTIVE).status is Status.NEEDS_CONTEXT
    wrong = run_argus(
        "approve", "--feature", FEATURE, "--target", "list", "--wrong", "hierarchy", cwd=root
    )
    assert wrong.returncode == 0, wrong.stderr
    outcome = _run(root, mode=Mode.INTERACTIVE)
    assert outcome.status is Status.DONE_WITH_CONCERNS
    assert "spot-check: the judge got hierarchy wrong" in outcome.views[0].concerns


def test_approve_rejects_an_unknown_dimension(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [])
    _run(root, mode=Mode.INTERACTIVE)
    bad = run_argus("approve", "--feature", FEATURE, "--target", "list", "--wrong", "x", cwd=root)
    assert bad.returncode == 2
    assert bad.stderr.startswith("argus: --wrong x: not a rubric dimension")
    assert len(bad.stderr.strip().splitlines()) == 1


def test_events_in_the_store_match_the_run(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [gate("bad-id", "a11y_ids")])
    outcome = _run(root, implementer=implementer_command())
    with RunStore.open(root) as store:
        events = store.events(run_id=outcome.run_id)
        (run,) = store.runs(feature=FEATURE)
    kinds = [e.kind for e in events]
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished"
    assert kinds.count("decision") == 3
    assert kinds.count("sign_off") == 1
    assert kinds.count("implementer") == 1
    assert kinds.count("gate_result") == 3
    assert kinds.count("verdict") == 1  # the confirm needs no verdict
    assert run.status == "DONE" and run.finished_at is not None


def test_a_new_run_after_a_finished_one_signs_off_again(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    first = _run(root)
    second = _run(root)
    assert first.run_id != second.run_id and not second.resumed
    records = load_records(_spec_dir(root) / ".argus-runs" / "signoff.json")
    assert [r["run_id"] for r in records] == [first.run_id, second.run_id]


def test_invalid_spec_is_blocked_with_the_reason(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    spec_path = _spec_dir(root) / "spec.json"
    spec = json.loads(spec_path.read_text())
    spec["targets"][0]["states"] = []
    spec_path.write_text(json.dumps(spec))
    outcome = _run(root)
    assert outcome.status is Status.BLOCKED
    assert "invalid spec" in outcome.notes[0]


def test_missing_adapter_sensor_is_blocked(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    spec_path = _spec_dir(root) / "spec.json"
    spec = json.loads(spec_path.read_text())
    spec["adapter"] = "ios"
    spec_path.write_text(json.dumps(spec))
    outcome = _run(root)
    assert outcome.status is Status.BLOCKED
    assert "argus/adapters/ios/sense.sh" in outcome.notes[0]


@pytest.mark.parametrize("mode", [Mode.HEADLESS, Mode.INTERACTIVE])
def test_set_defects_helper_roundtrip(tmp_path: Path, mode: Mode) -> None:
    # A sanity check of the fake itself: the implementer only removes named, fixable defects.
    root = make_repo(tmp_path, [dim("a", "typography")])
    set_defects(root, [dim("a", "typography"), dim("b", "hierarchy", fixable=False)])
    outcome = _run(root, mode=mode, implementer=implementer_command())
    assert [d["name"] for d in defects_of(root)] == ["b"]
    assert outcome.views[0].status is Status.DONE_WITH_CONCERNS


def test_implementer_reporting_blocked_stops_the_view(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [gate("bad-id", "a11y_ids", fixable=False)])
    outcome = _run(root, implementer=implementer_command("--say-blocked"))
    assert outcome.status is Status.BLOCKED
    (view,) = outcome.views
    assert view.end == "implementer_stopped"
    assert "reported BLOCKED" in view.detail
    assert len(_outcomes(root)) == 2  # asked once, not until the budget runs out


def test_candidate_kept_but_spec_not_marked_is_repaired(tmp_path: Path) -> None:
    # As if a loop was killed between keeping the candidate image and marking the spec.
    root = make_repo(tmp_path, [], reference="needed")
    candidate = _spec_dir(root) / ".argus-runs" / "candidates" / "list-a-light.png"
    candidate.parent.mkdir(parents=True)
    candidate.write_bytes(b"png")
    outcome = _run(root)
    assert outcome.status is Status.NEEDS_CONTEXT
    spec = json.loads((_spec_dir(root) / "spec.json").read_text())
    assert spec["targets"][0]["references"][0]["status"] == "candidate"
    assert SERVICES[0].calls["sense"] == 0  # the kept candidate is not rendered again


def test_two_edits_that_leave_the_render_identical_stop_the_view_early(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [gate("console", "console", fixable=False)])
    outcome = _run(root, implementer=implementer_command(), max_iterations=12)
    (view,) = outcome.views
    assert (outcome.status, view.end) == (Status.BLOCKED, "stagnant")
    outcomes = _outcomes(root)
    assert len(outcomes) == 3  # one render, two edits that changed nothing, then stop
    assert [o["render_identical_after_edit"] for o in outcomes] == [None, True, True]


def test_a_stale_baseline_stops_the_view_for_a_person_not_the_budget(tmp_path: Path) -> None:
    defect = {**gate("baseline", "snapshot", fixable=False), "stale": True}
    root = make_repo(tmp_path, [defect])
    outcome = _run(root, implementer=implementer_command(), max_iterations=12)
    (view,) = outcome.views
    assert (outcome.status, view.end) == (Status.NEEDS_CONTEXT, "stale_baseline")
    assert "may be stale" in view.detail
    assert len(_outcomes(root)) == 1  # no edit was asked to match the baseline
    assert (root / "prompts-seen.txt").read_text() == ""


def test_a_snapshot_diff_that_is_not_stale_goes_to_the_implementer(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [gate("moved", "snapshot")])
    outcome = _run(root, implementer=implementer_command())
    assert outcome.status is Status.DONE


def test_an_edit_that_fixes_something_invisible_is_progress_not_stagnation(
    tmp_path: Path,
) -> None:
    # Console errors and ids do not show in the render: fixing them one edit at a time leaves
    # it byte-identical, and that is progress.
    defects = [
        {**gate(name, target), "invisible": True}
        for name, target in (("e1", "console"), ("e2", "a11y_ids"), ("e3", "token_contrast"))
    ]
    root = make_repo(tmp_path, defects)
    outcome = _run(root, implementer=implementer_command(), max_iterations=12)
    assert outcome.status is Status.DONE
    identical = [o["render_identical_after_edit"] for o in _outcomes(root)]
    assert identical[:4] == [None, True, True, True]  # three invisible fixes in a row


def test_report_only_of_a_view_without_a_reference_by_design_is_done(tmp_path: Path) -> None:
    """One reference per target, as docs/spec.md recommends: the other view cannot be compared
    with one, which is said, not raised, so a clean report-only run can end green; the view
    that has a reference and still cannot be compared with it stays a concern."""
    root = make_repo(tmp_path, [], states=("a", "b"))
    outcome = _run(root, mode=Mode.REPORT_ONLY)
    assert outcome.status is Status.DONE and exit_code(outcome.status) == 0

    set_defects(root, [{"name": "x", "kind": "abstain", "target": "visual_fidelity"}])
    outcome = _run(root, mode=Mode.REPORT_ONLY)
    canonical, other = outcome.views
    assert canonical.status is Status.DONE_WITH_CONCERNS
    assert canonical.concerns == ("unverified: visual_fidelity",)
    assert other.status is Status.DONE and other.concerns == ()
    assert "visual_fidelity not compared: the view has no reference of its own" in other.detail
    assert outcome.status is Status.DONE_WITH_CONCERNS

    set_defects(root, [{"name": "y", "kind": "abstain", "target": "typography"}])
    outcome = _run(root, mode=Mode.REPORT_ONLY)
    assert [v.status for v in outcome.views] == [Status.DONE_WITH_CONCERNS] * 2


def test_a_sign_off_of_a_view_without_a_reference_by_design_has_no_concern(
    tmp_path: Path,
) -> None:
    """The same rule as report-only: the loop and the report give one answer."""
    root = make_repo(
        tmp_path, [{"name": "x", "kind": "abstain", "target": "visual_fidelity"}], states=("a", "b")
    )
    outcome = _run(root, implementer=implementer_command())
    canonical, other = outcome.views
    assert canonical.status is Status.DONE_WITH_CONCERNS
    assert canonical.concerns == ("unverified: visual_fidelity",)
    assert other.status is Status.DONE and other.concerns == ()
    assert "visual_fidelity not compared: the view has no reference of its own" in other.detail
    records = load_records(_spec_dir(root) / ".argus-runs" / "signoff.json")
    assert [r["concerns"] for r in records] == [["unverified: visual_fidelity"], []]
    # The verdict still says the dimension was not verified: reported, never passed.
    assert records[1]["final_verdict"]["unverified_dimensions"] == ["visual_fidelity"]
