"""What a verdict depends on is pinned: a run under a configuration weaker than the one a person
accepted signs nothing off and names what was weakened, until a person accepts it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from argus.cli import main
from argus.config import load_config
from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.loop.guard.config_pin import BASELINE
from argus.loop.guard.pin_rules import (
    RULES,
    Weaker,
    pinned_settings,
    rule_for,
    settings_digest,
    weakenings,
)
from argus.loop.records.signoff import load_records
from argus.loop.records.status import Status, exit_code
from argus.loop.terminal.summary import render_summary
from argus.report import write_report
from argus.schemas import load_rubric
from argus.schemas.rubric import default_rubric_text
from argus.spec import load_spec
from argus.store import RunStore
from tests.loop.fakeapp import FEATURE, FakeServices, make_repo

WEAK_TOML = '[judge]\nbackend = "metric"\n[gates]\nenabled = ["token_contrast"]\n'


def _run(root: Path, mode: Mode = Mode.HEADLESS) -> RunOutcome:
    return run_loop(
        LoopOptions(feature=FEATURE, root=root, mode=mode), services_factory=FakeServices
    )


def _spec_dir(root: Path) -> Path:
    return root / "argus" / "specs" / FEATURE


def _write_rubric(root: Path, threshold: float) -> None:
    rubric = json.loads(default_rubric_text())
    for dimension in rubric["dimensions"].values():
        dimension["threshold"] = threshold
    (_spec_dir(root) / "rubric.json").write_text(json.dumps(rubric))


def _settings(root: Path) -> dict[str, Any]:
    spec = load_spec(_spec_dir(root) / "spec.json")
    return pinned_settings(load_config(root), load_rubric(spec.rubric_path), spec)


# -- what "weaker" means, setting by setting ----------------------------------------------------


@pytest.mark.parametrize(
    ("key", "old", "weaker", "stronger"),
    [
        ("gates.target.list", ["axe", "console"], ["console"], ["axe", "console", "lint"]),
        ("gates.commands", ["lint"], [], ["build", "lint"]),
        ("gates.max_console_errors", 0, 2, 0),
        ("gates.console.ignore", [], ["favicon"], []),
        ("gates.rendered_contrast.level", "AAA", "AA", "AAA"),
        ("gates.axe.tags", ["wcag2a", "wcag2aa"], ["wcag2a"], ["wcag2a", "wcag2aa", "wcag21a"]),
        ("gates.axe.impact_floor", "serious", "critical", "minor"),
        ("gates.axe.disable_rules", ["region"], ["color-contrast", "region"], []),
        ("gates.axe.best_practice_rules", ["tabindex"], [], ["empty-heading", "tabindex"]),
        ("gates.axe.include", [], ["main"], []),
        ("gates.axe.include", ["main", "nav"], ["main"], ["footer", "main", "nav"]),
        ("gates.axe.exclude", [], ["#app"], []),
        ("gates.token_compliance.properties", ["color", "gap"], ["color"], ["color", "gap", "x"]),
        ("gates.token_compliance.allow", ["transparent"], ["red", "transparent"], []),
        ("gates.token_compliance.delta_e", 1.0, 5.0, 0.5),
        ("gates.snapshot.threshold", 0.1, 0.5, 0.05),
        ("gates.snapshot.max_diff_pixels", 0, 100, 0),
        ("gates.snapshot.max_diff_pixel_ratio", 0.0, 0.2, 0.0),
        ("gates.snapshot.max_window_density", 0.0, 0.3, 0.0),
        ("gates.snapshot.update", "missing", "all", "none"),
        ("gates.snapshot.update", "changed", "all", "missing"),
        ("gates.lighthouse.accessibility", 90.0, 50.0, 95.0),
        ("gates.tell_tales.ignore", [], ["app.js"], []),
        (
            "rubric.dimensions",
            ["hierarchy", "typography"],
            ["typography"],
            ["a", "hierarchy", "typography"],
        ),
        ("rubric.threshold.typography", 0.8, 0.0, 0.9),
        ("rubric.consecutive_passes_required", 2, 1, 3),
    ],
)
def test_each_setting_is_weaker_one_way_only(
    key: str, old: Any, weaker: Any, stronger: Any
) -> None:
    (line,) = weakenings({key: old}, {key: weaker})
    assert line.startswith(f"{key}: ")
    assert weakenings({key: old}, {key: stronger}) == []
    assert weakenings({key: old}, {key: old}) == []


@pytest.mark.parametrize(
    ("key", "old", "new", "said"),
    [
        ("gates.target.list", ["axe", "console", "lint"], ["lint"], "removed axe, console"),
        ("gates.console.ignore", ["a"], ["a", "b"], "added b"),
        ("gates.axe.include", [], ["main"], "narrowed from everything to [main]"),
        ("gates.max_console_errors", 0, 3, "raised from 0 to 3"),
        ("rubric.threshold.typography", 1.0, 0.0, "lowered from 1.0 to 0.0"),
        ("gates.snapshot.threshold", None, 0.2, "changed from unset to 0.2"),
        ("judge.command", "", "cat judge.json", "changed from  to cat judge.json"),
        ("judge.backend", "metric", "command", "changed from metric to command"),
        # Naming a framework adds its mask preset to every snapshot comparison.
        ("framework", "", "streamlit", "changed from  to streamlit"),
        ("gates.commands.lint", "ruff check", "true", "changed from ruff check to true"),
        ("gates.source_tokens.paths", ["src/**"], ["src/a.css"], "changed from [src/**]"),
    ],
)
def test_a_weakening_says_what_moved(key: str, old: Any, new: Any, said: str) -> None:
    (line,) = weakenings({key: old}, {key: new})
    assert said in line


def test_a_setting_without_a_rule_is_weakened_by_any_change() -> None:
    assert rule_for("gates.new_knob") is Weaker.CHANGED
    assert weakenings({"gates.new_knob": 1}, {"gates.new_knob": 0}) == [
        "gates.new_knob: changed from 1 to 0"
    ]
    # A value that cannot be ordered (a word where a number was) is a change, never stronger.
    assert weakenings({"gates.max_console_errors": 0}, {"gates.max_console_errors": "x"})


def test_every_pinned_setting_has_its_own_rule(tmp_path: Path) -> None:
    """The settings the loop pins are all named in RULES: none falls back by accident."""
    import fnmatch

    settings = _settings(make_repo(tmp_path, []))
    assert "gates.target.list" in settings and "rubric.threshold.typography" in settings
    for key in settings:
        assert key in RULES or any(fnmatch.fnmatchcase(key, p) for p in RULES), key


def test_the_settings_name_the_target_s_own_gates_the_commands_and_lighthouse(
    tmp_path: Path,
) -> None:
    root = make_repo(tmp_path, [])
    spec_path = _spec_dir(root) / "spec.json"
    spec = json.loads(spec_path.read_text())
    spec["targets"][0]["gates"] = ["console", "axe"]
    spec_path.write_text(json.dumps(spec))
    (root / "argus.toml").write_text(
        '[judge]\nbackend = "metric"\n'
        '[gates]\nenabled = ["token_contrast"]\n'
        '[gates.commands.lint]\ncommand = "ruff check"\n'
        '[gates.commands.build]\ncommand = "make"\n'
        "[gates.lighthouse]\naccessibility = 95\nseo = 70.5\n"
    )
    settings = _settings(root)
    assert settings["gates.target.list"] == ["axe", "console"]  # its own list, not `enabled`
    assert settings["gates.commands"] == ["build", "lint"]
    assert (settings["gates.commands.build"], settings["gates.commands.lint"]) == (
        "make",
        "ruff check",
    )
    lighthouse = {k: v for k, v in settings.items() if k.startswith("gates.lighthouse.")}
    assert lighthouse == {
        "gates.lighthouse.accessibility": 95.0,
        "gates.lighthouse.performance": 80.0,
        "gates.lighthouse.best-practices": 80.0,
        "gates.lighthouse.seo": 70.5,
    }


def test_the_settings_digest_is_the_sha256_of_their_compact_sorted_json() -> None:
    # What a run records and a person accepts: it must not move between versions of Argus.
    settings = {"b": [1, "x"], "a": {"d": None, "c": 0.5}}
    compact = b'{"a":{"c":0.5,"d":null},"b":[1,"x"]}'
    assert settings_digest(settings) == hashlib.sha256(compact).hexdigest()
    assert settings_digest({"a": 1}) != settings_digest({"a": 2})


@pytest.mark.parametrize(
    ("key", "old", "new", "said"),
    [
        # A recorded value of another type than the setting's is a change, never a crash.
        ("gates.axe.tags", ["wcag2a"], None, "changed from [wcag2a] to unset"),
        ("gates.axe.exclude", "#app", ["#app"], "changed from #app to [#app]"),
        ("gates.axe.impact_floor", ["serious"], "minor", "changed from [serious] to minor"),
        ("gates.rendered_contrast.level", {"AAA": 1}, "AA", "changed from {'AAA': 1} to AA"),
    ],
)
def test_a_value_of_another_type_is_a_change(key: str, old: Any, new: Any, said: str) -> None:
    assert weakenings({key: old}, {key: new}) == [f"{key}: {said}"]


def test_whole_numbers_are_compared_exactly() -> None:
    # Past 2**53 two whole numbers can share a float: one lower is still lowered.
    key = "rubric.consecutive_passes_required"
    big = 2**53
    assert weakenings({key: big + 1}, {key: big}) == [f"{key}: lowered from {big + 1} to {big}"]
    assert weakenings({key: big}, {key: big + 1}) == []


def test_settings_either_side_lacks_are_not_compared() -> None:
    assert weakenings({"gates.target.old": ["axe"]}, {"gates.target.new": []}) == []


# -- the loop ------------------------------------------------------------------------------------


def test_the_first_run_records_its_config_as_the_baseline_and_says_so(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    outcome = _run(root)
    assert outcome.status is Status.DONE
    assert any("first run" in n and "baseline" in n for n in outcome.notes)
    with RunStore.open(root) as store:
        (event,) = [e for e in store.events(kind="note") if e.payload.get("type") == BASELINE]
    assert event.payload["settings"] == _settings(root)
    run = json.loads((_spec_dir(root) / ".argus-runs" / "run.json").read_text())
    assert run["config_pin"]["baseline"] is True
    # The second run compares with it and has nothing to say.
    again = _run(root)
    assert again.status is Status.DONE and not any("config" in n for n in again.notes)


def test_a_weakened_config_is_not_signed_off_until_a_person_accepts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repo(tmp_path, [])
    assert _run(root).status is Status.DONE  # the baseline: every gate, thresholds 1
    signed = len(load_records(_spec_dir(root) / ".argus-runs" / "signoff.json"))
    (root / "argus.toml").write_text(WEAK_TOML)  # gates cut to token_contrast
    _write_rubric(root, 0)  # rubric thresholds 0

    outcome = _run(root)
    assert outcome.status is Status.NEEDS_CONTEXT and exit_code(outcome.status) == 3
    assert outcome.views == ()  # nothing ran, nothing was signed off
    assert len(load_records(_spec_dir(root) / ".argus-runs" / "signoff.json")) == signed
    summary = render_summary(outcome)
    assert "config weaker than the one accepted" in summary
    assert "gates.target.list: removed a11y_ids, axe, build, console" in summary
    assert "rubric.threshold.typography: lowered from 1.0 to 0.0" in summary
    assert "argus approve --config --feature demo" in summary
    page = write_report(root, FEATURE).read_text(encoding="utf-8")
    assert "gates.target.list: removed a11y_ids" in page
    assert "rubric.threshold.hierarchy: lowered from 1.0 to 0.0" in page
    run = json.loads((_spec_dir(root) / ".argus-runs" / "run.json").read_text())
    assert run["final_status"] == "NEEDS_CONTEXT" and run["config_pin"]["weakened"]

    # Asking again changes nothing; a person accepting it does.
    assert _run(root).status is Status.NEEDS_CONTEXT
    capsys.readouterr()
    assert main(["approve", "--config", "--feature", FEATURE, "--root", str(root)]) == 0
    said = capsys.readouterr().out
    assert "accepted the configuration of demo" in said and "removed a11y_ids" in said
    with RunStore.open(root) as store:
        (decision,) = [
            e for e in store.events(kind="human_decision") if e.payload["action"] == "accept_config"
        ]
    assert decision.payload["via"] == "cli" and decision.payload["weakened"]
    after = _run(root)
    assert after.status is Status.DONE
    assert len(load_records(_spec_dir(root) / ".argus-runs" / "signoff.json")) == signed + 1


def test_a_stronger_config_signs_off_as_before(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    _write_rubric(root, 0.5)
    assert _run(root).status is Status.DONE
    _write_rubric(root, 1)  # every threshold raised
    outcome = _run(root)
    assert outcome.status is Status.DONE
    assert not any("weaker" in n for n in outcome.notes)


def test_one_weakened_setting_among_stronger_ones_still_needs_a_person(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    assert _run(root).status is Status.DONE
    (root / "argus.toml").write_text(
        '[judge]\nbackend = "metric"\n[gates]\nmax_console_errors = 1\n'
        "[gates.lighthouse]\naccessibility = 100\n"
    )
    outcome = _run(root)
    assert outcome.status is Status.NEEDS_CONTEXT
    (note,) = outcome.notes
    assert "gates.max_console_errors: raised from 0 to 1" in note
    assert "lighthouse" not in note


def test_report_only_is_held_to_the_configuration_a_person_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    assert _run(root).status is Status.DONE  # the project store's baseline
    (root / "argus.toml").write_text(WEAK_TOML)
    outcome = _run(root, Mode.REPORT_ONLY)
    assert outcome.status is Status.NEEDS_CONTEXT
    assert "gates.target.list: removed" in outcome.notes[0]
    # report-only wrote nothing to the project store
    with RunStore.open(root) as store:
        assert not [r for r in store.runs(FEATURE) if r.mode == "report-only"]


def test_approve_config_takes_only_the_feature(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repo(tmp_path, [])
    code = main(
        ["approve", "--config", "--feature", FEATURE, "--target", "list", "--root", str(root)]
    )
    assert code == 2
    assert "--config accepts the whole feature" in capsys.readouterr().err
    assert main(["approve", "--feature", FEATURE, "--root", str(root)]) == 2
    assert "--target is required" in capsys.readouterr().err


def test_an_acceptance_that_does_not_name_what_it_accepted_is_ignored(tmp_path: Path) -> None:
    from argus.loop.guard.config_pin import accepted_pin
    from argus.store.model import Event

    root = make_repo(tmp_path, [])
    assert _run(root).status is Status.DONE  # the baseline
    weak = {**_settings(root), "gates.max_console_errors": 9}
    with RunStore.open(root) as store:
        baseline = accepted_pin(store, FEATURE)
        assert baseline is not None and baseline.by.startswith("the first run ")
        forged = {"action": "accept_config", "settings": weak, "sha256": "0" * 64, "by": "x"}
        store.append(Event("human_decision", FEATURE, payload=forged))
        assert accepted_pin(store, FEATURE) == baseline  # the digest does not match: ignored
        store.append(Event("human_decision", FEATURE, payload={"action": "accept_config"}))
        assert accepted_pin(store, FEATURE) == baseline
